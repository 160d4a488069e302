//! Issue 31, one model path: a leaf that has a model in `run` has one in `testgen` and in
//! `check` (same queries, same order, same budget), and `check` names a leaf without one.

use std::collections::BTreeSet;

use crate::util::symdbg;

/// The nested-loop program of issue 31 and its options.
const ARGS: [&str; 7] = [
    "tests/data/fold/longest_run.py",
    "--entry",
    "f",
    "--unroll",
    "4",
    "--fold",
    "auto",
];

fn with(command: &str, more: &[&str]) -> Vec<String> {
    let mut args = vec![command.to_string()];
    args.extend(ARGS.iter().map(|s| s.to_string()));
    args.extend(more.iter().map(|s| s.to_string()));
    args
}

fn ran(args: &[String]) -> (i32, String, String) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    symdbg(&args)
}

/// `run --json`'s leaves that claim a result (normal, return, exception), and those of
/// them with a model.
fn run_leaves() -> (BTreeSet<u64>, BTreeSet<u64>) {
    let (code, out, err) = ran(&with("run", &["--json"]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("run --json");
    let nodes = v["nodes"].as_array().expect("a node list");
    let claiming: Vec<&serde_json::Value> = nodes
        .iter()
        .filter(|n| {
            matches!(
                n["outcome"].as_str(),
                Some("normal" | "return" | "exception")
            )
        })
        .collect();
    let ids = |keep: &dyn Fn(&serde_json::Value) -> bool| {
        claiming
            .iter()
            .filter(|n| keep(n))
            .map(|n| n["id"].as_u64().expect("an id"))
            .collect::<BTreeSet<u64>>()
    };
    (ids(&|_| true), ids(&|n| !n["model"].is_null()))
}

/// Every leaf that has a model in `run` gets a test from `testgen` and is replayed by
/// `check` (text and JSON): none is left out, none is "no model".
#[test]
fn run_testgen_and_check_give_the_same_leaves_a_model() {
    let (claiming, modelled) = run_leaves();
    assert!(claiming.len() >= 20, "{claiming:?}");
    assert_eq!(modelled, claiming, "run: every claiming leaf has a model");

    let (code, out, err) = ran(&with("testgen", &["--format", "jsonl"]));
    assert_eq!(code, 0, "{err}");
    let tested: BTreeSet<u64> = out
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            v["leaf"].as_u64().expect("a leaf id")
        })
        .collect();
    assert_eq!(
        tested, modelled,
        "testgen: a test for every leaf with a model"
    );
    assert!(!err.contains("no model"), "{err}");

    let (code, out, err) = ran(&with("check", &["--json"]));
    assert!(code == 0 || code == 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("check --json");
    assert_eq!(
        v["leaves_checked"].as_u64(),
        Some(claiming.len() as u64),
        "{out}"
    );
    assert_eq!(v["skipped"]["not_replayed"], serde_json::json!([]), "{out}");
    let (_, text, err) = ran(&with("check", &[]));
    assert!(
        text.contains(&format!("precise: probably ({} leaves", claiming.len())),
        "{text}\n{err}"
    );
    assert!(!text.contains("not replayed"), "{text}");
}
