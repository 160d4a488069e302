//! `symdbg run`: the `--json` schema of DESIGN.md §3 on every node of several runs, the
//! values it promises (minipy and SMT-LIB text, models), `--dot` well-formedness,
//! `--counterexamples` lines (format, location, replay with `symdbg exec`), exit codes.

use super::util::{examples, symdbg};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use regex::Regex;
use serde_json::Value;

mod dot;
mod explain;
mod schema;

/// The examples `run` is tried on, as (file, extra options): module runs, entry runs,
/// opaque calls, BFS, and a run cut short by --max-nodes (open nodes).
const RUNS: &[(&str, &[&str])] = &[
    ("examples/abs_double.py", &[]),
    ("examples/if_program.py", &[]),
    ("examples/inversion.py", &[]),
    ("examples/safe_ratio.py", &[]),
    ("examples/find.py", &["--unroll", "2"]),
    // An entry run whose import fails (the driver reads an input), and real entry runs.
    ("examples/find.py", &["--entry", "find"]),
    (
        "tests/data/programs/find_entry.py",
        &["--entry", "find", "--unroll", "2"],
    ),
    (
        "tests/data/programs/fib.py",
        &["--entry", "fib", "--recursion", "3"],
    ),
    (
        "tests/data/programs/div_mod_function.py",
        &["--entry", "divmod_sum"],
    ),
    ("examples/window_sum.py", &["--no-frames"]),
    ("examples/loop_scope.py", &["--bfs"]),
    ("examples/filter_nonnegative.py", &["--max-nodes", "12"]),
];

/// Write `contents` to a fresh file in the temp directory and return its path.
fn temp_file(contents: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("symdbg-run-{}-{n}.py", std::process::id()));
    std::fs::write(&path, contents).expect("write temp file");
    path
}

/// `symdbg run FILE ARGS...`, which must exit with `code`; its stdout.
fn run_ok(file: &str, args: &[&str], code: i32) -> String {
    let mut all = vec!["run", file];
    all.extend_from_slice(args);
    let (got, out, err) = symdbg(&all);
    assert_eq!(got, code, "symdbg {all:?}\nstderr: {err}");
    out
}

/// `symdbg run FILE --json ARGS...`, parsed.
fn run_json(file: &str, args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = run_ok(file, &all, 0);
    assert!(out.ends_with('\n') && out.lines().count() == 1, "one line");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("bad JSON from {file}: {e}\n{out}"))
}

#[test]
fn json_schema_on_every_node() {
    for (file, args) in RUNS {
        let doc = run_json(file, args);
        schema::check(&doc, &format!("{file} {args:?}"));
    }
}

#[test]
fn json_entry_run_has_parameters_as_inputs_and_return_values() {
    let doc = run_json(
        "tests/data/programs/find_entry.py",
        &["--entry", "find", "--unroll", "2"],
    );
    assert_eq!(doc["entry"], "find");
    let inputs: Vec<(&str, &str)> = doc["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["name"].as_str().unwrap(), i["type"].as_str().unwrap()))
        .collect();
    assert_eq!(inputs, [("needle", "int"), ("haystack", "tuple")]);
    let returns: Vec<&Value> = schema::nodes(&doc)
        .iter()
        .filter(|n| n["outcome"] == "return")
        .collect();
    assert!(!returns.is_empty(), "find returns on some path");
    for n in returns {
        assert!(n["return_value"].is_string(), "{n}");
        // The model drives the program to this leaf: replay it with Python's semantics.
        let needle = n["model"]["needle"].as_i64().expect("int needle");
        let hay: Vec<i64> = n["model"]["haystack"]
            .as_array()
            .expect("tuple as a JSON array")
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        let expected = hay
            .iter()
            .position(|&h| h == needle)
            .map_or(-1, |i| i as i64);
        assert_eq!(n["model_return_value"].as_i64(), Some(expected), "{n}");
    }
}

#[test]
fn json_values_are_minipy_and_smt2() {
    // DESIGN §3's example: x = 2 * y; if x < 0: x = -x.
    let doc = run_json("examples/abs_double.py", &[]);
    let nodes = schema::nodes(&doc);
    let at_if = nodes
        .iter()
        .find(|n| n["statement"] == "if x < 0:")
        .expect("the if node");
    assert_eq!(at_if["store"]["x"], "2 * y");
    assert_eq!(at_if["store"]["y"], "y");
    assert_eq!(at_if["smt2"]["store"]["x"], "(* 2 y)");
    assert_eq!(at_if["smt2"]["declarations"], "(declare-const y Int)");
    let taken = nodes
        .iter()
        .find(|n| n["branch"] == "2 * y < 0")
        .expect("the branch 2 * y < 0");
    assert_eq!(taken["path_condition"], serde_json::json!(["2 * y < 0"]));
    assert_eq!(
        taken["smt2"]["path_condition"],
        serde_json::json!(["(< (* 2 y) 0)"])
    );
    assert_eq!(taken["statement"], "x = -x");
    let negated = &nodes[taken["children"][0].as_u64().unwrap() as usize];
    assert_eq!(negated["store"]["x"], "-(2 * y)");
    assert_eq!(negated["smt2"]["store"]["x"], "(- (* 2 y))");
    // Both asserts hold on every path: two normal leaves, whose models agree with the store.
    let leaves: Vec<&Value> = nodes.iter().filter(|n| n["kind"] == "leaf").collect();
    assert_eq!(leaves.len(), 2, "{leaves:?}");
    for leaf in leaves {
        assert_eq!(leaf["outcome"], "normal");
        let y = leaf["model"]["y"].as_i64().unwrap();
        assert_eq!(leaf["model_store"]["y"].as_i64(), Some(y));
        assert_eq!(leaf["model_store"]["x"].as_i64(), Some((2 * y).abs()));
    }
}

#[test]
fn dot_is_well_formed_with_one_line_per_node() {
    for (file, args) in RUNS {
        let doc = run_json(file, args);
        let mut all = vec!["--dot"];
        all.extend_from_slice(args);
        let text = run_ok(file, &all, 0);
        dot::check(&text, &doc, &format!("{file} {args:?}"));
    }
}

#[test]
fn dot_escapes_quotes_and_backslashes_in_labels() {
    let path = temp_file("x: int\ny = x + 1  # a \"quoted\" \\ comment {\nif y > 0:\n    y = 0\n");
    let file = path.to_str().unwrap();
    let text = run_ok(file, &["--dot"], 0);
    let doc = run_json(file, &[]);
    let _ = std::fs::remove_file(&path);
    dot::check(&text, &doc, "escapes");
    assert!(
        text.contains(r#"label="2: y = x + 1  # a \"quoted\" \\ comment {"#),
        "{text}"
    );
}

/// `file:line:col: Class`, optionally ` for name = literal, ...`, and for a broken invariant
/// or a leaf after a loop's invariant ` -- ` a note ending in whether it is reproduced.
fn counterexample_re() -> Regex {
    Regex::new(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<class>[A-Z][A-Za-z]*)(?: for (?P<inputs>.+?))?(?: -- (?P<note>.*(?:reproduced|too weak to prove this)))?$").unwrap()
}

/// `name = literal` pairs of a counterexample line, in order.
fn input_pairs(inputs: &str) -> Vec<(String, String)> {
    let pair = Regex::new(r"(\w+) = (\((?:-?\d+(?:, )?)*,?\)|-?\d+|True|False)(?:, |$)").unwrap();
    let pairs: Vec<(String, String)> = pair
        .captures_iter(inputs)
        .map(|c| (c[1].to_string(), c[2].to_string()))
        .collect();
    let rebuilt: Vec<String> = pairs.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    assert_eq!(rebuilt.join(", "), inputs, "inputs as Python literals");
    pairs
}

#[test]
fn counterexamples_are_compiler_style_lines_that_replay() {
    let re = counterexample_re();
    for (file, args) in RUNS {
        let mut all = vec!["--counterexamples"];
        all.extend_from_slice(args);
        let out = run_ok(file, &all, 0);
        let doc = run_json(file, args);
        let exceptions: Vec<&Value> = schema::nodes(&doc)
            .iter()
            .filter(|n| n["outcome"] == "exception")
            .collect();
        assert_eq!(out.lines().count(), exceptions.len(), "{file}: {out}");
        let names: Vec<&str> = doc["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["name"].as_str().unwrap())
            .collect();
        for (line, leaf) in out.lines().zip(exceptions) {
            let c = re
                .captures(line)
                .unwrap_or_else(|| panic!("not file:line:col: {line}"));
            assert_eq!(&c["file"], *file);
            assert_eq!(c["class"], leaf["exception"]);
            assert_eq!(
                c["line"].parse::<u64>().ok(),
                leaf["exception_line"].as_u64()
            );
            assert_eq!(
                c["col"].parse::<u64>().ok(),
                leaf["exception_column"].as_u64()
            );
            let pairs = c
                .name("inputs")
                .map_or(Vec::new(), |m| input_pairs(m.as_str()));
            let got: Vec<&str> = pairs.iter().map(|(n, _)| n.as_str()).collect();
            assert_eq!(got, names, "every input, in declaration order: {line}");
            // Replaying the inputs concretely raises the same exception.
            let mut exec = vec!["exec", file, "--json"];
            let inputs: Vec<String> = pairs.iter().map(|(n, v)| format!("{n}={v}")).collect();
            for i in &inputs {
                exec.extend(["--input", i.as_str()]);
            }
            if let Some(pos) = args.iter().position(|a| *a == "--entry") {
                exec.extend(["--entry", args[pos + 1]]);
            }
            let (code, replay, err) = symdbg(&exec);
            assert_eq!(code, 0, "{exec:?}: {err}");
            let replay: Value = serde_json::from_str(&replay).unwrap();
            // A note says whether the inputs alone reproduce it (havoc'd values may not).
            let claimed = c
                .name("note")
                .is_none_or(|n| n.as_str().ends_with("; reproduced") || n.as_str() == "reproduced");
            let reproduced = replay["outcome"] == "exception" && replay["exception"] == c["class"];
            assert_eq!(reproduced, claimed, "{line}: {replay}");
        }
    }
}

#[test]
fn counterexamples_of_the_examples() {
    let out = run_ok("examples/inversion.py", &["--counterexamples"], 0);
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/inversion.py"),
    )
    .unwrap();
    let assert_line = text
        .lines()
        .position(|l| l.starts_with("assert x >= 0"))
        .unwrap()
        + 1;
    assert_eq!(
        out,
        format!("examples/inversion.py:{assert_line}:8: AssertionError for x = 1\n")
    );

    let out = run_ok("examples/safe_ratio.py", &["--counterexamples"], 0);
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/safe_ratio.py"),
    )
    .unwrap();
    let rest_line = text.lines().position(|l| l.starts_with("rest = ")).unwrap() + 1;
    // The column is the failing expression's (`part % whole`), not the statement's.
    let rest_col = text
        .lines()
        .nth(rest_line - 1)
        .unwrap()
        .find("part % whole")
        .unwrap()
        + 1;
    let re = Regex::new(&format!(
        r"^examples/safe_ratio.py:{rest_line}:{rest_col}: ZeroDivisionError for part = -?\d+, whole = 0\n$"
    ))
    .unwrap();
    assert!(re.is_match(&out), "{out}");
}

#[test]
fn counterexamples_first_stops_at_the_first_exception_leaf() {
    for (file, args) in [
        ("examples/if_program.py", &[][..]),
        (
            "tests/data/programs/index_entry.py",
            &["--entry", "middle"][..],
        ),
        ("examples/loop_scope.py", &["--bfs"][..]),
    ] {
        let mut all = vec!["--counterexamples"];
        all.extend_from_slice(args);
        let every = run_ok(file, &all, 0);
        all.push("--first");
        let first = run_ok(file, &all, 0);
        assert_eq!(first.lines().count(), 1, "{first}");
        let location = |l: &str| l.split(" for ").next().unwrap().to_string();
        assert_eq!(
            location(first.trim_end()),
            location(every.lines().next().unwrap())
        );
        all.push("--fail-on-exception");
        run_ok(file, &all, 3);
    }
}

#[test]
fn counterexamples_none_prints_nothing_and_a_note() {
    let path = temp_file("x: int\ny = x + 1\nif y > 3:\n    y = 3\n");
    let file = path.to_str().unwrap();
    let (code, out, err) = symdbg(&["run", file, "--counterexamples", "--fail-on-exception"]);
    let _ = std::fs::remove_file(&path);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(err.contains("no exception leaf"), "{err}");
    // abs_double's asserts hold on every path.
    let (code, out, err) = symdbg(&["run", "examples/abs_double.py", "--counterexamples"]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(err.contains("no path raises an exception"), "{err}");
}

#[test]
fn exit_codes() {
    for format in ["--tree", "--json", "--dot", "--counterexamples"] {
        run_ok("examples/safe_ratio.py", &[format], 0);
        run_ok(
            "examples/safe_ratio.py",
            &[format, "--fail-on-exception"],
            3,
        );
    }
    let fine = temp_file("x: int\ny = x * x\n");
    run_ok(fine.to_str().unwrap(), &["--fail-on-exception"], 0);
    let _ = std::fs::remove_file(&fine);
    let bad = temp_file("x: int\nif x > 0\n    x = 1\n");
    let (code, out, err) = symdbg(&["run", bad.to_str().unwrap(), "--json"]);
    let _ = std::fs::remove_file(&bad);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("error"), "{err}");
    for usage in [
        &["--frobnicate"][..],
        &["--json", "--dot"],
        &["--tree", "--json"],
        &["--counterexamples", "--json"],
        &["--first"],
        &["--entry", "nosuch"],
        &["--unroll", "many"],
    ] {
        let mut all = vec!["run", "examples/find.py"];
        all.extend_from_slice(usage);
        let (code, out, err) = symdbg(&all);
        assert_eq!((code, out.as_str()), (2, ""), "{usage:?}: {err}");
        assert!(!err.is_empty());
    }
    let (code, _, _) = symdbg(&["run", "examples/no_such_file.py"]);
    assert_eq!(code, 2);
}

#[test]
fn every_example_runs_in_every_format() {
    for file in examples() {
        for format in ["--tree", "--json", "--dot", "--counterexamples"] {
            let (code, out, err) = symdbg(&["run", &file, format, "--max-nodes", "2000"]);
            assert_eq!(code, 0, "{file} {format}: {err}");
            if format == "--json" {
                let doc: Value = serde_json::from_str(&out).unwrap();
                schema::check(&doc, &file);
            }
        }
    }
}
