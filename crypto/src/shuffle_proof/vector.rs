//! Scalar-vector arithmetic used by the prover and the verifier: powers, linear combinations,
//! the Hadamard product and the bilinear map `a ⋆ b = Σ_l a_l·b_l·y^l` (l = 1..n).

use curve25519_dalek::scalar::Scalar;

/// `[1, x, x², …, x^(k−1)]`.
pub(crate) fn powers(x: &Scalar, k: usize) -> Vec<Scalar> {
    let mut out = Vec::with_capacity(k);
    let mut p = Scalar::ONE;
    for _ in 0..k {
        out.push(p);
        p *= x;
    }
    out
}

/// `Σ_i c_i·v_i` over vectors of equal length `n`.
pub(crate) fn combine(coeffs: &[Scalar], vectors: &[&[Scalar]], n: usize) -> Vec<Scalar> {
    let mut out = vec![Scalar::ZERO; n];
    for (c, v) in coeffs.iter().zip(vectors) {
        for (o, x) in out.iter_mut().zip(v.iter()) {
            *o += c * x;
        }
    }
    out
}

/// `Σ_i c_i·s_i` over scalars.
pub(crate) fn combine_scalars(coeffs: &[Scalar], values: &[Scalar]) -> Scalar {
    coeffs.iter().zip(values).map(|(c, v)| c * v).sum()
}

/// The entrywise product.
pub(crate) fn hadamard(a: &[Scalar], b: &[Scalar]) -> Vec<Scalar> {
    a.iter().zip(b).map(|(x, y)| x * y).collect()
}

/// The bilinear map `a ⋆ b = Σ_{l=1..n} a_l·b_l·y^l`, given `y_pows[l] = y^(l+1)` (0-based).
pub(crate) fn star(a: &[Scalar], b: &[Scalar], y_pows: &[Scalar]) -> Scalar {
    a.iter()
        .zip(b)
        .zip(y_pows)
        .map(|((x, z), y)| x * z * y)
        .sum()
}

/// `[y, y², …, y^n]`, the weights of [`star`].
pub(crate) fn star_weights(y: &Scalar, n: usize) -> Vec<Scalar> {
    let mut p = powers(y, n + 1);
    p.remove(0);
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cases() {
        let s = |v: u64| Scalar::from(v);
        assert_eq!(powers(&s(3), 4), vec![s(1), s(3), s(9), s(27)]);
        let a = [s(1), s(2)];
        let b = [s(3), s(4)];
        assert_eq!(combine(&[s(2), s(1)], &[&a, &b], 2), vec![s(5), s(8)]);
        assert_eq!(combine_scalars(&[s(2), s(1)], &[s(5), s(7)]), s(17));
        assert_eq!(hadamard(&a, &b), vec![s(3), s(8)]);
        // 1·3·2 + 2·4·4 = 38 with y = 2.
        assert_eq!(star(&a, &b, &star_weights(&s(2), 2)), s(38));
    }
}
