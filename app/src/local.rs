//! Computer players, and local play: one table on this machine where computer players take
//! West, North and East once South's node listens. Written once for `fairdeal play` and the
//! window's "Play now" (which also runs the computer players a host seats from its lobby, or
//! a resumed game restarts, with [`Computers::options`]).

use std::path::PathBuf;

use fairdeal_core::{HouseRules, Preset, Seat};
use fairdeal_net::node::{NodeOptions, Role};
use libp2p::Multiaddr;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// The address a node listens on: every interface for the LAN, else loopback only.
pub fn listen_addr(lan: bool) -> Multiaddr {
    let text = if lan {
        "/ip4/0.0.0.0/tcp/0"
    } else {
        "/ip4/127.0.0.1/tcp/0"
    };
    text.parse().unwrap_or_else(|_| Multiaddr::empty())
}

/// How the computer players of one table play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Computers {
    /// Their strategy (a difficulty such as `hard`, or a strategy's name).
    pub strategy: String,
    /// How long they wait before each move (ms).
    pub think_ms: u64,
    /// How long they wait for a silent seat (ms; `None`: the table's default).
    pub grace_ms: Option<u64>,
    /// Whether the table is on the LAN (they listen on every interface).
    pub lan: bool,
}

impl Computers {
    /// The node of the computer player in `dir`, joining the table at `address` in seat
    /// `want` and named after it ("Computer West"); with neither, it rejoins the table its
    /// log in `dir` records.
    pub fn options(
        &self,
        dir: PathBuf,
        want: Option<Seat>,
        address: Option<Multiaddr>,
    ) -> NodeOptions {
        NodeOptions {
            data_dir: dir,
            listen: listen_addr(self.lan),
            mdns: false,
            role: Role::Join {
                address,
                table: None,
            },
            bot: Some(self.strategy.clone()),
            name: want.map_or_else(
                || "Computer".to_owned(),
                |w| format!("Computer {}", w.name()),
            ),
            grace_ms: self.grace_ms,
            hold: false,
            want: want.map(|w| w.number()),
            think_ms: self.think_ms,
            move_clock_ms: 0,
            wait_for_person: false,
            // Local: no countdown (one person; nobody waits for them); LAN: as the table.
            countdown: self.lan,
            relay: None,
        }
    }
}

/// The seats computer players take at a local table, with their folders' numbers.
pub const COMPUTER_SEATS: [Seat; 3] = [Seat::W, Seat::N, Seat::E];

/// A table on this machine, over loopback: South (a person, or a computer player) hosts it,
/// and computer players take the other three seats.
#[derive(Debug, Clone)]
pub struct LocalTable {
    /// The preset.
    pub preset: Preset,
    /// House rules.
    pub house: HouseRules,
    /// South's name.
    pub name: String,
    /// South's strategy when a computer player plays South (`None`: a person).
    pub south: Option<String>,
    /// South's folder.
    pub dir: PathBuf,
    /// How the computer players at West, North and East play.
    pub computers: Computers,
    /// Their folders (West, North, East).
    pub computer_dirs: [PathBuf; 3],
}

impl LocalTable {
    /// South's node: it hosts the table (not held: it starts when four are seated), and does
    /// not wait for a person between hands (the window's player sets `wait_for_person`).
    pub fn host_options(&self) -> NodeOptions {
        NodeOptions {
            data_dir: self.dir.clone(),
            listen: listen_addr(false),
            mdns: false,
            role: Role::Host {
                table: "local".to_owned(),
                preset: self.preset,
                house: self.house.clone(),
            },
            bot: self.south.clone(),
            name: self.name.clone(),
            grace_ms: self.computers.grace_ms,
            hold: false,
            want: None,
            think_ms: 0,
            move_clock_ms: 0,
            wait_for_person: false,
            countdown: false,
            relay: None,
        }
    }

    /// Once South's node listens (its address comes on `listening`), starts the computer
    /// players with `run`, each asking for its seat at that address. `None` when South's
    /// node stopped before it listened.
    pub async fn seat_computers<T>(
        &self,
        listening: oneshot::Receiver<Multiaddr>,
        mut run: impl FnMut(usize, NodeOptions) -> JoinHandle<T>,
    ) -> Option<Vec<JoinHandle<T>>> {
        let address = listening.await.ok()?;
        let runs = COMPUTER_SEATS
            .iter()
            .zip(&self.computer_dirs)
            .enumerate()
            .map(|(i, (&seat, dir))| {
                run(
                    i,
                    self.computers
                        .options(dir.clone(), Some(seat), Some(address.clone())),
                )
            })
            .collect();
        Some(runs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> LocalTable {
        LocalTable {
            preset: Preset::Samba,
            house: HouseRules::default(),
            name: "You".to_owned(),
            south: None,
            dir: PathBuf::from("/t/south"),
            computers: Computers {
                strategy: "hard".to_owned(),
                think_ms: 7,
                grace_ms: Some(9_000),
                lan: false,
            },
            computer_dirs: ["w", "n", "e"].map(|d| PathBuf::from("/t").join(d)),
        }
    }

    /// Each computer player asks for the seat its name says, in its own folder, at the
    /// address South listens on; none is started before South listens.
    #[tokio::test]
    async fn computers_take_west_north_and_east_once_south_listens() {
        let (tx, rx) = oneshot::channel();
        let address: Multiaddr = "/ip4/127.0.0.1/tcp/4000".parse().unwrap();
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let record = seen.clone();
        let seating = tokio::spawn(async move {
            table()
                .seat_computers(rx, move |i, o| {
                    record.lock().unwrap().push((i, o));
                    tokio::spawn(async {})
                })
                .await
                .map(|runs| runs.len())
        });
        tokio::task::yield_now().await;
        assert!(
            seen.lock().unwrap().is_empty(),
            "nobody before South listens"
        );
        tx.send(address.clone()).unwrap();
        assert_eq!(seating.await.unwrap(), Some(3));
        let seen = seen.lock().unwrap();
        let got: Vec<(usize, Option<u8>, String, PathBuf)> = seen
            .iter()
            .map(|(i, o)| (*i, o.want, o.name.clone(), o.data_dir.clone()))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    0,
                    Some(1),
                    "Computer West".to_owned(),
                    PathBuf::from("/t/w")
                ),
                (
                    1,
                    Some(2),
                    "Computer North".to_owned(),
                    PathBuf::from("/t/n")
                ),
                (
                    2,
                    Some(3),
                    "Computer East".to_owned(),
                    PathBuf::from("/t/e")
                ),
            ]
        );
        for (_, o) in seen.iter() {
            assert!(
                matches!(&o.role, Role::Join { address: Some(a), table: None } if *a == address)
            );
            assert_eq!(o.bot.as_deref(), Some("hard"));
            assert_eq!((o.think_ms, o.grace_ms, o.mdns), (7, Some(9_000), false));
        }
    }

    /// South stopping before it listens seats nobody.
    #[tokio::test]
    async fn nobody_is_seated_when_south_never_listens() {
        let (tx, rx) = oneshot::channel::<Multiaddr>();
        drop(tx);
        let runs = table()
            .seat_computers(rx, |_, _| -> JoinHandle<()> {
                panic!("a computer player was started")
            })
            .await;
        assert!(runs.is_none());
    }

    /// South hosts the local table on loopback, not held, as a person who is not waited for
    /// between hands (the window sets that); a computer player resumed from its log asks for
    /// no seat and is plain "Computer".
    #[test]
    fn south_hosts_on_loopback_and_a_resumed_computer_asks_for_nothing() {
        let h = table().host_options();
        assert!(matches!(&h.role, Role::Host { table, .. } if table == "local"));
        assert_eq!(h.listen.to_string(), "/ip4/127.0.0.1/tcp/0");
        assert!(!h.hold && !h.mdns && !h.wait_for_person && h.bot.is_none());
        let c = table().computers.options(PathBuf::from("/t/x"), None, None);
        assert_eq!((c.want, c.name.as_str()), (None, "Computer"));
        assert!(matches!(c.role, Role::Join { address: None, .. }));
    }
}
