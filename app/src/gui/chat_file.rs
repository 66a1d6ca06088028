//! The chat kept in the game's folder (`chat.txt`, owner-only): the window shows it again
//! when the game is resumed, after a Leave, a crash or the window closed. Chat is no part of
//! the game, so it stays out of the game's log and transcript; this file is only what this
//! client saw, for this client.
//!
//! One line a chat line, `<seat index>\t<text>` (a chat line has no control characters, so
//! neither a tab nor a newline can be in its text). The file holds at most the lines the
//! window keeps; a file too big, or a line not of that form, is skipped, never a failure.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use fairdeal_core::Seat;
use fairdeal_net::table::chat::{CHAT_LINES, ChatLine, MAX_CHAT, clean_chat};

/// The largest chat file read (a longer one is not this client's: it is left unread).
const MAX_BYTES: u64 = 256 * 1024;

fn path(game_dir: &Path) -> PathBuf {
    game_dir.join("chat.txt")
}

/// Writes the chat shown (the last lines) to the game's folder, whole or not at all.
pub fn save<'a>(game_dir: &Path, lines: impl IntoIterator<Item = &'a ChatLine>) {
    let mut text = String::new();
    for l in lines {
        text.push_str(&format!("{}\t{}\n", l.seat.index(), l.text));
    }
    if let Err(e) = fairdeal_net::store::write_private(&path(game_dir), text.as_bytes()) {
        tracing::warn!("could not keep the chat: {e}");
    }
}

/// The chat kept for the game in `game_dir`, oldest first (empty when there is none).
pub fn load(game_dir: &Path) -> VecDeque<ChatLine> {
    let file = path(game_dir);
    let mut lines = VecDeque::new();
    if std::fs::metadata(&file).map_or(true, |m| m.len() > MAX_BYTES) {
        return lines;
    }
    let Ok(text) = std::fs::read_to_string(&file) else {
        return lines;
    };
    for line in text.lines() {
        let Some((seat, said)) = line.split_once('\t') else {
            continue;
        };
        let Some(seat) = seat.parse::<u8>().ok().and_then(|s| Seat::try_from(s).ok()) else {
            continue;
        };
        if said.is_empty() || said.chars().count() > MAX_CHAT || clean_chat(said) != said {
            continue;
        }
        if lines.len() >= CHAT_LINES {
            lines.pop_front();
        }
        lines.push_back(ChatLine {
            seat,
            text: said.to_owned(),
        });
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chat_comes_back_as_it_was_and_a_bad_file_costs_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let said = [
            ChatLine {
                seat: Seat::S,
                text: "Good luck".into(),
            },
            ChatLine {
                seat: Seat::E,
                text: "d, oops: «ça va» ♠".into(),
            },
        ];
        save(dir.path(), &said);
        assert_eq!(Vec::from(load(dir.path())), said);
        std::fs::write(path(dir.path()), "9\tx\nno tab\n1\t\n2\tfine\n\u{1}\n").unwrap();
        let back: Vec<_> = load(dir.path()).into_iter().map(|l| l.text).collect();
        assert_eq!(back, ["fine"]);
        std::fs::write(path(dir.path()), vec![b'x'; 300 * 1024]).unwrap();
        assert!(load(dir.path()).is_empty());
        assert!(load(&dir.path().join("none")).is_empty());
    }
}
