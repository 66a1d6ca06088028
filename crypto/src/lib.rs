//! fairdeal-crypto: identities, signed hash-chained logs and the mental-poker deal.
//!
//! Nothing is implemented here yet: the fair-deal protocol is the next piece of work (see
//! `docs/ARCHITECTURE.md`). The crate exists so that the workspace has its final shape.
