//! The first exception leaf whatever the branch order (issue 30 item 1).
//!
//! [`Engine::run_to`] with an exception target walks the tree depth-first: on `N`
//! independent `if`s whose only failing path is the last one, it enumerates `2^N` paths
//! first. [`Engine::run_to_exception`] finds the same leaf without them:
//!
//! 1. a short plain walk ([`WARM_STEPS`]: a failure early in the walk's order costs
//!    nothing more);
//! 2. a lookahead from the start node that steps states without making nodes and merges
//!    the states that meet at one program point ([`merge`]: seed 001's m→1 merging, the
//!    formula kept exact); every exception successor's path condition goes into one
//!    failure formula `F`, the disjunction of the path conditions of every exception
//!    leaf under the start node (the lookahead steps with the tree's own transition, so
//!    its unmerged states are the tree's states);
//! 3. the same walk goes on, in its own order, skipping every open node whose path condition and
//!    `F` are unsatisfiable together: no exception leaf is under it. The nodes skipped
//!    stay open (the rest of the tree is explored later, when asked for), and the leaf
//!    found is the one the plain walk would find, with the same path: only subtrees
//!    without exception leaves were left out.
//!
//! The lookahead gives up (and the plain walk runs) when it meets an `unknown`, when a
//! merged state reaches a loop (loop bounds depend on which conditions are constants),
//! after [`LOOKAHEAD_STEPS`] steps, under opaque calls or with folded loops.

mod merge;

use std::collections::HashSet;
use std::sync::atomic::Ordering;

use super::step::Settled;
use super::{Engine, Limits, Node, NodeId, Outcome, State, Stop};
use crate::solver::SatResult;
use crate::term::Term;

/// Steps of the plain walk before the lookahead starts.
pub const WARM_STEPS: usize = 48;

/// Steps (successor computations) the lookahead may take before it gives up.
pub const LOOKAHEAD_STEPS: usize = 20_000;

/// A search under way: the failure formula (not `true`) and what the walk learnt of
/// the open nodes it popped.
pub(super) struct Prune {
    failure: Term,
    /// Nodes whose path condition and the failure formula may hold together.
    may: HashSet<NodeId>,
    /// Nodes proved to have no exception leaf under them (left open).
    cannot: HashSet<NodeId>,
}

fn is_exception(n: &Node) -> bool {
    n.kind.is_exception()
}

impl Engine {
    /// The first exception leaf under `from` in the walk's order (`limits.strategy`),
    /// exploring like [`Engine::run_to`] but skipping subtrees proved to hold none; `Err`:
    /// why the exploration stopped without one.
    pub fn run_to_exception(&mut self, from: NodeId, limits: Limits) -> Result<NodeId, Stop> {
        self.run_to_exception_after(from, limits, WARM_STEPS)
    }

    /// [`Engine::run_to_exception`] with `warm` steps of plain walk first (one walk: the
    /// lookahead runs between two of its steps, the walk's order is kept).
    pub fn run_to_exception_after(
        &mut self,
        from: NodeId,
        limits: Limits,
        warm: usize,
    ) -> Result<NodeId, Stop> {
        self.warm = Some(warm);
        let found = self.run_to(from, limits, &is_exception);
        self.warm = None;
        self.prune = None;
        found
    }

    /// Called by the walk before each step of a directed search: after the warm steps,
    /// the lookahead from `from`, then the pruning (when the lookahead found a formula
    /// other than `true`: every path may fail).
    pub(super) fn directed_tick(&mut self, from: NodeId) {
        match self.warm {
            Some(0) => {
                self.warm = None;
                let failure = self.lookahead_from(from).filter(|f| !f.is_true());
                self.prune = failure.map(|failure| Prune {
                    failure,
                    may: Default::default(),
                    cannot: Default::default(),
                });
            }
            Some(k) => self.warm = Some(k - 1),
            None => {}
        }
    }

    /// May an exception leaf be under the open node `id`? `false` only when its path
    /// condition contradicts the failure formula of the search under way. A node whose
    /// parent may fail and whose siblings were all proved not to (the children of a step
    /// partition its inputs), or whose path condition is its parent's, may fail: no check.
    pub(super) fn may_fail(&mut self, id: NodeId) -> bool {
        let Some(prune) = self.prune.as_mut() else {
            return true;
        };
        let node = self.tree.node(id);
        if let Some(p) = node.parent.filter(|p| prune.may.contains(p)) {
            let parent = self.tree.node(p);
            let others_cannot = parent
                .children
                .iter()
                .all(|&c| c == id || prune.cannot.contains(&c));
            if others_cannot || node.state.pc.ptr_eq(&parent.state.pc) {
                prune.may.insert(id);
                return true;
            }
        }
        let pc = node.state.pc.push(prune.failure.clone());
        let may = !matches!(self.solver.check_pc(&pc), SatResult::Unsat);
        let prune = self.prune.as_mut().expect("set above");
        if may {
            prune.may.insert(id);
        } else {
            prune.cannot.insert(id);
        }
        may
    }

    /// The failure formula of the subtree under `from` (see the module documentation);
    /// `None` when the lookahead gave up or found no exception.
    pub fn failure_formula(&mut self, from: NodeId) -> Option<Term> {
        self.cancel.store(false, Ordering::Relaxed);
        let cancel = self.cancel.clone();
        crate::solver::interruptible(&cancel, || self.lookahead_from(from))
    }

    /// [`Engine::failure_formula`] inside a walk (the watchdog is running).
    fn lookahead_from(&mut self, from: NodeId) -> Option<Term> {
        if !self.config.frames
            || self.config.fold != super::fold::FoldMode::Off
            || self.tree.node(from).is_leaf()
        {
            return None;
        }
        self.lookahead(State::clone(&self.tree.node(from).state))
    }

    fn lookahead(&mut self, start: State) -> Option<Term> {
        // (state, merged from several paths)
        let mut pending: Vec<(State, bool)> = vec![(start, false)];
        let mut failures: Vec<Term> = Vec::new();
        let mut steps = 0;
        while !pending.is_empty() {
            let positions: Vec<Vec<usize>> = pending
                .iter()
                .map(|(s, _)| merge::position(&s.cont))
                .collect();
            let k = (0..pending.len())
                .min_by(|&i, &j| merge::earlier(&positions[i], &positions[j]))
                .expect("pending is not empty");
            let mut chosen = None;
            let mut rest = Vec::with_capacity(pending.len());
            for (i, (entry, pos)) in pending.drain(..).zip(positions).enumerate() {
                if i == k {
                    chosen = Some((entry, pos));
                } else {
                    rest.push((entry, pos));
                }
            }
            let ((mut state, mut merged), pos) = chosen.expect("k is an index of pending");
            for ((other, other_merged), other_pos) in rest {
                if other_pos == pos {
                    if let Some(m) = merge::merge(&state, &other) {
                        state = m;
                        merged = true;
                        continue;
                    }
                }
                pending.push((other, other_merged));
            }
            if merged && merge::in_loop(&state) {
                return None;
            }
            steps += 1;
            if steps > LOOKAHEAD_STEPS || self.cancel.load(Ordering::Relaxed) {
                return None;
            }
            for c in self.successors(&state, None) {
                if c.unknown_reason.is_some() {
                    return None;
                }
                let outcome = c.forced.or(match c.settled {
                    Settled::Done { outcome, .. } => Some(outcome),
                    Settled::Running => None,
                });
                match outcome {
                    Some(Outcome::Exception(_)) => {
                        failures.push(Term::and_all(c.state.pc.to_vec()));
                    }
                    Some(Outcome::Unknown) => return None,
                    Some(_) => {}
                    None => pending.push((c.state, merged)),
                }
            }
        }
        (!failures.is_empty()).then(|| Term::or_all(failures))
    }
}

#[cfg(test)]
mod tests;
