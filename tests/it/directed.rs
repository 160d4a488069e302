//! The first counterexample whatever the branch order (issue 30 item 1): `run
//! --counterexamples --first` and the TUI's `e` on a tree with no exception leaf give the
//! walk's first exception leaf without enumerating the paths before it.

use symdbg::session::NodeId;

use super::tui::open_source;
use super::util::symdbg;

/// `n` independent `if`s over int inputs, then `assert COND`.
fn ifs(n: usize, cond: &str) -> String {
    let mut s: String = (0..n).map(|i| format!("x{i}: int\n")).collect();
    s.push_str("s = 0\n");
    for i in 0..n {
        s.push_str(&format!("if x{i} > 0:\n    s += 1\n"));
    }
    s.push_str(&format!("assert {cond}\n"));
    s
}

/// Programs with their failing paths in various places of the walk's order.
fn programs() -> Vec<(&'static str, String)> {
    vec![
        // only the all-else path (the walk's last) fails
        ("flipped", ifs(9, "s != 0")),
        // only the all-then path (the walk's first) fails
        ("natural", ifs(9, "s != 9")),
        // several failing paths, the first in the middle of the order
        ("middle", ifs(9, "s != 4")),
        (
            "mixed",
            "x: int\ny: int\nz: int\ns = 0\nif x > 0:\n    s = 1\nif y > 0:\n    s = s + 2\n\
             if z > 0:\n    t = 10 // (s - 2)\nelse:\n    t = 1\nassert s + t != 3\n"
                .to_string(),
        ),
    ]
}

#[test]
fn first_counterexample_is_the_walks_first_whatever_the_branch_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in programs() {
        let path = dir.path().join(format!("{name}.py"));
        std::fs::write(&path, &text).unwrap();
        let file = path.to_str().unwrap();
        let (code, first, err) = symdbg(&["run", file, "--counterexamples", "--first"]);
        assert_eq!(code, 0, "{name}: {err}");
        // Every counterexample, in the walk's order, from the whole tree.
        let (code, all, err) = symdbg(&["run", file, "--counterexamples"]);
        assert_eq!(code, 0, "{name}: {err}");
        let first_of_all = all.lines().next().expect("a counterexample");
        assert_eq!(first.trim_end(), first_of_all, "{name}:\n{all}");
    }
}

#[test]
fn e_on_an_unexplored_tree_finds_the_first_exception_leaf_and_the_rest_stays_open() {
    let n = 11;
    let text = ifs(n, "s != 0");
    let mut h = open_source("flipped.py", &text, None, 120, 32);
    assert_eq!(h.app.tree.len(), 1);
    h.keys("e");
    let leaf = h.app.selected;
    assert!(
        h.app.tree.node(leaf).info.is_exception(),
        "{}",
        h.app.message
    );
    assert!(
        h.app.message.contains("first exception leaf"),
        "{}",
        h.app.message
    );
    // A short plain walk first (a few hundred nodes), then one path of the remaining
    // ones: far from the whole tree (compared below).
    let found_with = h.app.tree.len();
    assert!(h.app.stats.open > 0);
    // `e` again: the leaf is in the explored tree now (no new search).
    let len = h.app.tree.len();
    h.keys("e");
    assert_eq!((h.app.selected, h.app.tree.len()), (leaf, len));
    assert_eq!(h.app.message, "exception leaf 1 of 1");
    // The model of the leaf: the all-else path.
    h.keys("m");
    let model = h.app.models[&leaf].clone().expect("a model");
    assert!(
        model
            .inputs
            .iter()
            .all(|(_, v)| v.parse::<i64>().unwrap() <= 0),
        "{model:?}"
    );
    // The rest of the tree is explored on demand: every path, one exception leaf.
    h.keys("g");
    assert_eq!(h.app.selected, NodeId(0));
    h.keys("r");
    assert_eq!(h.app.stats.open, 0, "{}", h.app.message);
    assert_eq!(h.app.stats.exceptions, 1);
    assert_eq!(h.app.stats.leaves, 1 << n);
    assert!(
        found_with * 10 < h.app.tree.len(),
        "{found_with} nodes of {}",
        h.app.tree.len()
    );
}

#[test]
fn e_on_an_explored_tree_without_exceptions_says_so() {
    let text = ifs(4, "s <= 4");
    let mut h = open_source("safe.py", &text, None, 120, 32);
    h.keys("e");
    // (the search ran the whole tree: no exception anywhere)
    assert_eq!(h.app.message, "no exception leaf: the tree is explored");
    assert_eq!(h.app.stats.open, 0);
    h.keys("e");
    assert_eq!(h.app.message, "no exception leaf: the tree is explored");
}
