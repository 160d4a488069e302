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
//! The formula over-approximates where the lookahead cannot follow the walk exactly: a
//! path it cuts where the walk's paths may not be cut (`unknown`; `bound` in a loop
//! whose accounting may differ, see [`Merged`]) contributes its whole path condition. A
//! state merged with `ite` values does not enter a loop (its `--unroll` accounting would
//! differ from each path's): the lookahead starts again merging only states with the same
//! values. Loops may be folded (`--fold auto`) and calls opaque (`--no-frames`: the
//! lookahead steps through the callee); the symbols a path makes (havoc, κ) are renamed
//! apart in the formula, existential. The lookahead gives up (and the plain walk runs)
//! after [`LOOKAHEAD_STEPS`] steps.

mod bounds;
mod merge;

use std::collections::HashSet;
use std::sync::atomic::Ordering;

use super::step::Settled;
use super::{Engine, Limits, Node, NodeId, Outcome, State, Stop};
use crate::solver::SatResult;
use crate::term::{Sym, Term};

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
        // (first without the solver: the path's conjuncts as facts, intervals)
        let refuted = bounds::Facts::new(node.state.pc.iter_newest()).refutes(&prune.failure);
        let may = !refuted && {
            let pc = node.state.pc.push(prune.failure.clone());
            !matches!(self.solver.check_pc(&pc), SatResult::Unsat)
        };
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

    /// [`Engine::failure_formula`] inside a walk (the watchdog is running). The fold
    /// tables a step may change (the pending fold record, the loops whose fold was
    /// undecided) are the walk's: the lookahead leaves them as it found them.
    fn lookahead_from(&mut self, from: NodeId) -> Option<Term> {
        if self.tree.node(from).is_leaf() {
            return None;
        }
        let start = State::clone(&self.tree.node(from).state);
        let undecided = self.folds.undecided.clone();
        let pending = self.folds.pending.take();
        let found = self.lookahead(start);
        self.folds.undecided = undecided;
        self.folds.pending = pending;
        found.map(|f| self.existential(f))
    }

    /// `f` with every symbol that is not an input renamed apart (`!la` appended): the
    /// symbols a path makes (havoc, κ) are numbered per path, and a lookahead path that
    /// folded or unrolled a loop where the walk's did the other may number them
    /// differently. Renamed, they are existential: `pc ∧ f` asks whether some inputs of
    /// the node reach a failure, whatever the lookahead's own symbols.
    fn existential(&self, f: Term) -> Term {
        let mut syms = std::collections::BTreeSet::new();
        f.vars(&mut syms);
        let map: std::collections::HashMap<Sym, Term> = syms
            .into_iter()
            .filter(|s| !self.inputs.contains(s))
            .map(|s| {
                let renamed = Sym::new(&format!("{}!la", s.name), s.sort);
                (s, Term::var(renamed))
            })
            .collect();
        f.subst(&map)
    }

    /// The failure formula from `start`, or `None` (no exception found, or the
    /// lookahead gave up). A first pass merges states whatever their values (`ite`); if
    /// such a state reaches a loop, a second pass merges only states with the same
    /// values (see [`Merged`]), so that each loop is counted as on each path.
    fn lookahead(&mut self, start: State) -> Option<Term> {
        let mut budget = LOOKAHEAD_STEPS;
        match self.lookahead_pass(start.clone(), true, &mut budget) {
            Pass::Formula(f) => f,
            Pass::GiveUp => None,
            Pass::IteAtLoop => match self.lookahead_pass(start, false, &mut budget) {
                Pass::Formula(f) => f,
                Pass::GiveUp | Pass::IteAtLoop => None,
            },
        }
    }

    fn lookahead_pass(&mut self, start: State, ite: bool, budget: &mut usize) -> Pass {
        let mut pending: Vec<(State, Merged)> = vec![(start, Merged::No)];
        let mut failures: Vec<Term> = Vec::new();
        while !pending.is_empty() {
            if *budget == 0 || self.cancel.load(Ordering::Relaxed) {
                // (out of budget: the plain walk decides; a formula over every pending
                // path would cost each pruning check more than it saves)
                return Pass::GiveUp;
            }
            *budget -= 1;
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
                    if let Some((m, with_ite)) = merge::merge(&state, &other, ite) {
                        state = m;
                        let now = if with_ite { Merged::Ite } else { Merged::Pc };
                        merged = merged.max(other_merged).max(now);
                        continue;
                    }
                }
                pending.push((other, other_merged));
            }
            if merged == Merged::Ite && merge::in_loop(&state) {
                return Pass::IteAtLoop;
            }
            // (a fold's choices may depend on more than the values: under `--fold auto`
            // a merged state's cuts are not taken for its paths')
            let exact_cuts = merged == Merged::No
                || (self.config.fold == super::fold::FoldMode::Off && merge::narrowed_free(&state));
            for c in self.successors(&state, None) {
                if c.unknown_reason.is_some() {
                    failures.push(pc_term(&c.state));
                    continue;
                }
                let outcome = c.forced.or(match c.settled {
                    Settled::Done { outcome, .. } => Some(outcome),
                    Settled::Running => None,
                });
                match outcome {
                    Some(Outcome::Exception(_) | Outcome::Unknown) => {
                        failures.push(pc_term(&c.state))
                    }
                    // (a cut the walk's paths may not make here: what is below may fail)
                    Some(Outcome::Bound) if !exact_cuts => failures.push(pc_term(&c.state)),
                    Some(_) => {}
                    None => pending.push((c.state, merged)),
                }
            }
            self.folds.pending = None;
        }
        Pass::Formula((!failures.is_empty()).then(|| Term::or_all(failures)))
    }
}

/// How a lookahead pass ended.
enum Pass {
    Formula(Option<Term>),
    /// Out of budget or cancelled.
    GiveUp,
    /// A state merged with `ite` values reached a loop.
    IteAtLoop,
}

/// What a lookahead state stands for. A state merged from paths with the same values
/// ([`Merged::Pc`]) steps as each of them does, loops included: its guards are the same
/// terms, constants where theirs are, and a step forks in a loop body (counting against
/// `--unroll`, [`super::forks`]) where theirs does (a successor the path condition rules
/// out counts like a feasible one). Only the free narrowing iterations
/// ([`super::NARROWING_LIMIT`]) may differ: the merged path condition does not hold a
/// path's conjuncts one by one, so it grows where the path's did not. So its cuts are
/// the paths' cuts while no loop it is in has used them up ([`merge::narrowed_free`]) and
/// loops are not folded; otherwise a cut's path condition goes into the formula. An `ite`-merged state
/// ([`Merged::Ite`]) may turn a constant guard into a symbolic one: it does not enter
/// loops (the pass that made it is dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Merged {
    /// One path of the tree.
    No,
    /// Several paths with the same values.
    Pc,
    /// Several paths, some values `ite`s.
    Ite,
}

/// A state's path condition as one term.
fn pc_term(s: &State) -> Term {
    Term::and_all(s.pc.to_vec())
}

#[cfg(test)]
mod tests;
