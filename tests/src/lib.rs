//! Helpers shared by the cross-crate integration tests in `tests/tests/`.
