#!/usr/bin/env python3
"""Independent recomputation of fairdeal-crypto's derivations (run by crypto/tests/independent.rs).

Owns: a second implementation, in plain Python (hashlib and integers only), of everything the
golden vectors pin, written from the specifications rather than from the Rust code:

  * ristretto255 (RFC 9496 §4.3: SQRT_RATIO_M1, ENCODE, the Elligator MAP and the one-way map
    from 64 uniform bytes), Edwards25519 group law, ed25519 public keys (RFC 8032 §5.1.5);
  * the project's hashing (docs/PROTOCOL.md §5.0): a label then length-prefixed fields;
  * the SHA-512 shuffle stream, the Fisher-Yates permutation, the re-randomisers, the ElGamal
    secret, the card points M_c, the Schnorr and DLEQ proofs, deck hashes and the audit order.

The script first checks its ristretto255 against the RFC 9496 test vectors (Appendix A.1 small
multiples, A.3 one-way map) and exits non-zero if any differs. It then prints `name = hex`
lines; the Rust test compares each with the value the crate computes (and with the pinned
golden vectors). Nothing here imports or calls the Rust code.
"""

import hashlib
import sys

# ---------------------------------------------------------------- field and curve (RFC 9496 §4)

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493  # the group order ℓ
D = (-121665 * pow(121666, P - 2, P)) % P
SQRT_M1 = 19681161376707505956807079304988542015446066515923890162744021073123829784752
SQRT_AD_MINUS_ONE = 25063068953384623474111414158702152701244531502492656460079210482610430750235
INVSQRT_A_MINUS_D = 54469307008909316920995813868745141605393597292927456921205312896311721017578
ONE_MINUS_D_SQ = 1159843021668779879193775521855586647937357759715417654439879720876111806838
D_MINUS_ONE_SQ = 40440834346308536858101042469323190826248399146238708352240133220865137265952

# The constants as the RFC gives them, checked against their definitions (a = -1).
assert SQRT_M1 * SQRT_M1 % P == P - 1
assert SQRT_AD_MINUS_ONE * SQRT_AD_MINUS_ONE % P == (-D - 1) % P
assert INVSQRT_A_MINUS_D * INVSQRT_A_MINUS_D * (-1 - D) % P == 1
assert ONE_MINUS_D_SQ == (1 - D * D) % P
assert D_MINUS_ONE_SQ == (D - 1) * (D - 1) % P


def is_negative(x):
    return (x % P) & 1


def ct_abs(x):
    x %= P
    return (P - x) % P if is_negative(x) else x


def sqrt_ratio_m1(u, v):
    """(was_square, r) with r = +sqrt(u/v) or +sqrt(i*u/v) (RFC 9496 §4.2)."""
    u %= P
    v %= P
    r = (u * pow(v, 3, P)) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    check = v * r * r % P
    correct = check == u
    flipped = check == (-u) % P
    flipped_i = check == (-u * SQRT_M1) % P
    if flipped or flipped_i:
        r = r * SQRT_M1 % P
    return correct or flipped, ct_abs(r)


# Points are extended coordinates (X, Y, Z, T) with x = X/Z, y = Y/Z, xy = T/Z.
IDENTITY = (0, 1, 1, 0)


def add(p, q):
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = t1 * 2 * D * t2 % P
    d = z1 * 2 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def mul(k, p):
    out = IDENTITY
    while k:
        if k & 1:
            out = add(out, p)
        p = add(p, p)
        k >>= 1
    return out


def neg(p):
    x, y, z, t = p
    return ((-x) % P, y, z, (-t) % P)


def base_point():
    """The Ed25519 base point: y = 4/5, x non-negative."""
    y = 4 * pow(5, P - 2, P) % P
    ok, x = sqrt_ratio_m1(y * y - 1, D * y * y + 1)
    assert ok
    return (x, y, 1, x * y % P)


B = base_point()


def encode(p):
    """ristretto255 ENCODE (RFC 9496 §4.3.2)."""
    x0, y0, z0, t0 = p
    u1 = (z0 + y0) * (z0 - y0) % P
    u2 = x0 * y0 % P
    _, invsqrt = sqrt_ratio_m1(1, u1 * u2 * u2)
    den1 = invsqrt * u1 % P
    den2 = invsqrt * u2 % P
    z_inv = den1 * den2 * t0 % P
    ix0 = x0 * SQRT_M1 % P
    iy0 = y0 * SQRT_M1 % P
    enchanted = den1 * INVSQRT_A_MINUS_D % P
    rotate = is_negative(t0 * z_inv)
    x, y = (iy0, ix0) if rotate else (x0, y0)
    den_inv = enchanted if rotate else den2
    if is_negative(x * z_inv):
        y = -y
    s = ct_abs(den_inv * (z0 - y))
    return s.to_bytes(32, "little")


def elligator(t):
    """The MAP of RFC 9496 §4.3.4, from a field element."""
    r = SQRT_M1 * t * t % P
    u = (r + 1) * ONE_MINUS_D_SQ % P
    v = (-1 - r * D) * (r + D) % P
    was_square, s = sqrt_ratio_m1(u, v)
    s_prime = (-ct_abs(s * t)) % P
    s = s if was_square else s_prime
    c = P - 1 if was_square else r
    n = (c * (r - 1) * D_MINUS_ONE_SQ - v) % P
    w0 = 2 * s * v % P
    w1 = n * SQRT_AD_MINUS_ONE % P
    w2 = (1 - s * s) % P
    w3 = (1 + s * s) % P
    return (w0 * w3 % P, w2 * w1 % P, w1 * w3 % P, w0 * w2 % P)


def from_uniform_bytes(b):
    """The one-way map: two MAPs of the halves (top bit masked), added (RFC 9496 §4.3.4)."""
    assert len(b) == 64
    t1 = (int.from_bytes(b[:32], "little") & ((1 << 255) - 1)) % P
    t2 = (int.from_bytes(b[32:], "little") & ((1 << 255) - 1)) % P
    return add(elligator(t1), elligator(t2))


def edwards_compress(p):
    """Ed25519 point encoding (RFC 8032 §5.1.2): y with the sign of x in the top bit."""
    x, y, z, _ = p
    zi = pow(z, P - 2, P)
    x, y = x * zi % P, y * zi % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


# ---------------------------------------------------------------- RFC 9496 test vectors

# Appendix A.1: encodings of 0·B .. 4·B.
SMALL_MULTIPLES = [
    "0000000000000000000000000000000000000000000000000000000000000000",
    "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76",
    "6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919",
    "94741f5d5d52755ece4f23f044ee27d5d1ea1e2bd196b462166b16152a9d0259",
    "da80862773358b466ffadfe0b3293ab3d9fd53c5ea6c955358f568322daf6a57",
]

# Appendix A.3: the one-way map, input I (64 bytes) to output O.
ONE_WAY_MAP = [
    (
        "5d1be09e3d0c82fc538112490e35701979d99e06ca3e2b5b54bffe8b4dc772c1"
        "4d98b696a1bbfb5ca32c436cc61c16563790306c79eaca7705668b47dffe5bb6",
        "3066f82a1a747d45120d1740f14358531a8f04bbffe6a819f86dfe50f44a0a46",
    ),
    (
        "f116b34b8f17ceb56e8732a60d913dd10cce47a6d53bee9204be8b44f6678b27"
        "0102a56902e2488c46120e9276cfe54638286b9e4b3cdb470b542d46c2068d38",
        "f26e5b6f7d362d2d2a94c5d0e7602cb4773c95a2e5c31a64f133189fa76ed61b",
    ),
    (
        "8422e1bbdaab52938b81fd602effb6f89110e1e57208ad12d9ad767e2e25510c"
        "27140775f9337088b982d83d7fcf0b2fa1edffe51952cbe7365e95c86eaf325c",
        "006ccd2a9e6867e6a2c5cea83d3302cc9de128dd2a9a57dd8ee7b9d7ffe02826",
    ),
    (
        "ac22415129b61427bf464e17baee8db65940c233b98afce8d17c57beeb7876c2"
        "150d15af1cb1fb824bbd14955f2b57d08d388aab431a391cfc33d5bafb5dbbaf",
        "f8f0c87cf237953c5890aec3998169005dae3eca1fbb04548c635953c817f92a",
    ),
    (
        "165d697a1ef3d5cf3c38565beefcf88c0f282b8e7dbd28544c483432f1cec767"
        "5debea8ebb4e5fe7d6f6e5db15f15587ac4d4d4a1de7191e0c1ca6664abcc413",
        "ae81e7dedf20a497e10c304a765c1767a42d6e06029758d2d7e8ef7cc4c41179",
    ),
    (
        "a836e6c9a9ca9f1e8d486273ad56a78c70cf18f0ce10abb1c7172ddd605d7fd2"
        "979854f47ae1ccf204a33102095b4200e5befc0465accc263175485f0e17ea5c",
        "e2705652ff9f5e44d3e841bf1c251cf7dddb77d140870d1ab2ed64f1a9ce8628",
    ),
    (
        "2cdc11eaeb95daf01189417cdddbf95952993aa9cb9c640eb5058d09702c7462"
        "2c9965a697a3b345ec24ee56335b556e677b30e6f90ac77d781064f866a3c982",
        "80bd07262511cdde4863f8a7434cef696750681cb9510eea557088f76d9e5065",
    ),
    # Non-canonical field encodings of the halves map like their canonical values.
    (
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
        "1200000000000000000000000000000000000000000000000000000000000000",
        "304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f",
    ),
    (
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f",
    ),
    (
        "0000000000000000000000000000000000000000000000000000000000000080"
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f",
    ),
    (
        "0000000000000000000000000000000000000000000000000000000000000000"
        "1200000000000000000000000000000000000000000000000000000000000080",
        "304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f",
    ),
]


def check_rfc_vectors():
    for k, want in enumerate(SMALL_MULTIPLES):
        got = encode(mul(k, B)).hex()
        if got != want:
            sys.exit(f"RFC 9496 A.1: {k}·B encodes to {got}, not {want}")
    for i, o in ONE_WAY_MAP:
        got = encode(from_uniform_bytes(bytes.fromhex(i))).hex()
        if got != o:
            sys.exit(f"RFC 9496 A.3: {i} maps to {got}, not {o}")


# ---------------------------------------------------------------- the project's derivations


def absorb(h, label, fields):
    h.update(len(label).to_bytes(8, "little") + label)
    for f in fields:
        h.update(len(f).to_bytes(8, "little") + f)
    return h.digest()


def hash256(label, fields):
    return absorb(hashlib.sha256(), label, fields)


def hash512(label, fields):
    return absorb(hashlib.sha512(), label, fields)


def hash_scalar(label, fields):
    return int.from_bytes(hash512(label, fields), "little") % L


def sc(x):
    return (x % L).to_bytes(32, "little")


def u16(n):
    return n.to_bytes(2, "little")


def u32(n):
    return n.to_bytes(4, "little")


def card_point(c):
    # M_c = from_uniform_bytes(SHA-512(label ‖ u16_le(c))): the raw label, no length prefix.
    return from_uniform_bytes(hashlib.sha512(b"fairdeal/v1/card" + u16(c)).digest())


def i32(n):
    return (n & 0xFFFFFFFF).to_bytes(4, "little")


def hand_context(sid, hand_no, dealer, totals, prev, keys):
    """SHA-256(label ‖ sid ‖ hand_no ‖ dealer ‖ totals ‖ previous result ‖ the four seat keys)."""
    fields = [sid, u32(hand_no), bytes([dealer]), i32(totals[0]), i32(totals[1]), prev]
    return hash256(b"fairdeal/v1/hand", fields + list(keys))


# The seat keys of the pinned hand contexts (any 32 bytes each: the context only hashes them).
SEAT_KEYS = [bytes([0x10 + s]) * 32 for s in range(4)]


def deck_hash(hctx, deck):
    """SHA-256(label ‖ hctx ‖ (C1 ‖ C2)*) over the deck's encodings."""
    return hash256(b"fairdeal/v1/deck", [hctx, b"".join(c1 + c2 for c1, c2 in deck)])


class Stream:
    """block_j = SHA-512(label ‖ hctx ‖ seat ‖ seed ‖ input_hash ‖ u32_le(j)), read in order."""

    def __init__(self, hctx, seat, seed, input_hash):
        self.hctx, self.seat, self.seed, self.input_hash = hctx, seat, seed, input_hash
        self.buf = b""
        self.j = 0

    def take(self, n):
        while len(self.buf) < n:
            fields = [self.hctx, bytes([self.seat]), self.seed, self.input_hash, u32(self.j)]
            self.buf += hash512(b"fairdeal/v1/shuffle", fields)
            self.j += 1
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def up_to(self, top):
        n = top + 1
        limit = (1 << 32) // n * n
        while True:
            w = int.from_bytes(self.take(4), "little")
            if w < limit:
                return w % n


def shuffle_plan(hctx, seat, seed, input_hash, n):
    s = Stream(hctx, seat, seed, input_hash)
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = s.up_to(i)
        perm[i], perm[j] = perm[j], perm[i]
    rho = [int.from_bytes(s.take(64), "little") % L for _ in range(n)]
    return perm, rho


def elgamal_secret(hctx, seat, seed):
    counter = 0
    while True:
        x = hash_scalar(b"fairdeal/v1/elgamal", [hctx, bytes([seat]), seed, u32(counter)])
        if x:
            return x
        counter += 1


def prove_key(hctx, seat, x):
    k = hash_scalar(b"fairdeal/v1/nonce", [b"pok", sc(x), hctx, bytes([seat])])
    e = hash_scalar(
        b"fairdeal/v1/pok", [hctx, bytes([seat]), encode(mul(x, B)), encode(mul(k, B))]
    )
    return e, (k + e * x) % L


def prove_share(hctx, seat, pos, x, c1):
    d = mul(x, c1)
    t = hash_scalar(
        b"fairdeal/v1/nonce", [b"dleq", sc(x), hctx, bytes([seat]), u16(pos), encode(c1)]
    )
    fields = [hctx, bytes([seat]), u16(pos), encode(mul(x, B)), encode(c1), encode(d)]
    e = hash_scalar(b"fairdeal/v1/dleq", fields + [encode(mul(t, B)), encode(mul(t, c1))])
    return d, e, (t + e * x) % L


def prove_round(hctx, seat, x, items):
    """One proof for a round of shares (batch.rs): items are (pos, C1)."""
    ds = [mul(x, c1) for _, c1 in items]
    blob = b"".join(u16(p) + encode(c1) + encode(d) for (p, c1), d in zip(items, ds))
    label = b"fairdeal/v1/dleq-batch"
    digest = hash256(
        label,
        [b"statement", hctx, bytes([seat]), encode(mul(x, B)), u32(len(items)), blob],
    )
    c = None
    for i, (_, c1) in enumerate(items):
        term = mul(hash_scalar(label, [b"weight", digest, u32(i)]), c1)
        c = term if c is None else add(c, term)
    t = hash_scalar(b"fairdeal/v1/nonce", [b"dleq-batch", sc(x), digest])
    e = hash_scalar(label, [b"challenge", digest, encode(mul(t, B)), encode(mul(t, c))])
    return e, (t + e * x) % L


def ed25519_public(secret):
    h = hashlib.sha512(secret).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    return edwards_compress(mul(a, B))


def seed(seat, salt):
    return bytes([seat]) + bytes([salt]) * 31


def main():
    check_rfc_vectors()
    out = []

    def put(name, value):
        out.append(f"{name} = {value.hex() if isinstance(value, bytes) else value}")

    # The golden vectors (crypto/tests/vectors/derivations.txt), same names, same inputs.
    cards = [card_point(c) for c in range(162)]
    hctx = hand_context(bytes([1] * 32), 7, 2, (1234, -50), bytes(32), SEAT_KEYS)
    s5 = bytes([5] * 32)
    open_deck = b"".join(bytes(32) + encode(m) for m in cards)
    open_hash = hash256(b"fairdeal/v1/deck", [hctx, open_deck])
    perm, rho = shuffle_plan(hctx, 3, s5, open_hash, 162)
    x = elgamal_secret(hctx, 3, s5)
    pok_e, pok_z = prove_key(hctx, 3, x)
    d, share_e, _ = prove_share(hctx, 3, 61, x, mul(11, B))
    round_e, round_z = prove_round(hctx, 3, x, [(61, mul(11, B)), (62, mul(12, B)), (90, mul(13, B))])
    pk = ed25519_public(bytes([1] * 32))
    fp = hash256(b"fairdeal/v1/fingerprint", [pk])[:8].hex()
    put("card_0", encode(cards[0]))
    put("card_161", encode(cards[161]))
    put("hctx", hctx)
    put("seed_commit", hash256(b"fairdeal/v1/seed-commit", [hctx, bytes([3]), s5]))
    put("elgamal_key", encode(mul(x, B)))
    put("perm_head", b"".join(u16(p) for p in perm[:8]))
    put("rho_0", sc(rho[0]))
    put("rho_161", sc(rho[161]))
    put("pok_e", sc(pok_e))
    put("pok_z", sc(pok_z))
    put("share_d", encode(d))
    put("share_e", sc(share_e))
    put("share_round_e", sc(round_e))
    put("share_round_z", sc(round_z))
    put("open_deck_hash", open_hash)
    put("identity_pk", pk)
    put("fingerprint", "-".join(fp[i : i + 4] for i in range(0, 16, 4)))
    # The shuffle proof's Pedersen generators: one-way map of the labelled hash of u32_le(i).
    for i, name in [(0, "h"), (1, "g1"), (54, "g54"), (162, "g162")]:
        g = from_uniform_bytes(hash512(b"fairdeal/v1/shuffle-generator", [u32(i)]))
        put(f"proof_generator_{name}", encode(g))

    # Beyond the golden file: whole streams and a whole hand's shuffle chain.
    put("cards_162", b"".join(encode(m) for m in cards))
    put("perm_162", b"".join(u16(p) for p in perm))
    put("rho_162", b"".join(sc(r) for r in rho))
    # A range near 2^31, where about half of the words are rejected.
    big = Stream(hctx, 3, s5, open_hash)
    put("up_to_2_31", b"".join(u32(big.up_to(1 << 31)) for _ in range(16)))
    # A 108-card hand: sid 7s, hand 1, dealer 0, seeds seed(s, 1); order 1, 2, 3, 0.
    hctx2 = hand_context(bytes([7] * 32), 1, 0, (0, 0), bytes(32), SEAT_KEYS)
    xs = [elgamal_secret(hctx2, s, seed(s, 1)) for s in range(4)]
    joint = mul(sum(xs) % L, B)
    put("hand2_keys", b"".join(encode(mul(x, B)) for x in xs))
    order = [1, 2, 3, 0]
    # Each step's stream is bound to the hash of its input deck, so the decks are computed
    # whole: output[j] = input[perm[j]] + (rho_j·B, rho_j·H).
    deck = [(IDENTITY, cards[c]) for c in range(108)]
    plans = []
    for s in order:
        enc = [(encode(c1), encode(c2)) for c1, c2 in deck]
        perm_k, rho_k = shuffle_plan(hctx2, s, seed(s, 1), deck_hash(hctx2, enc), 108)
        plans.append((perm_k, rho_k))
        deck = [
            (add(deck[p][0], mul(r, B)), add(deck[p][1], mul(r, joint)))
            for p, r in zip(perm_k, rho_k)
        ]
        if len(plans) == 1:
            put("hand2_step1_head", b"".join(encode(c1) + encode(c2) for c1, c2 in deck[:4]))
    plain = []
    for j in range(108):
        pos = j
        for perm_k, _ in reversed(plans):
            pos = perm_k[pos]
        plain.append(pos)
    put("hand2_plain", b"".join(u16(c) for c in plain))
    print("\n".join(out))


if __name__ == "__main__":
    main()
