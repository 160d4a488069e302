//! fuzz4: adversarial programs (tests/data/fuzz4/: `for`/`else` with `break`/`continue` in
//! nested loops, `in`, slices with negative, omitted, huge and symbolic bounds and steps,
//! conditional expressions, prints from functions inside short-circuited chains, division
//! and modulo of negatives, big integers, `try` around loops, recursion, folds) against
//! python3; and the bad input the adversarial pass turned up.

use std::path::PathBuf;

use serde_json::{json, Value};
use symdbg::engine::fold::FoldMode;
use symdbg::engine::Config;

use crate::differential::{py_files, root};

fn corpus() -> Vec<PathBuf> {
    let files = py_files(&root().join("tests/data/fuzz4"));
    assert!(files.len() >= 50, "the corpus has {} programs", files.len());
    files
}

/// Every leaf model of every corpus program (module and `# entry:` runs), and random
/// inputs, replayed in python3: outcome, exception, return value, store and stdout.
#[test]
fn fuzz4_corpus_agrees_with_python_unrolled() {
    let compared = crate::symbolic::differential_over(corpus(), 20_000);
    assert!(compared > 900, "only {compared} comparisons");
}

/// The same under `--fold auto` (loops and recursion folded where a template applies), on
/// the programs written for folds (`f*.py`, `q*.py`). Left out: `q07.py` and, of the
/// others, `s10.py` (nested loops: 126 folds), `r09.py`, `p08.py` and `r14.py`, whose
/// folded leaf models take from 15 s to minutes on a loaded machine (reported to the
/// owners of issues 27 and 30/31). By hand: `cargo test --test it -- fuzz4 --ignored`; it
/// ran over 10 minutes in a debug build at load 17 (`check --fold auto` on each of these
/// programs takes under 2 s: the time is likely the harness's κ-search of random inputs
/// with 20-digit ints, up to 2,000,000 iterations per candidate node).
#[test]
#[ignore = "slow in a debug build: the harness's κ-search on huge random inputs"]
fn fuzz4_corpus_agrees_with_python_folded() {
    let files: Vec<PathBuf> = corpus()
        .into_iter()
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            (name.starts_with('f') || name.starts_with('q')) && name != "q07.py"
        })
        .collect();
    let mut config = Config::default();
    config.fold = FoldMode::Auto;
    // A hang guard, not a measurement: a loaded machine must not turn checks into `unknown`.
    config.timeout_ms = Some(120_000);
    let compared = crate::symbolic::differential_over_with(files, 20_000, config);
    assert!(compared > 300, "only {compared} comparisons");
}

/// A DAP breakpoint whose `line` is no positive number (`-3`, `"5"`, missing) is named as
/// the client sent it, not as line 0, and is not verified.
#[test]
fn fuzz4_dap_breakpoint_lines_that_are_no_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.py");
    std::fs::write(&path, "x: int\nif x > 0:\n    x = 1\nprint(x)\n").unwrap();
    let path = path.to_string_lossy().into_owned();
    let mut c = crate::dap::client::Client::spawn();
    c.ok("initialize", json!({"adapterID": "symdbg"}));
    c.ok("launch", json!({"program": path, "stopOnEntry": true}));
    let set = c.ok(
        "setBreakpoints",
        json!({"source": {"path": path}, "breakpoints":
            [{"line": -3}, {"line": "3"}, {}, {"line": 0}, {"line": 3}]}),
    );
    let bps = set["breakpoints"].as_array().unwrap();
    let message = |b: &Value| b["message"].as_str().unwrap_or_default().to_string();
    assert_eq!(bps.len(), 5);
    for (b, sent) in bps.iter().zip(["-3", "\"3\"", "null"]) {
        assert_eq!(b["verified"], false, "{b}");
        assert!(
            message(b).starts_with(&format!("no line {sent}: ")),
            "{sent}: {b}"
        );
    }
    assert!(message(&bps[3]).starts_with("no line 0"), "{}", bps[3]);
    assert_eq!(bps[4]["verified"], true, "{}", bps[4]);
    c.ok("disconnect", json!({}));
    assert_eq!(c.close(), 0);
}
