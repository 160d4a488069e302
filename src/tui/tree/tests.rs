//! Unit tests of the tree mirror: rows, folds, ghost rows.

use super::*;
use crate::base::ExcClass;
use crate::session::{NodeKind as Kind, NodeView, Outcome};

fn info(id: u32, parent: Option<u32>, kind: Kind, branch: Option<&str>) -> NodeRow {
    NodeRow {
        view: NodeView {
            id: NodeId(id),
            parent: parent.map(NodeId),
            depth: 0,
            kind,
            line: Some(1),
            column: Some(1),
            statement: String::new(),
            place: Some(1),
            raised_at: None,
            return_value: None,
            unknown_reason: None,
            label: None,
            caught: None,
            invariant_failure: false,
            store: Vec::new(),
            frames: 1,
            func: None,
            loop_choice: false,
            call_choice: false,
            contract_failure: None,
            is_abstract: false,
        },
        branch: branch.map(str::to_string),
        branch_implied: false,
        label: None,
        summary: String::new(),
        at_annotated_loop: false,
        fold: Default::default(),
    }
}

fn sample() -> Mirror {
    let mut m = Mirror::default();
    m.apply(&Delta {
        nodes: vec![
            info(0, None, Kind::Inner, None),
            info(1, Some(0), Kind::Inner, None),
            info(2, Some(1), Kind::Leaf(Outcome::Normal), Some("x > 1")),
            info(3, Some(1), Kind::Open, Some("not (x > 1)")),
        ],
        ..Delta::default()
    });
    m
}

#[test]
fn chains_stay_flat_and_branches_get_label_rows() {
    let mut m = sample();
    let rows: Vec<(RowKind, String)> = m.rows().iter().map(|r| (r.kind, r.prefix(80))).collect();
    assert_eq!(
        rows,
        vec![
            (RowKind::Node(NodeId(0)), String::new()),
            (RowKind::Node(NodeId(1)), String::new()),
            (
                RowKind::Label {
                    node: NodeId(2),
                    head: "├ "
                },
                String::new()
            ),
            (RowKind::Node(NodeId(2)), "│ ".to_string()),
            (
                RowKind::Label {
                    node: NodeId(3),
                    head: "└ "
                },
                String::new()
            ),
            (RowKind::Node(NodeId(3)), "  ".to_string()),
        ]
    );
    assert_eq!(m.row_of(NodeId(3)), Some(5));
}

#[test]
fn collapsing_hides_the_subtree_and_reveal_undoes_it() {
    let mut m = sample();
    m.set_collapsed(NodeId(1), true);
    assert_eq!(m.rows().len(), 2);
    assert_eq!(m.rows()[1].hidden, 2);
    assert_eq!(m.row_of(NodeId(3)), None);
    m.reveal(NodeId(3));
    assert_eq!(m.row_of(NodeId(3)), Some(5));
}

/// 0 → 1 (call: frames 2) branches inside the frame: 2 (x > 0) returns at 3 and ends
/// at 4; 5 (not (x > 0)) is an exception leaf inside the frame.
fn with_call() -> Mirror {
    let mut m = Mirror::default();
    let n = |id, parent, kind, branch, frames| {
        let mut row = info(id, parent, kind, branch);
        row.view.frames = frames;
        row
    };
    m.apply(&Delta {
        nodes: vec![
            n(0, None, Kind::Inner, None, 1),
            n(1, Some(0), Kind::Inner, None, 2),
            n(2, Some(1), Kind::Inner, Some("x > 0"), 2),
            n(3, Some(2), Kind::Inner, None, 1),
            n(4, Some(3), Kind::Leaf(Outcome::Normal), None, 1),
            n(
                5,
                Some(1),
                Kind::Leaf(Outcome::Exception(ExcClass::ZeroDivisionError)),
                Some("not (x > 0)"),
                2,
            ),
        ],
        ..Delta::default()
    });
    m
}

#[test]
fn a_folded_frame_shows_one_row_per_way_out() {
    let mut m = with_call();
    assert!(m.is_call(NodeId(1)) && !m.is_call(NodeId(2)) && !m.is_call(NodeId(3)));
    assert_eq!(m.calls().collect::<Vec<_>>(), vec![NodeId(1)]);
    m.set_frame_folded(NodeId(1), true);
    let rows: Vec<(RowKind, Option<String>, usize)> = m
        .rows()
        .iter()
        .map(|r| (r.kind, r.cond.as_deref().map(str::to_string), r.hidden))
        .collect();
    let label = |node, head| RowKind::Label {
        node: NodeId(node),
        head,
    };
    assert_eq!(
        rows,
        vec![
            (RowKind::Node(NodeId(0)), None, 0),
            (RowKind::Node(NodeId(1)), None, 1),
            (label(3, "├ "), Some("x > 0".to_string()), 0),
            (RowKind::Node(NodeId(3)), None, 0),
            (RowKind::Node(NodeId(4)), None, 0),
            (label(5, "└ "), Some("not (x > 0)".to_string()), 0),
            (RowKind::Node(NodeId(5)), None, 0),
        ]
    );
    assert_eq!(m.row_of(NodeId(2)), None);
    // The ways out stay visible; revealing a node inside the frame unfolds it.
    m.reveal(NodeId(4));
    m.reveal(NodeId(5));
    assert!(m.node(NodeId(1)).frame_folded);
    m.reveal(NodeId(2));
    assert!(!m.node(NodeId(1)).frame_folded);
    assert_eq!(m.row_of(NodeId(2)), Some(3));
}

#[test]
fn collapsing_a_folded_call_hides_everything_below_it() {
    let mut m = with_call();
    m.set_frame_folded(NodeId(1), true);
    m.set_collapsed(NodeId(1), true);
    assert_eq!(m.rows().len(), 2);
    assert_eq!(m.rows()[1].hidden, 4);
    m.reveal(NodeId(4));
    assert!(!m.node(NodeId(1)).collapsed && m.node(NodeId(1)).frame_folded);
    assert!(m.row_of(NodeId(4)).is_some());
}

#[test]
fn ghost_rows_sit_under_their_node_only_when_shown() {
    let mut m = sample();
    m.set_ghosts(NodeId(1), 2);
    assert_eq!(m.rows().len(), 6);
    assert_eq!(m.ghost_row(NodeId(1), 0), None);
    m.set_show_ghosts(true);
    let kinds: Vec<RowKind> = m.rows().iter().map(|r| r.kind).collect();
    assert_eq!(kinds[1], RowKind::Node(NodeId(1)));
    assert_eq!(
        kinds[2],
        RowKind::Ghost {
            node: NodeId(1),
            k: 0
        }
    );
    assert_eq!(
        kinds[3],
        RowKind::Ghost {
            node: NodeId(1),
            k: 1
        }
    );
    assert_eq!(m.rows()[3].node(), NodeId(1));
    assert_eq!(m.ghost_row(NodeId(1), 1), Some(3));
    assert_eq!(m.ghost_row(NodeId(1), 2), None);
    assert_eq!(m.row_of(NodeId(3)), Some(7));
    // A collapsed node hides its ghosts with its subtree.
    m.set_collapsed(NodeId(1), true);
    assert_eq!(m.rows().len(), 2);
    assert_eq!(m.ghost_row(NodeId(1), 0), None);
    m.set_collapsed(NodeId(1), false);
    m.set_show_ghosts(false);
    assert_eq!(m.rows().len(), 6);
}

#[test]
fn deep_prefixes_are_cut_on_the_left() {
    let g = (0..50).fold(None, |parent, k| {
        Some(Rc::new(Guide {
            parent,
            seg: "│ ",
            len: k + 1,
        }))
    });
    let row = Row {
        kind: RowKind::Node(NodeId(0)),
        guide: g,
        hidden: 0,
        cond: None,
    };
    let p = row.prefix(11);
    assert!(p.starts_with('…'));
    assert!(p.chars().count() <= 11, "{p:?}");
}
