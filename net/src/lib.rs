//! fairdeal-net: playing a hand between four peers that trust nobody.
//!
//! ```text
//!   bytes in ──▶ HandSession::handle_message ──▶ (verify signature, chain, protocol step)
//!                         │
//!   UI/bot ──▶ submit(Move) ─┤          rules replica (core, hidden cards unknown)
//!                         ▼
//!   bytes out ◀── poll_transmit        events ◀── poll_event (dealt, moves, audit, faults)
//! ```
//!
//! The hand session is pure (sans-IO): no sockets, no clock, no randomness of its own (the
//! hand seed is passed in). The libp2p event loop that carries its bytes between machines is
//! the next piece of work.

#![forbid(unsafe_code)]

pub mod hand;
pub mod node;
pub mod playback;
pub mod seat_wire;
pub mod store;
pub mod table;
pub mod transcript;
pub mod watch;
