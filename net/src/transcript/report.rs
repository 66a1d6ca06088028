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
        seat: Option<Seat>,
        /// Why, in words.
        why: String,
        /// The signed evidence, one line each.
        evidence: Vec<String>,
    },
    /// The deal was started again, with the same head, for a change of seat nobody is at
    /// fault for: a player back (its runner's signed return), or a seat that quit taken over
    /// (its signed quit, its runner's replacement).
    Restarted {
        /// The seat whose player came back or left.
        seat: Seat,
        /// Why, in words.
        why: String,
    },
    /// The deal was over but a seat withheld the end of it: it counts with these scores.
    Forfeited {
        /// The silent seat.
        seat: Seat,
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
    pub seat: Option<Seat>,
    /// The deal, if the fault is in one.
    pub hand_no: Option<u32>,
    /// What is wrong.
    pub kind: FaultKind,
    /// The entry it was found at, and that entry's byte offset, when it is one entry.
    pub at: Option<(usize, usize)>,
}

impl std::fmt::Display for TranscriptFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.kind)?;
        if let Some((index, offset)) = self.at {
            write!(f, " (entry {index} at byte {offset})")?;
        }
        Ok(())
    }
}

/// What is wrong with a transcript; the words a person reads are its `Display`, and only
/// there. A seat in a kind is one a message *claims* (for naming the message), not a verdict:
/// the verdict is [`TranscriptFault::seat`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FaultKind {
    /// No entry at all.
    #[error("the transcript is empty")]
    Empty,
    /// The bytes from here on do not decode (what is wrong with them): the entries before
    /// were checked, nothing after can be.
    #[error(
        "the file is damaged from here to its end ({0}): what comes before was checked, nothing after it can be"
    )]
    Damaged(String),
    /// The first entry is not the configuration.
    #[error("the transcript does not start with the signed configuration")]
    NoConfiguration,
    /// A seat's signature on the configuration fails.
    #[error(
        "the file is damaged or altered: {}'s signature on the table configuration does not verify",
        .0.name()
    )]
    ConfigSignature(Seat),
    /// The rules give no card table.
    #[error("no card table for these rules")]
    NoCardTable,
    /// A second configuration entry.
    #[error("a second table configuration")]
    SecondConfiguration,
    /// A signed table message whose signer is not seated.
    #[error("a signed table message from a stranger")]
    Stranger,
    /// A signed table message that does not decode (it claims the seat given).
    #[error("the file is damaged or altered: a table message that does not decode (it claims to be {}'s)", .0.name())]
    Undecodable(Seat),
    /// A signed table message of a kind that is no evidence.
    #[error("the file is damaged or altered: a table message that is no evidence (it claims to be {}'s)", .0.name())]
    NotEvidence(Seat),
    /// A signed table message whose signature fails for the identity the entry names.
    #[error("the file is damaged or altered: a signed table message whose signature does not verify (it claims to be {}'s)", .0.name())]
    BadSignature(Seat),
    /// An envelope outside the deal being played.
    #[error("the file is damaged or altered: an envelope of a deal that is not being played here{}", claims(*.0))]
    EnvelopeOutOfDeal(Option<Seat>),
    /// An envelope whose signature or hand context fails under the deal's header (which binds
    /// the number, dealer, running totals and previous result).
    #[error("the file is damaged or altered: an envelope whose signature or hand context does not verify under this deal's header (number, dealer, totals, previous result){}", claims(*.0))]
    BadEnvelope(Option<Seat>),
    /// A deal whose number is not the next one: deals cut out, inserted or moved.
    #[error("{}", sequence_words(*expected, *found))]
    OutOfSequence {
        /// The number the next deal must have.
        expected: u32,
        /// The number it has.
        found: u32,
    },
    /// A header whose dealer is not the one the deals before imply.
    #[error("the deal's dealer is {}, but the deals before make {} the dealer", found.name(), expected.name())]
    WrongDealer {
        /// The dealer implied.
        expected: Seat,
        /// The dealer stated.
        found: Seat,
    },
    /// A header whose running totals are not the sum of the deals before it.
    #[error("re-totalled: the header says team A {}, team B {}, but the deals before it add up to team A {}, team B {}", found[0], found[1], expected[0], expected[1])]
    Retotalled {
        /// The totals implied.
        expected: [i32; 2],
        /// The totals stated.
        found: [i32; 2],
    },
    /// A header whose previous result is not the one the deal before ended with.
    #[error(
        "the deal does not follow from the one before: its previous result is {}, the deal before ended with {}",
        short(found),
        short(expected)
    )]
    WrongPrevious {
        /// The result implied.
        expected: [u8; 32],
        /// The result stated.
        found: [u8; 32],
    },
    /// A seat's identity or computer player changed with no signed `Replace` or `Return`.
    #[error("{}'s identity or computer player changed without a signed replacement", .0.name())]
    UnsignedSeatChange(Seat),
    /// A `Replace` of `seat` signed by another seat than the runner the header names.
    #[error("the replacement of {}'s seat is signed by {}, not by the runner the deal names ({})", seat.name(), signer.name(), runner.name())]
    ReplaceNotFromRunner {
        /// The seat replaced.
        seat: Seat,
        /// Who signed it.
        signer: Seat,
        /// Who runs the computer player.
        runner: Seat,
    },
    /// A `Return` of `seat` not signed by the runner that held it (or signed by the
    /// returning seat itself, when no runner is recorded).
    #[error("the return of {}'s seat is signed by {}, {}", seat.name(), signer.name(), runner.map_or_else(|| "the returning seat itself: only the runner of its computer player can give a seat back".to_owned(), |r| format!("not by the runner that held the seat ({})", r.name())))]
    ReturnNotFromRunner {
        /// The seat given back.
        seat: Seat,
        /// Who signed it.
        signer: Seat,
        /// The runner the previous header records, if it records one.
        runner: Option<Seat>,
    },
    /// A file that skips deals with a seat given back, holding neither that seat's standing
    /// quit nor the votes that put it out of the last deal it has: only a seat that left
    /// can be given back, and only a player away skips deals.
    #[error(
        "the file skips deals with {} given back, but holds neither its quit nor the votes that put it out",
        .0.name()
    )]
    BackWithoutLeaving(Seat),
    /// A seat given back that an earlier deal proved at fault: a computer player keeps a
    /// barred seat for the rest of the game, whoever signs its return.
    #[error(
        "{} is given back, though an earlier deal proved it at fault (a computer player keeps its seat to the end)",
        .0.name()
    )]
    BarredSeatBack(Seat),
    /// A return's table state (totals, dealer, previous result) that no other seat's
    /// signature confirms: the deal it starts lacks envelopes of the seats named.
    #[error("the table's state in {}'s return of {}'s seat is confirmed by no signature of {}: the deal it starts has none of their messages", signer.name(), seat.name(), missing.iter().map(|s| s.name()).collect::<Vec<_>>().join(" or "))]
    ReturnUnconfirmed {
        /// The seat given back.
        seat: Seat,
        /// Who signed the return.
        signer: Seat,
        /// The seats without an envelope in the deal it starts.
        missing: Vec<Seat>,
    },
    /// A seat's signed quit naming a hand the table takes no quit for where the file has
    /// it: a quit names the deal under way or the hand just before it.
    #[error(
        "{}'s quit names hand {hand_no}, where the file is at hand {at}: the table takes a quit only for the hand under way or the one just scored",
        seat.name()
    )]
    QuitOtherHand {
        /// The seat that signed the quit.
        seat: Seat,
        /// The hand the quit names.
        hand_no: u32,
        /// The hand of the deal the file is at (0: before the first deal).
        at: u32,
    },
    /// A deal started again with neither a signed return nor a seat that quit taken over.
    #[error("the deal was started again without a signed return or a seat that quit taken over")]
    RestartWithoutReturn,
    /// The deal's envelopes are not the ones the seats signed the result of.
    #[error("the deal's envelopes in this file are not the ones the seats signed the result of")]
    NotTheSignedEnvelopes,
    /// The next deal follows neither this deal's result nor its void.
    #[error("the next deal follows neither this deal's result nor its void")]
    UnexplainedNext,
    /// The next deal says a seat was put out of this one, and the file holds no reason the
    /// table acts on: no fault its envelopes prove, no timeout vote from every other client
    /// (a signed quit alone is none: the table waits for what the seat still owes).
    #[error(
        "the next deal says {} was put out of this one, but the file holds no reason: no fault proved, no timeout votes from every other seat",
        .0.name()
    )]
    PutOutUnproved(Seat),
    /// The next deal voids a deal a seat was put out of for silence once the play was over:
    /// the table counts the forfeit.
    #[error(
        "the next deal voids the deal {} was put out of once the play was over; it counts with {scores:?}",
        seat.name()
    )]
    ForfeitVoided {
        /// The seat put out.
        seat: Seat,
        /// The scores the deal counts with.
        scores: [i32; 2],
    },
    /// The totals after a forfeit are neither the audited scores nor the forfeit rule's.
    #[error(
        "the totals after a forfeited deal are neither its audited scores nor the forfeit rule's"
    )]
    ForfeitTotals,
    /// All four signed the result but messages of the deal are missing.
    #[error("all four seats signed the deal's result, but the file lacks messages of it")]
    MissingMessages,
    /// A seat's signed envelopes prove a fault.
    #[error("{0} (from the signed envelopes)")]
    Cheat(fairdeal_crypto::Fault),
}

fn claims(seat: Option<Seat>) -> String {
    seat.map_or_else(String::new, |s| {
        format!(" (it claims to be {}'s)", s.name())
    })
}

fn sequence_words(expected: u32, found: u32) -> String {
    if found > expected {
        let missing = if found == expected + 1 {
            format!("hand {expected} is")
        } else {
            format!("hands {expected} to {} are", found - 1)
        };
        format!(
            "hand {found} comes where hand {expected} must: {missing} missing (cut out of the file)"
        )
    } else {
        format!(
            "hand {found} comes where hand {expected} must: a deal inserted or moved (hand {found} was already played)"
        )
    }
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
        HandStatus::Restarted { seat, why } => {
            format!("hand {n}: dealt again: {} {why}", seat.name())
        }
        HandStatus::Void { seat, why, .. } => match seat {
            Some(s) => format!("hand {n}: void: {} {why}", s.name()),
            None => format!("hand {n}: void: {why}"),
        },
        HandStatus::Forfeited { seat, scores } => format!(
            "hand {n}: forfeited: {} withheld the end of the hand; it counts team A {}, team B {}",
            seat.name(),
            scores[0],
            scores[1]
        ),
        HandStatus::Unfinished { why } => format!("hand {n}: unfinished: {why}"),
    }
}

fn fault_line(f: &TranscriptFault) -> String {
    let who = f.seat.map_or_else(
        || "no seat can be named".to_owned(),
        |s| format!("seat {}", s.name()),
    );
    match f.hand_no {
        Some(h) => format!("FAULT: {who}: hand {h}: {f}"),
        None => format!("FAULT: {who}: {f}"),
    }
}

/// The first 8 bytes of a hash, in hex.
pub fn short(h: &[u8; 32]) -> String {
    h[..8].iter().map(|b| format!("{b:02x}")).collect()
}
