//! Issue 25's expressions at the level of their rules: every slice `t[lo:hi:step]` of
//! short tuples (bounds and steps of every sign, missing parts, a zero step) against
//! python3, through the interpreter's rule, the term's folding, the model's evaluation and
//! the solver's translation; membership on empty tuples and slices; and the located
//! messages for what stays unsupported.

use std::io::Write;
use std::process::{Command, Stdio};

use num_bigint::BigInt;
use symdbg::concrete::Value;
use symdbg::solver::{SatResult, Solver, SolverConfig};
use symdbg::term::{Model, Sort, Sym, Term};

const BOUNDS: [Option<i64>; 10] = [
    None,
    Some(-7),
    Some(-4),
    Some(-2),
    Some(-1),
    Some(0),
    Some(1),
    Some(2),
    Some(4),
    Some(7),
];
const STEPS: [Option<i64>; 8] = [
    None,
    Some(-3),
    Some(-2),
    Some(-1),
    Some(0),
    Some(1),
    Some(2),
    Some(3),
];
const MAX_LEN: usize = 5;

fn show(b: Option<i64>) -> String {
    b.map_or(String::new(), |k| k.to_string())
}

/// A tuple's length and a slice's lo, hi and step.
type Case = (usize, Option<i64>, Option<i64>, Option<i64>);

/// Every case.
fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for n in 0..=MAX_LEN {
        for lo in BOUNDS {
            for hi in BOUNDS {
                for step in STEPS {
                    out.push((n, lo, hi, step));
                }
            }
        }
    }
    out
}

/// python3's answer for each case, in order: the slice's elements, or `None` (ValueError).
fn python_slices() -> Vec<Option<Vec<i64>>> {
    // One case per input line: `n lo hi step`, `_` for a missing part.
    let script = "import sys\n\
        p = lambda w: None if w == '_' else int(w)\n\
        for line in sys.stdin:\n\
        \x20   n, lo, hi, st = line.split()\n\
        \x20   try:\n\
        \x20       r = tuple(range(10, 10 + int(n)))[p(lo):p(hi):p(st)]\n\
        \x20       print(' '.join(map(str, r)) + '.')\n\
        \x20   except ValueError:\n\
        \x20       print('E')\n";
    let part = |b: Option<i64>| b.map_or("_".to_string(), |k| k.to_string());
    let input: String = cases()
        .into_iter()
        .map(|(n, lo, hi, st)| format!("{n} {} {} {}\n", part(lo), part(hi), part(st)))
        .collect();
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let run = child.wait_with_output().unwrap();
    assert!(run.status.success());
    let text = String::from_utf8(run.stdout).unwrap();
    let answers: Vec<Option<Vec<i64>>> = text
        .lines()
        .map(|l| match l {
            "E" => None,
            l => Some(
                l.trim_end_matches('.')
                    .split_whitespace()
                    .map(|x| x.parse().unwrap())
                    .collect(),
            ),
        })
        .collect();
    assert_eq!(answers.len(), cases().len());
    answers
}

fn big(k: i64) -> BigInt {
    BigInt::from(k)
}

fn items(n: usize) -> Vec<BigInt> {
    (0..n).map(|k| big(10 + k as i64)).collect()
}

/// The interpreter's rule, the folded term of a tuple display and the model's evaluation
/// of a slice of a symbolic tuple all give python3's answer, for every case.
#[test]
fn every_short_slice_agrees_with_python() {
    let python = python_slices();
    let t = Sym::new("t", Sort::Seq);
    let mut compared = 0;
    for ((n, lo, hi, step), expected) in cases().into_iter().zip(python) {
        let what = format!(
            "tuple(range(10, {}))[{}:{}:{}]",
            10 + n,
            show(lo),
            show(hi),
            show(step)
        );
        let (blo, bhi, bstep) = (lo.map(big), hi.map(big), step.map(big));
        let ours = symdbg::semantics::slice(&items(n), blo.as_ref(), bhi.as_ref(), bstep.as_ref());
        let expected: Option<Vec<BigInt>> = expected.map(|v| v.into_iter().map(big).collect());
        assert_eq!(ours.as_ref().ok(), expected.as_ref(), "semantics: {what}");
        let Some(expected) = expected else { continue };
        let term = |base: Term| {
            Term::slice(
                base,
                lo.map(Term::int),
                hi.map(Term::int),
                Term::int(step.unwrap_or(1)),
            )
        };
        // A display folds to a display.
        let display = Term::tuple(items(n).into_iter().map(Term::int).collect());
        assert_eq!(
            term(display).as_tuple(),
            Some(expected.clone()),
            "folded: {what}"
        );
        // A symbolic tuple stays a slice, and the model evaluates it.
        let mut model = Model::default();
        model.values.insert(t.clone(), Value::tuple(items(n)));
        let sliced = term(Term::var(t.clone()));
        assert_eq!(
            model.eval(&sliced),
            Some(Value::tuple(expected.clone())),
            "model: {what} as {sliced}"
        );
        compared += 1;
    }
    assert!(compared > 3000, "only {compared} slices compared");
}

/// The solver's translation of a slice (its length and elements, clamping included) with
/// constant and with symbolic bounds: `slice == python's answer` is valid once the tuple
/// and the bounds are fixed.
#[test]
fn the_solver_reads_slices_as_python() {
    let python = python_slices();
    let t = Term::var(Sym::new("t", Sort::Seq));
    let mut solver = Solver::new(SolverConfig {
        timeout_ms: Some(20_000),
    });
    let mut checked = 0;
    for (i, ((n, lo, hi, step), expected)) in cases().into_iter().zip(python).enumerate() {
        // A sample: every length and step, the bounds thinned out.
        let Some(expected) = expected else { continue };
        if n % 2 == 0 && n != 0 || i % 3 != 0 {
            continue;
        }
        let symbolic = i % 2 == 0;
        let mut pc = vec![Term::eq(
            t.clone(),
            Term::tuple(items(n).into_iter().map(Term::int).collect()),
        )];
        let mut part = |name: &str, v: Option<i64>| {
            v.map(|k| {
                if symbolic {
                    let s = Term::var(Sym::new(name, Sort::Int));
                    pc.push(Term::eq(s.clone(), Term::int(k)));
                    s
                } else {
                    Term::int(k)
                }
            })
        };
        let (l, h, s) = (part("a", lo), part("b", hi), part("c", step));
        let sliced = Term::slice(t.clone(), l, h, s.unwrap_or_else(|| Term::int(1)));
        let want = Term::tuple(expected.into_iter().map(Term::int).collect());
        let mut wrong = pc.clone();
        wrong.push(Term::ne(sliced.clone(), want));
        let what = format!("{sliced} with {pc:?}");
        assert_eq!(solver.check(&wrong), SatResult::Unsat, "{what}");
        // `x in` the slice agrees with the elements too.
        let mut member = pc.clone();
        member.push(Term::member(Term::int(10 + n as i64), sliced.clone()));
        assert_eq!(
            solver.check(&member),
            SatResult::Unsat,
            "past the end in {what}"
        );
        checked += 1;
    }
    assert!(checked > 150, "only {checked} slices checked");
}

/// `x in ()` is False, `x in (1, y)` is a disjunction, and a symbolic tuple's membership
/// prints as the source wrote it.
#[test]
fn membership_terms_read_like_python() {
    let x = Term::var(Sym::new("x", Sort::Int));
    let y = Term::var(Sym::new("y", Sort::Int));
    let t = Term::var(Sym::new("t", Sort::Seq));
    assert!(Term::member(x.clone(), Term::tuple(vec![])).is_false());
    let pair = Term::member(x.clone(), Term::tuple(vec![Term::int(1), y.clone()]));
    assert_eq!(pair.to_string(), "x == 1 or x == y");
    let inside = Term::member(
        x.clone(),
        Term::slice(t.clone(), Some(Term::int(1)), None, Term::int(1)),
    );
    assert_eq!(inside.to_string(), "x in t[1:]");
    assert_eq!(Term::not(inside).to_string(), "x not in t[1:]");
    let appended = Term::member(x.clone(), Term::concat(t.clone(), Term::tuple(vec![y])));
    assert_eq!(appended.to_string(), "x in t or x == y");
    let mut model = Model::default();
    model
        .values
        .insert(Sym::new("t", Sort::Seq), Value::tuple(vec![big(3), big(4)]));
    model
        .values
        .insert(Sym::new("x", Sort::Int), Value::Int(big(4)));
    assert_eq!(model.eval(&Term::member(x, t)), Some(Value::Bool(true)));
}

/// `examples/remove_first.py`: every counterexample of its `assert x not in u` holds `x`
/// at least twice (python3 agrees that it fails), the search loop never raises
/// `IndexError` (the path knows `x in t`), and `check` finds the tree exhaustive and
/// precise.
#[test]
fn the_remove_first_example_runs() {
    let (code, out, err) =
        crate::util::symdbg(&["run", "examples/remove_first.py", "--counterexamples"]);
    assert_eq!(code, 0, "{out}{err}");
    let mut seen = 0;
    for line in out.lines() {
        assert!(!line.contains("IndexError"), "{out}");
        let Some(inputs) = line.split_once("AssertionError for ").map(|(_, r)| r) else {
            continue;
        };
        // `t = (1, 0, 0), x = 0`
        let (t, x) = inputs.split_once(", x = ").expect("t and x");
        let t = t.trim_start_matches("t = ");
        let script = format!("t = {t}\nx = {x}\nassert t.count(x) >= 2\nu = t[:t.index(x)] + t[t.index(x) + 1:]\nassert x in u\n");
        let run = Command::new("python3")
            .arg("-c")
            .arg(&script)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        seen += 1;
    }
    assert!(seen >= 3, "{out}");
    let (code, out, err) = crate::util::symdbg(&["check", "examples/remove_first.py"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("exhaustive: probably"), "{out}");
    assert!(out.contains("precise: probably"), "{out}");
}

/// The leaves of `symdbg run FILE --json`: (outcome, exception, model).
fn leaves(src: &str) -> Vec<(String, Option<String>, serde_json::Value)> {
    let dir = std::env::temp_dir().join(format!("symdbg-expr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("p{}.py", src.len()));
    std::fs::write(&path, src).unwrap();
    let (code, out, err) = crate::util::symdbg(&["run", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "leaf")
        .map(|n| {
            (
                n["outcome"].as_str().unwrap().to_string(),
                n["exception"].as_str().map(str::to_string),
                n["model"].clone(),
            )
        })
        .collect()
}

/// Only the chosen side of `a if c else b` runs: the other side's exception never
/// happens, in plain expressions and when a side calls a function (lowered to an `if`);
/// a symbolic slice step forks on `c == 0` (ValueError).
#[test]
fn only_the_chosen_side_raises_and_a_zero_step_forks() {
    let src = "t: tuple\nx: int\ny = t[5] if len(t) > 5 else 10 // x\n";
    let l = leaves(src);
    assert!(
        l.iter().all(|(_, e, _)| e.as_deref() != Some("IndexError")),
        "{l:?}"
    );
    let zero: Vec<_> = l
        .iter()
        .filter(|(_, e, _)| e.as_deref() == Some("ZeroDivisionError"))
        .collect();
    assert_eq!(zero.len(), 1, "{l:?}");
    let m = &zero[0].2;
    assert_eq!(m["x"], 0, "{m}");
    assert!(m["t"].as_array().unwrap().len() <= 5, "{m}");

    let src = "def inv(v: int) -> int:\n    return 100 // v\n\n\nx: int\n\
               y = inv(x) if x != 0 else inv(x + 1) if x + 1 != 0 else 0\n";
    let l = leaves(src);
    assert_eq!(l.len(), 2, "{l:?}");
    assert!(l.iter().all(|(o, _, _)| o == "normal"), "{l:?}");

    let src = "t: tuple\nc: int\nu = t[::c]\n";
    let l = leaves(src);
    let raised: Vec<_> = l.iter().filter(|(o, _, _)| o == "exception").collect();
    assert_eq!(raised.len(), 1, "{l:?}");
    assert_eq!(raised[0].1.as_deref(), Some("ValueError"));
    assert_eq!(raised[0].2["c"], 0);
    assert!(
        l.iter().any(|(o, _, m)| o == "normal" && m["c"] != 0),
        "{l:?}"
    );
}

/// `in` and slices inside verification: an invariant `needle not in haystack[:i]` is
/// verified for tuples of any length, an off-by-one version is refuted with inputs that
/// reproduce in the interpreter; a loop whose guard reads `i not in t` folds into one κ
/// node, and `check --fold auto` finds it exhaustive and precise.
#[test]
fn invariants_and_folds_read_the_new_expressions() {
    let find = |inv: &str| {
        format!(
            "def find(needle: int, haystack: tuple) -> int:\n    i = 0\n    \
             while i < len(haystack):\n        invariant 0 <= i <= len(haystack)\n        \
             invariant {inv}\n        if haystack[i] == needle:\n            break\n        \
             i = i + 1\n    else:\n        return -1\n    return i if i >= 0 else -1\n"
        )
    };
    let dir = std::env::temp_dir().join(format!("symdbg-expr-inv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.py");
    std::fs::write(&good, find("needle not in haystack[:i]")).unwrap();
    let (code, out, err) = crate::util::symdbg(&[
        "run",
        good.to_str().unwrap(),
        "--entry",
        "find",
        "--counterexamples",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("Error"), "{out}");
    let bad = dir.join("bad.py");
    std::fs::write(&bad, find("needle not in haystack[:i + 1]")).unwrap();
    let (_, out, err) = crate::util::symdbg(&[
        "run",
        bad.to_str().unwrap(),
        "--entry",
        "find",
        "--counterexamples",
    ]);
    assert!(
        out.contains("AssertionError") && out.contains("reproduced"),
        "{out}{err}"
    );
    assert!(!out.contains("not reproduced"), "{out}");

    let fold = dir.join("fold.py");
    std::fs::write(
        &fold,
        "t: tuple\nn: int\ni = 0\nwhile i < n and i not in t:\n    i += 1\nr = i if i < n else -1\n",
    )
    .unwrap();
    let (code, out, err) = crate::util::symdbg(&["run", fold.to_str().unwrap(), "--fold", "auto"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 fold"), "{out}");
    assert!(out.contains("not in t for τ1 in range(0, κ1)"), "{out}");
    let (code, out, err) =
        crate::util::symdbg(&["check", fold.to_str().unwrap(), "--fold", "auto"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("exhaustive: probably") && out.contains("precise: probably"),
        "{out}"
    );
}
