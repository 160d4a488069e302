//! Item 4: `--entry f` is `import module; module.f(args)`.

use super::*;

/// The example: loops and `if`s at the top level run before the call.
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
    let h = crate::tui::open_source("driver.py", src, Some("twice"), 160, 30);
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
