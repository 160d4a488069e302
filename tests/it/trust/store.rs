//! Item 10: the store pane at a bound leaf inside a function.

use symdbg::session::{NodeKind as Kind, Outcome};

/// A leaf cut by `--unroll` inside a function still shows the function's locals; `m` fills
/// their "here" column (no `?`) and `R` replays with the same variables.
#[test]
fn bound_leaf_inside_a_function_has_its_locals_under_the_model() {
    let src = "\
def total(t: tuple) -> int:
    s = 0
    i = 0
    while i < len(t):
        s = s + t[i]
        i = i + 1
    return s

t: tuple
r = total(t)
";
    let mut h = crate::tui::open_source("bound.py", src, None, 140, 40);
    h.keys("r");
    let bound = h
        .app
        .tree
        .ids()
        .find(|&id| h.app.tree.node(id).info.kind() == Kind::Leaf(Outcome::Bound))
        .expect("a bound leaf inside total");
    h.app.select(bound);
    h.pump();
    h.keys("m");
    let model = h.app.models[&bound].clone().expect("a model");
    let names: Vec<&str> = model.store.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, ["i", "s", "t"], "{model:?}");
    assert!(store_pane_has_no_unknowns(&h.screen()));
    h.keys("R");
    let replay = h.app.replays[&bound].clone().expect("a replay");
    let vars: Vec<(&str, Option<&str>)> = replay
        .vars
        .iter()
        .map(|v| (v.name.as_str(), v.here.as_deref()))
        .collect();
    assert_eq!(vars.len(), 3, "{vars:?}");
    assert!(vars.iter().all(|(_, here)| here.is_some()), "{vars:?}");
    assert_eq!(
        vars.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        ["i", "s", "t"]
    );
    let screen = h.screen();
    assert!(screen.contains("run end"), "{screen}");
    assert!(store_pane_has_no_unknowns(&screen));
}

/// No `?` cell in the store pane's rows (the pane right of the code pane, below the tree).
fn store_pane_has_no_unknowns(screen: &str) -> bool {
    let rows: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.contains("┌ store"))
        .take_while(|l| !l.contains("┌ model"))
        .collect();
    assert!(rows.len() > 3, "{screen}");
    let bad = rows.iter().any(|l| {
        l.split("││")
            .nth(1)
            .is_some_and(|cell| cell.split_whitespace().any(|w| w == "?"))
    });
    assert!(!bad, "a `?` in the store pane:\n{screen}");
    true
}
