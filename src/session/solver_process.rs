//! What a front-end sets up around the solver: the watchdog thread that enforces time
//! limits (`with_watchdog`, one per process), and the isolation of hard queries in a
//! child process whose IO the front-end owns (`cli/worker.rs` implements [`Isolator`] and
//! the child's [`serve_isolated`] loop; the wire format and `END` line are the solver's).

pub use crate::solver::{
    isolate_hard_queries, serve_isolated, with_watchdog, Asked, Isolator, END,
};
