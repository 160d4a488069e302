//! fuzz5: a new adversarial corpus (tests/data/fuzz5/: nested `for`/`while` with `else`,
//! `break` and `continue`, negative and symbolic slices, `in`, conditional expressions,
//! prints from calls, floor division and modulo of negatives, big literals, recursion,
//! tuples built in loops, exceptions around loops and calls, unbound variables, dead code;
//! `k*.py` have contracts and invariants, which python3 cannot run) against python3 and
//! the product's other commands: every leaf model replayed in python3 (`--fold off` and
//! `--fold auto`), `check` in both modes, `testgen`'s files under pytest, `diff` on
//! one-token mutants (every reported input behaves differently in python3), and coverage
//! (no line `run --coverage` calls unreachable runs in python3).

use serde_json::Value;

use crate::adversarial::Round;

const ROUND: Round = Round { name: "fuzz5" };

#[test]
fn fuzz5_corpus_agrees_with_python_unrolled() {
    let compared = ROUND.agrees_unrolled();
    assert!(compared > 1_000, "only {compared} comparisons");
}

/// The same under `--fold auto` (loops and recursion folded where a template applies).
#[test]
fn fuzz5_corpus_agrees_with_python_folded() {
    let compared = ROUND.agrees_folded(false);
    assert!(compared > 300, "only {compared} comparisons");
}

#[test]
fn fuzz5_check_finds_no_disagreement() {
    let runs = ROUND.check_finds_no_disagreement();
    assert!(runs > 5_000, "only {runs} concrete runs");
}

#[test]
fn fuzz5_testgen_files_pass_under_pytest() {
    let written = ROUND.testgen_files_pass_under_pytest();
    assert!(written > 300, "only {written} tests");
}

#[test]
fn fuzz5_diff_witnesses_differ_in_python() {
    const SWAPS: &[(&str, &str)] = &[
        (" < ", " <= "),
        (" > ", " >= "),
        (" == ", " != "),
        (" + 1", " + 2"),
        (" // ", " % "),
        ("-1", "-2"),
        (" -= ", " += "),
    ];
    let (pairs, claims) = ROUND.diff_witnesses_differ_in_python(SWAPS);
    assert!(pairs >= 60, "only {pairs} mutant pairs");
    assert!(claims >= 60, "only {claims} differences");
}

#[test]
fn fuzz5_unreachable_lines_never_run_in_python() {
    let dead = ROUND.unreachable_lines_never_run_in_python();
    assert!(dead >= 8, "only {dead} unreachable lines");
}

/// `--fold auto` on every python program of the corpus (the CI test takes `a*` and `f*`).
/// By hand: `cargo test --test it -- fuzz5 --ignored`.
#[test]
#[ignore = "minutes in a debug build"]
fn fuzz5_whole_corpus_agrees_with_python_folded() {
    let compared = ROUND.agrees_folded(true);
    assert!(compared > 1_000, "only {compared} comparisons");
}

/// A DAP request whose `threadId` is no integer (`"x"`, `1.5`, missing) is refused naming
/// the id as the client sent it, not as thread 0.
#[test]
fn fuzz5_dap_thread_ids_that_are_no_integers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.py");
    std::fs::write(&path, "x: int\nif x > 0:\n    x = 1\nprint(x)\n").unwrap();
    let path = path.to_string_lossy().into_owned();
    let mut c = crate::dap::client::Client::spawn();
    c.ok("initialize", serde_json::json!({"adapterID": "symdbg"}));
    c.ok(
        "launch",
        serde_json::json!({"program": path, "stopOnEntry": true}),
    );
    for (command, sent, shown) in [
        ("next", serde_json::json!("x"), "\"x\""),
        ("stepIn", serde_json::json!(1.5), "1.5"),
        ("stackTrace", Value::Null, "null"),
        ("continue", serde_json::json!(-4), "-4"),
    ] {
        let mut args = serde_json::json!({});
        if !sent.is_null() {
            args["threadId"] = sent.clone();
        }
        let r = c.request(command, args);
        assert_eq!(r["success"], false, "{command} {sent}: {r}");
        let message = r["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with(&format!("no thread {shown} ")),
            "{command} {sent}: {r}"
        );
    }
    c.ok("disconnect", serde_json::json!({}));
    assert_eq!(c.close(), 0);
}
