//! The counters a status line shows about the tree: nodes by kind, the `bound` leaves by
//! the bound that cut them, the solver's work, and the symbolic coverage of the lines.

use super::Session;

/// Counters of the tree, plain data.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeStats {
    pub nodes: usize,
    pub open: usize,
    pub leaves: usize,
    pub exceptions: usize,
    pub bounds: usize,
    /// `bound` leaves cut by `--unroll` and by `--recursion` (they add up to `bounds`).
    pub cut_unroll: usize,
    pub cut_recursion: usize,
    /// Of those, how many replay concretely to a `RecursionError` ([`super::cuts`]).
    pub cut_recursion_error: usize,
    pub solver_checks: u64,
    pub solver_ms: u64,
    /// Symbolic coverage of every counted line (issue 29: the code pane's gutter).
    pub coverage: std::collections::BTreeMap<usize, super::LineCoverage>,
}

impl Session {
    /// The tree's counters now.
    pub fn tree_stats(&mut self) -> TreeStats {
        let s = self.engine.stats();
        let cuts = self.cuts();
        TreeStats {
            nodes: s.nodes,
            open: s.open,
            leaves: s.leaves,
            exceptions: s.exceptions,
            bounds: s.bounds,
            cut_unroll: cuts.unroll,
            cut_recursion: cuts.recursion,
            cut_recursion_error: cuts.recursion_error,
            solver_checks: s.solver.checks,
            solver_ms: s.solver.z3_time.as_millis() as u64,
            coverage: self.coverage().lines,
        }
    }
}
