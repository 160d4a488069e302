//! `check --jobs`: what workers send back (`Send` data: behaviours, verdicts and values,
//! no terms) and how
//! the main thread merges it into the sequential [`Report`], with the sequential node ids.
//!
//! Node ids. The sequential run explores depth-first: stepping a node gives its children
//! consecutive ids, and once a node is stepped its whole subtree is created before
//! anything else (the stack discipline). So in the sequential tree a frontier node `f`'s
//! descendants get one contiguous range of ids, in the order a depth-first run from `f`
//! alone creates them: a worker's ids `start..end` for the subtree map to
//! `base(f) + (id − start)`. [`sequential_ids`] finds every top node's id and every
//! `base(f)` by replaying the sequential order over the top tree's shape, each frontier
//! node standing for its subtree's size.

use std::collections::BTreeMap;

use super::{Behaviour, Counterexample, LeafCheck, Options, Report, Undecided};
use crate::session::{NodeId, Value};

/// [`super::InputRun`] with the inputs, as a worker sends it.
#[derive(Clone, Debug)]
pub(super) struct InputOut {
    pub inputs: BTreeMap<String, Value>,
    /// `None`: skipped; `Some(None)`: unfinished; `Some(Some(b))`: ran.
    pub run: Option<Option<Behaviour>>,
}

/// One candidate whose path condition holds under one input, in a worker's numbering.
#[derive(Clone, Debug)]
pub(super) struct HitOut {
    pub input: usize,
    pub node: u32,
    /// Open, `bound` or `unknown` ([`super::undecided_leaf`]).
    pub undecided: bool,
    /// The leaf's behaviour under the input; `None`: cannot be evaluated in Rust.
    pub symbolic: Option<Behaviour>,
}

/// Back on the main thread: a worker's verdict about `leaf` (its id in the one-thread
/// tree), a wrong leaf's counterexample naming it.
fn with_leaf(check: LeafCheck, leaf: NodeId) -> LeafCheck {
    match check {
        LeafCheck::Wrong(mut c) => {
            c.leaf = Some(leaf);
            LeafCheck::Wrong(c)
        }
        other => other,
    }
}

/// The top tree's shape as every worker explored it: each node's children, and which
/// open nodes are the frontier (in the order the units number them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TopShape {
    pub children: Vec<Vec<u32>>,
    pub frontier: Vec<u32>,
}

/// Sequential ids: of every top node, and `base` of each frontier node (the id of its
/// subtree's first node below it); `sizes[j]`: frontier node `j`'s subtree, itself
/// included.
pub(super) fn sequential_ids(top: &TopShape, sizes: &[usize]) -> (Vec<u32>, Vec<u32>) {
    let mut ids = vec![0u32; top.children.len()];
    let mut base = vec![0u32; top.frontier.len()];
    let frontier: std::collections::HashMap<u32, usize> = top
        .frontier
        .iter()
        .enumerate()
        .map(|(j, &f)| (f, j))
        .collect();
    let mut next = 1u32;
    let mut stack = vec![0u32];
    while let Some(n) = stack.pop() {
        if let Some(&j) = frontier.get(&n) {
            base[j] = next;
            next += sizes[j] as u32 - 1;
            continue;
        }
        let children = &top.children[n as usize];
        for &c in children {
            ids[c as usize] = next;
            next += 1;
        }
        stack.extend(children.iter().rev());
    }
    (ids, base)
}

/// Maps one worker's node ids to sequential ids.
pub(super) struct IdMap<'a> {
    pub top: &'a [u32],
    pub base: &'a [u32],
    /// The worker's subtrees: (frontier index, first id, end), by first id.
    pub subtrees: &'a [(usize, u32, u32)],
}

impl IdMap<'_> {
    pub(super) fn get(&self, local: u32) -> NodeId {
        if (local as usize) < self.top.len() {
            return NodeId(self.top[local as usize]);
        }
        let k = self
            .subtrees
            .partition_point(|&(_, start, _)| start <= local)
            - 1;
        let (j, start, end) = self.subtrees[k];
        debug_assert!(local < end);
        NodeId(self.base[j] + (local - start))
    }
}

/// The candidates that hold under one input (sequential id, undecided, behaviour), and
/// whether some candidate could not be evaluated.
pub(super) type InputHits = (Vec<(NodeId, bool, Option<Behaviour>)>, bool);

/// What every worker found, in sequential ids.
pub(super) struct Found {
    pub inputs: Vec<InputOut>,
    /// Every unit tested the inputs `0..complete` (the rest only some units).
    pub complete: usize,
    /// Per input: the hits (sequential id, undecided, symbolic), and whether some
    /// candidate could not be evaluated.
    pub hits: Vec<InputHits>,
    /// Precision verdicts of the claiming leaves.
    pub leaves: Vec<(NodeId, LeafCheck)>,
}

/// The sequential [`super::check_with`]'s report from the workers' findings; `None` if it
/// needs an input past [`Found::complete`].
pub(super) fn report(options: &Options, mut found: Found) -> Option<Report> {
    let mut exhaustive = None;
    let mut undecided = 0;
    let mut unevaluated = 0;
    let mut unfinished = 0;
    let (mut rejected, mut compared) = (0, 0);
    for (i, (input, (hits, any_undecided))) in found.inputs.iter().zip(&mut found.hits).enumerate()
    {
        if i >= found.complete {
            return None;
        }
        let concrete = match &input.run {
            None => {
                rejected += 1;
                continue;
            }
            Some(None) => {
                unfinished += 1;
                continue;
            }
            Some(Some(c)) => c,
        };
        hits.sort_by_key(|h| h.0);
        let first = hits.first();
        if first.is_none() && *any_undecided {
            unevaluated += 1;
            continue;
        }
        if options.undecided == Undecided::Skip && first.is_some_and(|h| h.1) {
            undecided += 1;
            continue;
        }
        let symbolic = match first {
            Some((_, _, None)) => {
                unevaluated += 1;
                continue;
            }
            Some((_, _, Some(b))) => Some(b),
            None => None,
        };
        compared += 1;
        if symbolic != Some(concrete) {
            exhaustive = Some(Counterexample {
                inputs: input.inputs.clone(),
                concrete: concrete.clone(),
                symbolic: symbolic.cloned(),
                leaf: first.map(|h| h.0),
            });
            break;
        }
    }
    found.leaves.sort_by_key(|l| l.0);
    let verdicts = found
        .leaves
        .into_iter()
        .map(|(leaf, verdict)| (leaf, with_leaf(verdict, leaf)));
    let (precise, checked, not_replayed) =
        crate::check::tally(verdicts, &mut unevaluated, &mut unfinished);
    Some(Report {
        runs: options.runs,
        exhaustive,
        precise,
        leaves_checked: checked,
        undecided,
        unevaluated,
        unfinished,
        rejected,
        compared,
        not_replayed,
        // `--calls contract` is checked on one thread (`cli/check.rs`).
        broken: None,
        contracts_broken: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A root with children [a (inner: two leaves), b (leaf), f (frontier, subtree of 4)]:
    /// the sequential run numbers a=1, b=2, f=3, a's leaves 4, 5, then f's subtree 6..8.
    #[test]
    fn sequential_ids_follow_depth_first_creation_order() {
        // Local (breadth-first) ids: 0 root, 1 a, 2 b, 3 f, 4 and 5 a's leaves.
        let top = TopShape {
            children: vec![vec![1, 2, 3], vec![4, 5], vec![], vec![], vec![], vec![]],
            frontier: vec![3],
        };
        let (ids, base) = sequential_ids(&top, &[4]);
        assert_eq!(ids, vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(base, vec![6]);
        // A worker that explored f as ids 6..9 of its own tree (after the 6 top nodes).
        let map = IdMap {
            top: &ids,
            base: &base,
            subtrees: &[(0, 6, 9)],
        };
        assert_eq!(map.get(2), NodeId(2));
        assert_eq!(map.get(8), NodeId(8));
    }

    /// Two frontier nodes under different parents: the second subtree's base comes after
    /// the first subtree and the nodes created in between.
    #[test]
    fn frontier_bases_count_the_subtrees_before_them() {
        // root → [x, y]; x → [f0, l]; y → [f1]. Sequential: x=1, y=2, f0=3, l=4,
        // f0's subtree (size 3) 5..6, then y stepped: f1=7, f1's subtree (size 2) 8.
        let top = TopShape {
            children: vec![vec![1, 2], vec![3, 4], vec![5], vec![], vec![], vec![]],
            frontier: vec![3, 5],
        };
        let (ids, base) = sequential_ids(&top, &[3, 2]);
        assert_eq!(ids, vec![0, 1, 2, 3, 4, 7]);
        assert_eq!(base, vec![5, 8]);
    }
}
