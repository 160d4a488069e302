//! A fold leaf that is `unknown` falls back to unrolling (issue 31).
//!
//! A path below a fold's exit can end `unknown` where the unrolled loop decides the same
//! paths: a quantifier over κ that Z3 cannot settle, or a recursive `@predicate` applied to
//! κ that unfolds past its depth limit, where each unrolled iteration count is a constant.
//! When a step makes such a leaf, the fold node gets one more child, its *fallback*: the
//! fold's own head state again (the same path condition, tag [`Tag::Fallback`]), whose
//! loop is stepped classically from then on (the loop's key joins the fold's undecided
//! loops, like a fold whose own check was undecided). Exploring the fallback unrolls κ = 0
//! up to `--unroll` iterations; every undecided leaf of that fold points at it. One
//! fallback per fold node: a second undecided leaf below the same fold is covered by the
//! first's.
//!
//! The tree grows only by steps: the fallback is made by the step that made the `unknown`
//! leaf, so the same steps give the same tree (node ids included).

use std::collections::HashMap;

use super::super::step::{self, Action, Settled};
use super::super::tag::Tag;
use super::super::{Engine, NodeId, NodeKind, Outcome};
use super::{recursion, LoopKey};

/// The fallbacks of the tree's folds.
#[derive(Default)]
pub(in crate::engine) struct Fallbacks {
    /// Fold node → its fallback node.
    by_fold: HashMap<NodeId, NodeId>,
    /// Fallback node → its fold node.
    fold_of: HashMap<NodeId, NodeId>,
    /// An undecided leaf below a fold → the fold's fallback node.
    covered: HashMap<NodeId, NodeId>,
    /// Fallback nodes made since the exploration loop last looked (it explores them).
    fresh: Vec<NodeId>,
}

impl Fallbacks {
    /// The fold node whose fallback `id` is.
    pub(in crate::engine) fn fold_of(&self, id: NodeId) -> Option<NodeId> {
        self.fold_of.get(&id).copied()
    }
}

impl Engine {
    /// After a step made `children`: give the fold above each `unknown` one a fallback.
    pub(in crate::engine) fn fold_fallbacks(&mut self, children: &[NodeId]) {
        for &c in children {
            if self.tree.node(c).kind != NodeKind::Leaf(Outcome::Unknown) {
                continue;
            }
            let Some(fold) = self.fold_above(c) else {
                continue;
            };
            let fallback = match self.folds.fallbacks.by_fold.get(&fold) {
                Some(&f) => f,
                None => self.add_fallback(fold),
            };
            self.folds.fallbacks.covered.insert(c, fallback);
        }
    }

    /// The fold whose exit is on the path to `id`, nearest first; `None` when the path
    /// reaches a fallback first (the loop there is unrolled already).
    fn fold_above(&self, id: NodeId) -> Option<NodeId> {
        let mut cur = Some(id);
        while let Some(n) = cur {
            if self.folds.fallbacks.fold_of.contains_key(&n) {
                return None;
            }
            if let Some(exit) = self.folds.exits.get(&n) {
                return Some(exit.fold);
            }
            cur = self.tree.node(n).parent;
        }
        None
    }

    /// Make the fallback child of fold node `fold`, its loop stepped classically.
    fn add_fallback(&mut self, fold: NodeId) -> NodeId {
        let state = (*self.tree.node(fold).state).clone();
        for key in self.loop_keys(&state) {
            self.folds.undecided.insert(key);
        }
        let id = self.add_node(
            Some(fold),
            None,
            Some(Tag::Fallback),
            state,
            Settled::Running,
            None,
        );
        let f = &mut self.folds.fallbacks;
        f.by_fold.insert(fold, id);
        f.fold_of.insert(id, fold);
        f.fresh.push(id);
        id
    }

    /// The keys under which a fold at `state` is looked up (see [`Engine::fold_successors`]).
    fn loop_keys(&self, state: &super::State) -> Vec<LoopKey> {
        if let Some(Action::Guard { block, index, .. }) = step::next_action(state) {
            return vec![(block.as_ptr() as usize, index, state.func().cloned())];
        }
        let Some(func) = recursion::at_entry(state, &self.ir) else {
            return Vec::new();
        };
        let body = self.ir.functions[&*func].body.as_ptr() as usize;
        vec![
            (body, usize::MAX, Some(func.clone())),
            (body, usize::MAX - 1, Some(func)),
        ]
    }

    /// The fallbacks made since the last call (the exploration loop explores them).
    pub(in crate::engine) fn take_fresh_fallbacks(&mut self) -> Vec<NodeId> {
        std::mem::take(&mut self.folds.fallbacks.fresh)
    }

    /// The fallback of the fold whose undecided leaf `id` is: the fold's loop unrolled
    /// instead (issue 31).
    pub fn fallback_for(&self, id: NodeId) -> Option<NodeId> {
        self.folds.fallbacks.covered.get(&id).copied()
    }

    /// The fold node whose fallback `id` is (issue 31).
    pub fn fallback_of(&self, id: NodeId) -> Option<NodeId> {
        self.folds.fallbacks.fold_of(id)
    }

    /// The undecided leaves that fallback node `id` stands in for, in id order.
    pub fn fallback_covers(&self, id: NodeId) -> Vec<NodeId> {
        let mut out: Vec<NodeId> = (self.folds.fallbacks.covered.iter())
            .filter(|(_, &f)| f == id)
            .map(|(&l, _)| l)
            .collect();
        out.sort();
        out
    }

    /// How many fallbacks the tree has.
    pub fn fallback_count(&self) -> usize {
        self.folds.fallbacks.by_fold.len()
    }
}
