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
    /// The λ `=` may set here too (`λ1`): a two-parameter fold's (issue 27).
    pub lambda: Option<String>,
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
                lambda: self.fold_lambda_name(id),
            },
            view,
        }
    }

    /// Is `id` a fold node (a loop head stepped folded)?
    pub fn is_fold_node(&self, id: NodeId) -> bool {
        self.engine.fold_at(id).is_some()
    }
}

#[cfg(test)]
mod tests {
    use crate::base::SourceMap;
    use crate::session::{Config, Limits, NodeId, NodeKind, Policy, Session};

    fn open(src: &str) -> Session {
        Session::open(SourceMap::new("t.py", src), None, Config::default()).unwrap()
    }

    /// A row sent before its node was stepped and one sent after say the same about the
    /// annotated loop (a replayed session steps before it sends); the view's
    /// `loop_choice` is the open node's offer only.
    #[test]
    fn a_row_marks_the_annotated_loop_whether_stepped_or_not() {
        let mut s = open("x: int\ni = 0\nwhile i < x:\n    invariant 0 <= i\n    i += 1\n");
        let mut id = NodeId(0);
        while !s.row(id).view.statement.starts_with("while") {
            s.step(id, None);
            id = *s.tree().node(id).children.first().expect("a successor");
        }
        let open = s.row(id);
        assert!(open.at_annotated_loop && open.view.loop_choice && open.is_open());
        s.step(id, None);
        let stepped = s.row(id);
        assert_eq!(stepped.kind(), NodeKind::Inner);
        assert!(stepped.at_annotated_loop && !stepped.view.loop_choice);
        // The rest of the row is the node's view.
        assert_eq!(stepped.view, s.view(id));
        assert_eq!(stepped.place(), Some(3));
    }

    #[test]
    fn tree_stats_count_the_tree_and_details_list_names_in_natural_order() {
        let mut s = open("x: int\na10 = 1\na2 = 2\nif x > 0:\n    y = 1 // (x - 1)\n");
        s.run(NodeId(0), Policy::Subtree, Limits::default(), &|_| {});
        let stats = s.tree_stats();
        let leaves: Vec<NodeId> = s
            .tree()
            .nodes()
            .filter(|n| n.is_leaf())
            .map(|n| n.id)
            .collect();
        assert_eq!(stats.nodes, s.tree().len());
        assert_eq!(stats.leaves, leaves.len());
        assert_eq!(stats.exceptions, 1);
        assert_eq!(stats.open, 0);
        let normal = leaves
            .iter()
            .copied()
            .find(|&l| s.row(l).kind() == NodeKind::Leaf(crate::base::Outcome::Normal))
            .expect("a normal leaf");
        let names: Vec<String> = s
            .details(normal)
            .store
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(&names[..3], ["a2", "a10", "x"], "{names:?}");
    }
}
