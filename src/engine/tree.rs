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

#[derive(Clone, Debug)]
pub struct Node {
    pub id: NodeId,
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
    pub depth: u32,
    pub kind: NodeKind,
    /// The condition added on the edge from the parent (`None`: nothing was added).
    pub branch: Option<Term>,
    /// Which way the parent's step went to reach this node (`None` at the root).
    pub tag: Option<Tag>,
    /// The settled state (at a leaf: the final state).
    pub state: Rc<State>,
    /// The statement about to run (`None` at leaves).
    pub at: Option<Span>,
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

impl Node {
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

/// The tree.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    pub(crate) fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter()
    }

    pub(crate) fn add(&mut self, mut node: Node) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        node.id = id;
        if let Some(p) = node.parent {
            self.nodes[p.index()].children.push(id);
        }
        self.nodes.push(node);
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
