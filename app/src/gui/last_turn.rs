//! One seat's last turn as the player saw it (what it drew, took, melded, laid out,
//! discarded, asked or answered), and its few words on the seat's box.

use fairdeal_core::Card;

/// One seat's last turn, as far as it went.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LastTurn {
    /// Cards drawn from the stock.
    pub drew: usize,
    /// The pile was taken (its size then; 0 when not known, as after a resume).
    pub took_pile: Option<usize>,
    /// Melds played onto: (team meld index, the cards put there).
    pub melds: Vec<(usize, Vec<Card>)>,
    /// Red threes laid out.
    pub red_threes: Vec<Card>,
    /// The card discarded.
    pub discard: Option<Card>,
    /// Went out.
    pub went_out: bool,
    /// Asked the partner to go out.
    pub asked: bool,
    /// Kept one card and passed.
    pub passed: bool,
    /// Answered the partner.
    pub answer: Option<bool>,
    /// When this turn began, in moves seen (the most recent turn wins a shared highlight).
    pub seq: u64,
}

impl LastTurn {
    /// The turn in a few words, its melds said as `whose` ("drew 2 · melded 3 (our meld 2)
    /// · discarded 9♣"): both teams number their melds from 1.
    pub fn words(&self, whose: &str) -> String {
        let mut parts = Vec::new();
        if self.drew > 0 {
            parts.push(format!("drew {}", self.drew));
        }
        match self.took_pile {
            Some(0) => parts.push("took the pile".to_owned()),
            Some(n) => parts.push(format!("took the pile ({n})")),
            None => {}
        }
        if !self.red_threes.is_empty() {
            parts.push(format!("red three {}", labels(&self.red_threes)));
        }
        let melded: usize = self.melds.iter().map(|(_, c)| c.len()).sum();
        if melded > 0 {
            let mut to: Vec<usize> = self.melds.iter().map(|(i, _)| i + 1).collect();
            to.sort_unstable();
            to.dedup();
            let to: Vec<String> = to.iter().map(ToString::to_string).collect();
            parts.push(format!(
                "melded {melded} ({whose} meld{} {})",
                if to.len() == 1 { "" } else { "s" },
                to.join(", ")
            ));
        }
        if self.asked {
            parts.push("asked to go out".to_owned());
        }
        if let Some(a) = self.answer {
            parts.push(if a { "answered yes" } else { "answered no" }.to_owned());
        }
        if self.passed {
            parts.push("passed".to_owned());
        }
        if self.went_out {
            parts.push("went out".to_owned());
        }
        if let Some(c) = self.discard {
            parts.push(format!("discarded {}", c.label()));
        }
        parts.join(" · ")
    }

    /// The cards this turn put on meld `index` of the seat's team.
    pub fn onto(&self, index: usize) -> Option<&[Card]> {
        self.melds
            .iter()
            .rev()
            .find(|(i, _)| *i == index)
            .map(|(_, c)| c.as_slice())
    }
}

/// Cards by their labels ("7♠ 7♣").
pub fn labels(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.label())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_box_says_whose_melds() {
        let c = |s: &str| s.parse::<Card>().unwrap();
        let turn = LastTurn {
            drew: 2,
            melds: vec![(1, vec![c("7S")]), (3, vec![c("8S"), c("8D")])],
            discard: Some(c("9C")),
            ..LastTurn::default()
        };
        let words = turn.words("their");
        assert!(words.contains("melded 3 (their melds 2, 4)"), "{words}");
    }
}
