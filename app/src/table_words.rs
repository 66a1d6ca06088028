//! Table happenings in words for the terminal: a void or forfeited hand, a seat taken over by a
//! computer player, a player back (seats by name; the window adds the players' names).

use fairdeal_core::Seat;
use fairdeal_net::node::Unheard;
use fairdeal_net::table::{AfterGrace, Gone, TableEvent};

/// "A", "A and B", "A, B and C".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The outage line, for the terminal and the window's band: who this seat hears nothing from,
/// for how long, how long the hand still waits for them and what then becomes of it (between
/// hands: that nothing is lost); a computer player's seat says whose
/// client runs it (it comes back with that client). `name` names a seat. Empty when `list` is.
/// Kept short (one line of the band where it can be): a computer player is named by its seat
/// alone, and said with the person whose client runs it when that person is unheard too.
pub fn unheard_line(list: &[Unheard], name: impl Fn(Seat) -> String) -> String {
    if list.is_empty() {
        return String::new();
    }
    let secs = list.iter().map(|u| u.ms).max().unwrap_or(0) / 1000;
    let run_by = |c: Seat| -> Vec<String> {
        list.iter()
            .filter(|u| u.client == Some(c))
            .map(|u| u.seat.name().to_owned())
            .collect()
    };
    let people: Vec<Seat> = list
        .iter()
        .filter(|u| u.client.is_none())
        .map(|u| u.seat)
        .collect();
    let mut parts: Vec<String> = Vec::new();
    let mut clause = false;
    for &p in &people {
        let run = run_by(p);
        if run.is_empty() {
            parts.push(name(p));
        } else {
            clause = true;
            parts.push(format!("{}, whose client runs {}", name(p), and_list(&run)));
        }
    }
    let mut clients: Vec<Seat> = list.iter().filter_map(|u| u.client).collect();
    clients.dedup();
    for c in clients.into_iter().filter(|c| !people.contains(c)) {
        clause = true;
        parts.push(format!(
            "{}, run by {}'s client",
            and_list(&run_by(c)),
            name(c)
        ));
    }
    let comma = if clause { "," } else { "" };
    match grace_words(list) {
        Some(then) => format!(
            "No answer from {}{comma} for {secs} s: {then}",
            and_list(&parts)
        ),
        None => format!(
            "No answer from {}{comma} for {secs} s — is the network down? The hand waits for \
             them; nothing is lost",
            and_list(&parts)
        ),
    }
}

/// In a hand, how long the table still waits and what then becomes of the hand (for the
/// seat whose grace period ends first); `None` between hands, where nothing is at stake.
fn grace_words(list: &[Unheard]) -> Option<String> {
    let (ms, after) = list
        .iter()
        .filter_map(|u| u.grace_left)
        .min_by_key(|g| g.0)?;
    let then = match after {
        AfterGrace::DealtAgain => "the hand is dealt again",
        AfterGrace::Counts => "the hand is scored without them",
    };
    Some(match ms.div_ceil(1000) {
        0 => format!("the wait is over; a computer player takes the seat and {then}"),
        secs => format!(
            "the hand waits {secs} s more, then a computer player takes the seat and {then}"
        ),
    })
}

/// The line when seats this seat heard nothing from answer again.
pub fn back_line(seats: &[Seat], name: impl Fn(Seat) -> String) -> String {
    let names: Vec<String> = seats.iter().map(|s| name(*s)).collect();
    let verb = if names.len() == 1 {
        "answers"
    } else {
        "answer"
    };
    format!("{} {verb} again; the hand goes on", and_list(&names))
}

/// "1 hand", "2 hands".
pub fn hands(n: usize) -> String {
    format!("{n} hand{}", if n == 1 { "" } else { "s" })
}

/// One line for a table event that changes who plays (empty for the others).
pub fn table_line(ev: &TableEvent) -> String {
    match ev {
        TableEvent::HandVoided { hand_no, seat, why } => {
            let what = match why {
                Gone::Silent => "stayed away past the grace period",
                Gone::Left => "left the table",
                Gone::Cheated => "was caught cheating",
            };
            format!(
                "hand {hand_no} void: {} {what}; the hand is dealt again",
                seat.name()
            )
        }
        TableEvent::HandForfeited {
            hand_no,
            seat,
            scores,
            ..
        } => format!(
            "hand {hand_no} forfeited: {} withheld what the check of the deal needs; it counts {} to team A, {} to team B",
            seat.name(),
            scores[0],
            scores[1]
        ),
        TableEvent::SeatTaken { seat, runner } => format!(
            "{} is now played by a computer player run by {}'s client, which can see its cards",
            seat.name(),
            runner.name()
        ),
        TableEvent::SeatHeld { seat } => format!(
            "a computer player played your seat ({}) while you were away; you get it back at the start of the next hand",
            seat.name()
        ),
        TableEvent::SeatBack { seat, .. } => format!("{} is back at the table", seat.name()),
        TableEvent::Alone { secs } => format!(
            "nobody at the table has answered for {secs} s: the others have left, or finished the game without this seat"
        ),
        TableEvent::SeatBarred { seat } => format!(
            "{} was proven at fault: a computer player keeps the seat for the rest of the game",
            seat.name()
        ),
        TableEvent::Stopped { reason } => format!("the table stopped: {reason}"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(seat: Seat, ms: u64, client: Option<Seat>) -> Unheard {
        Unheard {
            seat,
            ms,
            client,
            grace_left: None,
        }
    }

    #[test]
    fn the_outage_line_names_the_seats_the_time_and_whose_client_runs_a_computer_player() {
        let name = |s: Seat| s.name().to_owned();
        assert_eq!(
            unheard_line(&[u(Seat::N, 9_000, None), u(Seat::E, 12_400, None)], name),
            "No answer from North and East for 12 s — is the network down? The hand waits for \
             them; nothing is lost"
        );
        assert_eq!(
            unheard_line(
                &[
                    u(Seat::S, 6_000, None),
                    u(Seat::W, 6_000, Some(Seat::S)),
                    u(Seat::E, 6_000, Some(Seat::S))
                ],
                name
            ),
            "No answer from South, whose client runs West and East, for 6 s — is the network \
             down? The hand waits for them; nothing is lost"
        );
        assert_eq!(
            unheard_line(&[u(Seat::W, 6_000, Some(Seat::N))], name),
            "No answer from West, run by North's client, for 6 s — is the network down? The hand \
             waits for them; nothing is lost"
        );
        assert_eq!(unheard_line(&[], name), "");
        // In a hand, the line says how long it still waits and what happens then.
        let waiting = |left: u64, after| Unheard {
            grace_left: Some((left, after)),
            ..u(Seat::N, 31_000, None)
        };
        assert_eq!(
            unheard_line(
                &[
                    waiting(28_200, AfterGrace::DealtAgain),
                    Unheard {
                        seat: Seat::E,
                        ..waiting(40_000, AfterGrace::Counts)
                    }
                ],
                name
            ),
            "No answer from North and East for 31 s: the hand waits 29 s more, then a computer \
             player takes the seat and the hand is dealt again"
        );
        assert_eq!(
            unheard_line(&[waiting(0, AfterGrace::Counts)], name),
            "No answer from North for 31 s: the wait is over; a computer player takes the seat \
             and the hand is scored without them"
        );
        assert_eq!(
            back_line(&[Seat::N, Seat::E], name),
            "North and East answer again; the hand goes on"
        );
    }
}
