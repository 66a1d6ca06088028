//! Values kept per seat ([`SeatMap`]) and sets of seats ([`SeatSet`]), indexed by [`Seat`]
//! itself: state kept for the four seats is never read or written through a number that
//! could be out of range or mean another seat.

use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

use crate::Seat;

/// One value for each seat, in seat order (S, W, N, E). Serialised as the plain array, so a
/// `[T; 4]` on the wire or in a file reads as a `SeatMap<T>` and back, byte for byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SeatMap<T>(pub [T; 4]);

impl<T> SeatMap<T> {
    /// The map with `f(seat)` for each seat.
    pub fn from_fn(mut f: impl FnMut(Seat) -> T) -> Self {
        Self(Seat::ALL.map(&mut f))
    }

    /// Each seat with its value, in seat order.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        Seat::ALL.into_iter().zip(self.0.iter())
    }

    /// The first seat (in seat order) whose value satisfies `pred`.
    pub fn find(&self, mut pred: impl FnMut(&T) -> bool) -> Option<Seat> {
        self.iter().find(|(_, v)| pred(v)).map(|(s, _)| s)
    }

    /// The values, in seat order.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter()
    }
}

impl<T> Index<Seat> for SeatMap<T> {
    type Output = T;

    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> IndexMut<Seat> for SeatMap<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}

impl<T> From<[T; 4]> for SeatMap<T> {
    fn from(values: [T; 4]) -> Self {
        Self(values)
    }
}

/// A set of seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SeatSet(u8);

impl SeatSet {
    /// No seat.
    pub const EMPTY: Self = Self(0);

    fn bit(seat: Seat) -> u8 {
        1 << seat.index()
    }

    /// Adds `seat`; whether it was not in the set.
    pub fn insert(&mut self, seat: Seat) -> bool {
        let new = !self.contains(seat);
        self.0 |= Self::bit(seat);
        new
    }

    /// Takes `seat` out; whether it was in the set.
    pub fn remove(&mut self, seat: Seat) -> bool {
        let was = self.contains(seat);
        self.0 &= !Self::bit(seat);
        was
    }

    /// Whether `seat` is in the set.
    pub fn contains(self, seat: Seat) -> bool {
        self.0 & Self::bit(seat) != 0
    }

    /// The seats in the set, in seat order.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        Seat::ALL.into_iter().filter(move |&s| self.contains(s))
    }

    /// How many seats are in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set holds no seat.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The seats in either set.
    #[must_use]
    pub fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        let mut set = Self::EMPTY;
        for seat in iter {
            set.insert(seat);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_map_reads_and_writes_each_seat_apart() {
        let mut m = SeatMap::from_fn(|s| s.index() * 10);
        assert_eq!(m[Seat::N], 20);
        m[Seat::E] = 7;
        assert_eq!(m.0, [0, 10, 20, 7]);
        assert_eq!(m.find(|&v| v == 7), Some(Seat::E));
        assert_eq!(m.find(|&v| v == 99), None);
        let seen: Vec<(Seat, usize)> = m.iter().map(|(s, &v)| (s, v)).collect();
        assert_eq!(
            seen,
            vec![(Seat::S, 0), (Seat::W, 10), (Seat::N, 20), (Seat::E, 7)]
        );
    }

    #[test]
    fn a_seat_map_is_serialised_as_its_array() {
        let m = SeatMap([Some(1u8), None, Some(3), None]);
        let as_map = serde_json::to_string(&m).expect("encodes");
        assert_eq!(as_map, serde_json::to_string(&m.0).expect("encodes"));
        assert_eq!(as_map, "[1,null,3,null]");
        let back: SeatMap<Option<u8>> = serde_json::from_str(&as_map).expect("decodes");
        assert_eq!(back, m);
    }

    #[test]
    fn a_seat_set_holds_each_seat_once() {
        let mut set = SeatSet::EMPTY;
        assert!(set.is_empty());
        assert!(set.insert(Seat::W));
        assert!(!set.insert(Seat::W));
        assert!(set.insert(Seat::E));
        assert_eq!(set.len(), 2);
        assert!(set.contains(Seat::W) && !set.contains(Seat::S));
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![Seat::W, Seat::E]);
        assert!(set.remove(Seat::W));
        assert!(!set.remove(Seat::W));
        assert_eq!(set, [Seat::E].into_iter().collect());
        let other: SeatSet = [Seat::E, Seat::S].into_iter().collect();
        assert_eq!(
            set.union(other).iter().collect::<Vec<_>>(),
            vec![Seat::S, Seat::E]
        );
    }
}
