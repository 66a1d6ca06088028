//! A seat in a message, a transcript entry or signed bytes is one byte, 0 to 3: these serde
//! adapters (`#[serde(with = "crate::seat_wire::one")]` and its kin) let wire types hold a
//! [`Seat`] while keeping that byte, so signatures over earlier messages still check, and a
//! number past 3 fails to decode instead of being carried as a seat and checked (or not)
//! wherever it is used.

use fairdeal_core::{Seat, SeatMap};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

fn byte(seat: Seat) -> u8 {
    seat.number()
}

fn seat<'de, D: Deserializer<'de>>(n: u8) -> Result<Seat, D::Error> {
    Seat::try_from(n).map_err(D::Error::custom)
}

/// One seat.
pub mod one {
    use super::*;

    /// Writes the seat's byte.
    pub fn serialize<S: Serializer>(s: &Seat, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_u8(byte(*s))
    }

    /// Reads a byte that must be a seat.
    pub fn deserialize<'de, D: Deserializer<'de>>(de: D) -> Result<Seat, D::Error> {
        seat::<D>(u8::deserialize(de)?)
    }
}

/// A seat or none.
pub mod opt {
    use super::*;

    /// Writes the seat's byte, if any (as an `Option<u8>`).
    pub fn serialize<S: Serializer>(s: &Option<Seat>, ser: S) -> Result<S::Ok, S::Error> {
        s.map(byte).serialize(ser)
    }

    /// Reads an `Option<u8>` whose byte, if any, must be a seat.
    pub fn deserialize<'de, D: Deserializer<'de>>(de: D) -> Result<Option<Seat>, D::Error> {
        Option::<u8>::deserialize(de)?.map(seat::<D>).transpose()
    }
}

/// For each seat, a seat or none (as a `[Option<u8>; 4]`).
pub mod map_opt {
    use super::*;

    /// Writes the four entries.
    pub fn serialize<S: Serializer>(m: &SeatMap<Option<Seat>>, ser: S) -> Result<S::Ok, S::Error> {
        m.0.map(|s| s.map(byte)).serialize(ser)
    }

    /// Reads four entries, each a seat or none.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        de: D,
    ) -> Result<SeatMap<Option<Seat>>, D::Error> {
        let raw = <[Option<u8>; 4]>::deserialize(de)?;
        let mut out = SeatMap([None; 4]);
        for (slot, n) in out.0.iter_mut().zip(raw) {
            *slot = n.map(seat::<D>).transpose()?;
        }
        Ok(out)
    }
}

/// A list of (seat, value) pairs (as a `Vec<(u8, T)>`).
pub mod pairs {
    use super::*;

    /// Writes each pair with its seat's byte.
    pub fn serialize<S: Serializer, T: Serialize>(
        v: &[(Seat, T)],
        ser: S,
    ) -> Result<S::Ok, S::Error> {
        ser.collect_seq(v.iter().map(|(s, t)| (byte(*s), t)))
    }

    /// Reads pairs whose first item must be a seat.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        de: D,
    ) -> Result<Vec<(Seat, T)>, D::Error> {
        Vec::<(u8, T)>::deserialize(de)?
            .into_iter()
            .map(|(n, t)| Ok((seat::<D>(n)?, t)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Typed {
        #[serde(with = "one")]
        a: Seat,
        #[serde(with = "opt")]
        b: Option<Seat>,
        #[serde(with = "map_opt")]
        c: SeatMap<Option<Seat>>,
        #[serde(with = "pairs")]
        d: Vec<(Seat, u32)>,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Raw {
        a: u8,
        b: Option<u8>,
        c: [Option<u8>; 4],
        d: Vec<(u8, u32)>,
    }

    fn enc<T: Serialize>(v: &T) -> Vec<u8> {
        fairdeal_crypto::encoding::encode(v)
    }

    #[test]
    fn typed_seats_keep_the_bytes_of_seat_numbers() {
        let typed = Typed {
            a: Seat::E,
            b: Some(Seat::W),
            c: SeatMap([None, Some(Seat::N), None, Some(Seat::S)]),
            d: vec![(Seat::W, 7), (Seat::E, 9)],
        };
        let raw = Raw {
            a: 3,
            b: Some(1),
            c: [None, Some(2), None, Some(0)],
            d: vec![(1, 7), (3, 9)],
        };
        let bytes = enc(&raw);
        assert_eq!(enc(&typed), bytes);
        let back: Typed = fairdeal_crypto::encoding::decode(&bytes).expect("decodes");
        assert_eq!(back, typed);
    }

    #[test]
    fn a_number_past_three_does_not_decode_as_a_seat() {
        let ok = Raw {
            a: 0,
            b: None,
            c: [None; 4],
            d: vec![(2, 1)],
        };
        assert!(fairdeal_crypto::encoding::decode::<Typed>(&enc(&ok)).is_ok());
        for bad in [
            Raw { a: 4, ..ok.clone() },
            Raw {
                b: Some(9),
                ..ok.clone()
            },
            Raw {
                c: [None, None, Some(255), None],
                ..ok.clone()
            },
            Raw {
                d: vec![(0, 1), (4, 2)],
                ..ok.clone()
            },
        ] {
            assert!(fairdeal_crypto::encoding::decode::<Typed>(&enc(&bad)).is_err());
        }
    }
}
