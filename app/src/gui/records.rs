//! A game's folder on disk: `games/<stamp>/game.json` says what the game is (how this client
//! takes part, its table and rules, the computer players run here, whether it started or
//! ended), so that a client closed mid-game offers it back; and the pacing of new games.
//! Only the controller writes these files.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use fairdeal_core::Preset;
use serde::{Deserialize, Serialize};

use fairdeal_net::table::TableEvent;

use super::choices::Difficulty;
use super::words::preset_title;

/// How this client takes part in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// "Play now": this client runs all four seats over loopback.
    Local,
    /// A table this client opened on the LAN.
    Host,
    /// A table on the LAN this client joined.
    Join,
}

/// What a game folder's `game.json` says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// How this client takes part.
    pub kind: GameKind,
    /// The table's name.
    pub table: String,
    /// The preset.
    pub preset: Preset,
    /// The computer players' level (of the computer players this client runs; the default
    /// for a table joined).
    pub difficulty: Difficulty,
    /// House rules as JSON.
    #[serde(default)]
    pub house: String,
    /// Folders (in the game folder) of the computer players this client runs.
    pub bots: Vec<String>,
    /// The game started (four seats signed the table).
    pub started: bool,
    /// The game ended or was left for good.
    pub over: bool,
    /// How long the computer players this client runs wait before each move (ms).
    #[serde(default = "pace_ms")]
    pub pace_ms: u64,
    /// How long this client's nodes wait for a silent seat before voting it out (ms; `None`:
    /// the table's default).
    #[serde(default)]
    pub grace_ms: Option<u64>,
    /// The player left the game (Leave the table) rather than the client stopping under it
    /// (closed, or a crash): the start screen says which when it offers the game back.
    #[serde(default)]
    pub left: bool,
    /// The last time this client was at the table, nobody else answered (the others had
    /// left, or finished without this seat): the start screen says so when it offers the
    /// game back, rather than promising a game that may be gone.
    #[serde(default)]
    pub unanswered: bool,
}

/// The pacing of a new game's nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// How long the computer players this client runs wait before each move (ms).
    pub pace_ms: u64,
    /// How long a silent seat is waited for (ms; `None`: the table's default).
    pub grace_ms: Option<u64>,
}

impl Default for Timing {
    fn default() -> Self {
        Self {
            pace_ms: pace_ms(),
            grace_ms: None,
        }
    }
}

/// How long computer players wait before each move in the window, so that a person can follow
/// (ms; `FAIRDEAL_PACE_MS` overrides it, e.g. 0 for tests and measurements).
pub const WINDOW_PACE_MS: u64 = 700;

/// The pace for a new game: [`WINDOW_PACE_MS`] unless `FAIRDEAL_PACE_MS` says otherwise.
pub fn pace_ms() -> u64 {
    std::env::var("FAIRDEAL_PACE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(WINDOW_PACE_MS)
}

impl GameRecord {
    /// A started game of Samba of `kind` at `table`, with the default settings: what a game
    /// this window only shows (watched or replayed) is described by, with what it knows.
    pub(crate) fn started(kind: GameKind, table: String) -> Self {
        Self {
            kind,
            table,
            preset: Preset::Samba,
            difficulty: Difficulty::default(),
            house: String::new(),
            bots: Vec::new(),
            started: true,
            over: false,
            pace_ms: 0,
            grace_ms: None,
            left: false,
            unanswered: false,
        }
    }

    /// Whether the game is played over the LAN (listening on every interface, with mDNS).
    pub fn lan(&self) -> bool {
        self.kind != GameKind::Local
    }

    pub(crate) fn write(&self, dir: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        fairdeal_net::store::write_private(&dir.join("game.json"), text.as_bytes())
            .with_context(|| format!("writing {}", dir.join("game.json").display()))
    }

    pub(crate) fn read(dir: &Path) -> Option<Self> {
        let text = std::fs::read_to_string(dir.join("game.json")).ok()?;
        serde_json::from_str(&text).ok()
    }
}

/// The newest game that started and did not end, if any: (its folder, what it is).
pub fn unfinished(data_dir: &Path) -> Option<(PathBuf, GameRecord)> {
    let mut dirs = game_dirs(data_dir);
    dirs.sort();
    dirs.into_iter().rev().find_map(|d| {
        GameRecord::read(&d)
            .filter(|r| r.started && !r.over && d.join("me").join("GAME.fdlog").exists())
            .map(|r| (d, r))
    })
}

/// The newest game folder holding a game log whose record (`game.json`) cannot be read, if
/// it is newer than every game that can be offered back: the start screen says so, since
/// such a game can neither be offered to resume nor told apart from one that ended. Nothing
/// in the folder is touched.
pub fn unreadable(data_dir: &Path) -> Option<PathBuf> {
    let mut dirs = game_dirs(data_dir);
    dirs.sort();
    dirs.into_iter().rev().find_map(|d| {
        if !d.join("me").join("GAME.fdlog").exists() {
            return None;
        }
        match GameRecord::read(&d) {
            // The newest readable game decides: nothing older is said.
            Some(_) => Some(None),
            None => Some(Some(d)),
        }
    })?
}

/// What `data_dir/games` holds (none if it cannot be read), in no order.
fn game_dirs(data_dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(data_dir.join("games"))
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default()
}

/// Marks a game folder started or over.
pub fn mark(game_dir: &Path, started: bool, over: bool) {
    if let Some(mut r) = GameRecord::read(game_dir) {
        r.started |= started;
        r.over |= over;
        let _ = r.write(game_dir);
    }
}

/// Notes whether the player left the game in `game_dir` (true) or is back in it (false).
pub fn note_left(game_dir: &Path, left: bool) {
    if let Some(mut r) = GameRecord::read(game_dir)
        && r.left != left
    {
        r.left = left;
        let _ = r.write(game_dir);
    }
}

/// The game folder's record follows the game: the table's name once it starts (a guest
/// who joined by address learns it then), started, over, and whether nobody answered.
pub fn follow(game_dir: &Path, record: &mut GameRecord, ev: &TableEvent) {
    match ev {
        TableEvent::Started(c) => {
            let name = fairdeal_net::table::clean_name(&c.name);
            if record.table != name {
                rename(game_dir, &name);
                record.table = name;
            }
            mark(game_dir, true, false);
        }
        TableEvent::GameOver { .. } => mark(game_dir, true, true),
        TableEvent::Alone { .. } => note_unanswered(game_dir, true),
        _ => {}
    }
}

/// Notes whether nobody else answered at the table the last time this client was there.
pub fn note_unanswered(game_dir: &Path, unanswered: bool) {
    if let Some(mut r) = GameRecord::read(game_dir)
        && r.unanswered != unanswered
    {
        r.unanswered = unanswered;
        let _ = r.write(game_dir);
    }
}

/// Gives a game folder's table its name (a guest who joined by address learns it when the
/// game starts).
pub fn rename(game_dir: &Path, table: &str) {
    if let Some(mut r) = GameRecord::read(game_dir)
        && r.table != table
    {
        table.clone_into(&mut r.table);
        let _ = r.write(game_dir);
    }
}

/// Marks every game that started and did not end over, but `keep`: only the newest game is
/// ever offered back, so the older ones would otherwise come back one after another.
pub fn abandon_others(data_dir: &Path, keep: Option<&Path>) {
    for dir in game_dirs(data_dir) {
        if keep.is_some_and(|k| k == dir) {
            continue;
        }
        if GameRecord::read(&dir).is_some_and(|r| r.started && !r.over) {
            mark(&dir, true, true);
        }
    }
}

/// Removes the folders of games that never started (a lobby left, a table closed, a host
/// out of reach), but `keep`: nothing in them was signed by the table, and they would
/// otherwise pile up, one per try.
pub fn sweep_unstarted(data_dir: &Path, keep: &Path) {
    for dir in game_dirs(data_dir) {
        if dir != keep && GameRecord::read(&dir).is_some_and(|r| !r.started) {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// Removes the computer players' folders (`bot-0`, `bot-1`, `bot-2`) of the games that are over
/// (finished, or left for good), but `keep`'s: they serve only to resume a game and hold three
/// of its four seats' logs, each some hundreds of KiB a hand. The player's own folder, with the game's
/// transcript to verify or replay, stays. Only real folders of exactly those names are
/// removed, whatever a game's record says.
pub fn prune_over(data_dir: &Path, keep: &Path) {
    for dir in game_dirs(data_dir) {
        if dir == keep || !GameRecord::read(&dir).is_some_and(|r| r.over) {
            continue;
        }
        for name in ["bot-0", "bot-1", "bot-2"] {
            let bot = dir.join(name);
            if std::fs::symlink_metadata(&bot).is_ok_and(|m| m.is_dir()) {
                let _ = std::fs::remove_dir_all(&bot);
            }
        }
    }
}

/// The transcripts of this user's games, newest first (at most 8).
pub fn recent(data_dir: &Path) -> Vec<Recent> {
    let mut dirs = game_dirs(data_dir);
    dirs.sort();
    dirs.into_iter()
        .rev()
        .filter_map(|d| {
            let path = d.join("me").join(fairdeal_net::transcript::FILE_NAME);
            path.is_file().then(|| Recent {
                words: recent_words(&d),
                path,
            })
        })
        .take(8)
        .collect()
}

/// One of this user's recent games, for the verify screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recent {
    /// Its transcript.
    pub path: PathBuf,
    /// The game in words: when, what, where ("2026-12-04 21:40 UTC · Samba at "Friday"").
    pub words: String,
}

/// The game waiting to be resumed, in one sentence: left by the player, or interrupted (the
/// client closed or stopped under it), which Resume takes up where it stood.
pub fn waiting_game(r: &GameRecord) -> String {
    let game = if r.kind == GameKind::Local {
        format!(
            "game of {} against three computer players",
            preset_title(r.preset)
        )
    } else {
        format!(
            "game of {} at table \"{}\"",
            preset_title(r.preset),
            r.table
        )
    };
    if r.unanswered {
        format!("Nobody answered when you last came back to your {game}.")
    } else if r.left {
        format!("You left a {game}.")
    } else {
        format!("Your {game} was interrupted; it can be resumed.")
    }
}

/// A game folder in words: the date and time it was made (its name is the nanoseconds since
/// 1970 then), the game and the table.
fn recent_words(game_dir: &Path) -> String {
    let when = game_dir
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.parse::<u128>().ok())
        .map(|ns| utc_words(u64::try_from(ns / 1_000_000_000).unwrap_or(0)));
    let what = GameRecord::read(game_dir).map(|r| {
        let game = preset_title(r.preset);
        match r.kind {
            GameKind::Local => format!("{game} against the computer"),
            _ if r.table.is_empty() => format!("{game} at a table joined by address"),
            _ => format!("{game} at \"{}\"", r.table),
        }
    });
    match (when, what) {
        (Some(w), Some(g)) => format!("{w} · {g}"),
        (Some(w), None) => w,
        (None, Some(g)) => g,
        (None, None) => game_dir.display().to_string(),
    }
}

/// Seconds since 1970 as "YYYY-MM-DD HH:MM UTC" (the civil calendar from the day count).
fn utc_words(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let (h, m) = ((secs % 86_400) / 3_600, (secs % 3_600) / 60);
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {h:02}:{m:02} UTC")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_stamp_reads_as_a_date() {
        assert_eq!(utc_words(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_words(1_796_317_945), "2026-12-03 17:12 UTC");
        assert_eq!(utc_words(951_782_400), "2000-02-29 00:00 UTC");
    }

    fn record(started: bool, over: bool) -> GameRecord {
        GameRecord {
            kind: GameKind::Local,
            table: "t".to_owned(),
            preset: Preset::Samba,
            difficulty: Difficulty::Easy,
            house: "{}".to_owned(),
            bots: Vec::new(),
            started,
            over,
            pace_ms: 0,
            grace_ms: None,
            left: false,
            unanswered: false,
        }
    }

    fn game(root: &Path, name: &str, r: &GameRecord, log: bool) -> PathBuf {
        let dir = root.join("games").join(name);
        std::fs::create_dir_all(dir.join("me")).unwrap();
        r.write(&dir).unwrap();
        if log {
            std::fs::write(dir.join("me").join("GAME.fdlog"), b"x").unwrap();
        }
        dir
    }

    #[test]
    fn the_newest_started_unfinished_game_with_a_log_is_offered() {
        let root = std::env::temp_dir().join(format!("fairdeal-unfinished-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        assert!(unfinished(&root).is_none(), "no games folder yet");
        game(&root, "001", &record(true, false), true);
        game(&root, "002", &record(false, false), true); // never started
        game(&root, "003", &record(true, true), true); // over
        game(&root, "004", &record(true, false), false); // no log
        std::fs::create_dir_all(root.join("games").join("005")).unwrap(); // no game.json
        std::fs::write(root.join("games").join("006"), b"not a folder").unwrap();
        let (dir, r) = unfinished(&root).unwrap();
        assert!(dir.ends_with("001"));
        assert!(r.started && !r.over);
        // Abandoned: nothing is offered any more.
        mark(&dir, true, true);
        assert!(unfinished(&root).is_none());
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_record_of_a_joined_table_from_before_the_levels_were_typed_loads() {
        // Joined tables were written with an empty level.
        let mut json = serde_json::to_value(record(true, false)).unwrap();
        assert_eq!(json["difficulty"], "easy");
        json["difficulty"] = "".into();
        let back: GameRecord = serde_json::from_value(json).unwrap();
        assert_eq!(back.difficulty, Difficulty::default());
        assert_eq!(
            back,
            GameRecord {
                difficulty: Difficulty::default(),
                ..record(true, false)
            }
        );
    }

    /// Sabotage caught (checked): with the record's over flag not looked at, the computer
    /// players of a game still to be resumed went too.
    #[test]
    fn the_computer_players_folders_of_games_over_are_pruned_and_nothing_else() {
        let root = std::env::temp_dir().join(format!("fairdeal-prune-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let over = game(&root, "001", &record(true, true), true);
        let waiting = game(&root, "002", &record(true, false), true);
        let current = game(&root, "003", &record(true, true), true);
        for dir in [&over, &waiting, &current] {
            for bot in ["bot-0", "bot-1", "bot-2"] {
                std::fs::create_dir_all(dir.join(bot)).unwrap();
                std::fs::write(dir.join(bot).join("GAME.fdlog"), b"x").unwrap();
            }
        }
        // A file of that name is not a folder to remove.
        std::fs::remove_dir_all(over.join("bot-2")).unwrap();
        std::fs::write(over.join("bot-2"), b"a file").unwrap();
        prune_over(&root, &current);
        assert!(!over.join("bot-0").exists() && !over.join("bot-1").exists());
        assert!(over.join("bot-2").is_file(), "only folders go");
        assert!(
            over.join("me").join("GAME.fdlog").exists(),
            "the player's own stays"
        );
        assert!(over.join("game.json").exists());
        for bot in ["bot-0", "bot-1", "bot-2"] {
            assert!(waiting.join(bot).is_dir(), "a game to resume keeps {bot}");
            assert!(
                current.join(bot).is_dir(),
                "the game being opened keeps {bot}"
            );
        }
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_damaged_game_record_is_ignored() {
        let root = std::env::temp_dir().join(format!("fairdeal-damaged-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = game(&root, "001", &record(true, false), true);
        std::fs::write(dir.join("game.json"), b"{ not json").unwrap();
        assert!(unfinished(&root).is_none());
        mark(&dir, true, true); // no panic, nothing to mark
        let _ = std::fs::remove_dir_all(&root);
    }

    /// Sabotage caught (checked): with one sentence for both, a game a crash stopped was
    /// offered back as "You left a game".
    #[test]
    fn a_game_left_and_a_game_interrupted_are_offered_back_in_their_own_words() {
        let mut r = GameRecord::started(GameKind::Join, "Friday".to_owned());
        assert_eq!(
            waiting_game(&r),
            "Your game of Samba at table \"Friday\" was interrupted; it can be resumed."
        );
        r.left = true;
        assert_eq!(
            waiting_game(&r),
            "You left a game of Samba at table \"Friday\"."
        );
    }

    /// A table where nobody answered is offered back as such, and a try that is answered
    /// (or a new resume) clears it.
    ///
    /// Sabotage caught (checked): with `Alone` not followed, the start screen offered the
    /// dead game back as "You left a game" every time.
    #[test]
    fn a_game_nobody_answered_is_offered_back_as_such() {
        let root = std::env::temp_dir().join(format!("fairdeal-alone-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let mut r = GameRecord {
            left: true,
            ..GameRecord::started(GameKind::Join, "Friday".to_owned())
        };
        let dir = game(&root, "001", &r, true);
        follow(&dir, &mut r, &TableEvent::Alone { secs: 120 });
        let (_, back) = unfinished(&root).expect("still offered");
        assert_eq!(
            waiting_game(&back),
            "Nobody answered when you last came back to your game of Samba at table \"Friday\"."
        );
        note_unanswered(&dir, false);
        let (_, back) = unfinished(&root).expect("still offered");
        assert_eq!(
            waiting_game(&back),
            "You left a game of Samba at table \"Friday\"."
        );
        let _ = std::fs::remove_dir_all(&root);
    }
}
