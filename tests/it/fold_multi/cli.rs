//! Two-parameter folds everywhere one-path folds work (issue 27): `check --fold auto`,
//! `--counterexamples`, `--explain`, DOT, the TUI's replay and model pane, and session
//! files, on the countIf-like programs of tests/data/fold_multi.

use symdbg::engine::fold::FoldMode;
use symdbg::engine::Config;
use symdbg::session::NodeKind as Kind;
use symdbg::tui::harness::Harness;

use super::{read, FOLDED};
use crate::tui_reload::{infos, open_file, temp_dir};
use crate::util::symdbg;

fn path(file: &str) -> String {
    format!("tests/data/fold_multi/{file}")
}

/// `check --fold auto` on every two-parameter program: exhaustive and precise (each leaf's
/// model replayed concretely, its κ1 and λ1 equal to the run's counts).
#[test]
fn check_passes_on_two_parameter_folds() {
    for file in FOLDED {
        let (_, entry) = read(file);
        let (code, out, err) = symdbg(&[
            "check",
            &path(file),
            "--entry",
            &entry,
            "--fold",
            "auto",
            "--runs",
            "150",
        ]);
        assert_eq!(code, 0, "{file}: {out}{err}");
        assert!(out.contains("exhaustive: probably"), "{file}: {out}");
        assert!(out.contains("precise: probably"), "{file}: {out}");
    }
}

/// The counter `c` reaching 2 fails the assertion: the counterexample names κ1 and λ1 and
/// they are the run's real counts (matches before the failing one, and the others);
/// `--explain` names the fold's exit as the step that decides the leaf; DOT draws the fold.
#[test]
fn counterexamples_explain_and_dot_below_a_two_parameter_fold() {
    let p = path("assert_count.py");
    let (code, out, err) = symdbg(&[
        "run",
        &p,
        "--entry",
        "f",
        "--fold",
        "auto",
        "--counterexamples",
    ]);
    assert_eq!(code, 0, "{err}");
    let line = out
        .lines()
        .find(|l| l.contains("AssertionError for t = ("))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.starts_with(&format!("{p}:9:16: ")), "{line}");
    let num = |name: &str| -> i64 {
        let at = line.find(&format!("{name} = ")).expect(name) + name.len() + 3;
        line[at..]
            .split(|c: char| !(c.is_ascii_digit() || c == '-'))
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let (k, l, x) = (num("κ1"), num("λ1"), num("x"));
    let t: Vec<i64> = line[line.find("t = (").unwrap() + 5..]
        .split(')')
        .next()
        .unwrap()
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse().unwrap())
        .collect();
    // The run: the second match fails the assertion, after κ1 + λ1 iterations.
    let second = t
        .iter()
        .enumerate()
        .filter(|(_, v)| **v == x)
        .nth(1)
        .map(|(i, _)| i as i64)
        .unwrap_or_else(|| panic!("{line}"));
    assert_eq!(k + l, second, "{line}");
    assert_eq!(k, 1, "{line}");

    let (code, out, err) = symdbg(&[
        "run",
        &p,
        "--entry",
        "f",
        "--fold",
        "auto",
        "--json",
        "--explain",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let nodes = doc["nodes"].as_array().unwrap();
    let fold = nodes.iter().find(|n| !n["fold"].is_null()).unwrap();
    let exc = nodes
        .iter()
        .find(|n| n["outcome"] == "exception")
        .unwrap_or_else(|| panic!("{out}"));
    let origins = exc["origins"].as_array().unwrap();
    assert_eq!(origins.len(), 1, "{exc}");
    assert_eq!(origins[0]["node"], fold["id"], "{exc}");
    assert_eq!(origins[0]["transition"], "assert fails at 9:16", "{exc}");
    assert_eq!(exc["model_params"]["κ1"], 1, "{exc}");
    // The store after the fold comes from the fold's step.
    let exit = nodes
        .iter()
        .find(|n| n["parent"] == fold["id"] && n["kind"] != "leaf")
        .unwrap();
    assert_eq!(exit["store_origins"]["c"]["kind"], "step", "{exit}");
    assert_eq!(exit["store_origins"]["c"]["node"], fold["id"], "{exit}");

    let (code, dot, err) = symdbg(&["run", &p, "--entry", "f", "--fold", "auto", "--dot"]);
    assert_eq!(code, 0, "{err}");
    assert!(dot.starts_with("digraph"), "{dot}");
    let id = fold["id"].as_i64().unwrap();
    let edges: Vec<&str> = dot
        .lines()
        .filter(|l| l.trim_start().starts_with(&format!("n{id} -> ")))
        .collect();
    assert_eq!(edges.len(), 2, "{dot}");
    assert!(
        edges
            .iter()
            .all(|e| e.contains("λ1 >= 0") && e.contains("ω1[0] == 0")),
        "{dot}"
    );
    // (κ1 * 10 + (κ1 + λ1) normalised for display)
    assert!(dot.contains("return κ1 * 11 + λ1"), "{dot}");
    assert!(dot.contains("AssertionError\\nline 9"), "{dot}");
}

fn open(rel: &str, entry: &str, fold: FoldMode, rows: u16) -> Harness {
    let text = std::fs::read_to_string(format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut config = Config::default();
    config.fold = fold;
    let setup = crate::tui::setup(
        symdbg::base::SourceMap::new(rel, &text),
        Some(entry.to_string()),
        config,
    );
    Harness::open(setup, 120, rows).unwrap_or_else(|d| panic!("{d:?}"))
}

/// The TUI's model pane and replay (`m`, `R`) below a two-parameter fold name both counts
/// and check them against the run.
#[test]
fn replay_below_a_two_parameter_fold_checks_kappa_and_lambda() {
    let mut h = open(&path("assert_count.py"), "f", FoldMode::Auto, 40);
    h.keys("r");
    h.keys("e");
    let leaf = h.app.selected;
    assert!(h.app.tree.node(leaf).info.is_exception());
    h.keys("m");
    let Some(Ok(m)) = h.app.models.get(&leaf).cloned() else {
        panic!("no model: {:?}", h.app.models.get(&leaf))
    };
    let names: Vec<&str> = m.kappas.iter().map(|(k, _, _)| k.as_str()).collect();
    assert_eq!(names, ["κ1", "λ1"], "{m:?}");
    assert!(
        m.havoc.iter().all(|(k, _)| !k.starts_with("l@")),
        "λ is not a havoc'd value: {m:?}"
    );
    h.keys("R");
    let Some(Ok(r)) = h.app.replays.get(&leaf).cloned() else {
        panic!("no replay: {:?}", h.app.replays.get(&leaf))
    };
    assert!(r.follows, "{r:?}");
    assert!(!r.verdict.contains("not checked"), "{}", r.verdict);
    assert_eq!(r.kappas.len(), 2, "{r:?}");
    assert!(r.kappas[0].starts_with("loop at line 6: κ1 = "), "{r:?}");
    assert!(r.kappas[1].starts_with("loop at line 6: λ1 = "), "{r:?}");
    assert!(r.kappas.iter().all(|k| !k.contains("but")), "{r:?}");
}

/// `F` folds countIf's loop head with two parameters under `--fold off`; a saved session
/// replays that step folded, so the restored tree is the same node for node.
#[test]
fn a_session_file_replays_a_two_parameter_fold() {
    let dir = temp_dir("fold-multi-session");
    let file = dir.join("count_if.py");
    let (src, entry) = read("count_if.py");
    std::fs::write(&file, src).unwrap();
    let mut a = open_file(&file, Some(&entry), None);
    for _ in 0..5 {
        if a.app.tree.node(a.app.selected).info.fold.loop_head {
            break;
        }
        a.keys("s");
    }
    let head = a.app.selected;
    a.keys("F");
    let node = a.app.tree.node(head).info.clone();
    assert!(node.fold.fold_node, "{}", a.app.message);
    assert!(
        node.label
            .as_deref()
            .unwrap_or("")
            .contains("and λ1 of path 2"),
        "{node:?}"
    );
    a.keys("r");
    let leaves = infos(&a)
        .iter()
        .filter(|n| n.kind() == Kind::Leaf(symdbg::session::Outcome::Return))
        .count();
    assert_eq!(leaves, 1, "{}", a.screen());
    a.keys("S");
    assert!(a.app.message.contains("session saved"), "{}", a.app.message);
    let saved = dir.join("count_if.py.symdbg-session");
    let b = open_file(&file, Some(&entry), Some(&saved));
    assert!(
        !b.app.message.contains("no longer apply"),
        "{}",
        b.app.message
    );
    assert_eq!(infos(&b), infos(&a), "the same tree, node for node");
    assert!(b.app.tree.node(head).info.fold.fold_node);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `=` at countIf's return leaf (issue 27): the prompt names κ1 and λ1; `=2 1` sets both
/// (the quantifier over κ1 + λ1 = 3 iterations is expanded, the return value is a number,
/// Z3's inputs have two matches of three); `=2` sets κ1 alone (λ1 stays symbolic); an
/// infeasible pair is outside the range; three numbers, or λ at a one-path fold, are refused.
#[test]
fn equals_sets_kappa_and_lambda_of_a_two_parameter_fold() {
    let mut h = open(&path("count_if.py"), "count_if", FoldMode::Auto, 32);
    h.keys("r");
    let leaf = h
        .app
        .tree
        .ids()
        .find(|&id| h.app.tree.node(id).info.kind() == Kind::Leaf(symdbg::session::Outcome::Return))
        .expect("the return leaf");
    h.app.select(leaf);
    assert_eq!(
        h.app.tree.node(leaf).info.fold.lambda.as_deref(),
        Some("λ1")
    );
    h.keys("=");
    assert!(h.app.message.starts_with("κ1 λ1 = ?"), "{}", h.app.message);
    h.keys("2 1<Enter>");
    let shown = h.app.fold.shown.clone().expect("an instance").1;
    assert_eq!(shown.feasible, Some(true), "{shown:?}");
    assert_eq!(shown.lambda, Some(("λ1".to_string(), "1".to_string())));
    assert_eq!(shown.return_value.as_deref(), Some("203"), "{shown:?}");
    assert!(shown.pc.iter().all(|c| !c.contains("all(")), "{shown:?}");
    assert!(shown.pc.iter().all(|c| !c.contains("λ1")), "{shown:?}");
    assert!(
        shown
            .verdict
            .starts_with("κ1 = 2, λ1 = 1 is feasible here, e.g. for a = ("),
        "{shown:?}"
    );
    let (a, x) = (&shown.inputs[0], &shown.inputs[1]);
    assert_eq!((a.0.as_str(), x.0.as_str()), ("a", "x"), "{shown:?}");
    let items: Vec<&str> =
        a.1.trim_matches(|c| c == '(' || c == ')')
            .split(", ")
            .collect();
    assert_eq!(items.len(), 3, "{shown:?}");
    assert_eq!(items.iter().filter(|v| **v == x.1).count(), 2, "{shown:?}");
    let screen = h.screen();
    assert!(screen.contains("with κ1 = 2, λ1 = 1"), "{screen}");
    insta::assert_snapshot!("fold_multi_equals_kappa_lambda", screen);
    h.keys("<Esc>");
    // κ1 alone: λ1 stays symbolic.
    h.keys("=2<Enter>");
    let shown = h.app.fold.shown.clone().expect("an instance").1;
    assert_eq!(shown.lambda, None);
    assert_eq!(shown.feasible, Some(true), "{shown:?}");
    assert!(
        shown
            .return_value
            .as_deref()
            .is_some_and(|r| r.contains("λ1")),
        "{shown:?}"
    );
    h.keys("<Esc>");
    // At the fold node: the head after 2 + 1 iterations.
    let fold = shown.fold;
    h.app.select(fold);
    h.keys("=2, 1<Enter>");
    let at_fold = h.app.fold.shown.clone().expect("an instance").1;
    for kv in [("i", "3"), ("k", "2")] {
        assert!(
            at_fold
                .store
                .contains(&(kv.0.to_string(), kv.1.to_string())),
            "{at_fold:?}"
        );
    }
    h.keys("<Esc>");
    h.keys("=1 2 3<Enter>");
    assert!(h.app.fold.shown.is_none());
    assert!(h.app.message.contains("κ's and λ's"), "{}", h.app.message);
    h.keys("=1 -2<Enter>");
    assert!(
        h.app.message.contains("λ counts iterations"),
        "{}",
        h.app.message
    );
}

/// `=n m` where the fold has one parameter is refused with the reason.
#[test]
fn equals_with_lambda_at_a_one_path_fold_is_refused() {
    let mut h = open("tests/data/fold/deep.py", "deep", FoldMode::Auto, 32);
    h.keys("r");
    h.keys("e");
    assert_eq!(h.app.tree.node(h.app.selected).info.fold.lambda, None);
    h.keys("=");
    assert!(h.app.message.starts_with("κ1 = ?"), "{}", h.app.message);
    h.keys("100 1<Enter>");
    assert!(h.app.fold.shown.is_none());
    assert!(
        h.app.message.contains("the fold of κ1 has one parameter"),
        "{}",
        h.app.message
    );
}
