//! One minimal program per root cause the position audit found, compared with python3:
//! every `symdbg run --json` leaf's model replayed, `symdbg exec` (human output's
//! `at file:line:col` and the JSON's `exception_line`/`exception_column`).

use serde_json::Value;

use crate::trust::{exec_agrees_with_python, leaves_agree_with_python, symdbg, temp_file};

/// `symdbg exec --json` with `inputs`: (outcome, exception_line, exception_column).
fn exec_json(src: &str, inputs: &[(&str, &str)]) -> (Value, Value, Value) {
    let path = temp_file(src);
    let file = path.to_str().unwrap();
    let pairs: Vec<String> = inputs.iter().map(|(n, v)| format!("{n}={v}")).collect();
    let mut args = vec!["exec", file, "--json"];
    for p in &pairs {
        args.extend(["--input", p.as_str()]);
    }
    let (code, out, err) = symdbg(&args);
    assert_eq!(code, 0, "{err}");
    let j: Value = serde_json::from_str(&out).unwrap();
    let _ = std::fs::remove_file(&path);
    (
        j["outcome"].clone(),
        j["exception_line"].clone(),
        j["exception_column"].clone(),
    )
}

/// Root cause 1 (engine): lowering a call out of an `assert`'s condition turned the chained
/// comparison (or the `and`/`or`) into a temporary, and the engine placed the failure at
/// the statement; CPython marks the last comparison compiled. Now the position is taken
/// from the source condition before lowering.
#[test]
fn assert_with_a_call_in_its_condition_marks_the_comparison() {
    let programs: &[(&str, &[(&str, &str)])] = &[
        (
            "def g(a: int) -> int:\n    return a\nx: int\nt: tuple\nassert t[-1] <= -x >= g(x)\n",
            &[("x", "1"), ("t", "(0,)")],
        ),
        (
            "def g(a: int) -> bool:\n    return a > 0\nx: int\nassert x < 5 and g(x)\n",
            &[("x", "0")],
        ),
        (
            "def g(a: int) -> int:\n    return a\nx: int\nassert not (g(x) == 0 or\n        x > g(x))\n",
            &[("x", "0")],
        ),
    ];
    for (src, inputs) in programs {
        assert!(leaves_agree_with_python(src, None, &[]) >= 2, "{src}");
        exec_agrees_with_python(src, None, inputs);
    }
}

/// Root cause 2 (engine): `y //= g(x)` hoists the call and rebuilt the division with the
/// span of the right-hand side; CPython marks the whole statement (as without a call).
#[test]
fn augmented_assignment_with_a_call_marks_the_statement() {
    let src = "def g(a: int) -> int:\n    return a - 1\nx: int\ny = 5\nif x > 0:\n    y  //= (g(x))\n    y %= g(x) + 0\n";
    assert!(leaves_agree_with_python(src, None, &[]) >= 3, "{src}");
    let out = exec_agrees_with_python(src, None, &[("x", "1")]);
    assert!(out.contains(":6:5\n"), "{out}");
    let (outcome, line, col) = exec_json(src, &[("x", "1")]);
    assert_eq!(
        (outcome.as_str(), line.as_u64(), col.as_u64()),
        (Some("exception"), Some(6), Some(5))
    );
}

/// Root cause 3 (front end): a parameter's type followed by a comment or a `\`
/// continuation inside the parentheses was read with them (`unknown type `tuple  # c``);
/// CPython accepts both.
#[test]
fn parameter_types_followed_by_a_comment_or_continuation() {
    let src = "def g(a: tuple  # the tuple\n      , n: int \\\n      ) -> int:\n    return n // len(a)\nt: tuple\nz = g(t, 4)\n";
    assert!(leaves_agree_with_python(src, None, &[]) >= 2, "{src}");
    let out = exec_agrees_with_python(src, None, &[("t", "()")]);
    assert!(out.contains("ZeroDivisionError"), "{out}");
}

/// Columns count characters: a non-ASCII name before the failing expression on its line
/// (CPython's traceback counts UTF-8 bytes; the oracle converts).
#[test]
fn columns_after_non_ascii_names_count_characters() {
    let src = "x: int\nλé = 1; 日 = λé // x\n";
    assert!(leaves_agree_with_python(src, None, &[]) >= 2, "{src}");
    exec_agrees_with_python(src, None, &[("x", "0")]);
    let (_, line, col) = exec_json(src, &[("x", "0")]);
    assert_eq!((line.as_u64(), col.as_u64()), (Some(2), Some(13)));
}

/// Root cause 4 (engine): calls in a call's arguments are hoisted before the call, so the
/// engine ran them (and their exceptions) before it looked the callee up; CPython looks the
/// callee up first: calling a function whose `def` has not run yet is a NameError at the
/// outer name even when an argument would raise or calls it too.
#[test]
fn the_callee_is_looked_up_before_hoisted_arguments() {
    let programs: &[(&str, &[(&str, &str)])] = &[
        (
            "x: int\nz = h(h(x, ()), (1, (2,)[x]))\ndef h(a: int, u: tuple) -> int:\n    return a\n",
            &[("x", "3")],
        ),
        (
            "def g(a: int) -> int:\n    return 10 // a\nx: int\nif x < 5:\n    h(g(x))\ndef h(a: int) -> int:\n    return a\n",
            &[("x", "0")],
        ),
    ];
    for (src, inputs) in programs {
        assert!(leaves_agree_with_python(src, None, &[]) >= 1, "{src}");
        let out = exec_agrees_with_python(src, None, inputs);
        assert!(out.contains("NameError"), "{out}");
    }
}

/// Root cause 5 (engine): a `@predicate` called from code before its `def` ran was
/// evaluated anyway; Python raises NameError at its name.
#[test]
fn a_predicate_called_before_its_def_is_a_name_error() {
    let src = "t: tuple\nx: int\nassert p(t, x)\n@predicate\ndef p(u: tuple, n: int) -> bool:\n    return n > 0\n";
    assert!(leaves_agree_with_python(src, None, &[]) >= 1, "{src}");
    let out = exec_agrees_with_python(src, None, &[("t", "()"), ("x", "1")]);
    assert!(out.contains(":3:8\n"), "{out}");
}

/// Root cause 6 (engine): a predicate's quantifier variable captured the caller's
/// quantifier variable of the same name passed as an argument (`any(p(u, k) for k in ...)`
/// with `p` quantifying over its own `k`): the outer loop vanished from the path condition,
/// and a leaf's model predicted `normal` where CPython raises IndexError.
#[test]
fn predicate_quantifiers_do_not_capture_the_callers_variable() {
    let src = "x: int\ny: int\n@predicate\ndef p(u: tuple, n: int) -> bool:\n    return any(n % u[k + 1] != 0 for k in range(0, len(u)))\nv = any(p((x, x), k) for k in range(-y, 1))\n";
    assert!(leaves_agree_with_python(src, None, &[]) >= 3, "{src}");
    exec_agrees_with_python(src, None, &[("x", "2"), ("y", "0")]);
}
