//! What checking a transcript found, hand by hand, and how it is told (the same words on the
//! command line and in the window).

use std::fmt::Write as _;

use fairdeal_core::{GameResult, Seat, Team};

/// How one deal ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandStatus {
    /// Every check passed and the four seats signed the same result.
    Verified {
        /// The hand's scores, team A and B, from the true hands.
        scores: [i32; 2],
        /// The result root the four seats signed.
        root: [u8; 32],
        /// Moves replayed with the rules.
        moves: usize,
        /// Decryption shares checked, by the four seats' replays together (each checks the
        /// shares the others made for it).
        openings: usize,
    },
    /// The deal was void and dealt again.
    Void {
        /// The seat put out, if one was.
        seat: Option<u8>,
        /// Why, in words.
        why: String,
        /// The signed evidence, one line each.
        evidence: Vec<String>,
    },
    /// The deal was over but a seat withheld the end of it: it counts with these scores.
    Forfeited {
        /// The silent seat.
        seat: u8,
        /// The scores it counts with.
        scores: [i32; 2],
    },
    /// The file ends before the deal did.
    Unfinished {
        /// Where it stands.
        why: String,
    },
}

/// One deal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandLine {
    /// Its number.
    pub hand_no: u32,
    /// How it ended.
    pub status: HandStatus,
}

/// A fault: a seat cheated, or the file is not what the seats signed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranscriptFault {
    /// The seat at fault (`None`: the file itself, or nobody can be named).
    pub seat: Option<u8>,
    /// The deal, if the fault is in one.
    pub hand_no: Option<u32>,
    /// What is wrong (with the entry number and byte offset when it is one entry).
    pub what: String,
}

/// What [`super::verify`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Entries read.
    pub entries: usize,
    /// The table's name and the players' names (S W N E), once the configuration checked.
    pub table: Option<(String, [String; 4])>,
    /// Every deal, in order.
    pub hands: Vec<HandLine>,
    /// Totals after the deals that counted.
    pub totals: [i32; 2],
    /// The game's result (`Continue`: not over in this file).
    pub result: Option<GameResult>,
    /// Notes that are no fault (a seat given back, hands played while this peer was away).
    pub notes: Vec<String>,
    /// Every fault found (the first decides the exit status).
    pub faults: Vec<TranscriptFault>,
}

/// A seat's name.
pub fn seat_name(seat: u8) -> &'static str {
    Seat::from_index(usize::from(seat % 4)).name()
}

impl Report {
    /// Whether nothing is wrong.
    pub fn ok(&self) -> bool {
        self.faults.is_empty()
    }

    /// The result roots of the verified deals, in order.
    pub fn roots(&self) -> Vec<(u32, [u8; 32])> {
        self.hands
            .iter()
            .filter_map(|h| match h.status {
                HandStatus::Verified { root, .. } => Some((h.hand_no, root)),
                _ => None,
            })
            .collect()
    }

    /// The report as lines: one per deal, the game's result, then `verified: ...` or, for
    /// each fault, `FAULT: ...` (the last line says which).
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some((name, names)) = &self.table {
            out.push(format!(
                "table {name}: South {}, West {}, North {}, East {}",
                names[0], names[1], names[2], names[3]
            ));
        }
        for h in &self.hands {
            out.push(hand_line(h));
            if let HandStatus::Void { evidence, .. } = &h.status {
                out.extend(evidence.iter().map(|e| format!("    evidence: {e}")));
            }
        }
        out.extend(self.notes.iter().map(|n| format!("note: {n}")));
        let [a, b] = self.totals;
        out.push(match self.result {
            Some(GameResult::Won(Team::A)) => {
                format!("result: team A (South and North) wins {a} to {b}")
            }
            Some(GameResult::Won(Team::B)) => {
                format!("result: team B (West and East) wins {b} to {a}")
            }
            Some(GameResult::Drawn) => format!("result: drawn at {a} each"),
            _ => format!("result: not over in this file, team A {a}, team B {b}"),
        });
        if self.faults.is_empty() {
            let verified = self.roots().len();
            // Only what the file holds is claimed: no "signed results" where there are none.
            out.push(if verified == 0 {
                format!(
                    "verified: no hand is complete in this file; its {} entries (signatures, chains, and what was shuffled, opened and played so far) check out",
                    self.entries
                )
            } else {
                format!(
                    "verified: {verified} hand{} verified, {} entries: signatures, chains, shuffle proofs, shuffles, openings, red threes, moves, scores and the signed results check out",
                    if verified == 1 { "" } else { "s" },
                    self.entries
                )
            });
        }
        for f in &self.faults {
            out.push(fault_line(f));
        }
        out
    }

    /// The report as text (one line each).
    pub fn text(&self) -> String {
        let mut s = String::new();
        for l in self.lines() {
            let _ = writeln!(s, "{l}");
        }
        s
    }
}

fn hand_line(h: &HandLine) -> String {
    let n = h.hand_no;
    match &h.status {
        HandStatus::Verified {
            scores,
            root,
            moves,
            openings,
        } => format!(
            "hand {n}: verified: team A {}, team B {} ({moves} moves, {openings} decryption shares checked for the four seats; result root {})",
            scores[0],
            scores[1],
            short(root)
        ),
        HandStatus::Void { seat, why, .. } => match seat {
            Some(s) => format!("hand {n}: void: {} {why}", seat_name(*s)),
            None => format!("hand {n}: void: {why}"),
        },
        HandStatus::Forfeited { seat, scores } => format!(
            "hand {n}: forfeited: {} withheld the end of the hand; it counts team A {}, team B {}",
            seat_name(*seat),
            scores[0],
            scores[1]
        ),
        HandStatus::Unfinished { why } => format!("hand {n}: unfinished: {why}"),
    }
}

fn fault_line(f: &TranscriptFault) -> String {
    let who = f.seat.map_or_else(
        || "no seat can be named".to_owned(),
        |s| format!("seat {}", seat_name(s)),
    );
    match f.hand_no {
        Some(h) => format!("FAULT: {who}: hand {h}: {}", f.what),
        None => format!("FAULT: {who}: {}", f.what),
    }
}

/// The first 8 bytes of a hash, in hex.
pub fn short(h: &[u8; 32]) -> String {
    h[..8].iter().map(|b| format!("{b:02x}")).collect()
}
