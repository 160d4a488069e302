//! Run policies: how far a command grows the tree from a node.
//!
//! [`Session::step`] steps one node; [`Session::run`] applies a [`Policy`] (continue along
//! one path, step over, finish the frame, run to lines, the whole subtree, the first
//! exception leaf) within [`Limits`], calling `progress` with the node count after each
//! step. Results keep apart what the engine's bare `Vec<NodeId>` cannot: a step that was
//! cancelled (the node stays open) and a step with no feasible successor.

use std::sync::atomic::Ordering;

use super::Session;
use crate::engine::{Limits, LoopMode, Node, NodeId, Stop};

/// What [`Session::step`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stepped {
    /// The node's children (at least one).
    Children(Vec<NodeId>),
    /// The step happened and no successor is feasible (the node is now inner, childless).
    NoSuccessors,
    /// Cancelled inside a solver check: the step did not happen, the node stays open.
    Cancelled,
    /// The node is a leaf: nothing to step.
    Leaf,
    /// The node was stepped before (a node is stepped at most once).
    AlreadyStepped,
}

/// How far [`Session::run`] goes from its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy<'a> {
    /// Step along one path until it branches, ends, reaches an annotated loop (a person
    /// picks the transition) or, after the first step, a statement on one of these lines.
    Continue { breakpoints: &'a [usize] },
    /// Step the node; if that entered a call, run until every path is back in its frame.
    StepOver,
    /// Run until every path has left the node's frame.
    Finish,
    /// Run the subtree, leaving open the nodes about to run a statement on these lines.
    RunTo { lines: &'a [usize] },
    /// Run the whole subtree.
    Subtree,
    /// Run the subtree until a step creates an exception leaf.
    FirstException,
}

/// Why [`Session::run`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The policy's goal: the subtree is explored, every path is back in (or out of) the
    /// frame, the exception leaf is found.
    Done,
    /// Continue: a node about to run this breakpoint line.
    Breakpoint(usize),
    /// Continue: the path ended in a leaf.
    PathEnded,
    /// Continue: the path branches here. `at_start`: it already did where the command
    /// started (a person picks a branch first).
    BranchPoint {
        at_start: bool,
    },
    /// Continue: an annotated loop where both transitions exist.
    LoopChoice,
    /// Continue: the step found no feasible successor.
    NoSuccessors,
    NodeLimit,
    TimeLimit,
    /// Cancelled through the engine's cancel flag (nodes reached so far stay).
    Cancelled,
}

impl From<Stop> for Ended {
    fn from(stop: Stop) -> Ended {
        match stop {
            Stop::Done => Ended::Done,
            Stop::NodeLimit => Ended::NodeLimit,
            Stop::TimeLimit => Ended::TimeLimit,
            Stop::Cancelled => Ended::Cancelled,
        }
    }
}

/// The result of [`Session::run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ran {
    pub ended: Ended,
    /// The node to show next: where continue stopped, the first node under the start
    /// where a path stopped or ended (step over, finish, run to), the start (subtree), the
    /// exception leaf found (first exception).
    pub select: Option<NodeId>,
}

impl Session {
    /// Step an open node; `mode`: the transition at an annotated loop (default: the
    /// configuration's).
    pub fn step(&mut self, id: NodeId, mode: Option<LoopMode>) -> Stepped {
        let node = self.tree().node(id);
        if node.is_leaf() {
            return Stepped::Leaf;
        }
        if !node.is_open() {
            return Stepped::AlreadyStepped;
        }
        let children = match mode {
            Some(mode) => {
                let at_loop = self.engine.loop_choice(id);
                let children = self.engine.step_with(id, mode);
                if at_loop && !self.tree().node(id).is_open() {
                    self.choices.loops.insert(id, mode);
                }
                children
            }
            None => self.engine.step(id),
        };
        self.stepped(id, children)
    }

    /// What stepping `id` gave `children` says: children, or none because the step was
    /// cancelled (the node is still open) or because it has no successors.
    pub(super) fn stepped(&self, id: NodeId, children: Vec<NodeId>) -> Stepped {
        if !children.is_empty() {
            Stepped::Children(children)
        } else if self.tree().node(id).is_open() {
            Stepped::Cancelled
        } else {
            Stepped::NoSuccessors
        }
    }

    /// Does the open node sit at an annotated loop where a person picks the transition?
    pub fn loop_choice(&self, id: NodeId) -> bool {
        self.engine.loop_choice(id)
    }

    /// Does the open node sit at a call of a contracted function (inline it, or use the
    /// contract)?
    pub fn call_choice(&self, id: NodeId) -> bool {
        self.engine.call_choice(id)
    }

    /// Step `id` with `mode` at a call of a contracted function.
    pub fn step_call(&mut self, id: NodeId, mode: super::vocab::CallMode) -> Stepped {
        let node = self.tree().node(id);
        if node.is_leaf() {
            return Stepped::Leaf;
        }
        if !node.is_open() {
            return Stepped::AlreadyStepped;
        }
        let at_call = self.engine.call_choice(id);
        let children = self.engine.step_call(id, mode);
        if at_call && !self.tree().node(id).is_open() {
            self.choices.calls.insert(id, mode);
        }
        self.stepped(id, children)
    }

    /// Grow the tree from `from` as `policy` says, within `limits`; `progress` gets the
    /// node count after each step.
    pub fn run(
        &mut self,
        from: NodeId,
        policy: Policy,
        limits: Limits,
        progress: &dyn Fn(usize),
    ) -> Ran {
        let depth = self.tree().node(from).state.frames.len();
        let frames = |n: &Node| n.state.frames.len();
        let stop = match policy {
            Policy::Continue { breakpoints } => {
                return self.continue_from(from, breakpoints, limits, progress)
            }
            Policy::FirstException => {
                // (issue 30: subtrees proved free of exceptions are left open)
                let found = self.engine.run_to_exception(from, limits);
                return match found {
                    Ok(leaf) => Ran {
                        ended: Ended::Done,
                        select: Some(leaf),
                    },
                    Err(stop) => Ran {
                        ended: stop.into(),
                        select: None,
                    },
                };
            }
            Policy::Subtree => {
                let stop = self.engine.run_with(from, limits, &|_| false, progress);
                return Ran {
                    ended: stop.into(),
                    select: Some(from),
                };
            }
            Policy::StepOver => {
                self.engine
                    .run_with(from, limits, &|n| frames(n) <= depth, progress)
            }
            Policy::Finish => self
                .engine
                .run_with(from, limits, &|n| frames(n) < depth, progress),
            Policy::RunTo { lines } => {
                let source = &self.loaded.source;
                let at_line = |n: &Node| {
                    n.at()
                        .is_some_and(|s| lines.contains(&source.line(s.start)))
                };
                self.engine.run_with(from, limits, &at_line, progress)
            }
        };
        Ran {
            ended: stop.into(),
            select: self.first_stop(from),
        }
    }

    /// The first node under `from` (depth-first, `from` excluded) where a path stopped
    /// (open) or ended.
    pub fn first_stop(&self, from: NodeId) -> Option<NodeId> {
        let tree = self.tree();
        tree.subtree(from)
            .into_iter()
            .skip(1)
            .find(|&n| tree.node(n).children.is_empty())
    }

    /// [`Policy::Continue`].
    fn continue_from(
        &mut self,
        from: NodeId,
        breakpoints: &[usize],
        limits: Limits,
        progress: &dyn Fn(usize),
    ) -> Ran {
        let cancel = self.engine.cancel_handle();
        cancel.store(false, Ordering::Relaxed);
        let ran = |ended, at| Ran {
            ended,
            select: Some(at),
        };
        let mut cur = from;
        let mut moved = false;
        loop {
            progress(self.tree().len());
            let node = self.tree().node(cur);
            if moved {
                if let Some(line) = self.statement_line(cur) {
                    if breakpoints.contains(&line) {
                        return ran(Ended::Breakpoint(line), cur);
                    }
                }
            }
            if node.is_leaf() {
                return ran(Ended::PathEnded, cur);
            }
            if node.children.len() > 1 {
                return ran(Ended::BranchPoint { at_start: !moved }, cur);
            }
            if let [only] = &node.children[..] {
                cur = *only;
                moved = true;
                continue;
            }
            if self.loop_choice(cur) {
                return ran(Ended::LoopChoice, cur);
            }
            if cancel.load(Ordering::Relaxed) {
                return ran(Ended::Cancelled, cur);
            }
            if limits.max_nodes.is_some_and(|m| self.tree().len() >= m) {
                return ran(Ended::NodeLimit, cur);
            }
            match self.step(cur, None) {
                Stepped::Children(children) if children.len() == 1 => {
                    cur = children[0];
                    moved = true;
                }
                Stepped::Children(_) => return ran(Ended::BranchPoint { at_start: false }, cur),
                Stepped::Cancelled => return ran(Ended::Cancelled, cur),
                Stepped::NoSuccessors | Stepped::Leaf | Stepped::AlreadyStepped => {
                    return ran(Ended::NoSuccessors, cur)
                }
            }
        }
    }
}
