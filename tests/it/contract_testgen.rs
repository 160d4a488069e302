//! Issue 28: `symdbg testgen` on programs with `requires`/`ensures` contracts, checked by
//! real pytest runs (python3 is the oracle). The generated module checks the contract
//! lines as `symdbg exec` does (`requires` on entry, `ensures` on return, a failure an
//! uncatchable `AssertionError` at its line). Under `--calls inline` every leaf gets its
//! tests; under `--calls contract` a leaf below a use of a contract gets a test only where
//! its model's run reproduces it, and is otherwise listed as "not written: the contract of
//! f may be too weak". Every written test passes on the program; weakened bodies fail some.

use std::path::{Path, PathBuf};

use crate::testgen::pytest;
use crate::util::symdbg;

/// A scratch directory with programs and their test files.
struct Dir(tempfile::TempDir);

impl Dir {
    fn new() -> Dir {
        Dir(tempfile::tempdir().expect("tempdir"))
    }

    /// Write `src` as `name` in the directory; its path.
    fn program(&self, name: &str, src: &str) -> PathBuf {
        let p = self.0.path().join(name);
        std::fs::write(&p, src).expect("write program");
        p
    }

    /// `symdbg testgen PROGRAM ARGS -o test_<name>.py` must succeed: the test file and its
    /// text.
    fn testgen(&self, program: &Path, name: &str, args: &[&str]) -> (PathBuf, String) {
        let out = self.0.path().join(format!("test_{name}.py"));
        let mut all = vec![
            "testgen",
            program.to_str().expect("utf-8"),
            "-o",
            out.to_str().expect("utf-8"),
        ];
        all.extend_from_slice(args);
        let (code, _, err) = symdbg(&all);
        assert_eq!(code, 0, "symdbg {all:?}:\n{err}");
        let text = std::fs::read_to_string(&out).expect("written");
        (out, text)
    }
}

fn count_tests(text: &str) -> usize {
    text.matches("\ndef test_").count()
}

const EXAMPLE: &str = include_str!("../../examples/contracts.py");

/// Recursion, a predicate, a multi-line `requires` with a comment, `try` with a bare
/// `except` and with `except AssertionError` around calls (a contract failure is not
/// caught), loops with invariants in contracted functions, quantifiers, and searches.
const LIBRARY: &str = "@predicate
def pos(v: int) -> bool:
    return v > 0


def half(n: int) -> int:
    requires (n >= 0 and
              n <= 100)  # a comment
    ensures pos(result) or n <= 1
    ensures result * 2 <= n
    return n // 2


def safe(n: int) -> int:
    try:
        return half(n)
    except:
        return -1


def careful(n: int) -> int:
    try:
        return half(n - 1)
    except AssertionError:
        return -2


def count(t: tuple) -> int:
    ensures 0 <= result <= len(t)
    i = 0
    c = 0
    while i < len(t):
        invariant 0 <= i <= len(t)
        if t[i] > 0:
            c += 1
        i += 1
    return c


def fact(n: int) -> int:
    requires n >= 0
    ensures result >= 1
    ensures result >= n
    if n <= 1:
        return 1
    return n * fact(n - 1)


def search(t: tuple, x: int, i: int) -> int:
    requires 0 <= i <= len(t)
    ensures -1 <= result < len(t)
    ensures result == -1 or t[result] == x
    if i == len(t):
        return -1
    if t[i] == x:
        return i
    return search(t, x, i + 1)


def find(t: tuple, x: int) -> int:
    ensures -1 <= result < len(t)
    ensures result == -1 or t[result] == x
    ensures result != -1 or all(t[j] != x for j in range(len(t)))
    i = 0
    while i < len(t):
        invariant 0 <= i <= len(t)
        invariant all(t[j] != x for j in range(i))
        if t[i] == x:
            return i
        i += 1
    return -1


def finder(t: tuple) -> int:
    k = find(t, 3)
    if k == -1:
        assert all(t[j] != 3 for j in range(len(t)))
        return 0
    return t[k]


def user(n: int, t: tuple) -> int:
    k = search(t, n, 0)
    if k >= 1:
        return fact(k) + count(t)
    return half(n)
";

/// A module program: its top level calls contracted functions.
const MODULE: &str = "def clamp(x: int) -> int:
    ensures 0 <= result <= 9
    if x < 0:
        return 0
    if x > 9:
        return 9
    return x


def digit_sum(x: int) -> int:
    requires x >= 0
    ensures result >= 0
    if x < 10:
        return x
    return x % 10 + digit_sum(x // 10)


x: int
c = clamp(x)
s = digit_sum(c * 11)
assert s != 9
";

/// Every function of the programs under both `--calls` modes (and the module program as a
/// module): every written test passes under pytest, and tests exist.
#[test]
fn generated_tests_of_contracted_programs_pass_under_pytest() {
    let dir = Dir::new();
    let mut files = Vec::new();
    let mut tests = 0;
    let programs = [
        ("example", EXAMPLE, &["power", "gcd", "area"][..]),
        (
            "library",
            LIBRARY,
            &[
                "half", "safe", "careful", "count", "fact", "search", "find", "finder", "user",
            ][..],
        ),
    ];
    for (name, src, entries) in programs {
        let p = dir.program(&format!("{name}.py"), src);
        for f in entries {
            for mode in ["inline", "contract"] {
                let (out, text) = dir.testgen(
                    &p,
                    &format!("{name}_{f}_{mode}"),
                    &["--entry", f, "--calls", mode],
                );
                assert!(count_tests(&text) > 0, "{name} {f} {mode}:\n{text}");
                tests += count_tests(&text);
                files.push(out);
            }
        }
    }
    let m = dir.program("module.py", MODULE);
    for mode in ["inline", "contract"] {
        let (out, text) = dir.testgen(&m, &format!("module_{mode}"), &["--calls", mode]);
        assert!(count_tests(&text) > 0, "{text}");
        tests += count_tests(&text);
        files.push(out);
    }
    let (passed, failed, output) = pytest(&files);
    assert_eq!(failed, 0, "{output}");
    assert_eq!(passed, tests, "{output}");
    eprintln!(
        "contract testgen: {tests} tests in {} files pass",
        files.len()
    );
}

/// The contract lines mean in the tests what they mean to `symdbg exec`: a precondition
/// violated inside `try`/`except` (bare or `except AssertionError`) is not caught, and
/// the `AssertionError` is raised at the contract line, also for a multi-line `requires`.
#[test]
fn a_contract_failure_is_an_uncaught_assertion_error_at_its_line() {
    let dir = Dir::new();
    let p = dir.program("library.py", LIBRARY);
    for f in ["safe", "careful"] {
        let (out, text) = dir.testgen(&p, f, &["--entry", f]);
        // A test expects the failure at `requires (n >= 0 and`, line 7, not the handler's value.
        assert!(
            text.contains("pytest.raises(AssertionError)")
                && text.contains("assert raised_at(excinfo) == 7"),
            "{text}"
        );
        let (passed, failed, output) = pytest(&[out]);
        assert_eq!((passed, failed), (count_tests(&text), 0), "{output}");
    }
}

/// `ensures result > x` lets `inc` return more than `x + 1`: under `--calls contract` the
/// leaf returning 2 (which needs `r > x + 1`) is listed, never a test; inlined, the tree
/// has no such leaf.
const WEAK: &str = include_str!("../data/contracts/weak.py");

#[test]
fn a_leaf_a_weak_contract_cannot_reproduce_is_listed_never_tested() {
    let dir = Dir::new();
    let p = dir.program("weak.py", WEAK);
    let (out, text) = dir.testgen(&p, "weak", &["--entry", "g", "--calls", "contract"]);
    assert!(
        text.contains(": not written: the contract of inc may be too weak"),
        "{text}"
    );
    assert!(text.contains("--calls contract"), "{text}");
    assert!(!text.contains("== 2\n"), "{text}");
    assert!(text.contains("== 1\n") && text.contains("== 0\n"), "{text}");
    let (passed, failed, output) = pytest(&[out]);
    assert_eq!((passed, failed), (count_tests(&text), 0), "{output}");
    let (_, inline) = dir.testgen(&p, "weak_inline", &["--entry", "g"]);
    assert!(
        inline.contains("# Leaves without a test: none."),
        "{inline}"
    );
}

/// Weakened bodies: the tests generated on the original program fail on each mutant
/// (read at test time from the same path) in both modes: a wrong value (`power` without
/// its factor) through the caller's tests even under `--calls contract`, and a broken
/// postcondition (`power` returning 0, `gcd` subtracting `a`: `area` does not use `gcd`'s
/// value) as the `AssertionError` at the `ensures` line.
#[test]
fn weakened_bodies_fail_the_generated_tests_in_both_modes() {
    let mutants = [
        ("return b * power(b, e - 1)", "return power(b, e - 1)"),
        (
            "        return 1\n    return b",
            "        return 0\n    return b",
        ),
        ("return gcd(b, a % b)", "return gcd(b, a % b) - a"),
    ];
    for (from, to) in mutants {
        let dir = Dir::new();
        let p = dir.program("example.py", EXAMPLE);
        let mut by_mode = Vec::new();
        for mode in ["inline", "contract"] {
            let (out, text) = dir.testgen(
                &p,
                &format!("area_{mode}"),
                &["--entry", "area", "--calls", mode],
            );
            by_mode.push((mode, out, count_tests(&text)));
        }
        let (_, failed, output) = pytest(&by_mode.iter().map(|m| m.1.clone()).collect::<Vec<_>>());
        assert_eq!(failed, 0, "{output}");
        assert!(EXAMPLE.contains(from), "{from}");
        std::fs::write(&p, EXAMPLE.replacen(from, to, 1)).expect("mutant");
        for (mode, out, n) in by_mode {
            let (passed, failed, output) = pytest(&[out]);
            assert_eq!(passed + failed, n, "{output}");
            assert!(
                failed > 0,
                "{mode}: the mutant `{to}` passes every test\n{output}"
            );
        }
    }
}

/// The debugger's `T` key on a contracted program: the tests check the contract lines
/// too, and pass.
#[test]
fn the_debuggers_t_key_writes_passing_tests_of_a_contracted_program() {
    let dir = Dir::new();
    let p = dir.program("example.py", EXAMPLE);
    let mut h = crate::tui::open_source(p.to_str().expect("utf-8"), EXAMPLE, Some("area"), 120, 32);
    h.keys("r");
    h.app.selected = symdbg::session::NodeId(0);
    h.keys("T");
    let all = dir.0.path().join("test_example.py");
    assert!(h.app.message.starts_with("wrote "), "{}", h.app.message);
    let text = std::fs::read_to_string(&all).expect("written");
    assert!(text.contains("def contract_at(line):"), "{text}");
    let (passed, failed, output) = pytest(&[all]);
    assert_eq!((passed, failed), (count_tests(&text), 0), "{output}");
    assert!(passed > 0);
}
