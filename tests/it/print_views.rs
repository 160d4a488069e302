//! Issue 25's `print` in the views (`print.rs` has the differential tests): the debugger's
//! store pane (a snapshot) and sessions, `--tree`, `exec` and `exec --json` against python3,
//! located diagnostics, fold templates of loops that print, `run --json`'s SMT-LIB
//! declarations of stepped slices.

use std::path::{Path, PathBuf};
use std::process::Command;

use symdbg::base::SourceMap;
use symdbg::engine::fold::FoldMode;
use symdbg::engine::Config;
use symdbg::lang;

use crate::util::symdbg;

/// A program that prints on every path, before and after a branch that may raise.
pub const SRC: &str = "\
t: tuple
x: int
print(x + 1, (x, 2), x > 0)
if x > 3:
    print(t[1:], -x)
else:
    print()
y = t[x]
print(y, (y,), ())
";

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn temp(tag: &str, src: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("symdbg-print-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("p.py");
    std::fs::write(&path, src).unwrap();
    (dir, path)
}

/// What python3 prints running `path` as a script with `inputs` bound (Python literals).
fn python_stdout(path: &Path, inputs: &[(&str, &str)]) -> String {
    let bindings: Vec<String> = inputs.iter().map(|(k, v)| format!("{k:?}: {v}")).collect();
    let script = format!(
        "import sys\ng = {{{}}}\ntry:\n    exec(compile(open(sys.argv[1]).read(), sys.argv[1], 'exec'), g)\nexcept Exception:\n    pass\n",
        bindings.join(", ")
    );
    let out = Command::new("python3")
        .args(["-c", &script])
        .arg(path)
        .output()
        .expect("python3");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The debugger at an exception leaf: the store pane lists what the path printed so far,
/// each line as its `print` over the inputs and, with the model (`m`), the text printed.
#[test]
fn the_store_pane_shows_the_output_so_far() {
    let mut h = super::tui::open_source("p.py", SRC, None, 160, 48);
    h.keys("s");
    let screen = h.screen();
    assert!(screen.contains("stdout so far (1 line):"), "{screen}");
    assert!(screen.contains("print(x + 1, (x, 2), x > 0)"), "{screen}");
    h.keys("rem");
    let screen = h.screen();
    assert!(screen.contains("IndexError"), "{screen}");
    assert!(screen.contains("stdout so far (2 lines):"), "{screen}");
    // The model's inputs, and what python3 prints on them before the IndexError.
    let id = h.app.selected;
    let model = h.app.models[&id].as_ref().expect("a model");
    let printed = h.app.details[&id].stdout.clone();
    assert_eq!(printed.len(), 2, "{printed:?}");
    let (dir, path) = temp("pane", SRC);
    let inputs: Vec<(&str, &str)> = model
        .inputs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let expected = python_stdout(&path, &inputs);
    assert_eq!(model.stdout.join("\n") + "\n", expected);
    for line in expected.lines().filter(|l| !l.is_empty()) {
        assert!(screen.contains(&format!("→ {line}")), "{line}\n{screen}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    insta::assert_snapshot!("tui_print_output", screen);
}

/// A saved session reopens with the same output at every node (the output is replayed
/// with the steps, not stored).
#[test]
fn sessions_keep_the_printed_lines() {
    let (dir, path) = temp("session", SRC);
    let mut a = super::tui_reload::open_file(&path, None, None);
    a.keys("rG");
    a.keys("S");
    let saved = dir.join("p.py.symdbg-session");
    assert!(
        a.app.message.contains("session saved to"),
        "{}",
        a.app.message
    );
    let b = super::tui_reload::open_file(&path, None, Some(&saved));
    assert!(
        b.app.message.contains("session restored"),
        "{}",
        b.app.message
    );
    assert_eq!(b.app.selected, a.app.selected);
    let id = a.app.selected;
    let (da, db) = (&a.app.details[&id], &b.app.details[&id]);
    assert_eq!(da.stdout.len(), 3, "{da:?}");
    assert_eq!(da.stdout, db.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--tree`: a leaf whose path printed lists its lines as the `print`s that wrote them.
#[test]
fn the_tree_lists_each_leafs_printed_lines() {
    let (dir, path) = temp("tree", SRC);
    let (code, out, err) = symdbg(&["run", path.to_str().unwrap(), "--tree"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("stdout: 3 lines"), "{out}");
    assert!(out.contains("print(t[1:], -x)"), "{out}");
    assert!(out.contains("    print()\n"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
    insta::assert_snapshot!("tree_print", out);
}

/// `exec`: the program's output first, exactly python3's, then the report; `--json` has
/// it as `stdout`, byte for byte; output before an exception is kept.
#[test]
fn exec_prints_what_python_prints() {
    let (dir, path) = temp("exec", SRC);
    let p = path.to_str().unwrap();
    for inputs in [
        [("t", "(4, -2, 7)"), ("x", "-1")],
        [("t", "(4, -2, 7, 0, 0)"), ("x", "4")],
        [("t", "()"), ("x", "0")],
        [("t", "(5,)"), ("x", "0")],
    ] {
        let expected = python_stdout(&path, &inputs);
        let mut args = vec!["exec", p];
        let given: Vec<String> = inputs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        for g in &given {
            args.extend(["--input", g.as_str()]);
        }
        let (code, out, err) = symdbg(&args);
        assert_eq!(code, 0, "{err}");
        assert!(out.starts_with(&expected), "{inputs:?}\n{out}");
        let report = &out[expected.len()..];
        assert!(report.starts_with("outcome: "), "{report}");
        let lines = expected.lines().count();
        let s = if lines == 1 { "" } else { "s" };
        assert!(
            report.contains(&format!("printed: {lines} line{s} (above)")),
            "{report}"
        );
        args.push("--json");
        let (code, out, err) = symdbg(&args);
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(json["stdout"], expected, "{inputs:?}");
    }
    // A program that prints nothing: no output before the report, "stdout": "".
    let (code, out, _) = symdbg(&[
        "exec",
        &repo("examples/inversion.py").display().to_string(),
        "--input",
        "x=3",
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with("outcome: "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// What minipy's `print` does not support gets a located message, never a panic.
#[test]
fn print_diagnostics_are_located() {
    let cases: &[(&str, &str, (usize, usize))] = &[
        (
            "x: int\nprint(x, sep=\"\")\n",
            "strings are not supported",
            (2, 14),
        ),
        (
            "x: int\nprint(x, end=0)\n",
            "keyword arguments to `print` are not supported",
            (2, 10),
        ),
        (
            "x: int\ny = print(x)\n",
            "`print(...)` is only supported as a statement",
            (2, 5),
        ),
        (
            "x: int\nassert print(x) or x\n",
            "`print(...)` is only supported as a statement",
            (2, 8),
        ),
        (
            "x: int\nf = print\n",
            "`print` is a function, not a value",
            (2, 5),
        ),
        (
            "def print(a: int) -> int:\n    return a\n",
            "`print` is a builtin name and cannot be redefined",
            (1, 5),
        ),
        (
            "print = 3\n",
            "`print` is a builtin name and cannot be used as a variable",
            (1, 1),
        ),
        (
            "x: int\nprint x\n",
            "`print` without parentheses (Python 2) is not supported",
            (2, 1),
        ),
        (
            "x: int\nprint(*x)\n",
            "`*` and `**` arguments are not supported",
            (2, 7),
        ),
        (
            "def f(a: int):\n    a = a\nx: int\nprint(f(x))\n",
            "procedure `f` has no return value",
            (4, 7),
        ),
    ];
    for (src, message, (line, col)) in cases {
        let diags = match lang::load(src) {
            Ok(_) => panic!("accepted:\n{src}"),
            Err(d) => d,
        };
        let d = &diags[0];
        assert!(
            d.message.contains(message),
            "{src}\nexpected {message:?}, got {:?}",
            d.message
        );
        let span = d.span.expect("a located diagnostic");
        let map = SourceMap::new("t.py", *src);
        assert_eq!(map.line_col(span.start), (*line, *col), "{src}\n{d:?}");
    }
    // What is accepted: every printable type, nested calls, `print()`, a print in a
    // function, and the printed program round-trips through the pretty printer.
    let ok = "def f(a: int) -> int:\n    print(a, (a,))\n    return a\nt: tuple\nb: bool\nprint()\nprint(f(1), b, t[::-1], (1 if b else 2), -3, ())\n";
    let (program, _) = lang::load(ok).unwrap_or_else(|d| panic!("{d:?}"));
    let printed = lang::pretty::program(&program);
    let (again, _) = lang::load(&printed).unwrap_or_else(|d| panic!("{d:?}\n{printed}"));
    assert_eq!(again.without_spans(), program.without_spans(), "{printed}");
    assert!(program.prints());
    assert!(!lang::load("x: int\ny = x\n").unwrap().0.prints());
}

/// `--fold auto`: a loop whose body prints gets no template (its κ iterations' output
/// would be lost): `--templates` says why, and the tree unrolls it with every line kept.
#[test]
fn a_loop_that_prints_is_not_folded() {
    let src = "def f(n: int) -> int:\n    i = 0\n    while i < n:\n        print(i)\n        i += 1\n    return i\n";
    let (dir, path) = temp("fold", src);
    let p = path.to_str().unwrap();
    let (code, out, err) = symdbg(&["run", p, "--entry", "f", "--fold", "auto", "--templates"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("the body prints"), "{out}");
    let loaded = symdbg::session::Loaded::new(SourceMap::new("p.py", src)).unwrap();
    let mut config = Config::default();
    config.fold = FoldMode::Auto;
    config.unroll = 3;
    let mut s = symdbg::session::Session::new(loaded, Some("f"), config).unwrap();
    let root = s.tree().root();
    s.run(
        root,
        symdbg::session::Policy::Subtree,
        symdbg::engine::Limits::default(),
        &|_| {},
    );
    assert_eq!(s.stats().folds, 0);
    let mut returns: Vec<usize> = s
        .tree()
        .nodes()
        .filter(|n| n.outcome() == Some(symdbg::session::Outcome::Return))
        .map(|n| s.stdout_at(n.id).len())
        .collect();
    returns.sort_unstable();
    assert_eq!(returns, [0, 1, 2, 3], "one line per iteration");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `run --json`: a node whose terms slice with a step declares `py.slice` (defined) in its
/// SMT-LIB declarations; a node without one does not.
#[test]
fn run_json_defines_py_slice_where_used() {
    let (dir, path) = temp("smt", "t: tuple\nu = t[::-1]\nv = t[1:]\n");
    let (code, out, err) = symdbg(&["run", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut with = 0;
    for n in json["nodes"].as_array().unwrap() {
        let decls = n["smt2"]["declarations"].as_str().unwrap();
        let uses = n["smt2"].to_string().contains("(py.slice ");
        let defined = decls.contains("(define-fun-rec py.slice ");
        assert_eq!(uses, defined, "{n}");
        with += usize::from(defined);
    }
    assert!(with >= 1, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `testgen --format jsonl`: every test carries what its run prints (python3's output on
/// its inputs); `exec --replay` compares it, so an edited `stdout` differs.
#[test]
fn jsonl_tests_carry_stdout_and_replay_compares_it() {
    let (dir, path) = temp("jsonl", SRC);
    let p = path.to_str().unwrap();
    let jsonl = dir.join("t.jsonl");
    let (code, _, err) = symdbg(&[
        "testgen",
        p,
        "--format",
        "jsonl",
        "-o",
        jsonl.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&jsonl).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // A test per leaf and its boundary test (issue 31).
    let leaves: std::collections::BTreeSet<_> = lines
        .iter()
        .map(|l| l["leaf"].clone().to_string())
        .collect();
    assert_eq!(leaves.len(), 4, "{text}");
    for l in &lines {
        let inputs: Vec<(String, String)> = l["inputs"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    serde_json::Value::Array(items) if items.len() == 1 => {
                        format!("({},)", items[0])
                    }
                    serde_json::Value::Array(items) => format!(
                        "({})",
                        items
                            .iter()
                            .map(|i| i.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    other => other.to_string(),
                };
                (k.clone(), v)
            })
            .collect();
        let inputs: Vec<(&str, &str)> = inputs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(l["stdout"], python_stdout(&path, &inputs), "{l}");
    }
    let (code, out, _) = symdbg(&["exec", p, "--replay", jsonl.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.ends_with(&format!(": {} behave the same, 0 differ\n", lines.len())),
        "{out}"
    );
    let edited = text.replacen("\"stdout\":\"", "\"stdout\":\"9\\n", 1);
    std::fs::write(&jsonl, edited).unwrap();
    let (code, out, _) = symdbg(&["exec", p, "--replay", jsonl.to_str().unwrap()]);
    assert_eq!(code, 3, "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("DIFFERS")).count(),
        1,
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
