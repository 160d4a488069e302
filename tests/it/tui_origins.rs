//! The TUI's value origins (`O`, issue 29) in the synchronous harness: the box lists each
//! store variable's origin chain (line, node, statement), `j`/`k` pick a link, Enter
//! selects its node (the code pane's cursor on its line), other keys close the box.

use symdbg::base::SourceMap;
use symdbg::engine::Config;
use symdbg::session::{NodeKind as Kind, Outcome};
use symdbg::tui::app::Mode;
use symdbg::tui::harness::Harness;

const SRC: &str = "\
def f(a: int) -> int:
    b = a + 1
    return b
x: int
y = f(x)
z = y * 2
";

fn at_leaf() -> Harness {
    let setup = super::tui::setup(SourceMap::new("t.py", SRC), None, Config::default());
    let mut h = Harness::open(setup, 100, 24).unwrap_or_else(|d| panic!("{d:?}"));
    h.keys("r");
    let leaf = h
        .app
        .tree
        .nodes
        .iter()
        .find(|n| n.info.kind() == Kind::Leaf(Outcome::Normal))
        .map(|n| n.info.id())
        .expect("a normal leaf");
    h.app.select(leaf);
    h.pump();
    h.draw();
    h
}

#[test]
fn origins_box_lists_each_chain_and_enter_goes_to_the_picked_origin() {
    let mut h = at_leaf();
    h.keys("O");
    assert_eq!(h.app.mode, Mode::Origins);
    let screen = h.screen();
    for want in [
        "z ← line 6",
        "z = y * 2",
        "y ← line 5",
        "b ← line 2",
        "a ← line 5",
        "x ← line 4",
        "input",
        "return",
        "parameter",
    ] {
        assert!(screen.contains(want), "{want}:\n{screen}");
    }
    insta::assert_snapshot!("tui_origins_box", screen);
    // The chains: x's (1 link), y's (4: y, b, a, x), z's: the fourth link is b's.
    let b = h.app.origins.as_ref().unwrap();
    let picked: Vec<(String, usize)> = b.links().map(|l| (l.name.clone(), l.origin.line)).collect();
    let k = picked
        .iter()
        .position(|(n, l)| n == "b" && *l == 2)
        .expect("b's origin in the box");
    let target = b.links().nth(k).unwrap().origin.node;
    h.keys(&"j".repeat(k));
    h.keys("k");
    h.keys("j");
    assert_eq!(h.app.origins.as_ref().unwrap().cursor, k);
    h.keys("<Enter>");
    assert_eq!(h.app.mode, Mode::Normal);
    assert_eq!(h.app.selected, target);
    // The node whose step assigned b: about to run `b = a + 1` (line 2).
    assert_eq!(h.app.code_cursor, 2);
    let screen = h.screen();
    assert!(screen.contains("b got its value at line 2"), "{screen}");
    insta::assert_snapshot!("tui_origins_jumped", screen);
}

#[test]
fn other_keys_close_the_origins_box_and_an_empty_store_says_so() {
    let mut h = at_leaf();
    h.keys("O");
    assert_eq!(h.app.mode, Mode::Origins);
    h.keys("q");
    assert_eq!(h.app.mode, Mode::Normal);
    assert!(h.app.origins.is_none());
    assert!(!h.app.quit, "q closed the box, it did not quit");
    // The root: nothing assigned yet but the input.
    let setup = super::tui::setup(SourceMap::new("t.py", "y = 1\n"), None, Config::default());
    let mut h = Harness::open(setup, 100, 24).unwrap();
    h.keys("O");
    assert_eq!(h.app.mode, Mode::Normal);
    assert!(
        h.screen().contains("origins: no variables at node 0"),
        "{}",
        h.screen()
    );
}
