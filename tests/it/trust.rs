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
use symdbg::tui::protocol::{Kind, LeafKind};

fn temp_file(contents: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("symdbg-trust-{}-{n}.py", std::process::id()));
    std::fs::write(&path, contents).expect("write temp file");
    path
}

/// `symdbg ARGS...`: (exit code, stdout, stderr).
fn symdbg(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_symdbg"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run symdbg");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// CPython's result for one run (see `tests/py/import_call.py`).
fn python(path: &Path, entry: Option<&str>, inputs: &Value) -> Value {
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
fn leaves_agree_with_python(src: &str, entry: Option<&str>, args: &[&str]) -> usize {
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
fn exec_agrees_with_python(src: &str, entry: Option<&str>, inputs: &[(&str, &str)]) -> String {
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

// ---- item 4: `--entry f` is `import module; module.f(args)` ---------------------------------

/// The issue's example: loops and `if`s at the top level run before the call.
const LOOPS_AND_IFS: &str = "\
base = 3
i = 0
while i < 3:
    base = base + i
    i = i + 1
if base > 5:
    base = base * 10
base = base + 1

def f(a: int) -> int:
    return a + base
";

#[test]
fn entry_runs_the_whole_top_level_first() {
    let out = exec_agrees_with_python(LOOPS_AND_IFS, Some("f"), &[("a", "0")]);
    assert!(out.contains("return value: 61"), "{out}");
    assert!(leaves_agree_with_python(LOOPS_AND_IFS, Some("f"), &[]) >= 1);
    // A top level with try/except, a call of the entry function itself during the import,
    // a break out of `while True`, and a global the entry function indexes with.
    let src = "\
def pick(t: tuple, k: int) -> int:
    return t[k] // (limit - k)

limit = 0
try:
    limit = 10 // limit
except ZeroDivisionError:
    limit = 2
table = ()
n = 0
while True:
    table = table + (n * n,)
    n += 1
    if n > 2:
        break
first = pick(table, 1)
";
    assert!(leaves_agree_with_python(src, Some("pick"), &[]) >= 3);
    exec_agrees_with_python(src, Some("pick"), &[("t", "(4, 5, 6)"), ("k", "2")]);
    exec_agrees_with_python(src, Some("pick"), &[("t", "(4, 5, 6)"), ("k", "1")]);
    exec_agrees_with_python(src, Some("pick"), &[("t", "(4,)"), ("k", "-1")]);
}

#[test]
fn entry_import_failures_are_the_outcome() {
    // The top level's assert fails: every run of the entry function is that failure.
    let src = "\
def g(x: int) -> int:
    return x + 1

total = 0
j = 0
while j < 3:
    total = total + g(j)
    j = j + 1
assert total == 5
";
    let out = exec_agrees_with_python(src, Some("g"), &[("x", "1")]);
    assert!(
        !out.contains("return value"),
        "no return value after a failed import: {out}"
    );
    assert_eq!(leaves_agree_with_python(src, Some("g"), &[]), 1);
    // The top level raises inside a function it calls.
    let src = "\
def h(x: int) -> int:
    return 100 // x

z = h(5) + h(0)
";
    exec_agrees_with_python(src, Some("h"), &[("x", "3")]);
    assert_eq!(leaves_agree_with_python(src, Some("h"), &[]), 1);
}

#[test]
fn entry_top_level_reading_a_declared_input_raises_name_error() {
    let src = "\
n: int
def twice(a: int) -> int:
    return 2 * a
LIMIT = 4
if LIMIT > 3:
    r = twice(n)
";
    let out = exec_agrees_with_python(src, Some("twice"), &[("a", "3")]);
    assert!(out.contains("NameError"), "{out}");
    assert_eq!(leaves_agree_with_python(src, Some("twice"), &[]), 1);
    // Both front-ends say why, on stderr.
    let path = temp_file(src);
    let file = path.to_str().unwrap();
    for args in [
        vec!["run", file, "--entry", "twice"],
        vec!["exec", file, "--entry", "twice", "--input", "a=1"],
    ] {
        let (code, _, err) = symdbg(&args);
        assert_eq!(code, 0);
        assert!(
            err.contains(&format!("{file}:6:15")) && err.contains("reads the input `n`"),
            "{args:?}: {err}"
        );
    }
    // The TUI says it in the status line at the start.
    let h = super::tui::open_source("driver.py", src, Some("twice"), 160, 30);
    assert!(
        h.app.message.contains("driver.py:6:15 reads the input `n`"),
        "{}",
        h.app.message
    );
    // Without such a read there is no warning.
    let (_, _, err) = symdbg(&[
        "run",
        "tests/data/programs/find_entry.py",
        "--entry",
        "find",
    ]);
    assert!(err.is_empty(), "{err}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn entry_top_level_that_never_ends_is_cut() {
    let src = "\
k = 0
while k >= 0:
    k = k + 1

def f(a: int) -> int:
    return a
";
    let path = temp_file(src);
    let file = path.to_str().unwrap();
    let (code, out, _) = symdbg(&["exec", file, "--entry", "f", "--input", "a=1"]);
    assert_eq!(code, 0);
    assert!(out.contains("step budget"), "{out}");
    assert!(
        !out.contains("step_limit") && !out.contains("return value"),
        "{out}"
    );
    let (_, out, _) = symdbg(&["run", file, "--entry", "f", "--unroll", "4"]);
    assert!(out.contains("1 leaf (0 exceptions, 1 bound)"), "{out}");
    assert!(!out.contains("return"), "f is never reached: {out}");
    let _ = std::fs::remove_file(&path);
}

// ---- item 8: one column convention, CPython 3.11's ------------------------------------------

/// Programs whose exceptions CPython 3.11 marks at an operator's whole expression, a
/// subscript, a call, a name or an assert's condition; `run --json` (every leaf's model
/// replayed) and `exec` must give the same line and column.
const COLUMN_PROGRAMS: &[(&str, &[(&str, &str)])] = &[
    (
        "x: int\ny = 10 // (x - 1)\n",
        &[("x", "1")],
    ),
    (
        "t: tuple\ni: int\ny = t[0] + (t)[i] * 2\n",
        &[("t", "(5,)"), ("i", "3")],
    ),
    (
        "def f(a: int) -> int:\n    return 1 + (7 % a)\nx: int\nz = 3 + f(x)\n",
        &[("x", "0")],
    ),
    (
        "x: int\nif x > 2:\n    assert (x < 5) and x != 3\ny = 0\n",
        &[("x", "7")],
    ),
    (
        "x: int\ny = (1 +\n     (2 * x) // (x - x))\n",
        &[("x", "4")],
    ),
    (
        "def g(a: int) -> int:\n    if a > 0:\n        return later\n    return -a\nx: int\nr = g(x)\nlater = 1\n",
        &[("x", "3")],
    ),
    (
        "x: int\nr = 0\nif x > 0:\n    r = h(x)\ndef h(a: int) -> int:\n    return a\n",
        &[("x", "1")],
    ),
    (
        "t: tuple\nk = 0\nwhile k < 3:\n    k += 1\n    k //= len(t)\n",
        &[("t", "()")],
    ),
];

#[test]
fn exception_columns_are_cpythons() {
    let mut replayed = 0;
    for (src, inputs) in COLUMN_PROGRAMS {
        replayed += leaves_agree_with_python(src, None, &[]);
        let out = exec_agrees_with_python(src, None, inputs);
        assert!(out.contains("outcome: exception"), "{src}\n{out}");
    }
    assert!(replayed >= 2 * COLUMN_PROGRAMS.len(), "{replayed}");
}

#[test]
fn counterexample_lines_use_the_expression_column() {
    let src = "x: int\ny = 10 // (x - 1)\n";
    let path = temp_file(src);
    let file = path.to_str().unwrap();
    let (_, out, _) = symdbg(&["run", file, "--counterexamples"]);
    assert_eq!(out, format!("{file}:2:5: ZeroDivisionError for x = 1\n"));
    let _ = std::fs::remove_file(&path);
}

// ---- item 5: a predicate called from ordinary code runs as Python -----------------------------

const PREDICATE_PROGRAMS: &[(&str, &[(&str, &str)])] = &[
    // An out-of-range index inside the predicate: IndexError, as in python3.
    (
        "@predicate\ndef first_pos(t: tuple) -> bool:\n    return t[0] > 0\n\nt: tuple\nassert first_pos(t)\n",
        &[("t", "()")],
    ),
    // A quantifier whose body raises for some k: Python's generator stops at the first
    // deciding k, so only a raise before that counts.
    (
        "@predicate\ndef sorted_upto(t: tuple, n: int) -> bool:\n    return all(t[k] <= t[k + 1] for k in range(0, n))\n\nt: tuple\nn: int\nif sorted_upto(t, n):\n    r = 1\nelse:\n    r = 0\n",
        &[("t", "(1, 2)"), ("n", "2")],
    ),
    (
        "@predicate\ndef hits(t: tuple) -> bool:\n    return any(t[k] // k > 2 for k in range(0, 2))\n\nt: tuple\nfound = hits(t)\n",
        &[("t", "(1, 3)")],
    ),
    (
        "@predicate\ndef rises(t: tuple, n: int) -> bool:\n    return any(t[k + 1] > t[k] for k in range(0, n))\n\nt: tuple\nn: int\nfound = rises(t, n)\n",
        &[("t", "(3, 2)"), ("n", "2")],
    ),
    // Nested predicates, called from a function: the inner one raises.
    (
        "@predicate\ndef at(t: tuple, i: int) -> bool:\n    return t[i] != 0\n\n@predicate\ndef both(t: tuple, i: int) -> bool:\n    return at(t, i) and at(t, i + 1)\n\ndef count(t: tuple, i: int) -> int:\n    if both(t, i):\n        return 2\n    return 0\n\nt: tuple\ni: int\nr = count(t, i)\n",
        &[("t", "(1, 2)"), ("i", "1")],
    ),
    // Negative indices are Python's (t[-1] is the last element): only those below
    // -len(t) raise, and the generator stops at the first negative element.
    (
        "@predicate\ndef wraps(t: tuple, a: int) -> bool:\n    return all(t[k] >= 0 for k in range(a, 1))\n\nt: tuple\na: int\nok = False\nif a >= -3:\n    ok = wraps(t, a)\n",
        &[("t", "(4, 5)"), ("a", "-3")],
    ),
    // In a while guard, with a division by zero inside.
    (
        "@predicate\ndef small(x: int, d: int) -> bool:\n    return x // d < 3\n\nx: int\nd: int\nk = 0\nwhile small(x + k, d) and k < 2:\n    k = k + 1\n",
        &[("x", "1"), ("d", "0")],
    ),
];

#[test]
fn predicates_called_from_ordinary_code_raise_like_python() {
    for (src, inputs) in PREDICATE_PROGRAMS {
        let replayed = leaves_agree_with_python(src, None, &["--unroll", "4"]);
        assert!(replayed >= 2, "{src}: {replayed} leaves");
        let out = exec_agrees_with_python(src, None, inputs);
        assert!(out.contains("outcome: exception"), "{src}\n{out}");
    }
}

/// Inside `assume` and invariants a predicate is a formula: its body's exceptions are not
/// paths (a verification statement is not Python).
#[test]
fn predicates_in_assume_and_invariants_stay_formulas() {
    let src = "\
@predicate
def nonneg(t: tuple, i: int) -> bool:
    return t[i] >= 0

t: tuple
i: int
assume nonneg(t, i)
j = 0
while j < 3:
    invariant nonneg(t, i)
    j = j + 1
r = j
";
    let path = temp_file(src);
    let file = path.to_str().unwrap();
    let (code, out, err) = symdbg(&["run", file, "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let exceptions: Vec<&Value> = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["outcome"] == "exception")
        .collect();
    assert!(exceptions.is_empty(), "{exceptions:?}");
    // The same predicate in an `assert` raises IndexError on the paths where `t[i]` fails.
    let asserted = src.replace("assume nonneg(t, i)", "assert nonneg(t, i)");
    let path2 = temp_file(&asserted);
    let (_, out, _) = symdbg(&["run", path2.to_str().unwrap(), "--counterexamples"]);
    assert!(out.contains(":3:12: IndexError for "), "{out}");
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&path2);
}

// ---- item 10: the store pane at a bound leaf inside a function ------------------------------

/// A leaf cut by `--unroll` inside a function still shows the function's locals; `m` fills
/// their "here" column (no `?`) and `R` replays with the same variables.
#[test]
fn bound_leaf_inside_a_function_has_its_locals_under_the_model() {
    let src = "\
def total(t: tuple) -> int:
    s = 0
    i = 0
    while i < len(t):
        s = s + t[i]
        i = i + 1
    return s

t: tuple
r = total(t)
";
    let mut h = super::tui::open_source("bound.py", src, None, 140, 40);
    h.keys("r");
    let bound = (0..h.app.tree.len() as u32)
        .find(|&id| h.app.tree.node(id).info.kind == Kind::Leaf(LeafKind::Bound))
        .expect("a bound leaf inside total");
    h.app.select(bound);
    h.pump();
    h.keys("m");
    let model = h.app.models[&bound].clone().expect("a model");
    let names: Vec<&str> = model.store.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, ["i", "s", "t"], "{model:?}");
    assert!(store_pane_has_no_unknowns(&h.screen()));
    h.keys("R");
    let replay = h.app.replays[&bound].clone().expect("a replay");
    let vars: Vec<(&str, Option<&str>)> = replay
        .vars
        .iter()
        .map(|v| (v.name.as_str(), v.here.as_deref()))
        .collect();
    assert_eq!(vars.len(), 3, "{vars:?}");
    assert!(vars.iter().all(|(_, here)| here.is_some()), "{vars:?}");
    assert_eq!(
        vars.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        ["i", "s", "t"]
    );
    let screen = h.screen();
    assert!(screen.contains("run end"), "{screen}");
    assert!(store_pane_has_no_unknowns(&screen));
}

/// No `?` cell in the store pane's rows (the pane right of the code pane, below the tree).
fn store_pane_has_no_unknowns(screen: &str) -> bool {
    let rows: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.contains("┌ store"))
        .take_while(|l| !l.contains("┌ model"))
        .collect();
    assert!(rows.len() > 3, "{screen}");
    let bad = rows.iter().any(|l| {
        l.split("││")
            .nth(1)
            .is_some_and(|cell| cell.split_whitespace().any(|w| w == "?"))
    });
    assert!(!bad, "a `?` in the store pane:\n{screen}");
    true
}

// ---- item 12: the small ones --------------------------------------------------------------------

#[test]
fn texts_use_no_internal_names_and_agree_in_number() {
    let path = temp_file("x: int\ny = x + 1\n");
    let file = path.to_str().unwrap();
    let (_, out, _) = symdbg(&["run", file]);
    assert!(
        out.contains("2 nodes, 1 leaf (0 exceptions, 0 bound), 0 open; 0 solver checks"),
        "{out}"
    );
    let loops = temp_file("x: int\nwhile x > 0:\n    x = x - 1\n");
    let file = loops.to_str().unwrap();
    let (code, out, err) = symdbg(&["run", file, "--max-nodes", "3"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("stopped: the tree reached --max-nodes; open nodes are left"),
        "{out}"
    );
    assert!(
        !out.contains("NodeLimit") && !err.contains("NodeLimit"),
        "{out}{err}"
    );
    for unroll in ["0", "1", "2"] {
        let (_, out, _) = symdbg(&["run", file, "--unroll", unroll]);
        let words: Vec<&str> = out.split_whitespace().collect();
        for pair in words.windows(2) {
            let plural = ["leaves", "nodes", "checks", "exceptions"];
            assert!(
                !(pair[0] == "1" && plural.iter().any(|p| pair[1].starts_with(p))),
                "{out}"
            );
        }
    }
    // exec: a run past the step budget says so in words.
    let (_, out, _) = symdbg(&["exec", file, "--input", "x=100000000000"]);
    assert!(
        out.starts_with("outcome: stopped: the run used up its step budget"),
        "{out}"
    );
    assert!(!out.contains("step_limit"), "{out}");
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&loops);
}

#[test]
fn exec_entry_with_an_exception_prints_no_return_value() {
    let src = "def f(a: int) -> int:\n    return 10 // a\n";
    let out = exec_agrees_with_python(src, Some("f"), &[("a", "0")]);
    assert!(
        out.contains("outcome: exception ZeroDivisionError"),
        "{out}"
    );
    assert!(!out.contains("return value"), "{out}");
    let out = exec_agrees_with_python(src, Some("f"), &[("a", "3")]);
    assert!(out.contains("return value: 3"), "{out}");
}

/// JSON `frames` at an exception leaf: the call stack at the raise (like a traceback and
/// the TUI's call stack pane), not the empty stack after the exception left every call.
#[test]
fn json_frames_at_an_exception_leaf_are_those_at_the_raise() {
    let src = "\
def inner(a: int) -> int:
    return 10 // a

def outer(a: int) -> int:
    return inner(a - 1) + 1

x: int
r = outer(x)
y = 5 // x
";
    let path = temp_file(src);
    let (_, out, _) = symdbg(&["run", path.to_str().unwrap(), "--json"]);
    let doc: Value = serde_json::from_str(&out).unwrap();
    let frames: Vec<(u64, Value)> = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["outcome"] == "exception")
        .map(|n| (n["exception_line"].as_u64().unwrap(), n["frames"].clone()))
        .collect();
    assert_eq!(
        frames,
        [
            (2, serde_json::json!(["<module>", "outer", "inner"])),
            (9, serde_json::json!(["<module>"])),
        ]
    );
    let _ = std::fs::remove_file(&path);
}

/// The TUI's exception note shows the raising expression whole, parentheses included, at
/// the column `run` and `exec` give.
#[test]
fn tui_exception_note_keeps_the_parentheses() {
    let src = "x: int\ny = 10 // (x - 1)\n";
    let mut h = super::tui::open_source("div.py", src, None, 160, 40);
    h.keys("re");
    h.pump();
    let leaf = h.app.selected;
    let note = h.app.details[&leaf].note.clone().unwrap_or_default();
    assert!(
        note.contains("ZeroDivisionError raised at line 2, column 5: 10 // (x - 1)\n")
            || note.ends_with("ZeroDivisionError raised at line 2, column 5: 10 // (x - 1)"),
        "{note}"
    );
}
