//! fuzz5: a new adversarial corpus (tests/data/fuzz5/: nested `for`/`while` with `else`,
//! `break` and `continue`, negative and symbolic slices, `in`, conditional expressions,
//! prints from calls, floor division and modulo of negatives, big literals, recursion,
//! tuples built in loops, exceptions around loops and calls, unbound variables, dead code;
//! `k*.py` have contracts and invariants, which python3 cannot run) against python3 and
//! the product's other commands: every leaf model replayed in python3 (`--fold off` and
//! `--fold auto`), `check` in both modes, `testgen`'s files under pytest, `diff` on
//! one-token mutants (every reported input behaves differently in python3), and coverage
//! (no line `run --coverage` calls unreachable runs in python3).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;
use symdbg::engine::fold::FoldMode;
use symdbg::engine::Config;

use crate::differential::{
    entry_of, generate, load, params_of, parse_results, py_files, python_output, request, root,
    spawn_oracle, Inputs, Val,
};
use crate::util::symdbg;

fn corpus() -> Vec<PathBuf> {
    let files = py_files(&root().join("tests/data/fuzz5"));
    assert!(files.len() >= 60, "the corpus has {} programs", files.len());
    files
}

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// The programs python3 can run (all but `k*.py`, which have contracts or invariants).
fn python_programs() -> Vec<PathBuf> {
    corpus()
        .into_iter()
        .filter(|p| !stem(p).starts_with('k'))
        .collect()
}

/// `tests/data/fuzz5/NAME.py` relative to the repository root, and its `--entry` arguments.
fn args_of(path: &Path) -> (String, Vec<String>) {
    let rel = path
        .strip_prefix(root())
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let src = std::fs::read_to_string(path).unwrap();
    let entry = entry_of(&src).map_or(Vec::new(), |f| vec!["--entry".to_string(), f]);
    (rel, entry)
}

fn run_symdbg(args: &[String]) -> (i32, String, String) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    symdbg(&args)
}

/// Every leaf model of every program (module and `# entry:` runs) and random inputs,
/// replayed in python3: outcome, exception, return value, store and stdout.
#[test]
fn fuzz5_corpus_agrees_with_python_unrolled() {
    let compared = crate::symbolic::differential_over(python_programs(), 20_000);
    assert!(compared > 1_000, "only {compared} comparisons");
}

/// The same under `--fold auto` (loops and recursion folded where a template applies).
#[test]
fn fuzz5_corpus_agrees_with_python_folded() {
    let files: Vec<PathBuf> = python_programs()
        .into_iter()
        .filter(|p| stem(p).starts_with('f') || stem(p).starts_with('a'))
        .collect();
    let mut config = Config::default();
    config.fold = FoldMode::Auto;
    // A hang guard, not a measurement: a loaded machine must not turn checks into `unknown`.
    config.timeout_ms = Some(120_000);
    let compared = crate::symbolic::differential_over_with(files, 20_000, config);
    assert!(compared > 300, "only {compared} comparisons");
}

/// `symdbg check` on every program (contracts too), `--fold off` and `--fold auto`: every
/// leaf's model replays to its leaf (precise), and every random run ends as the leaf its
/// input reaches predicts, unless that leaf is a cut (`bound`) one.
#[test]
fn fuzz5_check_finds_no_disagreement() {
    let mut failures = Vec::new();
    let mut runs = 0;
    for path in corpus() {
        let (rel, entry) = args_of(&path);
        for fold in ["off", "auto"] {
            let mut args = vec!["check".to_string(), rel.clone()];
            args.extend(entry.iter().cloned());
            args.extend(["--fold", fold, "--json"].map(String::from));
            let (code, stdout, stderr) = run_symdbg(&args);
            let what = format!("symdbg {}", args.join(" "));
            let Ok(report) = serde_json::from_str::<Value>(&stdout) else {
                failures.push(format!("{what}: exit {code}, no JSON:\n{stdout}{stderr}"));
                continue;
            };
            runs += report["runs"].as_u64().unwrap_or(0);
            if report["precise"]["ok"] != true {
                failures.push(format!("{what}: not precise: {}", report["precise"]));
            }
            let cex = &report["exhaustive"]["counterexample"];
            if report["exhaustive"]["ok"] != true && cex["symbolic"]["outcome"] != "bound" {
                failures.push(format!("{what}: not exhaustive: {cex}"));
            }
            if !matches!(code, 0 | 1) {
                failures.push(format!("{what}: exit {code}\n{stderr}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(runs > 5_000, "only {runs} concrete runs");
}

/// `symdbg testgen` on every python program: pytest runs each written file and every test
/// passes (python3 behaves as each leaf says).
#[test]
fn fuzz5_testgen_files_pass_under_pytest() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    let mut written = 0;
    for path in python_programs() {
        let (rel, entry) = args_of(&path);
        let out = dir.path().join(format!("test_{}.py", stem(&path)));
        let mut args = vec!["testgen".to_string(), rel];
        args.extend(entry);
        args.extend(["-o".to_string(), out.to_string_lossy().into_owned()]);
        let (code, _, stderr) = run_symdbg(&args);
        assert_eq!(code, 0, "symdbg {}:\n{stderr}", args.join(" "));
        written += std::fs::read_to_string(&out)
            .unwrap()
            .matches("\ndef test_")
            .count();
        files.push(out);
    }
    let (passed, failed, output) = crate::testgen::pytest(&files);
    assert_eq!(failed, 0, "{output}");
    assert_eq!(passed, written, "{output}");
    assert!(written > 300, "only {written} tests");
}

/// One-token mutants of a program: each first occurrence of an operator replaced.
fn mutants(src: &str) -> Vec<String> {
    const SWAPS: &[(&str, &str)] = &[
        (" < ", " <= "),
        (" > ", " >= "),
        (" == ", " != "),
        (" + 1", " + 2"),
        (" // ", " % "),
        ("-1", "-2"),
        (" -= ", " += "),
    ];
    SWAPS
        .iter()
        .filter_map(|(a, b)| {
            // Not in the `# entry:` line or a `def` line.
            let at = src.match_indices(a).map(|(i, _)| i).find(|&i| {
                let line = src[..i].rsplit('\n').next().unwrap_or("");
                !line.starts_with('#') && !line.trim_start().starts_with("def ")
            })?;
            Some(format!("{}{b}{}", &src[..at], &src[at + a.len()..]))
        })
        .collect()
}

/// `symdbg diff OLD NEW --json` on one-token mutants of the python programs: for every
/// reported input python3 runs OLD and NEW differently, and as `diff` says OLD does.
#[test]
fn fuzz5_diff_witnesses_differ_in_python() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut requests = Vec::new();
    // (old, new, input, diff's old outcome)
    let mut claims: Vec<(String, String, Inputs, Value)> = Vec::new();
    let mut pairs = 0;
    for path in python_programs() {
        let src = std::fs::read_to_string(&path).unwrap();
        let entry = entry_of(&src);
        let (program, _) = load(&path, &src).unwrap();
        let params = params_of(&program, entry.as_deref()).unwrap();
        for (k, mutant) in mutants(&src).into_iter().enumerate() {
            let new = dir.path().join(format!("{}_m{k}.py", stem(&path)));
            std::fs::write(&new, &mutant).unwrap();
            if load(&new, &mutant).is_err() {
                continue;
            }
            pairs += 1;
            let mut args = vec![
                "diff".to_string(),
                path.to_string_lossy().into_owned(),
                new.to_string_lossy().into_owned(),
                "--json".to_string(),
            ];
            if let Some(f) = &entry {
                args.extend(["--entry".to_string(), f.clone()]);
            }
            let (code, stdout, stderr) = run_symdbg(&args);
            let Ok(report) = serde_json::from_str::<Value>(&stdout) else {
                failures.push(format!("symdbg {args:?}: exit {code}\n{stdout}{stderr}"));
                continue;
            };
            for d in report["differences"].as_array().into_iter().flatten() {
                let set: Inputs = params
                    .iter()
                    .map(|(n, _)| (n.clone(), Val::from_json(&d["input"][n]).unwrap()))
                    .collect();
                let old = path.to_string_lossy().into_owned();
                let newp = new.to_string_lossy().into_owned();
                for p in [&old, &newp] {
                    requests.push(request(
                        Path::new(p),
                        entry.as_deref(),
                        std::slice::from_ref(&set),
                        Some(10.0),
                    ));
                }
                claims.push((old, newp, set, d["old"].clone()));
            }
        }
    }
    let answer = python_output(spawn_oracle(&format!("[{}]", requests.join(", ")))).unwrap();
    let answers = answer.as_array().unwrap();
    for (k, (old, new, set, said)) in claims.iter().enumerate() {
        let a = &parse_results(&answers[2 * k], 1).unwrap()[0];
        let b = &parse_results(&answers[2 * k + 1], 1).unwrap()[0];
        let what = format!("symdbg diff {old} {new} on {set:?}");
        if a == b {
            failures.push(format!("{what}: python3 runs both the same: {a}"));
        }
        if said["outcome"] != a.outcome.as_str() {
            failures.push(format!("{what}: diff says old is {said}, python3: {a}"));
        }
    }
    eprintln!(
        "fuzz5 diff: {pairs} mutant pairs, {} differences replayed",
        claims.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(pairs >= 60, "only {pairs} mutant pairs");
    assert!(claims.len() >= 60, "only {} differences", claims.len());
}

/// `run --coverage`: a line it calls unreachable runs on no input in python3 (edge and
/// random inputs), and `g*.py`'s dead lines are found.
#[test]
fn fuzz5_unreachable_lines_never_run_in_python() {
    let mut unreachable: Vec<(PathBuf, BTreeSet<u64>)> = Vec::new();
    let mut requests = Vec::new();
    for path in python_programs() {
        let (rel, entry) = args_of(&path);
        let mut args = vec!["run".to_string(), rel, "--coverage".to_string()];
        args.extend(entry);
        let (code, stdout, stderr) = run_symdbg(&args);
        assert_eq!(code, 0, "symdbg {args:?}:\n{stderr}");
        let lines: BTreeSet<u64> = stdout
            .lines()
            .filter_map(|l| {
                let mut w = l.split_whitespace();
                let n = w.next()?.parse().ok()?;
                (w.next()? == "unreachable").then_some(n)
            })
            .collect();
        let src = std::fs::read_to_string(&path).unwrap();
        let entry = entry_of(&src);
        let (program, _) = load(&path, &src).unwrap();
        let params = params_of(&program, entry.as_deref()).unwrap();
        let sets = generate(&params, &stem(&path), 40, 160, false);
        let inputs: Vec<Value> = sets
            .iter()
            .map(|set| {
                let text = set
                    .iter()
                    .map(|(n, v)| format!("{}: {}", Value::String(n.clone()), v.json()))
                    .collect::<Vec<_>>()
                    .join(", ");
                serde_json::from_str(&format!("{{{text}}}")).unwrap()
            })
            .collect();
        requests.push(serde_json::json!({
            "file": path.to_string_lossy(),
            "entry": entry,
            "inputs": inputs,
        }));
        unreachable.push((path, lines));
    }
    let mut child = Command::new("python3")
        .arg(root().join("tests/it/fuzz5/trace_lines.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    let request = serde_json::to_string(&requests).unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(request.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "trace_lines.py failed");
    let ran: Vec<BTreeSet<u64>> = serde_json::from_slice(&out.stdout).unwrap();
    let mut failures = Vec::new();
    let mut dead = 0;
    for ((path, lines), ran) in unreachable.iter().zip(&ran) {
        dead += lines.len();
        let both: Vec<&u64> = lines.intersection(ran).collect();
        if !both.is_empty() {
            failures.push(format!(
                "{}: lines {both:?} are `unreachable` but ran in python3",
                path.display()
            ));
        }
        if stem(path).starts_with('g') && lines.is_empty() {
            failures.push(format!("{}: its dead lines were not found", path.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(dead >= 8, "only {dead} unreachable lines");
}

/// `--fold auto` on every python program of the corpus (the CI test takes `a*` and `f*`).
/// By hand: `cargo test --test it -- fuzz5 --ignored`.
#[test]
#[ignore = "minutes in a debug build"]
fn fuzz5_whole_corpus_agrees_with_python_folded() {
    let mut config = Config::default();
    config.fold = FoldMode::Auto;
    config.timeout_ms = Some(120_000);
    let compared = crate::symbolic::differential_over_with(python_programs(), 20_000, config);
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
