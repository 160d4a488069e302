//! The TUI's folds (issue 15): `F` folds or unfolds an open loop head against `--fold`,
//! `=` shows a node with its fold's κ := n (feasible or not, asked of Z3); snapshots of a
//! fold node and of the `=` view.

use symdbg::base::SourceMap;
use symdbg::engine::fold::FoldMode;
use symdbg::engine::Config;
use symdbg::session::NodeId;
use symdbg::session::{NodeKind as Kind, Outcome};
use symdbg::tui::app::Mode;
use symdbg::tui::harness::Harness;

fn open_fold(rel: &str, entry: &str, fold: FoldMode) -> Harness {
    let path = format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("read program");
    let mut config = Config::default();
    config.fold = fold;
    let setup = super::tui::setup(SourceMap::new(rel, &text), Some(entry.to_string()), config);
    Harness::open(setup, 120, 32).unwrap_or_else(|d| panic!("{d:?}"))
}

fn info(h: &Harness, id: NodeId) -> symdbg::session::NodeRow {
    h.app.tree.node(id).info.clone()
}

/// `--fold off`: `F` at the loop head folds it; the rest runs classically; `=` at the
/// exception leaf: 3 is outside κ1's range, 100 is the bug's iteration count.
#[test]
fn f_folds_a_loop_head_and_equals_instantiates_kappa() {
    let mut h = open_fold("tests/data/fold/deep.py", "deep", FoldMode::Off);
    h.keys("=");
    assert_eq!(h.app.mode, Mode::Normal);
    assert!(
        h.app.message.contains("select a fold node"),
        "{}",
        h.app.message
    );
    h.keys("F");
    assert!(
        h.app.message.contains("select an open node at a `while`"),
        "{}",
        h.app.message
    );
    h.keys("s");
    let head = h.app.selected;
    assert!(info(&h, head).fold.loop_head, "{:?}", info(&h, head));
    h.keys("F");
    let node = info(&h, head);
    assert!(node.fold.fold_node, "{node:?}");
    assert_eq!(node.kind(), Kind::Inner);
    assert!(
        node.label
            .as_deref()
            .unwrap_or("")
            .starts_with("fold: κ1 iterations of the path (4 enter, 5 else, 8)"),
        "{node:?}"
    );
    assert!(
        h.app.message.starts_with("folded the loop"),
        "{}",
        h.app.message
    );
    let screen = h.screen();
    assert!(screen.contains("fold: κ1 iterations"), "{screen}");
    insta::assert_snapshot!("tui_fold_node", screen);
    // F again on the stepped fold node says what it is.
    h.app.select(head);
    h.keys("F");
    assert!(h.app.message.contains("a fold node"), "{}", h.app.message);

    // Run everything, go to the exception leaf (κ1 >= 100).
    h.keys("gre");
    let leaf = h.app.selected;
    assert_eq!(
        info(&h, leaf).kind(),
        Kind::Leaf(Outcome::Exception(symdbg::base::ExcClass::AssertionError))
    );
    assert_eq!(info(&h, leaf).fold.kappa.as_deref(), Some("κ1"));
    h.keys("=");
    assert!(matches!(h.app.mode, Mode::Prompt(..)));
    h.keys("3<Enter>");
    let shown = h.app.fold.shown.clone().expect("an instance").1;
    assert_eq!(shown.feasible, Some(false), "{shown:?}");
    assert!(
        shown.verdict.contains("outside the feasible range"),
        "{shown:?}"
    );
    let title = format!("node {} with κ1 = 3", leaf.0);
    assert!(h.screen().contains(&title), "{}", h.screen());
    // j/k scroll the view; any other key closes it (and does nothing else).
    let (before, nodes) = (h.app.selected, h.app.tree.len());
    h.keys("j");
    assert!(h.app.fold.shown.is_some());
    h.keys("u");
    assert!(h.app.fold.shown.is_none());
    assert!(!h.screen().contains(&title));
    assert_eq!((h.app.selected, h.app.tree.len()), (before, nodes));
    h.keys("=100<Enter>");
    let shown = h.app.fold.shown.clone().expect("an instance").1;
    assert_eq!(shown.feasible, Some(true), "{shown:?}");
    assert!(
        shown
            .verdict
            .starts_with("κ1 = 100 is feasible here, e.g. for t = ("),
        "{shown:?}"
    );
    assert!(shown.pc.iter().all(|c| !c.contains("κ1")), "{shown:?}");
    h.keys("<Esc>");
    // Not a number; a negative one.
    h.keys("=abc<Enter>");
    assert!(h.app.fold.shown.is_none());
    assert!(h.app.message.contains("not a number"), "{}", h.app.message);
    h.keys("=-1<Enter>");
    assert!(h.app.message.contains("negative"), "{}", h.app.message);
}

/// The `=` view of a return leaf for a small n: the quantifier is expanded into one
/// conjunct per iteration, the store has κ replaced, the inputs come from Z3.
#[test]
fn equals_view_expands_small_quantifiers() {
    let mut h = open_fold("tests/data/fold/deep.py", "deep", FoldMode::Auto);
    h.keys("r");
    // The return leaf below the exit "leaves the path at line 5": `return i`.
    let leaf = h
        .app
        .tree
        .ids()
        .find(|&id| {
            let n = info(&h, id);
            n.kind() == Kind::Leaf(Outcome::Return) && n.summary.contains("κ1")
        })
        .expect("the return κ1 leaf");
    h.app.select(leaf);
    h.keys("=2<Enter>");
    let shown = h.app.fold.shown.clone().expect("an instance").1;
    assert_eq!(shown.feasible, Some(true), "{shown:?}");
    for c in ["t[0] != x", "t[1] != x", "t[2] == x"] {
        assert!(shown.pc.iter().any(|p| p == c), "{c} not in {:?}", shown.pc);
    }
    assert!(shown.pc.iter().all(|c| !c.contains("all(")), "{shown:?}");
    assert_eq!(shown.return_value.as_deref(), Some("2"));
    let screen = h.screen();
    assert!(screen.contains("κ1 = 2 is feasible here"), "{screen}");
    insta::assert_snapshot!("tui_fold_instance", screen);
    // At the fold node itself: the head after 2 iterations, i = 2.
    h.keys("<Esc>");
    let fold = shown.fold;
    h.app.select(fold);
    h.keys("=2<Enter>");
    let at_fold = h.app.fold.shown.clone().expect("an instance").1;
    assert!(
        at_fold.store.contains(&("i".to_string(), "2".to_string())),
        "{at_fold:?}"
    );
    assert_eq!(at_fold.feasible, Some(true));
}

/// `--fold auto`: `s` folds a loop head, `F` steps one classically instead; a loop
/// without a template says why `F` cannot fold it.
#[test]
fn f_unfolds_under_fold_auto_and_explains_loops_without_template() {
    let mut h = open_fold("tests/data/fold/deep.py", "deep", FoldMode::Auto);
    h.keys("s");
    let head = h.app.selected;
    h.keys("F");
    let node = info(&h, head);
    assert!(!node.fold.fold_node, "{node:?}");
    assert!(h.app.message.contains("classically"), "{}", h.app.message);
    // The classic step: enter the loop or leave it, no fold labels.
    let kids: Vec<NodeId> = h
        .app
        .tree
        .ids()
        .filter(|&i| info(&h, i).parent() == Some(head))
        .collect();
    assert_eq!(kids.len(), 2, "{kids:?}");
    assert!(kids.iter().all(|&k| info(&h, k).label.is_none()));
    // The next iteration's head (under the entering child) folds with s (the default).
    let next_head = (0..40)
        .find_map(|_| {
            h.keys("r");
            h.app
                .tree
                .ids()
                .find(|&i| i > head && info(&h, i).fold.fold_node)
        })
        .expect("a fold node below the unfolded head");
    assert!(
        info(&h, next_head)
            .label
            .as_deref()
            .unwrap_or("")
            .starts_with("fold: κ"),
        "{:?}",
        info(&h, next_head)
    );

    let mut h = open_fold("tests/data/fold/no_template.py", "total", FoldMode::Off);
    for _ in 0..10 {
        if info(&h, h.app.selected).fold.loop_head {
            break;
        }
        h.keys("s");
    }
    assert!(info(&h, h.app.selected).fold.loop_head);
    let at = h.app.selected;
    h.keys("F");
    assert!(
        h.app
            .message
            .starts_with("this loop does not fold: `s` grows"),
        "{}",
        h.app.message
    );
    assert_eq!(info(&h, at).kind(), Kind::Open, "refused: not stepped");
}

/// Issue 23 item 6: replaying a leaf below a fold checks the conjuncts about κ (κ-search
/// gives the run's iteration count) instead of calling them "havoc'd values"; the model
/// pane names κ as the fold's iteration count and the replay shows it.
#[test]
fn replay_below_a_fold_checks_kappa_and_the_model_pane_names_it() {
    let mut h = open_fold("tests/data/fold/deep.py", "deep", FoldMode::Auto);
    // (room for the model's 101-element tuple and the lines under it)
    h.resize(200, 70);
    h.keys("r");
    h.keys("e");
    let leaf = h.app.selected;
    assert!(info(&h, leaf).is_exception(), "{:?}", info(&h, leaf));
    h.keys("m");
    let Some(Ok(m)) = h.app.models.get(&leaf).cloned() else {
        panic!("no model: {:?}", h.app.models.get(&leaf))
    };
    assert_eq!(
        m.kappas,
        vec![("κ1".to_string(), "100".to_string(), 4)],
        "{m:?}"
    );
    assert!(
        m.havoc.iter().all(|(k, _)| !k.starts_with("k@")),
        "κ is not a havoc'd value: {m:?}"
    );
    let screen = h.screen();
    assert!(screen.contains("κ1 = 100  (loop at line 4)"), "{screen}");
    assert!(!screen.contains("havoc"), "{screen}");
    h.keys("R");
    let Some(Ok(r)) = h.app.replays.get(&leaf).cloned() else {
        panic!("no replay: {:?}", h.app.replays.get(&leaf))
    };
    assert!(r.follows, "{r:?}");
    assert!(!r.verdict.contains("havoc"), "{}", r.verdict);
    assert!(!r.verdict.contains("not checked"), "{}", r.verdict);
    assert_eq!(r.kappas, vec!["loop at line 4: κ1 = 100".to_string()]);
    assert!(
        h.screen().contains("fold: loop at line 4: κ1 = 100"),
        "{}",
        h.screen()
    );
}

/// The model's κ stays in the model pane after `R` (the replay shows it as the model does),
/// and `m` brings the model pane back.
#[test]
fn kappa_stays_shown_after_a_replay_and_m_shows_the_model_again() {
    let mut h = open_fold("tests/data/fold/deep.py", "deep", FoldMode::Auto);
    h.resize(200, 70);
    h.keys("rem");
    let kappa = "κ1 = 100  (loop at line 4)";
    assert!(h.screen().contains(kappa), "{}", h.screen());
    h.keys("R");
    let screen = h.screen();
    assert!(screen.contains("follows this path"), "{screen}");
    assert!(screen.contains(kappa), "after R: {screen}");
    h.keys("m");
    let screen = h.screen();
    assert!(screen.contains(kappa), "after m: {screen}");
    assert!(
        screen.contains("R: replay these inputs"),
        "after m: {screen}"
    );
}

/// Issue 31: an undecided fold leaf and the fold's fallback (its loop unrolled instead)
/// say so in their rows, and the fallback's subtree is explored with the rest (`C`).
#[test]
fn an_undecided_fold_leaf_names_its_fallback_in_the_rows() {
    let mut h = open_fold("tests/data/fold/undecided_leaf.py", "f", FoldMode::Auto);
    h.keys("C");
    let ids: Vec<NodeId> = h.app.tree.ids().collect();
    let label = |id: NodeId| info(&h, id).label.unwrap_or_default();
    let unknown: Vec<NodeId> = ids
        .iter()
        .copied()
        .filter(|&id| info(&h, id).kind() == Kind::Leaf(Outcome::Unknown))
        .collect();
    assert_eq!(unknown.len(), 1);
    let fallback = ids
        .iter()
        .copied()
        .find(|&id| label(id).contains("undecided: unrolled κ1 = 0..3 instead"))
        .unwrap_or_else(|| panic!("no fallback row"));
    assert_eq!(
        label(unknown[0]),
        format!("fold leaf undecided: unrolled instead at [{}]", fallback.0)
    );
    let parent = h.app.tree.node(fallback).info.parent().unwrap();
    assert!(info(&h, parent).fold.fold_node);
    // The fallback was explored: the division by zero is below it.
    let below_fallback = |mut id: NodeId| loop {
        match h.app.tree.node(id).info.parent() {
            Some(p) if p == fallback => return true,
            Some(p) => id = p,
            None => return false,
        }
    };
    assert!(ids.iter().any(|&id| {
        info(&h, id).kind()
            == Kind::Leaf(Outcome::Exception(
                symdbg::base::ExcClass::ZeroDivisionError,
            ))
            && below_fallback(id)
    }));
}
