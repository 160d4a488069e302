//! The TUI's "why" (`p`, `w`) in the synchronous harness: the path pane's `L12 x > 0`
//! origins, pruned branches as greyed `✗` rows, explanations of a pruned branch, of an
//! infeasible leaf and of an unknown leaf (core conjuncts marked `✗`, the status line's
//! summary), snapshots of the screens.

use symdbg::base::SourceMap;
use symdbg::engine::Config;
use symdbg::tui::harness::Harness;
use symdbg::tui::protocol::{Kind, Outcome};
use symdbg::tui::Setup;

fn open(text: &str, timeout_ms: Option<u64>) -> Harness {
    let mut config = Config::default();
    config.timeout_ms = timeout_ms;
    let setup = Setup {
        source: SourceMap::new("t.py", text),
        entry: None,
        config,
        max_nodes: 10_000,
        theme: None,
        colors: Default::default(),
        bfs: false,
    };
    Harness::open(setup, 120, 30).unwrap_or_else(|d| panic!("{d:?}"))
}

/// Run the whole tree, then select the first node with this kind.
fn run_and_select(h: &mut Harness, want: impl Fn(&Kind) -> bool) -> u32 {
    h.keys("r");
    let id = h
        .app
        .tree
        .nodes
        .iter()
        .find(|n| want(&n.info.kind))
        .map(|n| n.info.id)
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
    h.app.select(1);
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
