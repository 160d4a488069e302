//! Item 8: one column convention, CPython 3.11's.

use super::*;

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
