//! The relay's limits, at the level they act: a relay on loopback with small limits, and
//! plain libp2p peers that reserve and open circuits through it. A flood through a circuit
//! is cut off at its byte limit; a circuit or a reservation past the relay's room is
//! refused.

#![expect(clippy::unwrap_used, reason = "test set-up")]

use std::time::Duration;

use fairdeal_net::node::relay::{RelayEvent, RelayLimits, circuit_listen, serve};
use futures::StreamExt;
use libp2p::multiaddr::Protocol;
use libp2p::swarm::NetworkBehaviour;
use libp2p::{Multiaddr, PeerId, Swarm, noise, ping, relay, tcp, yamux};
use tokio::sync::mpsc;

#[derive(NetworkBehaviour)]
struct Client {
    relay: relay::client::Behaviour,
    ping: ping::Behaviour,
}

/// A peer that speaks through relays; `flood` makes it ping as fast as it can (a stand-in
/// for a peer pushing bytes through a circuit).
fn client(seed: u8, flood: bool) -> Swarm<Client> {
    let key = libp2p::identity::Keypair::ed25519_from_bytes([seed; 32]).unwrap();
    libp2p::SwarmBuilder::with_existing_identity(key)
        .with_tokio()
        .with_tcp(
            tcp::Config::default(),
            noise::Config::new,
            yamux::Config::default,
        )
        .unwrap()
        .with_relay_client(noise::Config::new, yamux::Config::default)
        .unwrap()
        .with_behaviour(|_, relay| Client {
            relay,
            ping: ping::Behaviour::new(ping::Config::new().with_interval(if flood {
                Duration::from_millis(1)
            } else {
                Duration::from_secs(15)
            })),
        })
        .unwrap()
        .with_swarm_config(|c| c.with_idle_connection_timeout(Duration::from_secs(60)))
        .build()
}

/// Starts a relay on loopback with `limits`; its address and its events.
async fn start_relay(limits: RelayLimits) -> (Multiaddr, mpsc::Receiver<RelayEvent>) {
    let (tx, mut rx) = mpsc::channel(256);
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let _keep = stop_tx;
        serve(
            [7; 32],
            "/ip4/127.0.0.1/tcp/0".parse().unwrap(),
            limits,
            tx,
            stop_rx,
        )
        .await
    });
    loop {
        if let Some(RelayEvent::Listening(a)) = rx.recv().await {
            return (a, rx);
        }
    }
}

/// Drives `swarms` until `done` says so of an event of the relay, or `within` passes.
async fn run_until(
    swarms: &mut [Swarm<Client>],
    events: &mut mpsc::Receiver<RelayEvent>,
    within: Duration,
    mut done: impl FnMut(&RelayEvent) -> bool,
) -> Option<RelayEvent> {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let polls = futures::future::select_all(swarms.iter_mut().map(|s| s.select_next_some()));
        tokio::select! {
            _ = polls => {}
            e = events.recv() => {
                let e = e?;
                if done(&e) {
                    return Some(e);
                }
            }
            () = tokio::time::sleep_until(deadline) => return None,
        }
    }
}

/// A listener that reserved a place at `relay` (driven until it listens there).
async fn reserved(
    seed: u8,
    relay: &Multiaddr,
    events: &mut mpsc::Receiver<RelayEvent>,
) -> Swarm<Client> {
    let mut s = client(seed, false);
    s.listen_on(circuit_listen(relay)).unwrap();
    let me = *s.local_peer_id();
    let mut v = [s];
    let got = run_until(
        &mut v,
        events,
        Duration::from_secs(20),
        |e| matches!(e, RelayEvent::Reserved(p) if *p == me),
    )
    .await;
    assert!(got.is_some(), "no reservation for {me}");
    let [s] = v;
    s
}

fn through(relay: &Multiaddr, peer: PeerId) -> Multiaddr {
    circuit_listen(relay).with(Protocol::P2p(peer))
}

fn small() -> RelayLimits {
    RelayLimits {
        reservations: 2,
        reservations_per_peer: 1,
        circuits: 1,
        circuits_per_peer: 1,
        circuit_duration: Duration::from_secs(60),
        circuit_bytes: 16 * 1024,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_through_a_circuit_is_cut_at_its_byte_limit() {
    let (relay, mut events) = start_relay(small()).await;
    let listener = reserved(1, &relay, &mut events).await;
    let target = *listener.local_peer_id();
    let mut flooder = client(2, true);
    flooder.dial(through(&relay, target)).unwrap();
    let mut swarms = [listener, flooder];
    let opened = run_until(&mut swarms, &mut events, Duration::from_secs(20), |e| {
        matches!(e, RelayEvent::CircuitOpened { .. })
    })
    .await;
    assert!(opened.is_some(), "the circuit never opened");
    // Pings every millisecond are a few hundred KiB a minute: the 16 KiB are gone in
    // well under a second, and the relay closes the circuit for it.
    let cut = run_until(&mut swarms, &mut events, Duration::from_secs(30), |e| {
        matches!(e, RelayEvent::CircuitClosed { .. })
    })
    .await;
    assert!(
        matches!(cut, Some(RelayEvent::CircuitClosed { cut: true, .. })),
        "the flood was not cut at the byte limit: {cut:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reservations_and_circuits_past_the_limits_are_refused() {
    let (relay, mut events) = start_relay(small()).await;
    let a = reserved(1, &relay, &mut events).await;
    let b = reserved(2, &relay, &mut events).await;
    // The relay holds two reservations: a third player gets none.
    let mut c = client(3, false);
    c.listen_on(circuit_listen(&relay)).unwrap();
    let mut swarms = [a, b, c];
    let refused = run_until(&mut swarms, &mut events, Duration::from_secs(20), |e| {
        matches!(e, RelayEvent::Refused(_) | RelayEvent::Reserved(_))
    })
    .await;
    assert!(
        matches!(&refused, Some(RelayEvent::Refused(w)) if w.contains("reservation")),
        "a reservation past the limit: {refused:?}"
    );
    // One circuit at the relay: a second one is refused while the first is open.
    let [a, b, mut c] = swarms;
    let (ta, tb) = (*a.local_peer_id(), *b.local_peer_id());
    c.dial(through(&relay, ta)).unwrap();
    c.dial(through(&relay, tb)).unwrap();
    let mut swarms = [a, b, c];
    let mut opened = 0;
    let refused = run_until(&mut swarms, &mut events, Duration::from_secs(20), |e| {
        if matches!(e, RelayEvent::CircuitOpened { .. }) {
            opened += 1;
        }
        matches!(e, RelayEvent::Refused(_))
    })
    .await;
    assert!(
        matches!(&refused, Some(RelayEvent::Refused(w)) if w.contains("circuit")),
        "a circuit past the relay's room: {refused:?}"
    );
    assert!(
        opened <= 1,
        "{opened} circuits opened where there is room for one"
    );
}
