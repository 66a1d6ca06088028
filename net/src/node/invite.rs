//! Invitations: the one line a host pastes into a chat so that friends beyond the LAN can
//! join (`fairdeal:ADDRESS#TABLE`). The address is the host's circuit through a relay
//! (`/…/p2p/RELAY/p2p-circuit/p2p/HOST`), so it names the relay to reach and the host behind
//! it; the table's name follows so that the joiner can be told what it joins. A multiaddr's
//! text never holds `#`, so everything after the first `#` is the name.

use libp2p::Multiaddr;
use libp2p::multiaddr::Protocol;

use super::relay::{is_relayed, last_peer, relay_of};

/// What every invitation starts with.
pub const PREFIX: &str = "fairdeal:";

/// The longest invitation read (a multiaddr through a relay is about 150 characters, a
/// table's name at most [`crate::table::MAX_NAME`]).
pub const MAX_INVITATION: usize = 512;

/// An invitation to a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitation {
    /// The host's address through the relay, ending with `/p2p/HOST`.
    pub address: Multiaddr,
    /// The table's name.
    pub table: String,
}

/// Why a text is not an invitation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InviteError {
    /// Too long to be one.
    #[error("too long for an invitation ({0} characters; at most {MAX_INVITATION})")]
    TooLong(usize),
    /// It does not start with `fairdeal:`.
    #[error("an invitation starts with \"{PREFIX}\"")]
    Prefix,
    /// The address part is not an address: most often a paste that lost its end.
    #[error("the address in it is cut short or changed ({0}); copy the whole invitation again")]
    Address(String),
    /// The address does not go through a relay to a host.
    #[error("its address does not lead through a relay to a host (it needs /p2p-circuit/p2p/…)")]
    NotThroughRelay,
}

impl Invitation {
    /// The invitation to the host listening at `address` (its circuit address, `/p2p/HOST`
    /// included) for table `table`.
    pub fn new(address: Multiaddr, table: &str) -> Self {
        Self {
            address,
            table: crate::table::clean_name(table),
        }
    }

    /// The relay to reach first (with its `/p2p/RELAY`).
    pub fn relay(&self) -> Option<Multiaddr> {
        relay_of(&self.address)
    }

    /// Reads an invitation pasted by a person.
    ///
    /// People paste what their chat shows them, so the invitation is looked for where it
    /// is: words or quotes before `fairdeal:` are skipped, and a bare circuit address (the
    /// invitation without its prefix and name) is taken as well. Only the first line counts.
    ///
    /// # Errors
    ///
    /// What is wrong with it, in words.
    pub fn parse(text: &str) -> Result<Self, InviteError> {
        let text = text.trim();
        if text.len() > MAX_INVITATION {
            return Err(InviteError::TooLong(text.len()));
        }
        let line = text.lines().next().unwrap_or("");
        let (before, rest) = match line.find(PREFIX) {
            Some(at) => (&line[..at], &line[at + PREFIX.len()..]),
            None if line.starts_with('/') => ("", line),
            None => return Err(InviteError::Prefix),
        };
        // A closing quote is the paste's, not the name's, only when one opened it.
        let rest = match before.chars().last() {
            Some(open @ ('"' | '\'' | '«' | '“' | '‘')) => {
                let close = match open {
                    '«' => '»',
                    '“' => '”',
                    '‘' => '’',
                    same => same,
                };
                rest.strip_suffix(close).unwrap_or(rest)
            }
            _ => rest,
        };
        let (addr, table) = rest.split_once('#').unwrap_or((rest, ""));
        let address: Multiaddr = addr
            .trim()
            .parse()
            .map_err(|e: libp2p::multiaddr::Error| InviteError::Address(e.to_string()))?;
        let ends_at_peer = matches!(address.iter().last(), Some(Protocol::P2p(_)));
        let behind_relay = relay_of(&address).and_then(|r| last_peer(&r)).is_some();
        if !is_relayed(&address) || !ends_at_peer || !behind_relay {
            return Err(InviteError::NotThroughRelay);
        }
        Ok(Self {
            address,
            table: crate::table::clean_name(table),
        })
    }
}

impl std::fmt::Display for Invitation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{PREFIX}{}#{}", self.address, self.table)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const RELAY: &str = "12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN";
    const HOST: &str = "12D3KooWRBhwfeP2Y4TCx1SM6s9rUoHhR5STiGwxBhgFRcw3UERE";

    fn circuit() -> Multiaddr {
        format!("/ip4/10.99.0.1/tcp/4001/p2p/{RELAY}/p2p-circuit/p2p/{HOST}")
            .parse()
            .expect("a valid multiaddr")
    }

    #[test]
    fn an_invitation_reads_back_with_its_relay_host_and_table() {
        let inv = Invitation::new(circuit(), "Friday samba #2");
        let text = inv.to_string();
        assert!(text.starts_with("fairdeal:/ip4/10.99.0.1/tcp/4001/p2p/"));
        let back = Invitation::parse(&format!("  {text}\n")).expect("it reads");
        assert_eq!(back, inv);
        assert_eq!(back.table, "Friday samba #2");
        assert_eq!(
            back.relay(),
            format!("/ip4/10.99.0.1/tcp/4001/p2p/{RELAY}").parse().ok()
        );
    }

    #[test]
    fn an_invitation_is_found_in_what_a_chat_pastes() {
        let inv = Invitation::new(circuit(), "Friday samba");
        let text = inv.to_string();
        for pasted in [
            format!("Join us: {text}"),
            format!("\"{text}\""),
            format!("{text}\nsee you at eight"),
        ] {
            assert_eq!(Invitation::parse(&pasted), Ok(inv.clone()), "{pasted:?}");
        }
        let bare = Invitation::parse(&circuit().to_string()).expect("a bare circuit reads");
        assert_eq!(bare.address, circuit());
        // A paste that lost its last characters is said to be cut short.
        let cut = &text[..text.find('#').unwrap() - 5];
        let err = Invitation::parse(cut).unwrap_err();
        assert!(matches!(err, InviteError::Address(_)), "{err:?}");
        assert!(err.to_string().contains("cut short"), "{err}");
    }

    #[test]
    fn what_is_not_an_invitation_says_why() {
        assert_eq!(Invitation::parse("hello"), Err(InviteError::Prefix));
        assert!(matches!(
            Invitation::parse("fairdeal:/ip4/nonsense#x"),
            Err(InviteError::Address(_))
        ));
        // A direct address, or a circuit that names no host, is no invitation.
        let direct = format!("fairdeal:/ip4/10.0.0.1/tcp/1/p2p/{HOST}#t");
        assert_eq!(
            Invitation::parse(&direct),
            Err(InviteError::NotThroughRelay)
        );
        let no_host = format!("fairdeal:/ip4/10.99.0.1/tcp/4001/p2p/{RELAY}/p2p-circuit#t");
        assert_eq!(
            Invitation::parse(&no_host),
            Err(InviteError::NotThroughRelay)
        );
        let no_relay_id = format!("fairdeal:/ip4/10.99.0.1/tcp/4001/p2p-circuit/p2p/{HOST}#t");
        assert_eq!(
            Invitation::parse(&no_relay_id),
            Err(InviteError::NotThroughRelay)
        );
        let long = format!("fairdeal:{}", "x".repeat(MAX_INVITATION));
        assert!(matches!(
            Invitation::parse(&long),
            Err(InviteError::TooLong(_))
        ));
    }

    proptest! {
        /// Pasted text of any kind is read or refused in words, never a panic.
        #[test]
        fn any_text_is_read_or_refused(text in ".{0,600}") {
            let _ = Invitation::parse(&text);
            let _ = Invitation::parse(&format!("{PREFIX}{text}"));
        }

        /// Any table name survives the round trip (as the lobby cleans names).
        #[test]
        fn any_name_round_trips(name in ".{0,40}") {
            let inv = Invitation::new(circuit(), &name);
            prop_assert_eq!(Invitation::parse(&inv.to_string()), Ok(inv));
        }
    }
}
