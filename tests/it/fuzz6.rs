//! fuzz6: a third adversarial corpus (tests/data/fuzz6/: programs as people write them —
//! counting, searching and reversing loops over tuples, `range` with negative steps and
//! negative starts, `while`/`for` `else` with `break`/`continue`, nested `try` with handlers
//! for parent classes (`ArithmeticError`, `LookupError`, `Exception`), exceptions inside
//! loops, `NameError` on a name bound on one path, slices with negative and symbolic steps,
//! `%`/`//` of negatives and augmented forms, mutual and non-linear recursion (`ack`,
//! binary search), dead code after `return` and in `while True`; `k*.py` have contracts,
//! invariants, `assume` and `havoc`, which python3 cannot run) against python3 and the
//! product's other commands: every leaf model replayed in python3 (`--fold off` and
//! `--fold auto`), `check` in both modes, `testgen`'s files under pytest, `diff` on
//! one-token mutants (every reported input behaves differently in python3), and coverage
//! (no line `run --coverage` calls unreachable runs in python3).

use serde_json::Value;
use symdbg::engine::Config;

use crate::adversarial::Round;
use crate::util::symdbg;

const ROUND: Round = Round { name: "fuzz6" };

#[test]
fn fuzz6_corpus_agrees_with_python_unrolled() {
    let compared = ROUND.agrees_unrolled();
    assert!(compared > 1_000, "only {compared} comparisons");
}

/// The same under `--fold auto` (loops and recursion folded where a template applies).
#[test]
fn fuzz6_corpus_agrees_with_python_folded() {
    let compared = ROUND.agrees_folded(false);
    assert!(compared > 300, "only {compared} comparisons");
}

/// (`havoc` programs are refused: `fuzz6_check_refuses_havoc`)
#[test]
fn fuzz6_check_finds_no_disagreement() {
    let runs = ROUND.check_finds_no_disagreement();
    assert!(runs > 5_000, "only {runs} concrete runs");
}

#[test]
fn fuzz6_testgen_files_pass_under_pytest() {
    let written = ROUND.testgen_files_pass_under_pytest();
    assert!(written > 300, "only {written} tests");
}

#[test]
fn fuzz6_diff_witnesses_differ_in_python() {
    const SWAPS: &[(&str, &str)] = &[
        (" < ", " <= "),
        (" >= ", " > "),
        (" != ", " == "),
        (" % ", " // "),
        (" and ", " or "),
        ("[1:]", "[2:]"),
        ("-1", "1"),
        (" += 1", " += 2"),
        (" - 1", " + 1"),
    ];
    let (pairs, claims) = ROUND.diff_witnesses_differ_in_python(SWAPS);
    assert!(pairs >= 60, "only {pairs} mutant pairs");
    assert!(claims >= 60, "only {claims} differences");
}

#[test]
fn fuzz6_unreachable_lines_never_run_in_python() {
    let dead = ROUND.unreachable_lines_never_run_in_python();
    assert!(dead >= 8, "only {dead} unreachable lines");
}

/// `--fold auto` on every python program of the corpus (the CI test takes `a*` and `f*`).
/// By hand: `cargo test --test it -- fuzz6 --ignored`.
#[test]
#[ignore = "minutes in a debug build"]
fn fuzz6_whole_corpus_agrees_with_python_folded() {
    let compared = ROUND.agrees_folded(true);
    assert!(compared > 1_000, "only {compared} comparisons");
}

/// `check` on a program with `havoc`, or `--loops invariant` on loops with invariants, is
/// refused with a located message: the arbitrary value (an iteration) is no concrete run,
/// and the verdicts were false `no`s (k07.py: "no leaf represents this run", a model
/// that "does not do what the leaf says"). The default `--loops unroll` still checks.
#[test]
fn fuzz6_check_refuses_havoc() {
    for (file, line) in [("k03.py", 2), ("k07.py", 4)] {
        let rel = format!("tests/data/fuzz6/{file}");
        let (code, stdout, stderr) = symdbg(&["check", &rel, "--json"]);
        assert_eq!(code, 2, "check {rel}: {stdout}{stderr}");
        assert!(stdout.is_empty(), "check {rel}: {stdout}");
        assert!(
            stderr.contains("cannot test a program with `havoc`")
                && stderr.contains(&format!("{rel}:{line}:1")),
            "check {rel}: {stderr}"
        );
    }
    let rel = "tests/data/fuzz6/k02.py";
    let (code, _, stderr) = symdbg(&["check", rel, "--loops", "invariant"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("`check --loops invariant` cannot test"),
        "{stderr}"
    );
    // (exhaustive: no for the runs past --unroll's cut, which is exit code 1)
    let (code, stdout, stderr) = symdbg(&["check", rel]);
    assert!(matches!(code, 0 | 1), "{stdout}{stderr}");
    assert!(stdout.contains("precise: probably"), "{stdout}");
}

/// A second `configurationDone` is refused and moves no thread (it ran the first thread
/// on again, as a `continue`, and announced it started a second time).
#[test]
fn fuzz6_dap_second_configuration_done_is_refused() {
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
    c.ok("configurationDone", serde_json::json!({}));
    let before = c.ok("stackTrace", serde_json::json!({"threadId": 1}));
    let r = c.request("configurationDone", serde_json::json!({}));
    assert_eq!(r["success"], false, "{r}");
    assert!(
        r["message"]
            .as_str()
            .unwrap_or_default()
            .contains("was sent already"),
        "{r}"
    );
    let after = c.ok("stackTrace", serde_json::json!({"threadId": 1}));
    // (frame ids are new at each stackTrace: the place is the line)
    let lines = |v: &Value| -> Vec<Value> {
        let frames = v["stackFrames"].as_array().unwrap();
        frames.iter().map(|f| f["line"].clone()).collect()
    };
    assert_eq!(lines(&before), lines(&after));
    assert_eq!(c.events("stopped").len(), 1, "one stop, at the entry");
    assert_eq!(c.events("thread").len(), 1, "thread 1 started once");
    c.ok("disconnect", serde_json::json!({}));
    assert_eq!(c.close(), 0);
}

/// `diff OLD NEW --entry f` where only one program defines `f`: the message says which
/// (it named neither: "there is no function `f` to analyse").
#[test]
fn fuzz6_diff_names_the_program_without_the_entry() {
    let (old, new) = ("tests/data/fuzz6/a01.py", "tests/data/fuzz6/a02.py");
    for (a, b, which) in [(old, new, "NEW"), (new, old, "OLD")] {
        let (code, stdout, stderr) = symdbg(&["diff", a, b, "--entry", "count_neg"]);
        assert_eq!(code, 2, "{stdout}{stderr}");
        assert!(
            stderr.contains("no function `count_neg`")
                && stderr.contains(&format!(" = in {which}: {new}\n")),
            "diff {a} {b}: {stderr}"
        );
    }
}

/// The debugger's rows of every node of a 30,000-node path (a loop of 10,000 iterations
/// that prints, cut as never ending): each row asked for the folds on its path by walking
/// it up to the root, so the last rows the TUI sends after `r` took minutes (quadratic)
/// and `Esc` could not interrupt them. A hang guard, not a measurement: it takes well
/// under a second now.
#[test]
fn fuzz6_rows_of_a_deep_path_come_without_walking_it() {
    use symdbg::base::SourceMap;
    use symdbg::engine::Limits;
    use symdbg::engine::NodeId;
    use symdbg::session::{Policy, Session};
    let src = "n: int\ni = 0\nwhile i < 20000:\n    print(i, (i, n))\n    i += 1\n";
    let rows = std::thread::Builder::new()
        .stack_size(crate::differential::STACK_SIZE)
        .spawn(move || {
            let mut s =
                Session::open(SourceMap::new("p.py", src), None, Config::default()).unwrap();
            s.run(s.tree().root(), Policy::Subtree, Limits::default(), &|_| {});
            let start = std::time::Instant::now();
            let rows: Vec<_> = (0..s.tree().len())
                .map(|i| s.row(NodeId(i as u32)))
                .collect();
            (rows.len(), start.elapsed())
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(rows.0 > 30_000, "{} nodes", rows.0);
    assert!(
        rows.1 < std::time::Duration::from_secs(60),
        "{} rows took {:?}",
        rows.0,
        rows.1
    );
}
