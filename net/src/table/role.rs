//! Who this peer is at its table: the host (it opened the table, seats the players and fixes
//! the configuration) or a joiner (it asks the host for a seat). The role decides whose word
//! about the seating counts, so it is one value that carries what only that role knows,
//! rather than a flag beside an optional key and a wish only a joiner has.

use fairdeal_core::Seat;
use fairdeal_crypto::PublicKey;

/// This peer's role at the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Role {
    /// It opened the table and sits South.
    Host {
        /// Before the start: the move clock to put in the configuration (ms; 0: none).
        move_clock_ms: u64,
    },
    /// It joins another peer's table.
    Joiner {
        /// The host, once this peer asked it for a seat or took its configuration.
        host: Option<PublicKey>,
        /// The seat asked for (sent with every `Join`).
        want: Option<Seat>,
    },
}

impl Role {
    /// A joiner that has asked nobody yet.
    pub(super) fn joiner() -> Self {
        Self::Joiner {
            host: None,
            want: None,
        }
    }

    /// Whether this peer is the host.
    pub(super) fn is_host(&self) -> bool {
        matches!(self, Self::Host { .. })
    }

    /// The host's key as this peer knows it (`me` for the host itself).
    pub(super) fn host(&self, me: PublicKey) -> Option<PublicKey> {
        match self {
            Self::Host { .. } => Some(me),
            Self::Joiner { host, .. } => *host,
        }
    }

    /// Whether `key` is the host of the table this peer joined (never true at the host: a
    /// host takes no seating from anyone).
    pub(super) fn is_my_host(&self, key: PublicKey) -> bool {
        matches!(self, Self::Joiner { host: Some(h), .. } if *h == key)
    }

    /// A joiner learns (or is told again) who its host is; nothing changes at the host.
    pub(super) fn set_host(&mut self, key: PublicKey) {
        if let Self::Joiner { host, .. } = self {
            *host = Some(key);
        }
    }

    /// The seat a joiner asks for (`None` at the host, which sits South).
    pub(super) fn want(&self) -> Option<Seat> {
        match self {
            Self::Host { .. } => None,
            Self::Joiner { want, .. } => *want,
        }
    }

    /// The move clock a host puts in its configuration (0 at a joiner).
    pub(super) fn move_clock_ms(&self) -> u64 {
        match self {
            Self::Host { move_clock_ms } => *move_clock_ms,
            Self::Joiner { .. } => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a joiner has a host other than itself, and only its host's word counts as the
    /// host's; a host is never "from the host", whatever key it is shown.
    #[test]
    fn only_a_joiner_hears_from_a_host() {
        let (me, h) = (PublicKey([1; 32]), PublicKey([2; 32]));
        let mut joiner = Role::joiner();
        assert_eq!(joiner.host(me), None);
        assert!(!joiner.is_my_host(h));
        joiner.set_host(h);
        assert_eq!(joiner.host(me), Some(h));
        assert!(joiner.is_my_host(h) && !joiner.is_my_host(me));

        let mut host = Role::Host { move_clock_ms: 0 };
        host.set_host(h);
        assert_eq!(host.host(me), Some(me));
        assert!(!host.is_my_host(me) && !host.is_my_host(h));
        assert!(host.is_host() && !joiner.is_host());
    }

    /// A wish for a seat is a joiner's; the move clock is the host's to set.
    #[test]
    fn the_wish_is_a_joiners_and_the_clock_a_hosts() {
        let joiner = Role::Joiner {
            host: None,
            want: Some(Seat::N),
        };
        assert_eq!(joiner.want(), Some(Seat::N));
        assert_eq!(joiner.move_clock_ms(), 0);
        let host = Role::Host {
            move_clock_ms: 30_000,
        };
        assert_eq!(host.want(), None);
        assert_eq!(host.move_clock_ms(), 30_000);
    }
}
