//! Why a path is infeasible or undecided: unsat cores and hard constructs, on demand.
//!
//! [`Engine::explain`] takes a node and a [`Target`]:
//! - [`Target::Leaf`]: the node's own path condition (an `infeasible` leaf: why it is
//!   unsat; an `unknown` leaf: what makes it hard);
//! - [`Target::Branch`]`(cond)`: a branch of the node's step that was pruned: the goal is
//!   the node's path condition plus `cond`.
//!
//! **Conjunct indices.** Every index in an [`Explanation`] (`CoreItem::conjunct`,
//! `Feature::conjunct`) is a position in [`Engine::path_condition`]`(id)`, oldest first —
//! the order provenance is computed in, so the two join by index. For a branch, index
//! `path_condition(id).len()` is the branch condition itself (and `CoreItem::goal` says so).
//! A conjunct that is an `and` is split into its parts (`term::features::split_parts`); a
//! core names the parts, each with its conjunct's index.
//!
//! The goal given to [`Solver::core`] (whose precondition is that the rest is satisfiable):
//! for a branch, the branch condition's parts (the node's own path condition is satisfiable:
//! it is a node); for a leaf, the parts its last edge added (its parent, a stepped node, is
//! satisfiable); the root has no parent and no goal (each component is checked).
//!
//! An `unknown` leaf gets no full core check (it would only time out again): its features
//! are listed, then one **relaxation** check drops the parts that hold them: unsat →
//! infeasible even without them (with that core), sat → undecided because of them. Any
//! other target whose core check answers `unknown` gets the same relaxation. The total
//! budget is four times the per-check timeout; the cancel flag ([`Engine::cancel_handle`])
//! stops it (`Verdict::Unknown(Unknown::Interrupted)`). Nothing is cached here (the session layer
//! may); the tree is never changed.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::{Engine, NodeId, NodeKind, Outcome};
use crate::solver::{CoreAnswer, Unknown};
use crate::term::features::{self, Feature};
use crate::term::Term;

/// What to explain at a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// The node's own path condition (an infeasible or unknown leaf).
    Leaf,
    /// A branch condition pruned at the node: the node's path condition and `cond`.
    Branch(Term),
}

/// The conclusion of an explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Unsatisfiable; `core` says why.
    Infeasible,
    /// Undecided as a whole, but unsatisfiable without the parts holding `features`;
    /// `core` (free of them) says why.
    InfeasibleWithoutFeatures,
    /// Satisfiable without the parts holding `features`: undecided because of them.
    Undecided,
    /// Satisfiable: nothing to explain (the branch was not pruned, the leaf is feasible).
    Feasible,
    /// No answer: timeout, interrupted, too many parts, or Z3's reason.
    Unknown(Unknown),
}

/// One member of an unsat core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreItem {
    /// Index into the node's path condition (see the module doc); for a branch, its length
    /// means the branch condition.
    pub conjunct: usize,
    /// The branch condition of [`Target::Branch`] (then `conjunct` is the pc's length).
    pub goal: bool,
    /// The part of the conjunct that is in the core (the conjunct itself unless it is an
    /// `and`).
    pub part: Term,
}

/// The answer of [`Engine::explain`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    pub verdict: Verdict,
    /// Ordered by conjunct, then part; empty unless the verdict is infeasible.
    pub core: Vec<CoreItem>,
    /// Dropping any one member of `core` makes the rest satisfiable (checked by Z3).
    pub minimal: bool,
    /// The hard constructs of the conjuncts (`term::features`), whatever the verdict.
    pub features: Vec<Feature>,
    /// Z3 checks made.
    pub checks: usize,
    pub time: Duration,
}

impl Engine {
    /// Explain why `target` at node `id` is infeasible or undecided (see the module doc).
    /// Clears the cancel flag first, like [`Engine::step`]; never changes the tree.
    pub fn explain(&mut self, id: NodeId, target: Target) -> Explanation {
        self.cancel.store(false, Ordering::Relaxed);
        let cancel = self.cancel.clone();
        crate::solver::interruptible(&cancel, || self.explain_inner(id, target))
    }

    fn explain_inner(&mut self, id: NodeId, target: Target) -> Explanation {
        let start = Instant::now();
        let calls = self.solver.stats().z3_calls;
        let mut conjuncts = self.path_condition(id);
        let node = self.tree.node(id);
        let unknown_leaf = matches!(node.kind, NodeKind::Leaf(Outcome::Unknown));
        let goal_from = match &target {
            Target::Branch(cond) => {
                conjuncts.push(cond.clone());
                Some(conjuncts.len() - 1)
            }
            Target::Leaf => node
                .parent
                .map(|p| self.tree.node(p).state.pc.len().min(conjuncts.len())),
        };
        let branch = matches!(target, Target::Branch(_));
        let split = features::split_parts(&conjuncts);
        let parts: Vec<Term> = split.iter().map(|(_, t)| t.clone()).collect();
        let goal: Vec<usize> = match goal_from {
            Some(from) => (0..split.len()).filter(|&k| split[k].0 >= from).collect(),
            None => Vec::new(),
        };
        let feats = features::features(&conjuncts);
        let budget = self.config.timeout_ms.map_or(Duration::MAX, |ms| {
            Duration::from_millis(ms.saturating_mul(4))
        });
        let deadline = Instant::now().checked_add(budget);
        let cancel = self.cancel.clone();
        let first = if unknown_leaf && !feats.is_empty() {
            CoreAnswer::Unknown(Unknown::Other("skipped".into()))
        } else {
            self.solver.core(&parts, &goal, budget, Some(&cancel))
        };
        let item = |k: usize| CoreItem {
            conjunct: split[k].0,
            goal: branch && split[k].0 + 1 == conjuncts.len(),
            part: split[k].1.clone(),
        };
        let (verdict, core, minimal) = match first {
            CoreAnswer::Unsat { core, minimal } => (
                Verdict::Infeasible,
                core.into_iter().map(item).collect(),
                minimal,
            ),
            CoreAnswer::Sat => (Verdict::Feasible, Vec::new(), false),
            CoreAnswer::Unknown(r) if r == Unknown::Interrupted || feats.is_empty() => {
                (Verdict::Unknown(r), Vec::new(), false)
            }
            CoreAnswer::Unknown(_) => {
                // Relaxation: the parts without hard constructs (a conjunct `a and b`
                // with a hard `a` keeps `b`).
                let kept: Vec<usize> = (0..split.len())
                    .filter(|&k| features::term_features(&split[k].1).is_empty())
                    .collect();
                let sub: Vec<Term> = kept.iter().map(|&k| parts[k].clone()).collect();
                let sub_goal: Vec<usize> = (0..kept.len())
                    .filter(|&j| goal.contains(&kept[j]))
                    .collect();
                let left = deadline.map_or(Duration::MAX, |d| {
                    d.saturating_duration_since(Instant::now())
                });
                if !goal.is_empty() && sub_goal.is_empty() {
                    // Only the satisfiable rest is left (the precondition of `core`).
                    (Verdict::Undecided, Vec::new(), false)
                } else {
                    match self.solver.core(&sub, &sub_goal, left, Some(&cancel)) {
                        CoreAnswer::Unsat { core, minimal } => (
                            Verdict::InfeasibleWithoutFeatures,
                            core.into_iter().map(|j| item(kept[j])).collect(),
                            minimal,
                        ),
                        CoreAnswer::Sat => (Verdict::Undecided, Vec::new(), false),
                        CoreAnswer::Unknown(r) => (Verdict::Unknown(r), Vec::new(), false),
                    }
                }
            }
        };
        Explanation {
            verdict,
            core,
            minimal,
            features: feats,
            checks: usize::try_from(self.solver.stats().z3_calls - calls).unwrap_or(usize::MAX),
            time: start.elapsed(),
        }
    }
}
