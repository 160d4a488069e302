//! Issue 10 ("verification you can trust"), items 4, 5, 8, 10 and 12: the `--entry` rule
//! (`import module; module.f(args)`), predicates called from ordinary code, exception
//! columns as CPython 3.11 marks them, and the small ones (user-facing names, plurals).
//! The oracle is python3 (`tests/py/import_call.py`): every leaf's model of `symdbg run
//! --json` and every `symdbg exec` is replayed there.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

pub(super) use super::util::symdbg;

pub(super) fn temp_file(contents: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("symdbg-trust-{}-{n}.py", std::process::id()));
    std::fs::write(&path, contents).expect("write temp file");
    path
}

/// CPython's result for one run (see `tests/py/import_call.py`).
pub(super) fn python(path: &Path, entry: Option<&str>, inputs: &Value) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/py/import_call.py");
    let mut child = Command::new("python3")
        .arg(script)
        .arg(path)
        .arg(entry.unwrap_or("-"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    // Models may hold long tuples: the inputs go through stdin, not the command line.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(inputs.to_string().as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "import_call.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// How `symdbg run --json` ends a path, as CPython says it: module runs end `normal`.
fn same_outcome(ours: &str, python: &str) -> bool {
    ours == python
}

/// Explore `src` (`symdbg run --json` with `args`), replay every leaf's model in python3 and
/// check outcome, exception class, return value and, for exceptions, line and column.
/// Returns the number of leaves replayed.
pub(super) fn leaves_agree_with_python(src: &str, entry: Option<&str>, args: &[&str]) -> usize {
    let path = temp_file(src);
    let file = path.to_str().unwrap();
    let mut all = vec!["run", file, "--json"];
    if let Some(f) = entry {
        all.extend(["--entry", f]);
    }
    all.extend_from_slice(args);
    let (code, out, err) = symdbg(&all);
    assert_eq!(code, 0, "{all:?}: {err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let mut replayed = 0;
    for n in doc["nodes"].as_array().unwrap() {
        let outcome = n["outcome"].as_str().unwrap_or("");
        if !matches!(outcome, "normal" | "return" | "exception") || n["model"].is_null() {
            continue;
        }
        let py = python(&path, entry, &n["model"]);
        let what = format!("{src}\nleaf {n}\npython3: {py}");
        assert!(
            same_outcome(outcome, py["outcome"].as_str().unwrap()),
            "{what}"
        );
        assert_eq!(n["exception"], py["exception"], "{what}");
        if outcome == "return" {
            assert_eq!(n["model_return_value"], py["return_value"], "{what}");
        }
        if outcome == "exception" {
            assert_eq!(n["exception_line"], py["line"], "{what}");
            assert_eq!(n["exception_column"], py["col"], "{what}");
        }
        replayed += 1;
    }
    let _ = std::fs::remove_file(&path);
    replayed
}

/// `symdbg exec FILE --json` and the human output on `inputs` (NAME=VALUE), compared with
/// python3: outcome, class, return value, and the `at file:line:col` of an exception.
pub(super) fn exec_agrees_with_python(
    src: &str,
    entry: Option<&str>,
    inputs: &[(&str, &str)],
) -> String {
    let path = temp_file(src);
    let file = path.to_str().unwrap();
    let mut args = vec!["exec", file];
    if let Some(f) = entry {
        args.extend(["--entry", f]);
    }
    let pairs: Vec<String> = inputs.iter().map(|(n, v)| format!("{n}={v}")).collect();
    for p in &pairs {
        args.extend(["--input", p.as_str()]);
    }
    let (code, human, err) = symdbg(&args);
    assert_eq!(code, 0, "{args:?}: {err}");
    args.push("--json");
    let (_, json, _) = symdbg(&args);
    let ours: Value = serde_json::from_str(&json).unwrap();
    let mut model = serde_json::Map::new();
    for (n, v) in inputs {
        let py_literal = v.replace('(', "[").replace(",)", "]").replace(')', "]");
        let value: Value = match *v {
            "True" => Value::Bool(true),
            "False" => Value::Bool(false),
            _ => serde_json::from_str(&py_literal).expect("int or tuple literal"),
        };
        model.insert(n.to_string(), value);
    }
    let py = python(&path, entry, &Value::Object(model));
    let what = format!("{src}\n{args:?}\nsymdbg: {human}\npython3: {py}");
    assert_eq!(ours["outcome"], py["outcome"], "{what}");
    assert_eq!(ours["exception"], py["exception"], "{what}");
    if py["outcome"] == "return" {
        assert_eq!(ours["return_value"], py["return_value"], "{what}");
    }
    if py["outcome"] == "exception" {
        let at = format!("at {file}:{}:{}\n", py["line"], py["col"]);
        assert!(human.contains(&at), "expected `{at}`\n{what}");
    }
    let _ = std::fs::remove_file(&path);
    human
}

mod columns;
mod entry;
mod predicates;
mod small;
mod store;
