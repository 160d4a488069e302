//! `check --fold auto` on nested folded loops finishes in seconds (it took over 5 minutes:
//! the models of folded leaves had tuples of tens of thousands of elements, which the
//! precision test replayed and κ-searched), and the models of folded leaves are small.

use std::time::{Duration, Instant};

use crate::util::symdbg;

const NESTED: &str = "tests/data/programs/nested_loops.py";

/// Precise; its exhaustiveness fails on a `bound` leaf at --unroll 3, as with --fold off;
/// within a minute in a debug build on a loaded machine (about 9 s alone).
#[test]
fn check_fold_auto_on_nested_loops_finishes_in_seconds() {
    let start = Instant::now();
    let (code, stdout, stderr) = symdbg(&["check", NESTED, "--fold", "auto", "--json"]);
    let took = start.elapsed();
    eprintln!("check --fold auto {NESTED}: {took:?}");
    assert!(took < Duration::from_secs(60), "took {took:?}");
    assert_eq!(code, 0, "{stdout}{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["precise"]["ok"], true, "{stdout}");
    let bound = &report["exhaustive"]["counterexample"]["symbolic"]["outcome"];
    assert_eq!(bound, "bound", "{stdout}");
}

/// Every leaf model of the folded tree is small: tuples of at most 8 elements, κs of at
/// most 8 (minimisation probes large values from below).
#[test]
fn folded_leaf_models_are_small() {
    let (code, stdout, stderr) = symdbg(&["run", NESTED, "--fold", "auto", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let tree: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let nodes = tree["nodes"].as_array().expect("nodes");
    let mut leaves_with_kappa = 0;
    for n in nodes {
        let Some(model) = n["model"].as_object() else {
            continue;
        };
        let inputs = model
            .get("inputs")
            .and_then(|i| i.as_object())
            .unwrap_or(model);
        for (name, v) in inputs {
            if let Some(items) = v.as_array() {
                assert!(
                    items.len() <= 8,
                    "node {}: {name} has {} items",
                    n["id"],
                    items.len()
                );
            }
        }
        if let Some(params) = n["model_params"].as_object() {
            leaves_with_kappa += 1;
            for (k, v) in params {
                let v = v.as_i64().unwrap_or(i64::MAX);
                assert!((0..=8).contains(&v), "node {}: {k} = {v}", n["id"]);
            }
        }
    }
    assert!(leaves_with_kappa >= 50, "{leaves_with_kappa}");
}
