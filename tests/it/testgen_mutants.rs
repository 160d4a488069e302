//! Issue 25: "testgen's pytest files pass and fail on one-token mutants". For example
//! programs with `for`, `in`, slices, conditional expressions and `print`, `symdbg testgen`
//! writes a pytest file; it passes on the program; then every one-token mutant (an
//! operator, a literal, `True`/`False`, `and`/`or`, `break`/`continue` changed) that
//! minipy accepts is run under the same file. python3 is the oracle of which mutants can
//! be told apart: on the tests' own inputs (each test asserts the whole behaviour —
//! outcome, exception and line, variables or return value, stdout — so the file must fail
//! on exactly those), or only on random inputs (survivors: the models did not pick an
//! input that tells them apart; counted and printed, issue 31 is about them).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use crate::differential::{generate, params_of, python_output, request, spawn_oracle, Inputs, Val};
use crate::util::symdbg;

/// The programs: (path in the repository, `--entry`).
const PROGRAMS: &[(&str, Option<&str>)] = &[
    ("examples/print_steps.py", None),
    ("examples/remove_first.py", None),
    ("examples/for_search.py", Some("find")),
    ("examples/for_search.py", Some("count")),
    ("examples/for_search.py", Some("last_below")),
];

/// The one-token mutants of `src` that minipy accepts, each with what was changed.
fn mutants(src: &str) -> Vec<(String, String)> {
    let token = regex::Regex::new(
        r"->|//|<=|>=|==|!=|[-+*<>%]|\b\d+\b|\bTrue\b|\bFalse\b|\band\b|\bor\b|\bbreak\b|\bcontinue\b",
    )
    .unwrap();
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    let mut offset = 0;
    for line in src.split_inclusive('\n') {
        let code = line.split('#').next().unwrap_or("");
        for m in token.find_iter(code) {
            let to: Vec<String> = match m.as_str() {
                "->" => continue,
                "+" => vec!["-".into()],
                "-" => vec!["+".into()],
                "*" => vec!["+".into()],
                "//" => vec!["%".into()],
                "%" => vec!["//".into()],
                "<" => vec!["<=".into()],
                "<=" => vec!["<".into()],
                ">" => vec![">=".into()],
                ">=" => vec![">".into()],
                "==" => vec!["!=".into()],
                "!=" => vec!["==".into()],
                "True" => vec!["False".into()],
                "False" => vec!["True".into()],
                "and" => vec!["or".into()],
                "or" => vec!["and".into()],
                "break" => vec!["continue".into()],
                "continue" => vec!["break".into()],
                n => {
                    let k: i64 = n.parse().unwrap();
                    vec![(k + 1).to_string()]
                }
            };
            for to in to {
                let start = offset + m.start();
                let end = offset + m.end();
                let mutant = format!("{}{to}{}", &src[..start], &src[end..]);
                if symdbg::lang::load(&mutant).is_ok() && seen.insert(mutant.clone()) {
                    let line_no = src[..start].matches('\n').count() + 1;
                    out.push((mutant, format!("line {line_no}: `{}` → `{to}`", m.as_str())));
                }
            }
        }
        offset += line.len();
    }
    out
}

/// The fields a generated test asserts, from a run_python.py result.
fn behaviour(r: &Json, entry: bool) -> String {
    let mut b = serde_json::json!({
        "outcome": r["outcome"],
        "exception": r["exception"],
        "line": r["line"],
        "stdout": r["stdout"],
    });
    if entry {
        b["return_value"] = r["return_value"].clone();
    } else {
        b["store"] = r["store"].clone();
    }
    b.to_string()
}

/// pytest over `files`: the files with at least one failing test, and the passed count.
fn pytest_failing(files: &[PathBuf]) -> (BTreeSet<PathBuf>, usize) {
    let out = std::process::Command::new(crate::util::python_with_pytest())
        .args(["-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider"])
        .args(files)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run pytest");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    // (`FAILED dir/tests/test_p0_m3.py::test_leaf2_normal - ...`: file names are unique)
    let failing = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("FAILED "))
        .filter_map(|l| l.split("::").next())
        .filter_map(|f| {
            let base = Path::new(f).file_name()?;
            files.iter().find(|p| p.file_name() == Some(base)).cloned()
        })
        .collect();
    let summary = stdout.lines().last().unwrap_or("");
    let count = |word: &str| {
        regex::Regex::new(&format!(r"(\d+) {word}"))
            .unwrap()
            .captures(summary)
            .map_or(0, |c| c[1].parse::<usize>().unwrap())
    };
    assert_eq!(count("error"), 0, "pytest errors:\n{stdout}");
    (failing, count("passed"))
}

#[test]
fn testgen_files_pass_and_fail_on_one_token_mutants() {
    let scratch = std::env::temp_dir().join(format!("symdbg-mutants-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let mut report = Vec::new();
    let (mut all_told_apart, mut all_killed, mut all_survivors) = (0, 0, 0);
    for (k, (rel, entry)) in PROGRAMS.iter().enumerate() {
        let original =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap();
        let name = Path::new(rel).file_name().unwrap().to_str().unwrap();
        let dir = scratch.join(format!("p{k}"));
        std::fs::create_dir_all(dir.join("tests")).unwrap();
        let program = dir.join(name);
        std::fs::write(&program, &original).unwrap();
        let p = program.to_str().unwrap().to_string();
        let test_file = dir.join("tests").join(format!("test_p{k}.py"));
        let jsonl = dir.join("tests.jsonl");
        let mut args = vec!["testgen".to_string(), p.clone()];
        if let Some(e) = entry {
            args.extend(["--entry".to_string(), e.to_string()]);
        }
        for (out, extra) in [(&test_file, vec![]), (&jsonl, vec!["--format", "jsonl"])] {
            let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
            a.extend(extra);
            a.extend(["-o", out.to_str().unwrap()]);
            let (code, _, err) = symdbg(&a);
            assert_eq!(code, 0, "{a:?}: {err}");
        }
        let tests = std::fs::read_to_string(&test_file)
            .unwrap()
            .matches("\ndef test_")
            .count();
        let (failing, passed) = pytest_failing(std::slice::from_ref(&test_file));
        assert!(
            failing.is_empty() && passed == tests,
            "{rel} {entry:?}: {passed} of {tests} pass"
        );
        if original.contains("print(") {
            let text = std::fs::read_to_string(&test_file).unwrap();
            assert!(text.contains("capsys.readouterr().out =="), "{text}");
        }

        // The tests' inputs, then random ones.
        let mut inputs: Vec<Json> = std::fs::read_to_string(&jsonl)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Json>(l).unwrap()["inputs"].clone())
            .collect();
        let n_tests = inputs.len();
        let (parsed, _) = symdbg::lang::load(&original).unwrap();
        let params = params_of(&parsed, *entry).unwrap();
        let random: Vec<Inputs> = generate(&params, &format!("mutants-{k}"), 8, 24, false);
        for set in &random {
            let fields: serde_json::Map<String, Json> = set
                .iter()
                .map(|(n, v)| (n.clone(), serde_json::from_str(&v.json()).unwrap()))
                .collect();
            inputs.push(Json::Object(fields));
        }
        let sets: Vec<Inputs> = inputs
            .iter()
            .map(|o| {
                o.as_object()
                    .unwrap()
                    .iter()
                    .map(|(n, v)| (n.clone(), Val::from_json(v).unwrap()))
                    .collect()
            })
            .collect();

        // python3 on the original and on every mutant (2 s per run: a mutant may loop).
        let muts = mutants(&original);
        let mut files = vec![program.clone()];
        for (j, (src, _)) in muts.iter().enumerate() {
            let mdir = dir.join(format!("m{j}"));
            std::fs::create_dir_all(mdir.join("tests")).unwrap();
            let mp = mdir.join(name);
            std::fs::write(&mp, src).unwrap();
            files.push(mp);
        }
        let requests: Vec<String> = files
            .iter()
            .map(|f| request(f, *entry, &sets, Some(2.0)))
            .collect();
        let answer = python_output(spawn_oracle(&format!("[{}]", requests.join(", ")))).unwrap();
        let answers = answer.as_array().unwrap();
        let runs = |i: usize| -> Vec<(String, bool)> {
            answers[i]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| (behaviour(r, entry.is_some()), r["outcome"] == "timeout"))
                .collect()
        };
        let base = runs(0);
        assert!(
            base.iter().all(|(_, t)| !t),
            "{rel}: the original times out"
        );
        let mut told_apart = BTreeSet::new();
        let mut on_random_only = Vec::new();
        let mut to_pytest = Vec::new();
        for (j, (_, what)) in muts.iter().enumerate() {
            let theirs = runs(j + 1);
            let differ =
                |range: std::ops::Range<usize>| range.into_iter().any(|i| theirs[i].0 != base[i].0);
            if theirs[..n_tests].iter().any(|(_, t)| *t) {
                continue; // pytest would hang on it (no timeout in the generated file)
            }
            let mdir = dir.join(format!("m{j}"));
            let tf = mdir.join("tests").join(format!("test_p{k}_m{j}.py"));
            std::fs::copy(&test_file, &tf).unwrap();
            to_pytest.push((j, tf.clone()));
            if differ(0..n_tests) {
                told_apart.insert(tf);
            } else if differ(n_tests..theirs.len()) {
                on_random_only.push(what.clone());
            }
        }
        let test_files: Vec<PathBuf> = to_pytest.iter().map(|(_, f)| f.clone()).collect();
        let (failing, _) = pytest_failing(&test_files);
        let killed: BTreeSet<PathBuf> = failing.into_iter().collect();
        // Each test asserts the whole behaviour on its inputs: the file fails on exactly
        // the mutants python3 tells apart there.
        let wrong: Vec<String> = to_pytest
            .iter()
            .filter(|(_, f)| killed.contains(f) != told_apart.contains(f))
            .map(|(j, f)| format!("{} (killed: {})", muts[*j].1, killed.contains(f)))
            .collect();
        assert!(wrong.is_empty(), "{rel} {entry:?}: {wrong:?}");
        assert!(!killed.is_empty(), "{rel} {entry:?}: no mutant killed");
        all_told_apart += told_apart.len() + on_random_only.len();
        all_killed += killed.len();
        all_survivors += on_random_only.len();
        report.push(format!(
            "{rel} {}: {tests} tests, {} mutants ({} run under pytest), {} killed, {} survive (told apart by random inputs only: {})",
            entry.map_or("(module)".to_string(), |e| format!("--entry {e}")),
            muts.len(),
            to_pytest.len(),
            killed.len(),
            on_random_only.len(),
            on_random_only.join("; ")
        ));
    }
    let _ = std::fs::remove_dir_all(&scratch);
    eprintln!("{}", report.join("\n"));
    eprintln!(
        "testgen mutants: {all_killed} killed of {all_told_apart} that python3 tells apart; {all_survivors} survivors"
    );
}
