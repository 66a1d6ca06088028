//! Table happenings in words for the terminal: a void or forfeited hand, a seat taken over by a
//! computer player, a player back (seats by name; the window adds the players' names).

use fairdeal_net::table::{Gone, TableEvent};

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
