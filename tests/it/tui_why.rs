//! The TUI's "why" (`p`, `w`) in the synchronous harness: the path pane's `L12 x > 0`
//! origins, pruned branches as greyed `✗` rows, explanations of a pruned branch, of an
//! infeasible leaf and of an unknown leaf (core conjuncts marked `✗`, the status line's
//! summary), snapshots of the screens.

use symdbg::base::SourceMap;
use symdbg::engine::Config;
use symdbg::session::NodeId;
use symdbg::session::{NodeKind as Kind, Outcome};
use symdbg::tui::harness::Harness;

fn open(text: &str, timeout_ms: Option<u64>) -> Harness {
    let mut config = Config::default();
    config.timeout_ms = timeout_ms;
    let setup = super::tui::setup(SourceMap::new("t.py", text), None, config);
    Harness::open(setup, 120, 30).unwrap_or_else(|d| panic!("{d:?}"))
}

/// Run the whole tree, then select the first node with this kind.
fn run_and_select(h: &mut Harness, want: impl Fn(&Kind) -> bool) -> NodeId {
    h.keys("r");
    let id = h
        .app
        .tree
        .nodes
        .iter()
        .find(|n| want(&n.info.kind()))
        .map(|n| n.info.id())
        .expect("no such node");
    h.app.select(id);
    h.pump();
    h.draw();
    id
}

#[test]
fn pruned_branch_ghost_rows_and_why() {
    let src = "x: int\nassume x > 5\nif x < 3:\n    y = 1\nelse:\n    y = 2\n";
    let mut h = open(src, None);
    h.keys("r");
    // Node 1 is the `if` (stepped, one way left).
    h.app.select(NodeId(1));
    h.pump();
    h.draw();
    let screen = h.screen();
    assert!(screen.contains("L2 x > 5"), "{screen}");
    assert!(!screen.contains("✗ L3 then: x < 3"), "{screen}");
    h.keys("p");
    let screen = h.screen();
    assert!(screen.contains("✗ L3 then: x < 3"), "{screen}");
    h.keys("w");
    let screen = h.screen();
    assert!(
        screen.contains("infeasible: 2 conditions clash — line 2 (assume), line 3 (then)"),
        "{screen}"
    );
    assert!(screen.contains("✗ L2 x > 5"), "{screen}");
    insta::assert_snapshot!("tui_why_pruned", screen);
    // `p` again hides the ghost rows, the explanation stays.
    h.keys("p");
    assert!(!h.screen().contains("✗ L3 then: x < 3"));
}

#[test]
fn infeasible_leaf_core_is_marked() {
    let src = "x: int\ny: int\nz: int\nif z > 0:\n    pass\nif x > y:\n    if y > 2:\n        assume x < 2\n";
    let mut h = open(src, None);
    run_and_select(&mut h, |k| *k == Kind::Leaf(Outcome::Infeasible));
    h.keys("w");
    let screen = h.screen();
    assert!(
        screen.contains(
            "infeasible: 3 conditions clash — line 6 (then), line 7 (then), line 8 (assume)"
        ),
        "{screen}"
    );
    // z's condition is not in the core: not marked.
    assert!(screen.contains("✗ L6 x > y"), "{screen}");
    assert!(!screen.contains("✗ L4"), "{screen}");
    insta::assert_snapshot!("tui_why_infeasible_leaf", screen);
    // A second `w` comes from the cache (no worker command).
    h.keys("w");
    assert!(h.app.take_commands().is_empty());
}

#[test]
fn unknown_leaf_lists_what_made_it_hard() {
    let src = "x: int\ny: int\nz: int\nassume x > 0\nassume y > 0\nassume z > 0\nif x * x * x + y * y * y == z * z * z:\n    r = 1\n";
    let mut h = open(src, Some(200));
    run_and_select(&mut h, |k| *k == Kind::Leaf(Outcome::Unknown));
    h.keys("w");
    let screen = h.screen();
    assert!(
        screen.contains("undecided because of: nonlinear"),
        "{screen}"
    );
    assert!(screen.contains("L7 nonlinear: x * x"), "{screen}");
}

#[test]
fn w_elsewhere_says_what_it_explains() {
    let src = "x: int\ny = x + 1\n";
    let mut h = open(src, None);
    h.keys("rw");
    assert!(
        h.screen()
            .contains("w explains an infeasible or unknown leaf"),
        "{}",
        h.screen()
    );
}

/// `p` puts greyed ghost rows (`✗ L.. else: ..`) under every stepped node with pruned
/// branches in the tree pane; they are selectable, `w` on one explains that branch, the
/// stepping keys leave them alone, and `p` again hides them.
#[test]
fn ghost_rows_in_the_tree_are_selectable_and_explained() {
    // Three stepped branching nodes with a pruned branch each (lines 4, 6 and 9; the
    // last one's condition folds to `False`).
    let src = "x: int\ny: int\nassume x > 5\nif x < 3:\n    y = 1\nif y > x and x < 0:\n    y = 2\nt = (x, x)\nif t[1] != x:\n    y = 3\n";
    let mut h = open(src, None);
    h.keys("r");
    let nodes_before = h.app.tree.len();
    assert!(!h.screen().contains("✗ L"), "{}", h.screen());
    h.keys("p");
    let screen = h.screen();
    for ghost in [
        "✗ L4 then: x < 3",
        "✗ L6 then: y > x and x < 0",
        "✗ L9 then: False",
    ] {
        assert!(screen.contains(ghost), "{ghost}: {screen}");
    }
    // Every ghost row is listed right under a stepped node that has that many pruned
    // branches.
    let rows: Vec<_> = h.app.tree.rows().to_vec();
    let ghosts: Vec<(NodeId, usize)> = rows
        .iter()
        .filter_map(|r| match r.kind {
            symdbg::tui::tree::RowKind::Ghost { node, k } => Some((node, k)),
            _ => None,
        })
        .collect();
    assert_eq!(ghosts.len(), 3, "{ghosts:?}");
    for &(node, k) in &ghosts {
        assert_eq!(h.app.tree.node(node).info.kind(), Kind::Inner);
        assert!(k < h.app.pruned[&node].len());
    }
    insta::assert_snapshot!("tui_why_ghost_rows", screen);
    // Walk down to the first ghost row.
    h.keys("g");
    let mut guard = 0;
    while h.app.ghost.is_none() {
        h.keys("j");
        guard += 1;
        assert!(guard < 50, "no ghost row reached: {}", h.screen());
    }
    let (node, k) = (h.app.selected, h.app.ghost.unwrap());
    assert_eq!((node, k), ghosts[0]);
    // Stepping and running keys do nothing there (no worker command, no new node).
    for key in ["s", "r", "n", "C", "m"] {
        h.keys(key);
        assert!(h.app.take_commands().is_empty(), "{key}");
        assert_eq!(h.app.message, "a pruned branch: w explains it", "{key}");
        assert_eq!(h.app.ghost, Some(k), "{key}");
    }
    assert_eq!(h.app.tree.len(), nodes_before);
    h.keys("w");
    assert_eq!(h.app.why_shown, Some((node, Some(k))));
    let screen = h.screen();
    assert!(
        screen.contains("infeasible: 2 conditions clash — line 3 (assume), line 4 (then)"),
        "{screen}"
    );
    // `h` goes back from the ghost to its node row, `j` onto the ghost again.
    h.keys("h");
    assert_eq!((h.app.selected, h.app.ghost), (node, None));
    h.keys("j");
    assert_eq!((h.app.selected, h.app.ghost), (node, Some(k)));
    // `p` again hides the ghost rows and the selection falls back to the node.
    h.keys("p");
    assert_eq!(h.app.ghost, None);
    assert!(h
        .app
        .tree
        .rows()
        .iter()
        .all(|r| !matches!(r.kind, symdbg::tui::tree::RowKind::Ghost { .. })));
    assert!(!h.screen().contains("✗ L6 then"), "{}", h.screen());
}

/// With `p` on, nodes stepped later get their ghost rows too (fetched with the deltas),
/// and `w` on a stepped node (not a ghost) still walks through its pruned branches.
#[test]
fn ghost_rows_follow_stepping_and_w_on_a_node_cycles() {
    let src =
        "x: int\nassume x > 0\nif x < 0:\n    x = 1\nif x == 0:\n    x = 2\nelse:\n    x = 3\n";
    let mut h = open(src, None);
    h.keys("p");
    assert!(h
        .app
        .tree
        .rows()
        .iter()
        .all(|r| !matches!(r.kind, symdbg::tui::tree::RowKind::Ghost { .. })));
    // Step along the single path: each `if` becomes a stepped node with one ghost.
    h.keys("ssssss");
    let screen = h.screen();
    assert!(screen.contains("✗ L3 then: x < 0"), "{screen}");
    assert!(screen.contains("✗ L5 then: x == 0"), "{screen}");
    let with_ghosts: Vec<NodeId> = h
        .app
        .tree
        .ids()
        .filter(|&id| h.app.tree.ghosts(id) > 0)
        .collect();
    assert_eq!(with_ghosts.len(), 2, "{screen}");
    // `w` on the second `if` node itself explains its (only) pruned branch.
    h.app.select(with_ghosts[1]);
    h.pump();
    h.keys("w");
    assert_eq!(
        h.app.why_shown,
        Some((with_ghosts[1], Some(0))),
        "{}",
        h.app.message
    );
    assert!(
        h.screen()
            .contains("infeasible: 2 conditions clash — line 2 (assume), line 5 (then)"),
        "{}",
        h.screen()
    );
}
