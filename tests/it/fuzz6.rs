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
    let files = py_files(&root().join("tests/data/fuzz6"));
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

/// `tests/data/fuzz6/NAME.py` relative to the repository root, and its `--entry` arguments.
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

/// Does the program have a `havoc` statement?
fn has_havoc(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .any(|l| l.trim_start().starts_with("havoc "))
}

fn run_symdbg(args: &[String]) -> (i32, String, String) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    symdbg(&args)
}

/// Every leaf model of every program (module and `# entry:` runs) and random inputs,
/// replayed in python3: outcome, exception, return value, store and stdout.
#[test]
fn fuzz6_corpus_agrees_with_python_unrolled() {
    let compared = crate::symbolic::differential_over(python_programs(), 20_000);
    eprintln!("fuzz6 unrolled: {compared} runs compared with python3");
    assert!(compared > 1_000, "only {compared} comparisons");
}

/// The same under `--fold auto` (loops and recursion folded where a template applies).
#[test]
fn fuzz6_corpus_agrees_with_python_folded() {
    let files: Vec<PathBuf> = python_programs()
        .into_iter()
        .filter(|p| stem(p).starts_with('f') || stem(p).starts_with('a'))
        .collect();
    let mut config = Config::default();
    config.fold = FoldMode::Auto;
    // A hang guard, not a measurement: a loaded machine must not turn checks into `unknown`.
    config.timeout_ms = Some(120_000);
    let compared = crate::symbolic::differential_over_with(files, 20_000, config);
    eprintln!("fuzz6 folded: {compared} runs compared with python3");
    assert!(compared > 300, "only {compared} comparisons");
}

/// `symdbg check` on every program (contracts too), `--fold off` and `--fold auto`: every
/// leaf's model replays to its leaf (precise), and every random run ends as the leaf its
/// input reaches predicts, unless that leaf is a cut (`bound`) one.
#[test]
fn fuzz6_check_finds_no_disagreement() {
    let mut failures = Vec::new();
    let mut runs = 0;
    // (`havoc` programs are refused: `fuzz6_check_refuses_havoc`)
    for path in corpus().into_iter().filter(|p| !has_havoc(p)) {
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
    eprintln!("fuzz6 check: {runs} concrete runs");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(runs > 5_000, "only {runs} concrete runs");
}

/// `symdbg testgen` on every python program: pytest runs each written file and every test
/// passes (python3 behaves as each leaf says).
#[test]
fn fuzz6_testgen_files_pass_under_pytest() {
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
    eprintln!("fuzz6 testgen: {written} tests, {passed} passed under pytest");
    assert_eq!(failed, 0, "{output}");
    assert_eq!(passed, written, "{output}");
    assert!(written > 300, "only {written} tests");
}

/// One-token mutants of a program: each first occurrence of an operator replaced.
fn mutants(src: &str) -> Vec<String> {
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
fn fuzz6_diff_witnesses_differ_in_python() {
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
        "fuzz6 diff: {pairs} mutant pairs, {} differences replayed",
        claims.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(pairs >= 60, "only {pairs} mutant pairs");
    assert!(claims.len() >= 60, "only {} differences", claims.len());
}

/// `run --coverage`: a line it calls unreachable runs on no input in python3 (edge and
/// random inputs), and `g*.py`'s dead lines are found.
#[test]
fn fuzz6_unreachable_lines_never_run_in_python() {
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
    eprintln!("fuzz6 coverage: {dead} unreachable lines, none ran in python3");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(dead >= 8, "only {dead} unreachable lines");
}

/// `--fold auto` on every python program of the corpus (the CI test takes `a*` and `f*`).
/// By hand: `cargo test --test it -- fuzz6 --ignored`.
#[test]
#[ignore = "minutes in a debug build"]
fn fuzz6_whole_corpus_agrees_with_python_folded() {
    let mut config = Config::default();
    config.fold = FoldMode::Auto;
    config.timeout_ms = Some(120_000);
    let compared = crate::symbolic::differential_over_with(python_programs(), 20_000, config);
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
