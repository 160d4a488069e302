//! Counters another thread may read while the engine explores (`run`'s progress line):
//! the leaves added so far and the solver checks made so far, kept up to date by the
//! engine at every node it adds and after every step of an exploration.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// See the module docs; shared through [`super::Engine::live`].
#[derive(Debug, Default)]
pub struct Live {
    leaves: AtomicUsize,
    solver_checks: AtomicU64,
}

impl Live {
    /// Leaves added to the tree since the engine was built.
    pub fn leaves(&self) -> usize {
        self.leaves.load(Ordering::Relaxed)
    }

    /// Solver checks since the engine was built, as of the last step of an exploration.
    pub fn solver_checks(&self) -> u64 {
        self.solver_checks.load(Ordering::Relaxed)
    }

    pub(super) fn leaf_added(&self) {
        self.leaves.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn set_solver_checks(&self, n: u64) {
        self.solver_checks.store(n, Ordering::Relaxed);
    }
}
