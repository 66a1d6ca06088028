//! What a move said beyond itself, as the player saw it live: the red threes a draw laid
//! out (named in the move's log line, flown to the team's threes) and the melds that became
//! a canasta or samba (celebrated, and named in the log line of the move that made them).

use fairdeal_core::{Move, PlayerView, Team};

use super::{Completed, Flight, Pending, Place, Seen, kind_words, labels};

impl Seen {
    /// Red threes a draw or pickup laid out (and a draw replaced from the stock).
    pub(super) fn red_threes(
        &mut self,
        p: &Pending,
        log: &mut [String],
        flights: &mut Vec<Flight>,
    ) {
        let laid = &p.played.effect.red_threes;
        let drew = matches!(
            p.played.mv,
            Move::Draw {} | Move::Pickup { .. } | Move::TakeTop { .. }
        );
        if laid.is_empty() || !drew {
            return;
        }
        let seat = p.played.seat;
        self.last[seat.index()]
            .red_threes
            .extend(laid.iter().copied());
        let replaced = matches!(p.played.mv, Move::Draw {});
        if let Some(text) = p.line.and_then(|l| log.get_mut(l)) {
            text.push_str(&format!(
                "; red three{} {} laid out{}",
                if laid.len() == 1 { "" } else { "s" },
                labels(laid),
                if replaced {
                    " and replaced from the stock"
                } else {
                    ""
                }
            ));
        }
        for (j, &c) in laid.iter().enumerate() {
            flights.push(Flight {
                card: c,
                from: Place::Stock,
                to: Place::RedThrees(seat.team()),
                delay: 0.1 + j as f64 * 0.05,
                start: None,
            });
        }
    }

    /// Melds that became a canasta or samba: celebrated, and said in the log, on the line of
    /// the move that put its seventh card there (`puts`: the cards each of `moves` put on
    /// each meld), else of the team's last move (a merge renumbered the melds).
    pub(super) fn canastas(
        &mut self,
        moves: &[Pending],
        puts: &[Vec<(usize, usize)>],
        before: Option<&PlayerView>,
        after: &PlayerView,
        log: &mut [String],
    ) {
        let Some(before) = before else { return };
        for team in [Team::A, Team::B] {
            for (i, m) in after.melds(team).iter().enumerate() {
                if !m.is_complete() {
                    continue;
                }
                let was = before
                    .melds(team)
                    .get(i)
                    .is_some_and(fairdeal_core::Meld::is_complete);
                if was {
                    continue;
                }
                let what = kind_words(m);
                self.completed.push(Completed {
                    team,
                    index: i,
                    what,
                    bonus: m.bonus(),
                    start: None,
                });
                let mut had = before
                    .melds(team)
                    .get(i)
                    .map_or(0, fairdeal_core::Meld::len);
                let made = moves
                    .iter()
                    .zip(puts)
                    .filter(|(p, _)| p.played.seat.team() == team)
                    .find(|(_, put)| {
                        had += put
                            .iter()
                            .filter(|(j, _)| *j == i)
                            .map(|(_, n)| n)
                            .sum::<usize>();
                        had >= 7
                    })
                    .map(|(p, _)| p.line);
                let line = made.flatten().or_else(|| {
                    moves
                        .iter()
                        .rev()
                        .find(|p| {
                            p.played.seat.team() == team
                                && matches!(
                                    p.played.mv,
                                    Move::Meld(_)
                                        | Move::Pickup { .. }
                                        | Move::TakeTop { .. }
                                        | Move::GoOut { .. }
                                )
                        })
                        .and_then(|p| p.line)
                });
                if let Some(text) = line.and_then(|l| log.get_mut(l)) {
                    let whose = crate::gui::move_words::whose_to(team, self.me(after));
                    text.push_str(&format!(
                        " — {whose} meld {} is a {what} (+{})!",
                        i + 1,
                        m.bonus()
                    ));
                }
            }
        }
    }
}
