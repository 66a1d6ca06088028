//! Cross-crate integration tests live in `tests/tests/`; this library is empty on purpose (the
//! package exists to depend on every crate at once).

#![forbid(unsafe_code)]
