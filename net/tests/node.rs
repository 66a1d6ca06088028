//! Real nodes over loopback: a held table found by the browser, a player joining the seat it
//! asks for, computer players filling the rest, and the host starting the game.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use std::time::Duration;

use fairdeal_core::{HouseRules, Preset, Seat};
use fairdeal_net::node::{self, BrowseEvent, Intent, NodeEvent, NodeOptions, Role};
use fairdeal_net::table::TableEvent;
use libp2p::Multiaddr;
use tokio::sync::mpsc;

fn options(dir: &std::path::Path, role: Role, bot: Option<&str>, name: &str) -> NodeOptions {
    NodeOptions {
        data_dir: dir.to_owned(),
        listen: "/ip4/127.0.0.1/tcp/0".parse().unwrap(),
        mdns: false,
        role,
        bot: bot.map(str::to_owned),
        name: name.to_owned(),
        grace_ms: None,
        hold: false,
        want: None,
        think_ms: 0,
        move_clock_ms: 0,
        wait_for_person: false,
        countdown: true,
        relay: None,
    }
}

/// Waits for the first event matching `f`.
async fn wait_for<T>(
    rx: &mut mpsc::Receiver<NodeEvent>,
    mut f: impl FnMut(&NodeEvent) -> Option<T>,
) -> T {
    tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let ev = rx.recv().await.expect("node stopped");
            if let Some(t) = f(&ev) {
                return t;
            }
        }
    })
    .await
    .expect("timed out")
}

#[test]
fn a_browsed_table_is_joined_filled_with_computer_players_and_started() {
    node::runtime(2)
        .unwrap()
        .block_on(browsed_table_joined_filled_and_started());
}

async fn browsed_table_joined_filled_and_started() {
    let dir = std::env::temp_dir().join(format!("fairdeal-node-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let house = HouseRules {
        target: Some(1000),
        ..HouseRules::default()
    };
    let mut host = options(
        &dir.join("host"),
        Role::Host {
            table: "Kitchen".into(),
            preset: Preset::Samba,
            house,
        },
        Some("greedy"),
        "Ann",
    );
    host.hold = true;
    let (htx, mut hrx) = mpsc::channel(4096);
    let (hin, hin_rx) = mpsc::channel(16);
    tokio::spawn(async move {
        eprintln!(
            "host: {:?}",
            node::run(host, [7; 32], [8; 32], htx, hin_rx).await
        )
    });
    let address: Multiaddr = wait_for(&mut hrx, |e| match e {
        NodeEvent::Listening(a) => Some(a.clone()),
        _ => None,
    })
    .await;

    // The browser finds it by address and reads what it is.
    let (btx, mut brx) = mpsc::channel(16);
    tokio::spawn(node::browse([9; 32], false, vec![address.clone()], btx));
    let found = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            if let Some(BrowseEvent::Found(f)) = brx.recv().await {
                return f;
            }
        }
    })
    .await
    .unwrap();
    drop(brx);
    assert_eq!(found.info.name, "Kitchen");
    assert_eq!(
        found.info.seated,
        [Some("Ann".to_owned()), None, None, None]
    );

    // A person asks for North.
    let mut bea = options(
        &dir.join("bea"),
        Role::Join {
            address: Some(found.address.clone()),
            table: None,
        },
        Some("greedy"),
        "Bea",
    );
    bea.want = Some(2);
    let (btx, mut bea_rx) = mpsc::channel(4096);
    let (_bin, bin_rx) = mpsc::channel(16);
    tokio::spawn(node::run(bea, [10; 32], [11; 32], btx, bin_rx));
    let roster = wait_for(&mut hrx, |e| match e {
        NodeEvent::Table(TableEvent::Roster(r)) if r.iter().flatten().count() == 2 => {
            Some(r.clone())
        }
        _ => None,
    })
    .await;
    assert_eq!(roster[2].as_ref().unwrap().name, "Bea");

    // The host asks to start; two computer players come and take the free seats.
    hin.send(Intent::Start).await.unwrap();
    let mut keep = Vec::new();
    for i in 0..2u8 {
        let opts = options(
            &dir.join(format!("bot{i}")),
            Role::Join {
                address: Some(address.clone()),
                table: None,
            },
            Some("greedy"),
            &format!("Computer {i}"),
        );
        let (tx, mut rx) = mpsc::channel(4096);
        let (itx, irx) = mpsc::channel(16);
        keep.push(itx);
        tokio::spawn(async move { while rx.recv().await.is_some() {} });
        tokio::spawn(node::run(opts, [20 + i; 32], [30 + i; 32], tx, irx));
    }
    let config = wait_for(&mut hrx, |e| match e {
        NodeEvent::Table(TableEvent::Started(c)) => Some(c.clone()),
        _ => None,
    })
    .await;
    assert_eq!(config.names[0], "Ann");
    assert_eq!(config.names[2], "Bea");
    assert_eq!(
        config.bots, [true; 4],
        "every seat here is played by a strategy"
    );
    // Bea sees the host's link and her first hand dealt.
    wait_for(&mut bea_rx, |e| {
        matches!(
            e,
            NodeEvent::Link {
                seat: Seat::S,
                up: true
            }
        )
        .then_some(())
    })
    .await;
    wait_for(&mut bea_rx, |e| match e {
        NodeEvent::Table(TableEvent::Hand { hand_no: 1, .. }) => Some(()),
        _ => None,
    })
    .await;

    // A fifth comes to the table once its game has started: the host answers it nothing (it
    // seats nobody now), and the guest is told why it may have no seat rather than left to
    // wait in silence.
    let late = options(
        &dir.join("late"),
        Role::Join {
            address: Some(address.clone()),
            table: None,
        },
        None,
        "Cy",
    );
    let (ltx, mut late_rx) = mpsc::channel(4096);
    let (_lin, lin_rx) = mpsc::channel(16);
    tokio::spawn(node::run(late, [40; 32], [41; 32], ltx, lin_rx));
    let said = wait_for(&mut late_rx, |e| match e {
        NodeEvent::Status(s) if s.starts_with("no seat yet") => Some(s.clone()),
        _ => None,
    })
    .await;
    assert!(
        said.contains("may be full, or its game started without you"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A guest looking for a table by a name no host answers to is told that no such table was
/// found (and what to try), not that a table it never reached may be full.
#[test]
fn a_table_name_nobody_answers_to_is_said_to_be_not_found() {
    node::runtime(2).unwrap().block_on(async {
        let dir = std::env::temp_dir().join(format!("fairdeal-node-noname-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let opts = options(
            &dir,
            Role::Join {
                address: None,
                table: Some("No such table".to_owned()),
            },
            None,
            "Di",
        );
        let (tx, mut rx) = mpsc::channel(4096);
        let (_in, in_rx) = mpsc::channel(16);
        tokio::spawn(node::run(opts, [50; 32], [51; 32], tx, in_rx));
        let said = wait_for(&mut rx, |e| match e {
            NodeEvent::Status(s) if s.starts_with("no ") => Some(s.clone()),
            _ => None,
        })
        .await;
        assert!(
            said.starts_with("no table named \"No such table\" found on the LAN"),
            "{said}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    });
}
