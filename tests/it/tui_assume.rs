//! Preconditions in the terminal UI (issue 16, item 4): `a` adds an assumption at a prompt
//! and the tree starts again at the root under it (re-explored when it had been explored),
//! breakpoints kept; the path pane's title lists the assumptions; `A` removes one; a bad
//! expression is refused with a message and the old tree stays. Keys in, state and frame
//! out, through the synchronous harness.

use symdbg::base::SourceMap;
use symdbg::engine::Config;
use symdbg::session::NodeId;
use symdbg::session::{NodeKind as Kind, Outcome};
use symdbg::tui::app::{Mode, PromptKind};
use symdbg::tui::harness::Harness;
use symdbg::tui::Setup;

use super::tui::open;

/// Exception leaves of the mirrored tree.
fn exceptions(h: &Harness) -> usize {
    h.app
        .tree
        .ids()
        .filter(|&id| h.app.tree.node(id).info.is_exception())
        .count()
}

fn leaves(h: &Harness) -> usize {
    h.app
        .tree
        .ids()
        .filter(|&id| matches!(h.app.tree.node(id).info.kind(), Kind::Leaf(_)))
        .count()
}

#[test]
fn a_adds_an_assumption_and_re_explores_from_the_root() {
    let mut h = open("inversion.py", None, 120, 32);
    h.keys("r");
    assert_eq!(exceptions(&h), 1, "the bug at x = 1");
    // A breakpoint survives the restart.
    h.keys("<S-Tab>jjjjjjjb<Tab>");
    assert!(
        h.app.breakpoints.contains_key(&23),
        "{:?}",
        h.app.breakpoints
    );
    h.keys("a");
    assert_eq!(h.app.mode, Mode::Prompt(PromptKind::Assume, String::new()));
    assert!(h
        .screen()
        .contains("assume (a condition over the inputs): "));
    h.keys("x >= 2<Enter>");
    assert_eq!(h.app.assumptions(), ["x >= 2"]);
    assert!(h.app.breakpoints.contains_key(&23), "breakpoints are kept");
    // Re-explored: the root is the precondition, no exception is reachable any more.
    let root = &h.app.tree.node(NodeId(0)).info;
    assert_eq!(
        root.place()
            .and_then(symdbg::base::span::assumption_of_line),
        Some(1)
    );
    assert_eq!(exceptions(&h), 0, "{}", h.screen());
    assert!(leaves(&h) >= 1);
    assert_eq!(h.app.selected, NodeId(0));
    assert!(
        h.app.message.contains("re-explored from the root"),
        "{}",
        h.app.message
    );
    let screen = h.screen();
    assert!(
        screen.contains("[0] --assume #1: assume x >= 2"),
        "{screen}"
    );
    assert!(screen.contains("assuming #1 x >= 2"), "{screen}");
    // The model of the leaf respects the assumption.
    h.keys("Gm");
    let id = h.app.selected;
    let model = h
        .app
        .models
        .get(&id)
        .cloned()
        .expect("a model")
        .expect("sat");
    let x: i64 = model.inputs[0].1.parse().unwrap();
    assert!(x >= 2, "{model:?}");
}

#[test]
fn capital_a_removes_an_assumption_and_the_bug_is_back() {
    let mut h = open("inversion.py", None, 120, 32);
    h.keys("ax >= 2<Enter>ax < 100<Enter>");
    assert_eq!(h.app.assumptions(), ["x >= 2", "x < 100"]);
    // Not explored before: a fresh root, nothing run.
    assert_eq!(h.app.tree.len(), 1);
    h.keys("r");
    assert_eq!(exceptions(&h), 0);
    h.keys("A");
    assert!(
        h.app.message.contains("#1 x >= 2 · #2 x < 100"),
        "{}",
        h.app.message
    );
    h.keys("1<Enter>");
    assert_eq!(h.app.assumptions(), ["x < 100"]);
    assert_eq!(
        exceptions(&h),
        1,
        "without x >= 2 the bug is reachable again"
    );
    h.keys("e");
    let leaf = &h.app.tree.node(h.app.selected).info;
    assert_eq!(
        leaf.kind(),
        Kind::Leaf(Outcome::Exception(symdbg::base::ExcClass::AssertionError))
    );
    h.keys("Aall<Enter>");
    assert!(h.app.assumptions().is_empty());
    assert!(!h.screen().contains("assuming"));
    h.keys("A");
    assert!(
        h.app.message.contains("no assumptions"),
        "{}",
        h.app.message
    );
    assert_eq!(h.app.mode, Mode::Normal);
    // A paste goes into the prompt (and runs no command).
    h.keys("a");
    h.app.paste("x > 1\u{1b}");
    h.keys("<Enter>");
    assert_eq!(h.app.assumptions(), ["x > 1"]);
}

#[test]
fn a_bad_assumption_is_refused_and_the_tree_stays() {
    let mut h = open("inversion.py", None, 120, 32);
    h.keys("r");
    let before = h.app.tree.len();
    for bad in ["y > 0", "x +", "x + True"] {
        h.keys(&format!("a{bad}<Enter>"));
        assert!(
            h.app.message.starts_with("not assumed: --assume #1"),
            "{bad}: {}",
            h.app.message
        );
        assert!(h.app.assumptions().is_empty());
        assert_eq!(h.app.tree.len(), before, "the old tree stays");
    }
    h.keys("ay > 0<Enter>");
    assert!(
        h.app.message.contains("`y`"),
        "the unknown name is named: {}",
        h.app.message
    );
    // Esc at the prompt adds nothing.
    h.keys("ax > 0<Esc>");
    assert!(h.app.assumptions().is_empty());
    assert_eq!(h.app.mode, Mode::Normal);
}

#[test]
fn entry_runs_assume_the_parameters_from_the_command_line() {
    let src = "\
def f(a: int, b: int) -> int:
    if a > b:
        return 100 // (a - 7)
    return 0
";
    let mut source = SourceMap::new("f.py", src);
    source.assumptions = vec!["a > b".to_string()];
    let setup = Setup {
        source,
        entry: Some("f".to_string()),
        config: Config::default(),
        max_nodes: 10_000,
        theme: None,
        colors: Default::default(),
        bfs: false,
    };
    let mut h = Harness::open(setup, 120, 32).expect("opens");
    h.keys("r");
    assert_eq!(h.app.assumptions(), ["a > b"]);
    // `return 0` is unreachable under a > b: only the division's two outcomes.
    assert_eq!(leaves(&h), 2, "{}", h.screen());
    assert_eq!(exceptions(&h), 1);
    assert!(
        h.screen().contains("--assume #1: assume a > b"),
        "{}",
        h.screen()
    );
    h.keys("ab < 0<Enter>");
    assert_eq!(h.app.assumptions(), ["a > b", "b < 0"]);
    assert_eq!(leaves(&h), 2);
    h.keys("aq == 1<Enter>");
    assert!(
        h.app.message.contains("parameters of `f`") || h.app.message.contains("`q`"),
        "{}",
        h.app.message
    );
}
