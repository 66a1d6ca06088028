//! The closed choices of the start screen: the computer players' level and the theme.
//!
//! Each is saved as the word it always was (`"medium"`, `"dark"`), so settings and game
//! records written before these were types still load; a word this client does not know (a
//! file from a newer client, or edited by hand) reads as the default instead of failing the
//! whole file.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The computer players' level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Difficulty {
    /// Greedy: melds what it can, discards what it does not need.
    Easy,
    /// The expert with 15 % slips.
    #[default]
    Medium,
    /// The expert.
    Hard,
    /// The search.
    Master,
}

impl Difficulty {
    /// Every level, easiest first (the start screen's list).
    pub const ALL: [Self; 4] = [Self::Easy, Self::Medium, Self::Hard, Self::Master];

    /// The word saved and shown ("medium"); also the name of its strategy in
    /// [`fairdeal_core::strategy::by_name`].
    pub fn word(self) -> &'static str {
        match self {
            Self::Easy => "easy",
            Self::Medium => "medium",
            Self::Hard => "hard",
            Self::Master => "master",
        }
    }

    /// The strategy name the computer players' nodes are started with.
    pub fn strategy(self) -> &'static str {
        self.word()
    }

    /// The level saved as `word`, if it is one.
    pub fn from_word(word: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.word() == word)
    }
}

/// The look of the client.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    /// As the system says.
    #[default]
    System,
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl Theme {
    /// Every theme (the start screen's list).
    pub const ALL: [Self; 3] = [Self::System, Self::Light, Self::Dark];

    /// The word saved and shown ("dark"; also `FAIRDEAL_THEME`'s values).
    pub fn word(self) -> &'static str {
        match self {
            Self::System => "system",
            Self::Light => "light",
            Self::Dark => "dark",
        }
    }

    /// The theme saved as `word`, if it is one.
    pub fn from_word(word: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.word() == word)
    }
}

macro_rules! saved_as_word {
    ($t:ty) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.word())
            }
        }

        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.word())
            }
        }

        /// The saved word; an unknown one reads as the default.
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let word = String::deserialize(d)?;
                Ok(Self::from_word(&word).unwrap_or_default())
            }
        }
    };
}

saved_as_word!(Difficulty);
saved_as_word!(Theme);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_is_saved_as_its_old_word_and_read_back() {
        let words: Vec<String> = Difficulty::ALL
            .iter()
            .map(|d| serde_json::to_string(d).unwrap())
            .collect();
        assert_eq!(
            words,
            [r#""easy""#, r#""medium""#, r#""hard""#, r#""master""#]
        );
        for d in Difficulty::ALL {
            let json = serde_json::to_string(&d).unwrap();
            assert_eq!(serde_json::from_str::<Difficulty>(&json).unwrap(), d);
            assert!(
                fairdeal_core::strategy::by_name(d.strategy()).is_some(),
                "{d} names a strategy"
            );
        }
        let words: Vec<String> = Theme::ALL
            .iter()
            .map(|t| serde_json::to_string(t).unwrap())
            .collect();
        assert_eq!(words, [r#""system""#, r#""light""#, r#""dark""#]);
        for t in Theme::ALL {
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(serde_json::from_str::<Theme>(&json).unwrap(), t);
        }
    }

    #[test]
    fn an_unknown_word_reads_as_the_default() {
        for word in [r#""grandmaster""#, r#""""#, r#""Dark""#] {
            assert_eq!(
                serde_json::from_str::<Difficulty>(word).unwrap(),
                Difficulty::Medium
            );
            assert_eq!(serde_json::from_str::<Theme>(word).unwrap(), Theme::System);
        }
    }
}
