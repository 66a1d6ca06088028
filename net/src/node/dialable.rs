//! Which addresses this node can dial: TCP over IPv4 or IPv6 (no name lookup), directly or
//! through a relay's circuit. An address of another kind (QUIC, WebSocket, a DNS name) is
//! refused before anything starts, in words, instead of being tried until a timeout.

use libp2p::Multiaddr;
use libp2p::multiaddr::Protocol;

/// Why `addr` cannot be dialled by this node, in words a person can act on; `None` when it
/// can. The forms: `/ip4|ip6/ADDR/tcp/PORT[/p2p/ID]`, and such a relay address followed by
/// `/p2p-circuit[/p2p/ID]`.
pub fn dial_problem(addr: &Multiaddr) -> Option<String> {
    const FORM: &str = "an address looks like /ip4/192.168.1.20/tcp/40123/p2p/12D3Koo…";
    let mut parts = addr.iter().peekable();
    match parts.next() {
        Some(Protocol::Ip4(_) | Protocol::Ip6(_)) => {}
        Some(Protocol::Dns(_) | Protocol::Dns4(_) | Protocol::Dns6(_) | Protocol::Dnsaddr(_)) => {
            return Some(format!(
                "fairdeal dials IP addresses, not names: {FORM} (look the name up, or ask for \
                 the address the host's lobby shows)"
            ));
        }
        Some(other) => return Some(format!("it starts with /{}: {FORM}", other.tag())),
        None => return Some(format!("it is empty: {FORM}")),
    }
    match parts.next() {
        Some(Protocol::Tcp(_)) => {}
        Some(other) => {
            return Some(format!(
                "fairdeal reaches other players over TCP, and this address is /{}: {FORM}",
                other.tag()
            ));
        }
        None => return Some(format!("it has no port: {FORM}")),
    }
    if matches!(parts.peek(), Some(Protocol::P2p(_))) {
        parts.next();
    }
    if matches!(parts.peek(), Some(Protocol::P2pCircuit)) {
        parts.next();
        if matches!(parts.peek(), Some(Protocol::P2p(_))) {
            parts.next();
        }
    }
    parts.next().map(|extra| {
        format!(
            "it goes on with /{} where it should end: {FORM}",
            extra.tag()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> Option<String> {
        dial_problem(&text.parse().unwrap())
    }

    #[test]
    fn tcp_addresses_direct_or_through_a_relay_can_be_dialled() {
        let id = "12D3KooWD3eckifWpRn9wQpMG9R9hX3sD158z7EqHWmweQAJU5SA";
        for ok in [
            "/ip4/192.168.1.20/tcp/40123".to_owned(),
            format!("/ip4/192.168.1.20/tcp/40123/p2p/{id}"),
            format!("/ip6/::1/tcp/4/p2p/{id}"),
            format!("/ip4/10.0.0.1/tcp/4001/p2p/{id}/p2p-circuit/p2p/{id}"),
        ] {
            assert_eq!(problem(&ok), None, "{ok}");
        }
    }

    #[test]
    fn other_addresses_are_refused_in_words() {
        for (bad, words) in [
            (
                "/ip4/127.0.0.1/udp/4/quic-v1",
                "over TCP, and this address is /udp",
            ),
            ("/dns4/example.org/tcp/4", "not names"),
            ("/ip4/127.0.0.1", "no port"),
            ("/tcp/4", "starts with /tcp"),
            ("/ip4/127.0.0.1/tcp/4/ws", "goes on with /ws"),
            ("/memory/4", "starts with /memory"),
        ] {
            let why = problem(bad).unwrap_or_else(|| panic!("{bad} taken"));
            assert!(why.contains(words), "{bad}: {why}");
        }
    }
}
