//! `--assume EXPR` (issue 16, item 4) on the real binary: `run` (tree, JSON, `--explain`,
//! counterexamples), `check`, `testgen` and `exec --replay`, with and without `--entry`;
//! every counterexample and generated input satisfies the assumptions when python3
//! evaluates them; malformed, ill-typed and out-of-scope expressions exit 2 with a message
//! located in the expression.

use std::path::PathBuf;
use std::process::Command;

use crate::util::symdbg;

/// A program in a scratch directory (one per process; `name` says which test, and never
/// shadows a module of Python's standard library).
fn program(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!(
        "symdbg-assume-{}-{}",
        std::process::id(),
        name.trim_end_matches(".py")
    ));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, text).expect("write program");
    path.to_string_lossy().into_owned()
}

/// Does python3 find `cond` true with these variables (`x = 1, t = (0, 0)` text, as in a
/// counterexample line: it is the argument list of `dict(...)`)?
fn python_holds(cond: &str, bindings: &str) -> bool {
    let code = format!("print(eval({cond:?}, dict({bindings})))");
    let out = Command::new("python3")
        .args(["-c", &code])
        .output()
        .expect("python3");
    assert!(out.status.success(), "python3 on {code}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim() == "True"
}

/// The `x = 1, t = (0, 0)` part of each counterexample line.
fn counterexample_inputs(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| l.split_once(" for ").map(|(_, rest)| rest))
        .map(|rest| {
            let rest = rest.split(" -- ").next().unwrap_or(rest);
            rest.split(" (loop at").next().unwrap_or(rest).to_string()
        })
        .collect()
}

const MODULE: &str = "\
x: int
y: int
t: tuple
if x > y:
    assert x - y != 7
if len(t) > 2:
    assert t[0] != x
assert x != -3
";

#[test]
fn module_counterexamples_satisfy_the_assumptions() {
    let file = program("module.py", MODULE);
    let (code, all, _) = symdbg(&["run", &file, "--counterexamples"]);
    assert_eq!(code, 0);
    assert!(all.contains("AssertionError for x = -3"), "{all}");
    let assume = ["x > 0", "len(t) <= 3 and y % 2 == 0"];
    let (code, out, err) = symdbg(&[
        "run",
        &file,
        "--counterexamples",
        "--assume",
        assume[0],
        "--assume",
        assume[1],
    ]);
    assert_eq!(code, 0, "{err}");
    let found = counterexample_inputs(&out);
    // `x != -3` (line 8) cannot fail when x > 0; the two others still can.
    assert!(!out.contains(":8:"), "{out}");
    assert!(out.contains(":5:") && out.contains(":7:"), "{out}");
    for inputs in &found {
        for a in assume {
            assert!(python_holds(a, inputs), "{a} fails for {inputs}");
        }
    }
    // The tree starts with the preconditions, named by their place on the command line.
    let (_, tree, _) = symdbg(&["run", &file, "--assume", assume[0], "--assume", assume[1]]);
    assert!(
        tree.starts_with("[0] --assume #1: assume x > 0\n"),
        "{tree}"
    );
    assert!(
        tree.contains("--assume #2: assume len(t) <= 3 and y % 2 == 0"),
        "{tree}"
    );
    // An assumption that cannot hold: one infeasible leaf, no counterexample.
    let (code, out, _) = symdbg(&["run", &file, "--assume", "x > 0 and x < 0"]);
    assert_eq!(code, 0);
    assert!(out.contains("infeasible"), "{out}");
    assert!(!out.contains("] exception"), "{out}");
}

#[test]
fn json_and_explain_say_which_assumption() {
    let file = program("json_case.py", MODULE);
    let (code, out, err) = symdbg(&[
        "run",
        &file,
        "--json",
        "--explain",
        "--assume",
        "x > 5",
        "--assume",
        "x < 3",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    let nodes = doc["nodes"].as_array().unwrap();
    assert_eq!(nodes[0]["assumption"], 1);
    assert!(nodes[0]["line"].is_null());
    assert_eq!(nodes[0]["statement"], "assume x > 5");
    assert_eq!(nodes[1]["assumption"], 2);
    // Nodes of the file have a line and no `assumption` key.
    assert!(nodes.iter().skip(2).all(|n| n.get("assumption").is_none()));
    // The second assumption closes the path: the core names both, by number.
    let leaf = nodes
        .iter()
        .find(|n| n["outcome"] == "infeasible")
        .expect("an infeasible leaf");
    let core = leaf["explanation"]["core"].as_array().expect("a core");
    let mut which: Vec<i64> = core
        .iter()
        .map(|c| c["assumption"].as_i64().unwrap())
        .collect();
    which.sort();
    assert_eq!(which, [1, 2], "{leaf}");
    assert!(core.iter().all(|c| c["line"].is_null()));
    // The text form says it too.
    let (_, text, _) = symdbg(&[
        "run",
        &file,
        "--explain",
        "--assume",
        "x > 5",
        "--assume",
        "x < 3",
    ]);
    assert!(text.contains("--assume #1 (assume): x > 5"), "{text}");
    assert!(text.contains("--assume #2 (assume): x < 3"), "{text}");
}

/// `g` recurses; the precondition is of the entry call only, so the failing recursive call
/// `g(1)` (below the precondition `n >= 2`) is still found, as CPython would raise it.
const ENTRY: &str = "\
LIMIT = 40
x: int
def g(n: int, t: tuple) -> int:
    if n == 1:
        assert len(t) > 0
    if n <= 0:
        return 0
    return g(n - 1, t) + 100 // (n - 17)
";

#[test]
fn entry_assumptions_constrain_the_entry_call_only() {
    let file = program("entry.py", ENTRY);
    let (code, out, err) = symdbg(&[
        "run",
        &file,
        "--entry",
        "g",
        "--counterexamples",
        "--assume",
        "n >= 2 and n < LIMIT",
    ]);
    assert_eq!(code, 0, "{err}");
    // AssertionError from the recursive call g(1) (n = 2 at the entry), ZeroDivisionError
    // would need n = 17: deeper than --recursion 5, so not here.
    assert!(out.contains("AssertionError for n = 2, t = ()"), "{out}");
    for inputs in counterexample_inputs(&out) {
        assert!(python_holds("n >= 2 and n < 40", &inputs), "{inputs}");
    }
    let (_, tree, _) = symdbg(&[
        "run",
        &file,
        "--entry",
        "g",
        "--assume",
        "n >= 2 and n < LIMIT",
    ]);
    // The top level ran first (LIMIT = 40), then the precondition in g's frame.
    assert!(tree.starts_with("[0] 1: LIMIT = 40\n"), "{tree}");
    assert!(
        tree.contains("--assume #1: assume n >= 2 and n < LIMIT"),
        "{tree}"
    );
    // The same with `check` and `exec`.
    let (code, out, err) = symdbg(&[
        "check",
        &file,
        "--entry",
        "g",
        "--assume",
        "n >= 2",
        "--recursion",
        "3",
    ]);
    // (exit 1 exactly when a check says no: here exhaustiveness may meet the bound)
    assert_eq!(code, i32::from(out.contains(": no\n")), "{out}{err}");
    assert!(out.contains("precise: probably"), "{out}");
    let (_, out, _) = symdbg(&[
        "exec", &file, "--entry", "g", "--assume", "n >= 2", "--input", "n=1", "--input", "t=()",
    ]);
    assert!(out.contains("outcome: infeasible"), "{out}");
    let (_, out, _) = symdbg(&[
        "exec", &file, "--entry", "g", "--assume", "n >= 2", "--input", "n=2", "--input", "t=()",
    ]);
    assert!(out.contains("outcome: exception AssertionError"), "{out}");
}

#[test]
fn testgen_inputs_satisfy_the_assumptions_and_replay_keeps_them() {
    let file = program("gen.py", MODULE);
    let dir = std::path::Path::new(&file).parent().unwrap();
    let tests = dir.join("tests.jsonl").to_string_lossy().into_owned();
    let assume = "x > y and len(t) == 3";
    let (code, _, err) = symdbg(&[
        "testgen", &file, "--format", "jsonl", "-o", &tests, "--assume", assume,
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&tests).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.len() >= 2, "{text}");
    for l in &lines {
        assert_eq!(l["assume"][0], assume);
        let inputs = l["inputs"].as_object().unwrap();
        let t: Vec<String> = inputs["t"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.to_string())
            .collect();
        let bindings = format!(
            "x = {}, y = {}, t = ({},)",
            inputs["x"],
            inputs["y"],
            t.join(", ")
        );
        assert!(python_holds(assume, &bindings), "{bindings}");
    }
    let (code, out, _) = symdbg(&["exec", &file, "--replay", &tests]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 differ"), "{out}");
    // An input edited to violate the precondition no longer runs: `infeasible`.
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let mut bad = first.clone();
    bad["inputs"]["x"] = serde_json::json!(-100000);
    bad["inputs"]["y"] = serde_json::json!(0);
    std::fs::write(&tests, format!("{bad}\n")).unwrap();
    let (code, out, _) = symdbg(&["exec", &file, "--replay", &tests]);
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("got infeasible"), "{out}");
    // The pytest header names the preconditions.
    let (_, py, _) = symdbg(&["testgen", &file, "--assume", assume]);
    assert!(
        py.contains("# Preconditions (--assume): x > y and len(t) == 3"),
        "{py}"
    );
    assert!(py.contains("--assume \"x > y and len(t) == 3\""), "{py}");
}

#[test]
fn bad_assumptions_exit_2_with_a_located_message() {
    let module = program("bad.py", MODULE);
    let entry = program("bad_entry.py", ENTRY);
    let cases: &[(&str, &[&str], &str, &str)] = &[
        (
            &module,
            &["q > 1"],
            "unknown name `q` in --assume #1",
            "--> --assume #1:1:1",
        ),
        (
            &module,
            &["x > 0", "x +"],
            "expected an expression",
            "--> --assume #2:1:4",
        ),
        (&module, &["x + 1"], "", "--> --assume #1:1:1"),
        (&module, &["t > 0"], "", "--> --assume #1"),
        (&module, &[""], "--assume #1 is empty", "--> --assume #1"),
        (&module, &["x / 2 > 0"], "", "--> --assume #1:1:3"),
        (
            &module,
            &["nope(x)"],
            "unknown name `nope`",
            "--> --assume #1:1:1",
        ),
        (
            &entry,
            &["--entry", "g", "x > 0"],
            "`x` is a module input",
            "--> --assume #1:1:1",
        ),
        (
            &entry,
            &["--entry", "g", "r > 0"],
            "unknown name `r`",
            "--> --assume #1:1:1",
        ),
        (
            &entry,
            &["LIMIT > 0"],
            "`LIMIT` is not an input of the program",
            "--> --assume #1:1:1",
        ),
    ];
    for (file, args, message, at) in cases {
        for cmd in ["run", "check", "testgen", "exec"] {
            let mut argv = vec![cmd, *file];
            let mut iter = args.iter().peekable();
            while let Some(a) = iter.next() {
                if a.starts_with("--") {
                    argv.push(a);
                    argv.push(iter.next().unwrap());
                } else {
                    argv.push("--assume");
                    argv.push(a);
                }
            }
            let (code, out, err) = symdbg(&argv);
            assert_eq!(code, 2, "{argv:?}: {out}{err}");
            assert!(err.contains(message), "{argv:?}: {err}");
            assert!(err.contains(at), "{argv:?}: {err}");
            assert!(!err.contains("panicked"), "{argv:?}: {err}");
            assert!(out.is_empty(), "{argv:?}: {out}");
        }
    }
}

#[test]
fn the_debugger_refuses_a_bad_assumption_before_the_screen_opens() {
    let file = program("tui.py", MODULE);
    let (code, _, err) = symdbg(&[&file, "--assume", "zz > 0"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown name `zz`"), "{err}");
    assert!(err.contains("--> --assume #1:1:1"), "{err}");
}

#[test]
fn generated_pytest_tests_pass_under_pytest() {
    let file = program("pytested.py", ENTRY);
    let dir = std::path::Path::new(&file).parent().unwrap();
    let out = dir.join("test_pytested.py").to_string_lossy().into_owned();
    // The precondition raises for n = 17 (skipped: not the program's exception).
    let (code, _, err) = symdbg(&[
        "testgen",
        &file,
        "--entry",
        "g",
        "--recursion",
        "3",
        "-o",
        &out,
        "--assume",
        "n >= 2 and 100 // (n - 17) != 0",
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("raised in --assume #1"), "{text}");
    let py = crate::util::python_with_pytest();
    let run = Command::new(py)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", &out])
        .current_dir(dir)
        .output()
        .expect("pytest");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stdout}{stderr}{text}");
    assert!(
        stdout.contains("passed") && !stdout.contains("failed"),
        "{stdout}"
    );
}

/// A predicate defined after the point where a module run's preconditions run: in an
/// `assume` it is a formula, for the engine and the interpreter alike.
const SORTED: &str = "\
t: tuple
@predicate
def ascending(u: tuple) -> bool:
    return all(u[k] <= u[k + 1] for k in range(len(u) - 1))
if len(t) >= 2:
    assert t[0] <= t[1]
";

#[test]
fn predicates_in_preconditions_are_formulas_everywhere() {
    let file = program("sorted.py", SORTED);
    let (_, out, _) = symdbg(&["run", &file, "--counterexamples"]);
    assert!(out.contains(":6:12: AssertionError for t = "), "{out}");
    let (code, out, err) = symdbg(&[
        "run",
        &file,
        "--counterexamples",
        "--assume",
        "ascending(t)",
    ]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let (code, out, err) = symdbg(&["check", &file, "--assume", "ascending(t)"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("exhaustive: probably") && out.contains("precise: probably"),
        "{out}"
    );
    let (_, out, _) = symdbg(&[
        "exec",
        &file,
        "--assume",
        "ascending(t)",
        "--input",
        "t=(2, 1)",
    ]);
    assert!(out.contains("outcome: infeasible"), "{out}");
    let (_, out, _) = symdbg(&[
        "exec",
        &file,
        "--assume",
        "ascending(t)",
        "--input",
        "t=(1, 2)",
    ]);
    assert!(out.contains("outcome: normal"), "{out}");
}
