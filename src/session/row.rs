//! A node as a debugger's tree row shows it: the node's [`NodeView`] and what the row adds
//! (the edge's condition as people read it, the label, the leaf summary, and what `F` and
//! `=` can do there), plain data that crosses threads. The TUI's worker sends these; the
//! UI mirrors them.

use super::{Form, NodeView, Session};
use crate::engine::{NodeId, NodeKind};

/// One node of the tree as a debugger's rows show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeRow {
    pub view: NodeView,
    /// The condition the edge from the parent added (minipy syntax), if any.
    pub branch: Option<String>,
    /// The conditions before it imply `branch` (a frame's exit label leaves it out).
    pub branch_implied: bool,
    /// The fold's label, or else the engine's label of the edge or what the node
    /// caught ([`NodeView::note`]).
    pub label: Option<String>,
    /// What a leaf says: `normal  x = -x`, `AssertionError at line 9`, `bound`, ...
    /// ([`Form::Row`]).
    pub summary: String,
    /// The node sits at an annotated loop (open: both transitions are offered); the same
    /// whether the node is still open or was stepped.
    pub at_annotated_loop: bool,
    /// Folded loops at the node (issue 15): `F` and `=`.
    pub fold: FoldMark,
}

/// What `F` and `=` can do at a node (issue 15).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FoldMark {
    /// An open node at a `while`'s condition: `F` folds or unfolds it.
    pub loop_head: bool,
    /// The node is a fold node.
    pub fold_node: bool,
    /// The κ that `=` instantiates here (`κ1`): the node's fold's or the nearest above.
    pub kappa: Option<String>,
}

impl NodeRow {
    pub fn id(&self) -> NodeId {
        self.view.id
    }

    pub fn parent(&self) -> Option<NodeId> {
        self.view.parent
    }

    pub fn kind(&self) -> NodeKind {
        self.view.kind
    }

    pub fn is_open(&self) -> bool {
        self.view.kind == NodeKind::Open
    }

    pub fn is_leaf(&self) -> bool {
        matches!(self.view.kind, NodeKind::Leaf(_))
    }

    /// Is this an exception leaf (of any class)?
    pub fn is_exception(&self) -> bool {
        self.view.kind.is_exception()
    }

    /// 1-based line of the statement about to run, or where the exception was raised.
    pub fn place(&self) -> Option<usize> {
        self.view.place
    }

    /// Frames on the call stack (1: module code).
    pub fn frames(&self) -> usize {
        self.view.frames
    }

    /// The innermost frame's function (`None`: module code).
    pub fn func(&self) -> Option<&str> {
        self.view.func.as_deref()
    }
}

impl Session {
    /// The row of node `id`.
    pub fn row(&self, id: NodeId) -> NodeRow {
        let view = self.view(id);
        let branch = self.branch_shown_as(id);
        NodeRow {
            branch_implied: branch.as_ref().is_some_and(|b| b.implied),
            branch: branch.map(|b| b.text),
            label: self
                .fold_label(id)
                .or_else(|| view.note().map(str::to_string)),
            summary: view.text(Form::Row),
            at_annotated_loop: self.engine.at_annotated_loop(id),
            fold: FoldMark {
                loop_head: self.at_loop_head(id),
                fold_node: self.is_fold_node(id),
                kappa: self.fold_param_name(id),
            },
            view,
        }
    }

    /// Is `id` a fold node (a loop head stepped folded)?
    pub fn is_fold_node(&self, id: NodeId) -> bool {
        self.engine.fold_at(id).is_some()
    }
}
