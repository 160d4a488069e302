//! Issue 28: `--calls inline` and `--calls contract` agree on every input for programs
//! whose contracts are proven. For each program and each input of a grid, the tree is
//! explored with the input pinned (`--assume x == v`) in both modes:
//!
//! - inline (exact): one leaf, whose outcome is python3's on the program with the clauses
//!   as `assert`s (`requires` on entry, `ensures` on return, recursive calls included);
//! - contract (abstract): the inline outcome is among its leaves' outcomes (every input is
//!   covered); with contracts that determine the result (`ensures result == ...`) it is
//!   the only one, with the same value or exception line.

use std::collections::BTreeSet;

use crate::util::symdbg;

/// A program whose contracts are all proven, with the grid its entry `g` is run on.
struct Case {
    src: &'static str,
    params: &'static [&'static str],
    grid: &'static [i64],
    /// The contracts pin each result: the contract tree has exactly the inline outcome.
    exact: bool,
}

const DOUBLE: Case = Case {
    src: "def double(n: int) -> int:
    requires n >= 0
    ensures result == 2 * n
    if n == 0:
        return 0
    return double(n - 1) + 2


def g(x: int) -> int:
    y = double(x)
    if y > 6:
        return 100 // (y - 8)
    assert y != 4
    return y
",
    params: &["x"],
    grid: &[-2, -1, 0, 1, 2, 3, 4, 5, 6],
    exact: true,
};

const CLAMP: Case = Case {
    src: "def mx(a: int, b: int) -> int:
    ensures result >= a and result >= b
    ensures result == a or result == b
    if a > b:
        return a
    return b


def clamp(v: int, lo: int, hi: int) -> int:
    requires lo <= hi
    ensures lo <= result <= hi
    ensures result == v or v < lo and result == lo or v > hi and result == hi
    m = mx(v, lo)
    if m > hi:
        return hi
    return m


def g(x: int, y: int) -> int:
    c = clamp(x, 0, y)
    assert c != 3
    return 10 // (c - y + 1)
",
    params: &["x", "y"],
    grid: &[-1, 0, 1, 2, 3, 4],
    exact: true,
};

const FACT: Case = Case {
    src: "def fact(n: int) -> int:
    requires n >= 0
    ensures result >= 1
    ensures result >= n
    if n <= 1:
        return 1
    return n * fact(n - 1)


def g(x: int) -> int:
    y = fact(x)
    if y > 5:
        assert y != 24
        return 1
    return 0
",
    params: &["x"],
    grid: &[-1, 0, 1, 2, 3, 4, 5],
    exact: false,
};

const GCD: Case = Case {
    src: "def gcd(a: int, b: int) -> int:
    requires a >= 0 and b >= 0
    ensures result >= 0
    ensures a == 0 and b == 0 or result > 0
    if b == 0:
        return a
    return gcd(b, a % b)


def g(a: int, b: int) -> int:
    d = gcd(a, b)
    return a // d
",
    params: &["a", "b"],
    grid: &[-1, 0, 1, 2, 4, 6],
    exact: false,
};

/// How one run ended: `return V` or `EXC at LINE` (python3 gives no line: `EXC`).
type Outcome = String;

/// The minipy program as Python: each contracted `def f` becomes `f__body` (its body)
/// and `f`, which asserts the `requires` lines, calls `f__body`, and asserts the
/// `ensures` lines on `result` (calls in the body go through `f`, as in symdbg).
fn python(src: &str) -> String {
    let mut out = String::new();
    let lines: Vec<&str> = src.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        let Some(rest) = line.strip_prefix("def ") else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        let (name, after) = rest.split_once('(').expect("def name(");
        let params = after.split_once(')').expect("params)").0;
        let (mut requires, mut ensures) = (Vec::new(), Vec::new());
        while let Some(l) = lines.get(i) {
            if let Some(r) = l.trim().strip_prefix("requires ") {
                requires.push(r);
            } else if let Some(e) = l.trim().strip_prefix("ensures ") {
                ensures.push(e);
            } else {
                break;
            }
            i += 1;
        }
        if requires.is_empty() && ensures.is_empty() {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let args: Vec<&str> = params
            .split(',')
            .map(|p| p.split(':').next().expect("name").trim())
            .collect();
        out.push_str(&format!("def {name}({params}):\n"));
        for r in &requires {
            out.push_str(&format!("    assert {r}\n"));
        }
        out.push_str(&format!("    result = {name}__body({})\n", args.join(", ")));
        for e in &ensures {
            out.push_str(&format!("    assert {e}\n"));
        }
        out.push_str(&format!(
            "    return result\n\ndef {name}__body({params}):\n"
        ));
    }
    out
}

/// Every input of the grid (one value per parameter).
fn inputs(case: &Case) -> Vec<Vec<i64>> {
    let mut all = vec![vec![]];
    for _ in case.params {
        all = all
            .into_iter()
            .flat_map(|v: Vec<i64>| {
                case.grid.iter().map(move |&x| {
                    let mut w = v.clone();
                    w.push(x);
                    w
                })
            })
            .collect();
    }
    all
}

/// python3's outcome of `g` on each input (one process for the grid).
fn python_outcomes(case: &Case, all: &[Vec<i64>]) -> Vec<Outcome> {
    let mut program = format!(
        "import sys\nsys.setrecursionlimit(10000)\n{}\n",
        python(case.src)
    );
    program.push_str("for args in [");
    for v in all {
        program.push_str(&format!("{v:?}, "));
    }
    program.push_str(
        "]:\n    try:\n        print('return', g(*args))\n    except Exception as e:\n        print(type(e).__name__)\n",
    );
    let out = crate::util::python_stdin(&program);
    let text = String::from_utf8_lossy(&out.stdout);
    let outcomes: Vec<Outcome> = text.lines().map(str::to_string).collect();
    assert_eq!(
        outcomes.len(),
        all.len(),
        "{program}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    outcomes
}

/// The outcomes of the leaves of `g`'s tree with the input pinned, in mode `calls`.
fn tree_outcomes(path: &str, case: &Case, input: &[i64], calls: &str) -> BTreeSet<Outcome> {
    let mut args: Vec<String> = [
        "run",
        path,
        "--entry",
        "g",
        "--calls",
        calls,
        "--recursion",
        "20",
        "--json",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for (p, v) in case.params.iter().zip(input) {
        args.push("--assume".into());
        args.push(format!("{p} == {v}"));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, json, err) = symdbg(&args);
    assert_eq!(code, 0, "{args:?}\n{err}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    let mut out = BTreeSet::new();
    for n in v["nodes"].as_array().expect("nodes") {
        if n["kind"] != "leaf" {
            continue;
        }
        let o = match n["outcome"].as_str().expect("outcome") {
            // A leaf below a weak contract stands for many results: its model's is one.
            "return" if calls == "contract" && !case.exact => "return".to_string(),
            "return" => format!("return {}", n["model_return_value"]),
            "exception" => format!(
                "{} at {}",
                n["exception"].as_str().expect("class"),
                n["exception_line"]
            ),
            "infeasible" => continue,
            other => panic!("{calls} {input:?}: a {other} leaf\n{json}"),
        };
        out.insert(o);
    }
    out
}

#[test]
fn inline_and_contract_agree_on_every_input_of_proven_programs() {
    for case in [&DOUBLE, &CLAMP, &FACT, &GCD] {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("p.py");
        std::fs::write(&file, case.src).expect("write");
        let path = file.to_str().expect("utf-8");
        // The premise: every contract of the program is proven.
        let (code, out, err) = symdbg(&["check", path, "--contracts"]);
        assert_eq!(code, 0, "{}\n{out}{err}", case.src);
        let all = inputs(case);
        let python = python_outcomes(case, &all);
        let mut contract_only = 0;
        for (input, py) in all.iter().zip(&python) {
            let inline = tree_outcomes(path, case, input, "inline");
            assert_eq!(inline.len(), 1, "{}\n{input:?}: {inline:?}", case.src);
            let exact = inline.iter().next().expect("one");
            // The inline tree is python3's run: the value, or the exception's class.
            let class = exact.split(" at ").next().expect("class");
            assert_eq!(class, py.as_str(), "{}\n{input:?}", case.src);
            let contract = tree_outcomes(path, case, input, "contract");
            let kind = if case.exact || !exact.starts_with("return") {
                exact.as_str()
            } else {
                "return"
            };
            assert!(
                contract.contains(kind),
                "{}\n{input:?}: inline {exact}, contract {contract:?}",
                case.src
            );
            if case.exact {
                assert_eq!(contract, inline, "{}\n{input:?}", case.src);
            }
            contract_only += contract.len() - 1;
        }
        // A weak contract lets results no call returns: more outcomes, never fewer.
        if !case.exact {
            assert!(contract_only > 0, "{}", case.src);
        }
    }
}
