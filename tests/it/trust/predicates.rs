//! Item 5: a predicate called from ordinary code runs as Python.

use super::*;
use serde_json::Value;

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
