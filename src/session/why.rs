//! "Why", for clients: the engine's provenance, pruned branches, caught exceptions and
//! explanations joined into plain data with lines (what the CLI's `--explain` and the
//! TUI's `p`/`w` print).
//!
//! - [`Session::origins`]: each path-condition conjunct with the line, node and transition
//!   that added it (parallel to [`Engine::path_condition`](crate::engine::Engine::path_condition));
//! - [`Session::pruned_branches`]: the alternatives of a stepped node that were infeasible
//!   (no solver);
//! - [`Session::why`]: an explanation of a leaf or of a pruned branch, with its core mapped
//!   to conditions and lines. Cached per `(node, target)` in the session (an interrupted
//!   answer is not cached); cancellable through the engine's cancel handle
//!   ([`Session::cancel_handle`]).
//!
//! **The goal of a pruned branch** is what its path would have added: `given` (the callee's
//! earlier branches under an opaque call; empty otherwise) and `cond`, passed to
//! [`Engine::explain`](crate::engine::Engine::explain) as one conjunction, which the engine
//! splits into parts: core members from it are the branch's (its line and transition).

use crate::base::span::line_name;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::Session;
use crate::engine::explain::{Target, Verdict};
use crate::engine::{NodeId, NodeKind, Outcome, Tag};
use crate::term::Term;

/// Where a path-condition conjunct came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConjunctOrigin {
    /// The conjunct (minipy).
    pub condition: String,
    pub term: Term,
    /// The line of the statement whose step added it.
    pub line: usize,
    /// The node whose step added it.
    pub node: NodeId,
    /// Which way that step went ("then", "enter the loop", ...).
    pub transition: String,
    /// The function that step was in (`None`: module code).
    pub function: Option<String>,
    /// The contract clause that step checked or assumed, if it was a contract's step.
    pub contract: Option<crate::lang::Clause>,
}

/// An alternative of a step that was infeasible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrunedBranch {
    /// Its position in [`Session::pruned_branches`] (the target [`WhyTarget::Pruned`]).
    pub index: usize,
    /// The condition it would have added (minipy).
    pub branch: String,
    /// `branch` as people read it (below a fold: normalised, [`super::term_shown`]).
    pub branch_shown: String,
    /// `given` and `cond` of the engine's [`Pruned`](crate::engine::Pruned), as one term.
    pub goal: Term,
    /// The line of its step, and its tag in words ("else", "IndexError at 4:9").
    pub line: usize,
    pub transition: String,
    /// Which way the step would have gone.
    pub tag: Tag,
}

/// What to explain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WhyTarget {
    /// An infeasible or unknown leaf.
    Leaf,
    /// The k-th of [`Session::pruned_branches`] at the node.
    Pruned(usize),
}

/// One member of a core: a condition and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreEntry {
    /// Index into the node's path condition (its length: the pruned branch's condition).
    pub conjunct: usize,
    /// The part of the conjunct in the core (minipy).
    pub condition: String,
    pub term: Term,
    pub line: usize,
    /// The node whose step added it (for a pruned branch's own condition: the node).
    pub node: NodeId,
    pub transition: String,
    /// Part of the pruned branch's condition (not of the path condition).
    pub goal: bool,
}

/// A hard construct of an undecided path, with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HardPart {
    /// `nonlinear`, `quantifier`, ...
    pub kind: &'static str,
    /// The subterm (minipy).
    pub term: String,
    /// `term` as people read it (below a fold: normalised, [`super::term_shown`]).
    pub term_shown: String,
    pub line: usize,
}

/// An explanation for clients.
#[derive(Clone, Debug, PartialEq)]
pub struct Why {
    pub verdict: Verdict,
    pub core: Vec<CoreEntry>,
    pub minimal: bool,
    pub features: Vec<HardPart>,
    pub checks: usize,
    pub time_ms: f64,
}

impl Why {
    /// The verdict's name in JSON: `infeasible`, `infeasible_without_features`,
    /// `undecided`, `feasible`, `unknown`.
    pub fn verdict_name(&self) -> &'static str {
        match self.verdict {
            Verdict::Infeasible => "infeasible",
            Verdict::InfeasibleWithoutFeatures => "infeasible_without_features",
            Verdict::Undecided => "undecided",
            Verdict::Feasible => "feasible",
            Verdict::Unknown(_) => "unknown",
        }
    }

    /// One line: "infeasible: 2 conditions clash — line 2 (assume), line 5 (then)",
    /// "undecided because of: nonlinear x * x (line 3)", "unknown (timeout)".
    pub fn summary(&self) -> String {
        let lines = |core: &[CoreEntry]| {
            core.iter()
                .map(|c| format!("{} ({})", line_name(c.line), c.transition))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let hard = || {
            self.features
                .iter()
                .map(|f| format!("{} {} ({})", f.kind, f.term, line_name(f.line)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match &self.verdict {
            Verdict::Infeasible => format!(
                "infeasible: {} — {}",
                clash(self.core.len()),
                lines(&self.core)
            ),
            Verdict::InfeasibleWithoutFeatures => format!(
                "infeasible even without {}: {} — {}",
                hard(),
                clash(self.core.len()),
                lines(&self.core)
            ),
            Verdict::Undecided => format!("undecided because of: {}", hard()),
            Verdict::Feasible => "feasible: nothing rules it out".to_string(),
            Verdict::Unknown(r) => format!("no explanation ({r})"),
        }
    }
}

/// What an unsat core of `n` conditions says: "2 conditions clash", "1 condition cannot
/// hold" (one alone is false).
pub fn clash(n: usize) -> String {
    match n {
        1 => "1 condition cannot hold".to_string(),
        n => format!("{n} conditions clash"),
    }
}

/// Explanations computed so far, per `(node, target)`.
#[derive(Default)]
pub struct WhyCache(HashMap<(NodeId, WhyTarget), Rc<Why>>);

impl Session {
    /// Each conjunct of the node's path condition (oldest first, parallel to
    /// `Engine::path_condition`) with its origin. No solver.
    pub fn origins(&self, id: NodeId) -> Vec<ConjunctOrigin> {
        self.engine
            .provenance(id, self.source())
            .into_iter()
            .map(|(term, o)| ConjunctOrigin {
                condition: term.to_string(),
                term,
                line: o.line,
                node: o.node,
                transition: o.transition,
                function: o.function,
                contract: o.tag.contract_clause(),
            })
            .collect()
    }

    /// The infeasible alternatives of a stepped node's step (empty elsewhere). No solver.
    pub fn pruned_branches(&self, id: NodeId) -> Vec<PrunedBranch> {
        self.engine
            .pruned(id, self.source())
            .into_iter()
            .enumerate()
            .map(|(index, p)| {
                let goal = Term::and_all(p.given.iter().cloned().chain([p.cond.clone()]));
                PrunedBranch {
                    index,
                    branch: p.cond.to_string(),
                    branch_shown: super::term_shown(&p.cond),
                    goal,
                    line: p.line,
                    transition: p.text,
                    tag: p.tag,
                }
            })
            .collect()
    }

    /// "IndexError raised at line 5, caught at line 9" at a node about to run a handler.
    pub fn caught_text(&self, id: NodeId) -> Option<String> {
        self.engine.caught(id).map(|c| c.text(self.source()))
    }

    /// Is there something for [`Session::why`] to explain at this leaf?
    pub fn explainable_leaf(&self, id: NodeId) -> bool {
        matches!(
            self.tree().node(id).kind,
            NodeKind::Leaf(Outcome::Infeasible | Outcome::Unknown)
        )
    }

    /// The flag that interrupts [`Session::why`] (and steps) from another thread.
    pub fn cancel_handle(&self) -> Arc<AtomicBool> {
        self.engine.cancel_handle()
    }

    /// An explanation already computed, if any.
    pub fn cached_why(&self, id: NodeId, target: WhyTarget) -> Option<Rc<Why>> {
        self.why_cache.0.get(&(id, target)).cloned()
    }

    /// Explain a leaf or a pruned branch (`None`: no such pruned branch). Computed once per
    /// `(node, target)`; an interrupted computation is not kept.
    pub fn why(&mut self, id: NodeId, target: WhyTarget) -> Option<Rc<Why>> {
        if let Some(w) = self.cached_why(id, target) {
            return Some(w);
        }
        let origins = self.origins(id);
        let (engine_target, branch) = match target {
            WhyTarget::Leaf => (Target::Leaf, None),
            WhyTarget::Pruned(k) => {
                let p = self.pruned_branches(id).into_iter().nth(k)?;
                (Target::Branch(p.goal.clone()), Some(p))
            }
        };
        let ex = self.engine.explain(id, engine_target);
        // Where conjunct k came from (k == origins.len(): the pruned branch).
        let place = |k: usize| -> (usize, NodeId, String) {
            match (origins.get(k), &branch) {
                (Some(o), _) => (o.line, o.node, o.transition.clone()),
                (None, Some(b)) => (b.line, id, b.transition.clone()),
                (None, None) => (0, id, String::new()),
            }
        };
        let core = ex
            .core
            .iter()
            .map(|c| {
                let (line, node, transition) = place(c.conjunct);
                CoreEntry {
                    conjunct: c.conjunct,
                    condition: c.part.to_string(),
                    term: c.part.clone(),
                    line,
                    node,
                    transition,
                    goal: c.goal || c.conjunct >= origins.len(),
                }
            })
            .collect();
        let features = ex
            .features
            .iter()
            .map(|f| HardPart {
                kind: f.kind.name(),
                term: f.term.to_string(),
                term_shown: super::term_shown(&f.term),
                line: place(f.conjunct).0,
            })
            .collect();
        let why = Rc::new(Why {
            verdict: ex.verdict.clone(),
            core,
            minimal: ex.minimal,
            features,
            checks: ex.checks,
            time_ms: ex.time.as_secs_f64() * 1000.0,
        });
        if ex.verdict != Verdict::Unknown(crate::solver::Unknown::Interrupted) {
            self.why_cache.0.insert((id, target), Rc::clone(&why));
        }
        Some(why)
    }
}

/// Every explanation of a tree: each stepped node's pruned branches and each infeasible or
/// unknown leaf ([`Session::explain_all`]).
#[derive(Default)]
pub struct Explained {
    pub pruned: HashMap<NodeId, Vec<(PrunedBranch, Rc<Why>)>>,
    pub leaves: HashMap<NodeId, Rc<Why>>,
}

impl Session {
    /// Explain the whole tree (what `run --explain` prints): one watchdog thread around all
    /// the checks. Never changes the tree.
    pub fn explain_all(&mut self) -> Explained {
        let ids: Vec<(NodeId, NodeKind)> = self.tree().nodes().map(|n| (n.id, n.kind)).collect();
        crate::solver::with_watchdog(|| {
            let mut out = Explained::default();
            for (id, kind) in ids {
                if kind == NodeKind::Inner {
                    let pruned = self.pruned_branches(id);
                    let whys = pruned
                        .into_iter()
                        .filter_map(|p| {
                            let w = self.why(id, WhyTarget::Pruned(p.index))?;
                            Some((p, w))
                        })
                        .collect();
                    out.pruned.insert(id, whys);
                } else if self.explainable_leaf(id) {
                    if let Some(w) = self.why(id, WhyTarget::Leaf) {
                        out.leaves.insert(id, w);
                    }
                }
            }
            out
        })
    }
}
