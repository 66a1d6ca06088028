//! fairdeal-net: the table session state machine and the libp2p event loop.
//!
//! Nothing is implemented here yet: tables over libp2p come after the fair deal (see
//! `docs/ARCHITECTURE.md`). The crate exists so that the workspace has its final shape.
