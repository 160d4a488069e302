//! `symdbg exec`: the real binary on small programs — JSON shape, outcomes, exit codes and
//! the messages for bad inputs, options and files.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{json, Value};

/// Write `contents` to a fresh file in the temp directory and return its path.
fn temp_file(contents: impl AsRef<[u8]>) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("symdbg-exec-{}-{n}.py", std::process::id()));
    std::fs::write(&path, contents).expect("write temp file");
    path
}

fn symdbg(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_symdbg"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run symdbg")
}

/// `symdbg exec FILE ARGS...` on `src`: (exit code, stdout, stderr).
fn exec(src: &str, args: &[&str]) -> (i32, String, String) {
    let path = temp_file(src);
    let mut all = vec!["exec", path.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = symdbg(&all);
    let _ = std::fs::remove_file(&path);
    super::util::triple(out)
}

/// `exec ... --json`, which must succeed; the parsed object.
fn exec_json(src: &str, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let (code, out, err) = exec(src, &all);
    assert_eq!(code, 0, "stderr: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("bad JSON {out:?}: {e}"))
}

/// `exec` that must fail with exit code 2; its stderr.
fn exec_fails(src: &str, args: &[&str]) -> String {
    let (code, out, err) = exec(src, args);
    assert_eq!(code, 2, "stdout: {out}\nstderr: {err}");
    assert!(out.is_empty(), "nothing on stdout on failure: {out}");
    err
}

const FIND: &str = "\
t: tuple
x: int

def find(t: tuple, x: int) -> int:
    i = 0
    while i < len(t):
        if t[i] == x:
            return i
        i += 1
    return -1

r = find(t, x)
q = 10 // (r + 1)
";

#[test]
fn json_of_a_module_run() {
    let v = exec_json(FIND, &["--input", "t=(4, -5, 6)", "--input", "x=-5"]);
    assert_eq!(
        v,
        json!({
            "outcome": "normal",
            "exception": null,
            "store": {"q": 5, "r": 1, "t": [4, -5, 6], "x": -5},
            "return_value": null,
            "trace": [1, 2, 4, 12, 5, 6, 7, 9, 6, 7, 8, 13],
            "invariant_failure": false,
            "contract_failure": null,
            "exception_line": null,
            "exception_column": null,
            "traceback": [],
            "stdout": "",
        })
    );
}

#[test]
fn an_exception_is_a_result_with_exit_code_0() {
    let v = exec_json(FIND, &["--input", "t=()", "--input", "x=1"]);
    assert_eq!(v["outcome"], "exception");
    assert_eq!(v["exception"], "ZeroDivisionError");
    assert_eq!(v["store"], json!({"r": -1, "t": [], "x": 1}));
    assert_eq!(v["trace"], json!([1, 2, 4, 12, 5, 6, 10, 13]));
    // Where CPython 3.11 marks it: `10 // (r + 1)` on line 13.
    assert_eq!(
        (&v["exception_line"], &v["exception_column"]),
        (&json!(13), &json!(5))
    );

    let (code, out, _) = exec(FIND, &["--input", "t=()", "--input", "x=1"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("outcome: exception ZeroDivisionError"),
        "{out}"
    );
    // The column of the operator's expression, as CPython 3.11 marks it.
    assert!(out.contains(".py:13:5"), "{out}");
    assert!(out.contains("    r = -1\n"), "{out}");
    // --fail-on-exception turns the exception into exit code 3, and only the exception.
    let fail = ["--fail-on-exception", "--input", "t=()", "--input", "x=1"];
    assert_eq!(exec(FIND, &fail).0, 3);
    let fine = ["--fail-on-exception", "--input", "t=(1,)", "--input", "x=1"];
    assert_eq!(exec(FIND, &fine).0, 0);
}

#[test]
fn entry_run_returns_and_keeps_the_function_locals() {
    // `--entry find` imports the module first: its driver reads the input `t`, which an
    // import leaves unbound, so the import fails with NameError (as in python3).
    let v = exec_json(
        FIND,
        &["--entry", "find", "--input", "t=(7, 8)", "--input", "x=8"],
    );
    assert_eq!(v["outcome"], "exception");
    assert_eq!(v["exception"], "NameError");
    assert_eq!(v["return_value"], Value::Null);
    assert_eq!(v["trace"], json!([1, 2, 4, 12]));
    // Without the driver the module imports and find runs.
    let library = FIND.replace("r = find(t, x)\nq = 10 // (r + 1)\n", "");
    let v = exec_json(
        &library,
        &["--entry", "find", "--input", "t=(7, 8)", "--input", "x=8"],
    );
    assert_eq!(v["outcome"], "return");
    assert_eq!(v["return_value"], 1);
    assert_eq!(v["store"], json!({"i": 1, "t": [7, 8], "x": 8}));
    assert_eq!(v["trace"], json!([1, 2, 4, 5, 6, 7, 9, 6, 7, 8]));
    let v = exec_json(
        &library,
        &["--entry", "find", "--input", "t=(7,)", "--input", "x=8"],
    );
    assert_eq!(v["return_value"], -1);
    let (code, out, _) = exec(
        "def p(a: int) -> None:\n    b = a\n",
        &["--entry", "p", "--input", "a=3"],
    );
    assert_eq!(code, 0);
    assert!(out.contains("return value: None"), "{out}");
}

#[test]
/// The expected store was printed by python3 for the same statements.
fn python_semantics_of_operators() {
    let src = "\
a = 1 // -2
b = 1 % -2
c = -7 // 2
d = -7 % 2
t = (1, 2) + (3,)
e = t[-1]
f = 0 <= a < 10
g = False and 1 // 0 == 0
h = min(a, c) + max(b, d) + abs(c)
";
    let v = exec_json(src, &[]);
    assert_eq!(
        v["store"],
        json!({"a": -1, "b": -1, "c": -4, "d": 1, "t": [1, 2, 3], "e": 3,
               "f": false, "g": false, "h": 1})
    );
}

#[test]
fn huge_ints_stay_exact_in_json() {
    let v = exec_json(
        "x: int\ny = x * x\n",
        &["--input", "x=-123456789012345678901234567890"],
    );
    let text = serde_json::to_string(&v["store"]["y"]).unwrap();
    assert_eq!(
        text,
        "15241578753238836750495351562536198787501905199875019052100"
    );
}

#[test]
fn recursion_limit_and_deep_recursion() {
    let src = "\
n: int
def f(k: int) -> int:
    if k == 0:
        return 0
    return 1 + f(k - 1)
r = f(n)
";
    // CPython 3.11 (limit 1000, module frame included): f(998) works, f(999) does not.
    assert_eq!(exec_json(src, &["--input", "n=998"])["store"]["r"], 998);
    let v = exec_json(src, &["--input", "n=999"]);
    assert_eq!(v["exception"], "RecursionError");
}

#[test]
fn verification_outcomes() {
    let v = exec_json("x: int\nassume x > 0\ny = 1\n", &["--input", "x=0"]);
    assert_eq!(
        (&v["outcome"], &v["store"]),
        (&json!("infeasible"), &json!({"x": 0}))
    );
    let src = "i = 0\nloop-scope(inv=i >= 0):\n    i += 1\n    continue\n";
    assert_eq!(exec_json(src, &[])["outcome"], "halt");
    let v = exec_json("while True:\n    pass\n", &[]);
    assert_eq!(v["outcome"], "step_limit");
    assert_eq!(v["trace"].as_array().unwrap().len(), 100_000);
}

#[test]
fn bad_inputs_are_named_with_their_type() {
    let t = ["--input", "t=(1, 2)"];
    let err = exec_fails(FIND, &t);
    assert!(err.contains("missing input `x` (int)"), "{err}");
    assert!(err.contains("--input NAME=VALUE"), "{err}");

    let err = exec_fails(
        FIND,
        &[&t[..], &["--input", "x=1", "--input", "y=2"]].concat(),
    );
    assert!(err.contains("unknown input `y`"), "{err}");
    assert!(err.contains("`t: tuple`, `x: int`"), "{err}");

    let err = exec_fails(FIND, &[&t[..], &["--input", "x=(1,"]].concat());
    assert!(err.contains("invalid value `(1,` for input `x`"), "{err}");
    assert!(
        err.contains("expects an int literal such as `3` or `-2`"),
        "{err}"
    );

    let err = exec_fails(FIND, &[&t[..], &["--input", "x=True"]].concat());
    assert!(
        err.contains("input `x` must be an int, got a bool `True`"),
        "{err}"
    );

    let err = exec_fails(FIND, &[&t[..], &["--input", "x=y + 1"]].concat());
    assert!(err.contains("not a literal"), "{err}");

    let err = exec_fails(FIND, &[&t[..], &["--input", "x"]].concat());
    assert!(err.contains("expected NAME=VALUE"), "{err}");

    let err = exec_fails(
        FIND,
        &[&t[..], &["--input", "x=1", "--input", "x=2"]].concat(),
    );
    assert!(err.contains("more than once"), "{err}");

    let err = exec_fails(
        FIND,
        &[&t[..], &["--input", "x=1", "--entry", "nope"]].concat(),
    );
    assert!(err.contains("no function `nope`"), "{err}");
    assert!(err.contains("`find`"), "{err}");
}

#[test]
fn unknown_options_are_usage_errors() {
    let err = exec_fails("x = 1\n", &["--frobnicate"]);
    assert!(err.contains("--frobnicate"), "{err}");
    let out = symdbg(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    let out = symdbg(&[]);
    assert_eq!(out.status.code(), Some(2));
    let out = symdbg(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("exec"));
}

#[test]
fn unreadable_files_get_clear_errors() {
    let out = symdbg(&["exec", "/nonexistent/prog.py"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot read `/nonexistent/prog.py`: no such file"),
        "{err}"
    );

    let dir = std::env::temp_dir();
    let out = symdbg(&["exec", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a directory"));

    let path = temp_file(b"x = 1\ny = 2 # caf\xe9\n");
    let out = symdbg(&["exec", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not valid UTF-8: byte 0xe9 at line 2, column 12"),
        "{err}"
    );

    for empty in ["", "\n  \n"] {
        let err = exec_fails(empty, &[]);
        assert!(err.contains("is empty"), "{err}");
    }
}

#[test]
fn program_errors_are_located_and_uncoloured_when_piped() {
    let err = exec_fails("x = 1\nif x\n    y = 2\n", &[]);
    assert!(err.contains(".py:2:"), "{err}");
    assert!(
        !err.contains('\u{1b}'),
        "no colour codes when stderr is not a terminal"
    );
}

/// A huge `--input` value is quoted by its start and length, not echoed whole (fuzz5: a
/// 5,000-digit value filled the terminal).
#[test]
fn a_huge_input_value_is_not_echoed_whole() {
    let big = "9".repeat(5000);
    let arg = format!("x={big}");
    let (code, stdout, stderr) =
        crate::util::symdbg(&["exec", "examples/inversion.py", "--input", &arg]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("(5000 characters)"), "{stderr}");
    assert!(stderr.len() < 2000, "{} bytes of error", stderr.len());
}
