//! The symbolic execution tree: an arena of nodes with stable ids.
//!
//! Node ids are indices in creation order, so a tree grown by the same steps in the same
//! order is the same tree (dumps and snapshots are deterministic).

use std::rc::Rc;

use super::state::State;
use super::tag::Tag;
use crate::base::Span;
use crate::term::Term;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// How a leaf ended: the crate's one [`Outcome`] (a leaf never ends `StepLimit`).
pub use crate::base::Outcome;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Not stepped yet.
    Open,
    /// Stepped: its children are known.
    Inner,
    Leaf(Outcome),
}

impl NodeKind {
    /// The outcome of a leaf.
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            NodeKind::Leaf(o) => Some(o),
            _ => None,
        }
    }

    /// Is this an exception leaf (of any class)?
    pub fn is_exception(self) -> bool {
        matches!(self, NodeKind::Leaf(Outcome::Exception(_)))
    }
}

#[derive(Clone, Debug)]
pub struct Node {
    pub id: NodeId,
    pub parent: Option<NodeId>,
    /// (A boxed slice, not a `Vec`: 16 bytes, no spare capacity.)
    pub children: Box<[NodeId]>,
    pub depth: u32,
    pub kind: NodeKind,
    /// The condition added on the edge from the parent (`None`: nothing was added).
    pub branch: Option<Term>,
    /// Which way the parent's step went to reach this node (`None` at the root).
    pub tag: Option<Tag>,
    /// The settled state (at a leaf: the final state).
    pub state: Rc<State>,
    /// The rare details (most nodes have none: boxed, so a node is 88 bytes, not 184;
    /// read them with the methods of the same names).
    pub(crate) details: Option<Box<Details>>,
}

/// The details few nodes have (see [`Node::details`]).
#[derive(Clone, Debug, Default)]
pub struct Details {
    /// At a `return` leaf of an entry run: the result.
    pub return_value: Option<Term>,
    /// At an exception leaf: where it was raised.
    pub exception_at: Option<Span>,
    /// At an `unknown` leaf: the solver's reason.
    pub unknown_reason: Option<String>,
    /// What this node is in the loop-scope transformation ("invariant initially valid?",
    /// "body preserves invariant?", "use case: ...", see [`super::label`]).
    pub label: Option<&'static str>,
    /// An exception leaf that is a loop invariant's failure (not initially valid, not
    /// preserved, or broken in an unrolled loop): a verification verdict no `except`
    /// catches, raised at the failing `invariant` line (`exception_at`).
    pub invariant_failure: bool,
}

impl Details {
    /// `None` when there is nothing to keep.
    pub fn boxed(self) -> Option<Box<Details>> {
        let empty = self.return_value.is_none()
            && self.exception_at.is_none()
            && self.unknown_reason.is_none()
            && self.label.is_none()
            && !self.invariant_failure;
        (!empty).then(|| Box::new(self))
    }
}

impl Node {
    /// At a `return` leaf of an entry run: the result.
    pub fn return_value(&self) -> Option<&Term> {
        self.details.as_ref()?.return_value.as_ref()
    }

    /// At an exception leaf: where it was raised.
    pub fn exception_at(&self) -> Option<Span> {
        self.details.as_ref()?.exception_at
    }

    /// At an `unknown` leaf: the solver's reason.
    pub fn unknown_reason(&self) -> Option<&str> {
        self.details.as_ref()?.unknown_reason.as_deref()
    }

    /// What this node is in the loop-scope transformation (see [`Details::label`]).
    pub fn label(&self) -> Option<&'static str> {
        self.details.as_ref()?.label
    }

    /// An exception leaf that is a loop invariant's failure (see
    /// [`Details::invariant_failure`]).
    pub fn invariant_failure(&self) -> bool {
        self.details.as_ref().is_some_and(|d| d.invariant_failure)
    }

    /// The details, for writing (made if the node had none).
    pub(crate) fn details_mut(&mut self) -> &mut Details {
        self.details.get_or_insert_with(Box::default)
    }

    pub fn is_leaf(&self) -> bool {
        matches!(self.kind, NodeKind::Leaf(_))
    }

    pub fn is_open(&self) -> bool {
        matches!(self.kind, NodeKind::Open)
    }

    pub fn outcome(&self) -> Option<Outcome> {
        match self.kind {
            NodeKind::Leaf(o) => Some(o),
            _ => None,
        }
    }
}

/// Nodes per chunk of the tree's arena.
const CHUNK: usize = 4096;

/// The tree: an arena of nodes in fixed-size chunks. A chunk is never moved, so the arena
/// grows without copying; one doubling `Vec` was copied at every growth, and with an
/// allocator that cannot move a large block in place (mimalloc, issue 30) the old copy and
/// the new one were both resident at the peak (~70 bytes a node of 18 ifs' tree).
#[derive(Clone, Debug, Default)]
pub struct Tree {
    chunks: Vec<Vec<Node>>,
    len: usize,
}

impl Tree {
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn node(&self, id: NodeId) -> &Node {
        let i = id.index();
        &self.chunks[i / CHUNK][i % CHUNK]
    }

    pub(crate) fn node_mut(&mut self, id: NodeId) -> &mut Node {
        let i = id.index();
        &mut self.chunks[i / CHUNK][i % CHUNK]
    }

    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        self.chunks.iter().flatten()
    }

    pub(crate) fn add(&mut self, mut node: Node) -> NodeId {
        let id = NodeId(self.len as u32);
        node.id = id;
        if let Some(p) = node.parent {
            let children = &mut self.node_mut(p).children;
            let mut all = std::mem::take(children).into_vec();
            all.push(id);
            *children = all.into_boxed_slice();
        }
        if self.len.is_multiple_of(CHUNK) {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        self.chunks.last_mut().expect("a chunk").push(node);
        self.len += 1;
        id
    }

    /// The ids on the path from the root to `id`, root first.
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = vec![id];
        let mut cur = id;
        while let Some(p) = self.node(cur).parent {
            out.push(p);
            cur = p;
        }
        out.reverse();
        out
    }

    /// The nodes of the subtree under `id` (itself included), in depth-first order.
    pub fn subtree(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(self.node(n).children.iter().rev());
        }
        out
    }
}
