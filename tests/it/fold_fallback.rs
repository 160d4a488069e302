//! Issue 31: a fold leaf that is `unknown` falls back to unrolling its loop (said in the
//! tree, the JSON and the summary), and fold mode finds the bugs unroll mode finds within
//! the same bounds on the test corpora.

use std::collections::BTreeSet;

use symdbg::base::SourceMap;
use symdbg::session::{Config, FoldMode, Limits, NodeId, Outcome, Policy, Session};

use crate::util::symdbg;

const UNDECIDED: &str = "tests/data/fold/undecided_leaf.py";

/// `file:line:col: Class` of each `--counterexamples` line (the inputs left out: the two
/// modes' models may differ).
fn bugs(args: &[&str]) -> BTreeSet<String> {
    let (code, out, err) = symdbg(args);
    assert!(code == 0 || code == 3, "{args:?}: {code}\n{err}");
    out.lines()
        .filter_map(|l| l.split(" for ").next())
        .map(str::to_string)
        .collect()
}

/// The node id of a `--tree` row (`│   [4] 8: while ...`), `None` on other lines.
fn row_id(row: &str) -> Option<u32> {
    let at = row.trim_start_matches(['│', '├', '└', '─', ' ']);
    let at = at.strip_prefix('[')?;
    at[..at.find(']')?].parse().ok()
}

#[test]
fn an_undecided_fold_leaf_unrolls_its_loop_and_finds_the_bug() {
    let common = ["--entry", "f", "--unroll", "3"];
    let run = |extra: &[&str]| {
        let mut a = vec!["run", UNDECIDED, "--counterexamples"];
        a.extend(common);
        a.extend(extra);
        bugs(&a)
    };
    let unrolled = run(&[]);
    assert!(
        unrolled.iter().any(|b| b.ends_with("ZeroDivisionError")),
        "{unrolled:?}"
    );
    assert_eq!(run(&["--fold", "auto"]), unrolled);

    // The tree says so: the undecided leaf points at the fallback, the fallback (a child
    // of the fold node) names the leaf, the summary counts it.
    let (code, tree, err) = symdbg(&[
        "run", UNDECIDED, "--entry", "f", "--unroll", "3", "--fold", "auto",
    ]);
    assert_eq!(code, 0, "{err}");
    let leaf = tree
        .lines()
        .find(|l| l.contains("unknown (predicate calls nested"))
        .unwrap_or_else(|| panic!("{tree}"));
    let (_, at) = leaf
        .split_once("fold leaf undecided: unrolled instead at [")
        .unwrap_or_else(|| panic!("{leaf}"));
    let fallback: u32 = at.trim_end_matches(']').parse().unwrap();
    let leaf_id = row_id(leaf).unwrap();
    let row = tree
        .lines()
        .find(|l| row_id(l) == Some(fallback))
        .unwrap_or_else(|| panic!("no row [{fallback}]\n{tree}"));
    assert!(
        row.ends_with(&format!(
            "-- fold leaf [{leaf_id}] undecided: unrolled κ1 = 0..3 instead"
        )),
        "{row}"
    );
    assert!(tree.contains("(unrolled instead)"), "{tree}");
    assert!(
        tree.contains(&format!(
            "fallback: 1 fold leaf undecided: the fold at line 19 unrolled instead (κ1 = 0..3, node [{fallback}])"
        )),
        "{tree}"
    );

    // JSON: `fallback` at the fallback node, a child of the fold node; `fallback_node`
    // at the undecided leaf.
    let (code, json, err) = symdbg(&[
        "run", UNDECIDED, "--entry", "f", "--unroll", "3", "--fold", "auto", "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let nodes = v["nodes"].as_array().unwrap();
    let node = |i: u64| nodes.iter().find(|n| n["id"] == i).unwrap();
    let unknown: Vec<_> = nodes.iter().filter(|n| n["outcome"] == "unknown").collect();
    assert_eq!(unknown.len(), 1, "{json}");
    let f = unknown[0]["fallback_node"].as_u64().expect("fallback_node");
    assert_eq!(f, u64::from(fallback));
    assert_eq!(node(f)["fallback"], "unrolled");
    let parent = node(node(f)["parent"].as_u64().unwrap());
    assert!(parent["fold"].is_object(), "{parent}");
    assert_eq!(nodes.iter().filter(|n| !n["fallback"].is_null()).count(), 1);
    assert!(
        nodes.iter().any(|n| n["exception"] == "ZeroDivisionError"
            && n["path_condition"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| !c.as_str().unwrap().contains('κ'))),
        "the bug is found below the fallback, without κ"
    );
}

/// `check` agrees with unroll mode word for word (the undecided leaf is not a candidate:
/// its inputs end at the fallback's leaves; before, they ended at the `unknown` leaf, a
/// counterexample) and `testgen` writes unroll mode's tests.
#[test]
fn check_and_testgen_use_the_fallback() {
    let both = |cmd: &str, extra: &[&str]| {
        let mut outs = Vec::new();
        for fold in ["off", "auto"] {
            let mut a = vec![cmd, UNDECIDED, "--entry", "f", "--fold", fold];
            a.extend(extra);
            let (code, out, err) = symdbg(&a);
            assert_eq!(code, 0, "{a:?}\n{out}\n{err}");
            outs.push((out, err));
        }
        outs
    };
    let check = both("check", &["--unroll", "5"]);
    assert!(
        check[0].0.starts_with("exhaustive: probably"),
        "{:?}",
        check[0]
    );
    assert_eq!(check[1], check[0]);
    let tests = both("testgen", &["--unroll", "3", "--format", "jsonl"]);
    // The same tests but for the leaf numbers (the fold's tree has more nodes).
    let strip = |s: &str| -> Vec<(String, String, String)> {
        s.lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (
                    v["inputs"].to_string(),
                    v["outcome"].to_string(),
                    v["exception"].to_string(),
                )
            })
            .collect()
    };
    let unrolled = strip(&tests[0].0);
    assert!(
        unrolled.iter().any(|t| t.2 == "\"ZeroDivisionError\""),
        "{unrolled:?}"
    );
    // The same endings test by test; a boundary test's inputs may differ (issue 31: the
    // fallback leaf's path condition has the fold's terms too, so of the equally small
    // boundary models the solver may pick another: `(1, -2, 2)` or `(2, -2, 1)`).
    let endings = |t: &[(String, String, String)]| -> Vec<(String, String)> {
        t.iter().map(|(_, o, e)| (o.clone(), e.clone())).collect()
    };
    let folded = strip(&tests[1].0);
    assert_eq!(endings(&folded), endings(&unrolled));
    let same = folded.iter().zip(&unrolled).filter(|(a, b)| a == b).count();
    assert!(same + 1 >= unrolled.len(), "{folded:?}\n{unrolled:?}");
}

/// The corpora: hand-written mutation subjects, the examples, the fold tests' programs.
fn corpus() -> Vec<(String, Option<String>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [
        "tests/data/mutation",
        "examples",
        "tests/data/fold",
        "tests/data/fold_multi",
    ] {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "py"))
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).unwrap();
            let name = format!("{dir}/{}", p.file_name().unwrap().to_string_lossy());
            // The module run, and each function as the entry.
            out.push((name.clone(), None));
            for l in text.lines() {
                if let Some(rest) = l.strip_prefix("def ") {
                    let f = rest.split('(').next().unwrap().trim().to_string();
                    out.push((name.clone(), Some(f)));
                }
            }
        }
    }
    out
}

/// The exception leaves (class, line) of a complete exploration, or `None` when it did
/// not finish (node limit) or the program is refused.
fn exception_leaves(
    text: &str,
    entry: Option<&str>,
    fold: FoldMode,
) -> Option<BTreeSet<(String, usize)>> {
    let mut config = Config::default();
    config.unroll = 3;
    config.fold = fold;
    config.timeout_ms = Some(20_000);
    let source = SourceMap::new("t.py", text);
    let mut s = Session::open(source.clone(), entry, config).ok()?;
    let root = s.tree().root();
    let limits = Limits {
        max_nodes: Some(20_000),
        ..Limits::default()
    };
    s.run(root, Policy::Subtree, limits, &|_| {});
    let tree = s.tree();
    if tree.nodes().any(|n| n.is_open()) {
        return None;
    }
    let ids: Vec<NodeId> = tree.nodes().map(|n| n.id).collect();
    Some(
        ids.into_iter()
            .filter_map(|id| {
                let n = tree.node(id);
                let Some(Outcome::Exception(class)) = n.outcome() else {
                    return None;
                };
                let line = n.exception_at().map_or(0, |sp| source.line(sp.start));
                Some((class.name().to_string(), line))
            })
            .collect(),
    )
}

/// Fold and unroll find the same bugs within the same bounds (issue 31): every exception
/// leaf (class, line) of unroll mode at `--unroll 3` is one of `--fold auto`'s at
/// `--unroll 3` (a fold may find more: bugs past the unrolling bound).
#[test]
fn fold_finds_the_bugs_unrolling_finds_on_the_corpora() {
    let mut compared = 0;
    let mut missed = Vec::new();
    for (file, entry) in corpus() {
        let text =
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&file))
                .unwrap();
        let Some(unrolled) = exception_leaves(&text, entry.as_deref(), FoldMode::Off) else {
            continue;
        };
        let Some(folded) = exception_leaves(&text, entry.as_deref(), FoldMode::Auto) else {
            continue;
        };
        compared += 1;
        let lost: Vec<_> = unrolled.difference(&folded).collect();
        if !lost.is_empty() {
            missed.push(format!("{file} {entry:?}: {lost:?} (fold: {folded:?})"));
        }
    }
    eprintln!("fold vs unroll: {compared} programs compared");
    assert!(compared >= 60, "only {compared} programs compared");
    assert!(
        missed.is_empty(),
        "{} of {compared}:\n{}",
        missed.len(),
        missed.join("\n")
    );
}
