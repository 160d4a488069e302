//! Issue 28: `requires`/`ensures` contracts — their syntax and located errors, their
//! concrete meaning (`exec`), the use of a contract at a call (`--calls contract`), the
//! proof of a contract (`run --entry f`, `check --contracts`), and oracles against
//! python3 with the clauses turned into `assert`s.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::util::symdbg;

/// A program written to a fresh temporary file (kept while the value lives).
fn file(src: &str) -> tempfile::TempPath {
    let mut f = tempfile::Builder::new()
        .suffix(".py")
        .tempfile()
        .expect("tempfile");
    f.write_all(src.as_bytes()).expect("write");
    f.into_temp_path()
}

fn path(p: &tempfile::TempPath) -> &str {
    p.to_str().expect("utf-8 path")
}

/// One contracted function: the text of its `def` with contract lines and body.
struct Func {
    name: &'static str,
    params: &'static str,
    requires: &'static [&'static str],
    ensures: &'static [&'static str],
    body: &'static str,
}

impl Func {
    /// minipy: contract lines at the top of the body.
    fn minipy(&self) -> String {
        let mut s = format!("def {}({}) -> int:\n", self.name, self.params);
        for r in self.requires {
            s.push_str(&format!("    requires {r}\n"));
        }
        for e in self.ensures {
            s.push_str(&format!("    ensures {e}\n"));
        }
        s.push_str(self.body);
        s
    }

    /// Python: the body as `NAME__body`, and `NAME` checking the clauses as `assert`s
    /// around it (recursive calls go through the checks, as in symdbg's meaning).
    fn python(&self) -> String {
        let args: Vec<&str> = self
            .params
            .split(',')
            .map(|p| p.split(':').next().expect("name").trim())
            .collect();
        let args = args.join(", ");
        let mut s = format!("def {}__body({}):\n{}", self.name, self.params, self.body);
        s.push_str(&format!("\ndef {}({}):\n", self.name, self.params));
        for r in self.requires {
            s.push_str(&format!("    assert {r}\n"));
        }
        s.push_str(&format!("    result = {}__body({args})\n", self.name));
        for e in self.ensures {
            s.push_str(&format!("    assert {e}\n"));
        }
        s.push_str("    return result\n");
        s
    }
}

const FACT: Func = Func {
    name: "fact",
    params: "n: int",
    requires: &["n >= 0"],
    ensures: &["result >= 1", "result >= n"],
    body: "    if n <= 1:\n        return 1\n    return n * fact(n - 1)\n",
};

const GCD: Func = Func {
    name: "gcd",
    params: "a: int, b: int",
    requires: &["a >= 0 and b >= 0"],
    ensures: &["result >= 0", "a == 0 and b == 0 or result > 0"],
    body: "    if b == 0:\n        return a\n    return gcd(b, a % b)\n",
};

const POWER: Func = Func {
    name: "power",
    params: "b: int, e: int",
    requires: &["e >= 0", "b >= 2"],
    ensures: &["result >= 1", "result >= e"],
    body: "    if e == 0:\n        return 1\n    return b * power(b, e - 1)\n",
};

const SEARCH: Func = Func {
    name: "search",
    params: "t: tuple, x: int, i: int",
    requires: &["0 <= i <= len(t)"],
    ensures: &[
        "-1 <= result < len(t)",
        "result == -1 or t[result] == x",
        "result == -1 or result >= i",
    ],
    body: "    if i == len(t):\n        return -1\n    if t[i] == x:\n        return i\n    return search(t, x, i + 1)\n",
};

/// `check --contracts` on one program: (exit code, stdout).
fn prove(src: &str) -> (i32, String) {
    let p = file(src);
    let (code, out, err) = symdbg(&["check", path(&p), "--contracts"]);
    assert!(err.is_empty() || code != 2, "{err}");
    (code, out)
}

#[test]
fn recursive_functions_are_verified_for_every_depth_without_a_bound_leaf() {
    for f in [&FACT, &GCD, &POWER, &SEARCH] {
        let (code, out) = prove(&f.minipy());
        assert_eq!(code, 0, "{}:\n{out}", f.name);
        assert!(out.starts_with(&format!("{}: verified", f.name)), "{out}");
        // The proof tree itself: no `bound` leaf, no exception leaf.
        let p = file(&f.minipy());
        let (code, json, err) = symdbg(&["run", path(&p), "--entry", f.name, "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&json).expect("json");
        let leaves: Vec<&serde_json::Value> = v["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .filter(|n| n["kind"] == "leaf")
            .collect();
        assert!(!leaves.is_empty());
        for l in &leaves {
            assert_eq!(l["outcome"], "return", "{}: {l}", f.name);
        }
        // Recursive calls use the contract: some leaf is abstract.
        assert!(leaves.iter().any(|l| l["abstract"] == true), "{}", f.name);
    }
}

/// Run `python` with `call` appended: did it raise AssertionError?
fn python_asserts(python: &str, call: &str) -> bool {
    python_raises(python, call, "AssertionError")
}

/// Run `python` with `call` appended: did it raise `class`?
fn python_raises(python: &str, call: &str, class: &str) -> bool {
    let mut child = Command::new("python3")
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3");
    let program = format!("import sys\nsys.setrecursionlimit(10000)\n{python}\n{call}\n");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(program.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("python3 ran");
    String::from_utf8_lossy(&out.stderr).contains(class)
}

#[test]
fn a_weakened_body_breaks_its_contract_with_a_counterexample_python3_reproduces() {
    // Mutants of the bodies (one token each); each breaks the contract.
    let mutants = [
        Func {
            body: "    if n <= 1:\n        return 0\n    return n * fact(n - 1)\n",
            ..FACT
        },
        Func {
            body: "    if b == 0:\n        return a\n    return gcd(b, a % b) - 1\n",
            ..GCD
        },
        Func {
            body: "    if e == 0:\n        return 1\n    return b * power(b, e - 2)\n",
            ..POWER
        },
        Func {
            body: "    if i == len(t):\n        return -1\n    if t[i] == x:\n        return i - 1\n    return search(t, x, i + 1)\n",
            ..SEARCH
        },
    ];
    for m in &mutants {
        let (code, out) = prove(&m.minipy());
        assert_eq!(code, 1, "{}:\n{out}", m.name);
        let (_, cex) = out
            .split_once("counterexample: ")
            .unwrap_or_else(|| panic!("no counterexample:\n{out}"));
        let call = format!("{}({})", m.name, values(cex.lines().next().expect("line")));
        assert!(
            python_asserts(&m.python(), &call),
            "{}: python3 does not fail on {call}\n{}",
            m.name,
            m.python()
        );
        // The same arguments on the right body: python3 passes.
        let right = [&FACT, &GCD, &POWER, &SEARCH]
            .into_iter()
            .find(|f| f.name == m.name)
            .expect("original");
        assert!(!python_asserts(&right.python(), &call), "{call}");
    }
}

/// `a = 1, t = (1, 2), x = 0` → `a=1, t=(1, 2), x=0` (keyword arguments).
fn values(bindings: &str) -> String {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in bindings.trim().chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    out.push(cur);
    out.iter()
        .map(|b| {
            let (name, value) = b.split_once(" = ").expect("name = value");
            format!("{}={}", name.trim(), value.trim())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The 1-based line of the first line of `src` that contains `text`.
fn line_of(src: &str, text: &str) -> usize {
    src.lines().position(|l| l.contains(text)).expect("line") + 1
}

const CALLER: &str = "
def g(x: int) -> int:
    y = fact(x)
    assert y >= x
    return y
";

#[test]
fn a_weakened_contract_turns_a_callers_assertion_red_and_says_it_may_be_too_weak() {
    let weak = Func {
        ensures: &["result >= 1"],
        ..FACT
    };
    let src = format!("{}{CALLER}", weak.minipy());
    let p = file(&src);
    // The contract itself is still proven.
    let (code, out) = prove(&src);
    assert_eq!(code, 0, "{out}");
    // The caller with the contract: a red AssertionError at `assert y >= x`, abstract.
    let (code, json, err) = symdbg(&[
        "run",
        path(&p),
        "--entry",
        "g",
        "--calls",
        "contract",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    let red: Vec<&serde_json::Value> = v["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .filter(|n| {
            n["exception"] == "AssertionError"
                && n["exception_line"] == line_of(&src, "assert y >= x")
        })
        .collect();
    assert_eq!(red.len(), 1, "{json}");
    assert_eq!(red[0]["abstract"], true);
    assert_eq!(red[0]["contract_failure"], serde_json::Value::Null);
    let (_, cex, _) = symdbg(&[
        "run",
        path(&p),
        "--entry",
        "g",
        "--calls",
        "contract",
        "--counterexamples",
    ]);
    assert!(
        cex.contains("not reproduced: the contract of fact may be too weak"),
        "{cex}"
    );
    // The strong contract proves the caller's assertion (no red leaf at line 11...).
    let strong = format!("{}{CALLER}", FACT.minipy());
    let q = file(&strong);
    let (_, json, _) = symdbg(&[
        "run",
        path(&q),
        "--entry",
        "g",
        "--calls",
        "contract",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    let exceptions: Vec<&serde_json::Value> = v["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .filter(|n| n["outcome"] == "exception")
        .collect();
    // ...only the precondition's failure for x < 0, which CPython shows too.
    assert_eq!(exceptions.len(), 1, "{json}");
    assert_eq!(exceptions[0]["contract_failure"], "requires");
    assert!(python_asserts(
        &format!("{}{CALLER}", FACT.python()),
        "g(-1)"
    ));
}

// `--calls inline` and `--calls contract` agreeing on every input: contract_agree.rs.

#[test]
fn exec_checks_requires_at_calls_and_ensures_at_returns() {
    let bad = Func {
        ensures: &["result > n"],
        ..FACT
    };
    let src = format!("{}{CALLER}", bad.minipy());
    let p = file(&src);
    let (_, out, _) = symdbg(&[
        "exec",
        path(&p),
        "--entry",
        "g",
        "--input",
        "x=-1",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["exception"], "AssertionError");
    assert_eq!(v["contract_failure"], "requires");
    assert_eq!(v["exception_line"], 2);
    // fact(3) = 6 > 3 holds; fact(1) = 1 > 1 does not: the postcondition fails.
    let (_, out, _) = symdbg(&["exec", path(&p), "--entry", "g", "--input", "x=1"]);
    assert!(out.contains("postcondition of fact violated"), "{out}");
    let good = file(&format!("{}{CALLER}", FACT.minipy()));
    let (_, out, _) = symdbg(&[
        "exec",
        path(&good),
        "--entry",
        "g",
        "--input",
        "x=3",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["outcome"], "return");
    // The entry call's precondition is an assumption: outside it the run is infeasible.
    let (_, out, _) = symdbg(&["exec", path(&p), "--entry", "fact", "--input", "n=-2"]);
    assert!(
        out.contains("infeasible (the precondition of fact does not hold"),
        "{out}"
    );
}

#[test]
fn misplaced_or_ill_typed_contract_lines_get_located_errors() {
    let cases = [
        (
            "x: int\nrequires x > 0\n",
            "`requires` lines must come first in a `def` body",
            "2:1",
        ),
        (
            "def f(x: int) -> int:\n    y = x\n    ensures result > 0\n    return y\n",
            "`ensures` lines must come first in a `def` body",
            "3:5",
        ),
        (
            "def f(x: int) -> int:\n    requires result > 0\n    return x\n",
            "`result` cannot be used in `requires`",
            "2:14",
        ),
        (
            "def f(result: int) -> int:\n    ensures result > 0\n    return 1\n",
            "a parameter of `f` is named `result`",
            "1:7",
        ),
        (
            "def f(x: int):\n    ensures result > 0\n    pass\n",
            "`f` returns no value",
            "2:13",
        ),
        (
            "def f(x: int) -> int:\n    ensures result >= x\n    x = 0\n    return x\n",
            "`f` assigns its parameter `x`, which its `ensures` lines read",
            "3:5",
        ),
        (
            "def f(x: int) -> int:\n    requires x\n    return x\n",
            "mismatched types",
            "2:14",
        ),
        (
            "def f(x: int) -> int:\n    while x > 0:\n        requires x > 0\n        x -= 1\n    return x\n",
            "`requires` lines must come first in a `def` body",
            "3:9",
        ),
    ];
    for (src, message, at) in cases {
        let p = file(src);
        let (code, _, err) = symdbg(&["run", path(&p)]);
        assert_eq!(code, 2, "{src}\n{err}");
        assert!(err.contains(message), "{src}\n{err}");
        assert!(
            err.contains(&format!(":{at}")),
            "{src}: expected at {at}\n{err}"
        );
    }
}

#[test]
fn testgen_writes_tests_of_contracted_programs_and_diff_pytest_refuses_them() {
    let p = file(&FACT.minipy());
    // testgen's tests check the contract lines as `exec` does (tests/it/contract_testgen.rs).
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("test_fact.py");
    let (code, _, err) = symdbg(&[
        "testgen",
        path(&p),
        "--entry",
        "fact",
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).expect("written");
    assert!(text.contains("def contract_at(line):"), "{text}");
    // `diff --pytest`'s regression tests do not check contract lines: refused, no file.
    let regression = dir.path().join("test_regression.py");
    let (code, _, err) = symdbg(&[
        "diff",
        path(&p),
        path(&p),
        "--entry",
        "fact",
        "--pytest",
        regression.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("do not support `requires`/`ensures` lines"),
        "{err}"
    );
    assert!(!regression.exists());
}

#[test]
fn the_proof_tree_of_the_example_is_labelled_step_by_step() {
    let (code, out, err) = symdbg(&["run", "examples/contracts.py", "--entry", "power", "--tree"]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!(out);
    // With the calls inlined instead, recursion is cut by --recursion (bound leaves).
    let (_, inline, _) = symdbg(&[
        "run",
        "examples/contracts.py",
        "--entry",
        "power",
        "--calls",
        "inline",
        "--tree",
    ]);
    assert!(inline.contains("bound"), "{inline}");
    assert!(!out.contains("bound)") || out.contains("0 bound"), "{out}");
}

#[test]
fn a_saved_choice_at_a_call_replays() {
    use symdbg::base::SourceMap;
    use symdbg::session::{CallMode, Config, Session};
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/contracts.py"),
    )
    .expect("example");
    let mut a = Session::open(
        SourceMap::new("contracts.py", &src),
        Some("area"),
        Config::default(),
    )
    .expect("loads");
    let root = a.tree().root();
    assert!(a.call_choice(root), "the first call (gcd) is a choice");
    a.step_call(root, CallMode::Contract);
    let frontier = a.frontier();
    let mut b = Session::open(
        SourceMap::new("contracts.py", &src),
        Some("area"),
        Config::default(),
    )
    .expect("loads");
    let replayed = b.replay_frontier(&frontier, 1000, &|_| {});
    assert!(replayed.complete());
    assert_eq!(a.tree().len(), b.tree().len());
    let child = b.tree().node(b.tree().root()).children[0];
    assert_eq!(
        b.tree().node(child).tag.as_ref().map(|t| format!("{t:?}")),
        Some("UseContract(\"gcd\")".to_string())
    );
}

#[test]
fn a_contract_over_a_loop_is_proven_with_the_loops_invariants() {
    let body = "
def maximum(t: tuple) -> int:
    requires len(t) > 0
    ensures all(result >= t[k] for k in range(len(t)))
    ensures result in t
    m = t[0]
    i = 0
    while i < len(t):
        invariant 0 <= i <= len(t)
        invariant all(m >= t[k] for k in range(i))
        invariant m in t
        if t[i] > m:
            m = t[i]
        i += 1
    return m
";
    let (code, out) = prove(body);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.trim(), "maximum: verified (3 paths)");
    // Without the invariants the loop is unrolled: no proof, and symdbg says why.
    let unannotated: String = body
        .lines()
        .filter(|l| !l.trim_start().starts_with("invariant"))
        .map(|l| format!("{l}\n"))
        .collect();
    let (code, out) = prove(&unannotated);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("not verified: no failure found, but"), "{out}");
}

/// A contract promises normal termination where `requires` holds: an exception path of
/// the body is a failure of the proof, named once with its line, with a counterexample on
/// which python3 (the clauses as `assert`s) raises too.
#[test]
fn an_exception_path_of_the_body_is_not_verified() {
    let f = Func {
        name: "f",
        params: "x: int",
        requires: &["x >= 0"],
        ensures: &["result >= 0"],
        body: "    return 10 // x\n",
    };
    let (code, out) = prove(&f.minipy());
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        out.trim(),
        "f: not verified: exception ZeroDivisionError at line 4; counterexample: x = 0"
    );
    assert!(python_raises(&f.python(), "f(x=0)", "ZeroDivisionError"));
}

/// A contract with `requires` lines only (no `ensures`): its use at a call still gives the
/// call a fresh result (it was a `NameError` leaf: `result` was no local of the function),
/// and `check --calls contract` agrees with the concrete runs.
#[test]
fn a_contract_without_ensures_is_used_with_a_fresh_result() {
    let src = "def h(y: int) -> int:
    requires y >= 5
    return y - 5


def g(x: int) -> int:
    a = h(x)
    assert a != 3
    return a
";
    let p = file(src);
    let (code, json, err) = symdbg(&[
        "run",
        path(&p),
        "--entry",
        "g",
        "--calls",
        "contract",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    let leaves: Vec<&serde_json::Value> = v["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .filter(|n| n["kind"] == "leaf")
        .collect();
    let mut seen: Vec<String> = leaves
        .iter()
        .map(|l| {
            format!(
                "{} {} {}",
                l["outcome"], l["exception"], l["exception_line"]
            )
        })
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        [
            "\"exception\" \"AssertionError\" 2",
            "\"exception\" \"AssertionError\" 8",
            "\"return\" null null",
        ],
        "{json}"
    );
    // The precondition's failure is exact (the path's first step into h); the others
    // are abstract (h@1 is any int).
    for l in &leaves {
        assert_eq!(l["abstract"], l["exception_line"] != 2, "{l}");
    }
    let (code, out, err) = symdbg(&["check", path(&p), "--entry", "g", "--calls", "contract"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("exhaustive: probably"), "{out}");
    // Its proof: the body raises nowhere where `requires` holds.
    let (code, out) = prove(src);
    assert_eq!((code, out.as_str()), (0, "h: verified (1 path)\n"));
}
