//! The fairdeal application: the command line (and later the desktop client).

#![forbid(unsafe_code)]

pub mod arena;
pub mod bench;
pub mod bench_crypto;
pub mod bench_net;
pub mod check;
pub mod cli;
pub mod gui;
pub mod local;
pub mod peer;
pub mod replay;
pub mod selfplay;
pub mod table_words;
pub mod terminal;
pub mod verify;
pub mod watch;
