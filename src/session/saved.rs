//! The explored tree as steps that can be replayed: what a saved session file
//! (`tui/session_file.rs`) and a reload of the program (`L` in the TUI) carry over of the
//! tree, without any IO.
//!
//! Node ids are creation indices, so they mean nothing in another session; a node is named
//! by how it is reached from the root instead. [`Session::frontier`] lists every stepped
//! node as one [`FrontierStep`]: the child index under an earlier step's node (the root's
//! step has none), so the list stays linear in the tree's size where absolute paths of
//! child indices would be quadratic on long paths, and the transition used
//! ([`StepKind`]: at an annotated loop, the [`LoopMode`] a person picked with `s`/`u`; at a
//! loop head, the fold `F` forced against `--fold`; or
//! the configuration's default for steps taken by a run). The steps are listed in the
//! order they were taken (by the id of the first child each step made), so
//! [`Session::replay_frontier`] on the same program with the same configuration rebuilds
//! the same tree with the same node ids. On a changed program a step whose node no longer
//! exists (or is a leaf now) is skipped and counted: what still applies is restored.
//!
//! Paths of child indices ([`Session::path_to`], [`Session::follow`]) name one node, the
//! selection.

use std::collections::HashMap;
use std::sync::atomic::Ordering;

use super::{Session, Stepped};
use crate::engine::fold::FoldMode;
use crate::engine::{CallMode, LoopMode, NodeId};

/// The transitions a person picked, per stepped node: at annotated loops (`Session::step`
/// with a mode) and at loop heads folded or unfolded against `--fold` (`F`).
#[derive(Clone, Debug, Default)]
pub struct Choices {
    pub(super) loops: HashMap<NodeId, LoopMode>,
    pub(super) folds: HashMap<NodeId, FoldMode>,
    /// At calls of contracted functions: inline or use the contract (`i`/`o`).
    pub(super) calls: HashMap<NodeId, CallMode>,
}

/// How a node was stepped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// The ordinary step (no annotated loop here).
    Default,
    /// A step at a `while` with invariants, with this transition.
    Loop(LoopMode),
    /// A loop head stepped with `--fold` set to this for the step (`F`): folded (`Auto`)
    /// or classically (`Off`).
    Fold(FoldMode),
    /// A call of a contracted function stepped with this transition (issue 28).
    Call(CallMode),
}

/// One stepped node of a saved tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrontierStep {
    /// `None`: the root. `Some((k, i))`: the `i`-th child (0-based) of the node that step
    /// `k` (an earlier entry of the list) stepped.
    pub at: Option<(usize, u32)>,
    pub step: StepKind,
}

/// What [`Session::replay_frontier`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replayed {
    /// Steps taken.
    pub stepped: usize,
    /// Steps whose node does not exist (the program or the options changed).
    pub missing: usize,
    /// Steps whose node exists but is a leaf or was stepped already.
    pub skipped: usize,
    /// Esc (the engine's cancel flag) stopped the replay; the rest was not tried.
    pub cancelled: bool,
    /// The tree reached the node limit; the rest was not tried.
    pub limited: bool,
}

impl Replayed {
    /// Did every step apply?
    pub fn complete(&self) -> bool {
        self.missing == 0 && self.skipped == 0 && !self.cancelled && !self.limited
    }
}

impl Session {
    /// The child indices from the root to `id` (the root: empty).
    pub fn path_to(&self, id: NodeId) -> Vec<u32> {
        let tree = self.tree();
        let mut out = Vec::new();
        let mut cur = id;
        while let Some(p) = tree.node(cur).parent {
            let k = tree.node(p).children.iter().position(|&c| c == cur);
            out.push(k.unwrap_or(0) as u32);
            cur = p;
        }
        out.reverse();
        out
    }

    /// The node at the end of `path`, or the deepest node along it that exists; with the
    /// number of indices followed (`path.len()`: all of them).
    pub fn follow(&self, path: &[u32]) -> (NodeId, usize) {
        let tree = self.tree();
        let mut cur = tree.root();
        for (n, &k) in path.iter().enumerate() {
            match tree.node(cur).children.get(k as usize) {
                Some(&c) => cur = c,
                None => return (cur, n),
            }
        }
        (cur, path.len())
    }

    /// The node at the end of `path` (child indices from the root, [`Session::path_to`]),
    /// stepping the nodes on the way that are still open (ordinary steps, with their
    /// solver checks); `None` if the path leaves the tree. `check --jobs` names a
    /// worker's unit of the tree so.
    pub fn walk(&mut self, path: &[u32]) -> Option<NodeId> {
        let mut cur = self.tree().root();
        for &k in path {
            if self.tree().node(cur).is_open() {
                self.step(cur, None);
            }
            cur = *self.tree().node(cur).children.get(k as usize)?;
        }
        Some(cur)
    }

    /// Every stepped node, in the order the steps were taken (see the module doc).
    pub fn frontier(&self) -> Vec<FrontierStep> {
        let tree = self.tree();
        let mut stepped: Vec<NodeId> = tree
            .nodes()
            .filter(|n| !n.is_open() && !n.is_leaf())
            .map(|n| n.id)
            .collect();
        // A step made its children: their ids tell when it was taken. A step without
        // children goes after its own node was made (ties: the parent first).
        let key = |id: NodeId| {
            let n = tree.node(id);
            (n.children.first().copied().unwrap_or(id), n.depth)
        };
        stepped.sort_by_key(|&id| key(id));
        let index: HashMap<NodeId, usize> =
            stepped.iter().enumerate().map(|(k, &id)| (id, k)).collect();
        stepped
            .iter()
            .map(|&id| {
                let node = tree.node(id);
                let at = node.parent.map(|p| {
                    let i = tree.node(p).children.iter().position(|&c| c == id);
                    (index[&p], i.unwrap_or(0) as u32)
                });
                let step = if let Some(&fold) = self.choices.folds.get(&id) {
                    StepKind::Fold(fold)
                } else if let Some(&mode) = self.choices.calls.get(&id) {
                    StepKind::Call(mode)
                } else if let Some(&mode) = self.choices.loops.get(&id) {
                    StepKind::Loop(mode)
                } else if self.engine.at_annotated_loop(id) {
                    StepKind::Loop(self.config().loops)
                } else {
                    StepKind::Default
                };
                FrontierStep { at, step }
            })
            .collect()
    }

    /// Take the steps of a [`Session::frontier`] (of this or another session of the same
    /// program) in order; `progress` gets the node count after each step. Stops early when
    /// the engine's cancel flag is set (Esc) or the tree has `max_nodes` nodes (a session
    /// file is not trusted: it may name millions of steps).
    pub fn replay_frontier(
        &mut self,
        steps: &[FrontierStep],
        max_nodes: usize,
        progress: &dyn Fn(usize),
    ) -> Replayed {
        // One Z3 watchdog for all the steps (each step outside one would start its own).
        crate::solver::with_watchdog(|| self.replay_steps(steps, max_nodes, progress))
    }

    fn replay_steps(
        &mut self,
        steps: &[FrontierStep],
        max_nodes: usize,
        progress: &dyn Fn(usize),
    ) -> Replayed {
        let cancel = self.engine.cancel_handle();
        cancel.store(false, Ordering::Relaxed);
        let mut out = Replayed::default();
        // The node each step names (`None`: it does not exist here).
        let mut nodes: Vec<Option<NodeId>> = Vec::with_capacity(steps.len());
        for (k, s) in steps.iter().enumerate() {
            let node = match s.at {
                None => Some(self.tree().root()),
                // Only earlier steps can be referred to (a hostile file cannot loop).
                Some((from, i)) if from < k => {
                    nodes[from].and_then(|p| self.tree().node(p).children.get(i as usize).copied())
                }
                Some(_) => None,
            };
            nodes.push(node);
            let Some(id) = node else {
                out.missing += 1;
                continue;
            };
            if !self.tree().node(id).is_open() {
                out.skipped += 1;
                continue;
            }
            if cancel.load(Ordering::Relaxed) {
                out.cancelled = true;
                break;
            }
            if self.tree().len() >= max_nodes {
                out.limited = true;
                break;
            }
            let stepped = match s.step {
                StepKind::Default => self.step(id, None),
                StepKind::Loop(m) => self.step(id, Some(m)),
                StepKind::Fold(m) => self.step_fold(id, m),
                StepKind::Call(m) => self.step_call(id, m),
            };
            match stepped {
                Stepped::Cancelled => {
                    out.cancelled = true;
                    break;
                }
                _ => out.stepped += 1,
            }
            progress(self.tree().len());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::SourceMap;
    use crate::engine::{Config, Limits};
    use crate::session::Policy;

    fn open(src: &str) -> Session {
        Session::open(SourceMap::new("t.py", src), None, Config::default()).unwrap()
    }

    /// Every node as (parent, line, kind) in id order: two sessions with equal shapes
    /// built the same tree.
    fn shape(s: &Session) -> Vec<(Option<u32>, Option<usize>, String)> {
        s.tree()
            .nodes()
            .map(|n| {
                (
                    n.parent.map(|p| p.0),
                    s.node_line(n.id),
                    format!("{:?}", n.kind),
                )
            })
            .collect()
    }

    const LOOP: &str = "\
t: tuple
i = 0
s = 0
while i < len(t):
    invariant 0 <= i <= len(t)
    s += t[i]
    i += 1
if s > 3:
    assert i > 0
";

    #[test]
    fn a_replayed_frontier_rebuilds_the_same_tree_with_the_same_ids() {
        let mut a = open(LOOP);
        let root = a.tree().root();
        // By hand: step to the loop, unroll once there, then let a run do the rest of one
        // branch, and apply the invariant at the loop head reached after the unrolling.
        let mut at = root;
        while !a.loop_choice(at) {
            let Stepped::Children(c) = a.step(at, None) else {
                panic!("steps to the loop")
            };
            at = c[0];
        }
        let Stepped::Children(c) = a.step(at, Some(LoopMode::UnrollOnce)) else {
            panic!("unrolls")
        };
        a.run(c[0], Policy::Subtree, Limits::default(), &|_| {});
        let frontier = a.frontier();
        assert!(frontier
            .iter()
            .any(|s| s.step == StepKind::Loop(LoopMode::UnrollOnce)));
        assert_eq!(frontier[0].at, None);
        let mut b = open(LOOP);
        let r = b.replay_frontier(&frontier, usize::MAX, &|_| {});
        assert!(r.complete(), "{r:?}");
        assert_eq!(r.stepped, frontier.len());
        assert_eq!(shape(&a), shape(&b));
        // Replaying again steps nothing.
        let again = b.replay_frontier(&frontier, usize::MAX, &|_| {});
        assert_eq!(again.stepped, 0);
        assert_eq!(again.skipped, frontier.len());
        // Paths name the same nodes in both.
        for n in a.tree().nodes() {
            let p = a.path_to(n.id);
            assert_eq!(b.follow(&p), (n.id, p.len()));
        }
    }

    #[test]
    fn a_run_at_an_annotated_loop_records_the_default_transition() {
        let mut a = open(LOOP);
        a.run(a.tree().root(), Policy::Subtree, Limits::default(), &|_| {});
        let loops: Vec<_> = a
            .frontier()
            .into_iter()
            .filter(|s| matches!(s.step, StepKind::Loop(_)))
            .collect();
        assert_eq!(loops.len(), 1, "{loops:?}");
        assert_eq!(loops[0].step, StepKind::Loop(LoopMode::Invariant));
        // Replayed in a session whose default is to unroll, the tree is the same.
        let config = Config {
            loops: LoopMode::Unroll,
            ..Config::default()
        };
        let mut b = Session::open(SourceMap::new("t.py", LOOP), None, config).unwrap();
        assert!(b
            .replay_frontier(&a.frontier(), usize::MAX, &|_| {})
            .complete());
        assert_eq!(shape(&a), shape(&b));
    }

    #[test]
    fn steps_that_no_longer_apply_are_counted_not_taken() {
        let mut a = open("x: int\nif x > 0:\n    y = 1\nelse:\n    y = 2\nz = y\n");
        a.run(a.tree().root(), Policy::Subtree, Limits::default(), &|_| {});
        let frontier = a.frontier();
        // The new program has no branch: only the root's chain applies.
        let mut b = open("x: int\ny = 1\nz = y\n");
        let r = b.replay_frontier(&frontier, usize::MAX, &|_| {});
        assert!(r.stepped >= 1 && r.missing + r.skipped > 0, "{r:?}");
        assert!(!r.complete());
        // Hostile steps: forward and self references, huge child indices.
        let bad = vec![
            FrontierStep {
                at: Some((0, 0)),
                step: StepKind::Default,
            },
            FrontierStep {
                at: Some((5, 0)),
                step: StepKind::Default,
            },
            FrontierStep {
                at: None,
                step: StepKind::Default,
            },
            FrontierStep {
                at: Some((2, u32::MAX)),
                step: StepKind::Default,
            },
        ];
        let mut c = open("x: int\ny = 1\n");
        let r = c.replay_frontier(&bad, usize::MAX, &|_| {});
        assert_eq!((r.stepped, r.missing), (1, 3), "{r:?}");
    }

    #[test]
    fn esc_stops_a_replay_between_steps() {
        let mut a = open(LOOP);
        a.run(a.tree().root(), Policy::Subtree, Limits::default(), &|_| {});
        let frontier = a.frontier();
        assert!(frontier.len() > 3);
        let mut b = open(LOOP);
        let cancel = b.engine.cancel_handle();
        // Esc during the second step's progress report: two steps, then the replay stops.
        let calls = std::cell::Cell::new(0);
        let r = b.replay_frontier(&frontier, usize::MAX, &|_| {
            calls.set(calls.get() + 1);
            if calls.get() == 2 {
                cancel.store(true, Ordering::Relaxed);
            }
        });
        assert!(r.cancelled, "{r:?}");
        assert_eq!(r.stepped, 2);
        // Replaying again goes on from there (the cancel flag is cleared).
        let rest = b.replay_frontier(&frontier, usize::MAX, &|_| {});
        assert_eq!((rest.stepped, rest.skipped), (frontier.len() - 2, 2));
        assert_eq!(shape(&a), shape(&b));
    }

    #[test]
    fn a_replay_stops_at_the_node_limit() {
        let mut a = open(LOOP);
        a.run(a.tree().root(), Policy::Subtree, Limits::default(), &|_| {});
        let frontier = a.frontier();
        assert!(a.tree().len() > 6);
        let mut b = open(LOOP);
        let r = b.replay_frontier(&frontier, 5, &|_| {});
        assert!(r.limited && !r.complete(), "{r:?}");
        // A step adds a few children at most: the limit is met, not overshot by a subtree.
        assert!((5..10).contains(&b.tree().len()), "{}", b.tree().len());
        assert!(r.stepped < frontier.len());
    }

    #[test]
    fn follow_stops_at_the_deepest_existing_node() {
        let mut s = open("x: int\nif x > 0:\n    y = 1\nz = 2\n");
        s.run(s.tree().root(), Policy::Subtree, Limits::default(), &|_| {});
        assert_eq!(s.follow(&[]), (NodeId(0), 0));
        let (n, k) = s.follow(&[1, 0, 7, 7]);
        assert_eq!(k, 2);
        assert_eq!(s.path_to(n), vec![1, 0]);
        assert_eq!(s.follow(&[u32::MAX]), (NodeId(0), 0));
    }
}
