//! `Session::evaluate` and `Session::condition_at` on small programs: verdicts checked
//! against the node's path, values under the model checked against the model pane's
//! inputs, errors as messages, frames of the call stack.

use super::*;
use crate::base::SourceMap;
use crate::concrete::Value;
use crate::engine::{Config, Limits};
use crate::session::Policy;
use std::sync::atomic::Ordering;

fn explored(src: &str, entry: Option<&str>, config: Config) -> Session {
    let mut s = Session::open(SourceMap::new("t.py", src), entry, config).unwrap();
    let root = s.tree().root();
    s.run(root, Policy::Subtree, Limits::default(), &|_| {});
    s
}

/// The nodes about to run line `line`, in id order.
fn at_line(s: &Session, line: usize) -> Vec<NodeId> {
    s.tree()
        .nodes()
        .filter(|n| n.is_open() || !n.is_leaf())
        .map(|n| n.id)
        .filter(|&id| s.statement_line(id) == Some(line))
        .collect()
}

/// The node on line `line` whose path condition mentions `conj` (printed).
fn node_where(s: &Session, line: usize, conj: &str) -> NodeId {
    *at_line(s, line)
        .iter()
        .find(|&&id| {
            s.engine
                .path_condition(id)
                .iter()
                .any(|t| t.to_string() == conj)
        })
        .unwrap_or_else(|| panic!("no node on line {line} under {conj}"))
}

const BRANCHES: &str = "\
x: int
y: int
t: tuple
if x > 0:
    z = x + 1
else:
    z = 0
w = z * 2
assert w != 10
";

fn ok(s: &mut Session, id: NodeId, up: usize, text: &str) -> Evaluation {
    s.evaluate(id, up, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn always_true_always_false_and_either_on_the_path() {
    let mut s = explored(BRANCHES, None, Config::default());
    let then = node_where(&s, 8, "x > 0");
    for (text, want) in [
        ("z > 0", Truth::Always),
        ("z > 1", Truth::Always),
        ("z > 5", Truth::Sometimes),
        ("z < 0", Truth::Never),
        ("x + y > 0", Truth::Sometimes),
        ("len(t) >= 0", Truth::Always),
        ("z == x + 1", Truth::Always),
        ("True", Truth::Always),
        ("not z > 0 or x >= 1", Truth::Always),
        ("all(t[k] >= 0 for k in range(0, len(t)))", Truth::Sometimes),
    ] {
        let e = ok(&mut s, then, 0, text);
        assert_eq!(e.ty, Type::Bool, "{text}");
        assert_eq!(e.truth, Some(want.clone()), "{text}: {e:?}");
        assert!(e.raises.is_empty(), "{text}: {e:?}");
        assert_eq!(e.frame, "<module>");
    }
    // The else-branch: z is 0 there.
    let other = node_where(&s, 8, "x <= 0");
    assert_eq!(ok(&mut s, other, 0, "z > 0").truth, Some(Truth::Never));
    let z = ok(&mut s, other, 0, "z");
    assert_eq!(z.value.as_deref(), Some("0"));
    assert_eq!(z.fixed, Some(Truth::Always));
    assert_eq!(z.here, Ok("0".to_string()));
    assert!(z.verdict().contains("always 0"), "{}", z.verdict());
    // On the then-branch z varies with x, and prints simplified in minipy syntax.
    let z = ok(&mut s, then, 0, "z * 2 - z");
    assert_eq!(z.fixed, Some(Truth::Sometimes));
    assert!(z.value.as_deref().unwrap().contains('x'), "{z:?}");
    assert!(z.summary().contains("varies"), "{}", z.summary());
}

#[test]
fn the_value_under_the_model_is_the_model_panes() {
    let mut s = explored(BRANCHES, None, Config::default());
    for id in at_line(&s, 9) {
        let m = s.engine.try_model(id).unwrap();
        let int = |n: &str| -> num_bigint::BigInt {
            match &m.inputs[n] {
                Value::Int(i) => i.clone(),
                v => panic!("{v:?}"),
            }
        };
        let e = ok(&mut s, id, 0, "w + y * 3");
        let want = s
            .engine
            .model(id)
            .map(|m| m.store["w"].to_string())
            .unwrap();
        let w: num_bigint::BigInt = want.parse().unwrap();
        assert_eq!(
            e.here,
            Ok::<String, crate::engine::NoModel>(
                (w + int("y") * num_bigint::BigInt::from(3)).to_string()
            ),
            "node {id:?}"
        );
        // A boolean's value under the model agrees with its verdict.
        let e = ok(&mut s, id, 0, "w != 10");
        match e.truth {
            Some(Truth::Always) => assert_eq!(e.here, Ok("True".into())),
            Some(Truth::Never) => assert_eq!(e.here, Ok("False".into())),
            _ => assert!(matches!(e.here.as_deref(), Ok("True" | "False"))),
        }
    }
}

#[test]
fn exceptions_the_expression_may_raise() {
    let mut s = explored(BRANCHES, None, Config::default());
    let then = node_where(&s, 8, "x > 0");
    let e = ok(&mut s, then, 0, "t[0] + z");
    assert_eq!(e.ty, Type::Int);
    assert_eq!(e.raises.len(), 1, "{e:?}");
    assert_eq!(e.raises[0].class, ExcClass::IndexError);
    assert_eq!(e.raises[0].truth, Truth::Sometimes);
    assert_eq!(e.raises[0].column, 1);
    assert!(e.value.is_some());
    assert!(
        e.verdict().contains("may raise IndexError"),
        "{}",
        e.verdict()
    );
    // Always raising: division by a zero the path fixes; no value then.
    let other = node_where(&s, 8, "x <= 0");
    let e = ok(&mut s, other, 0, "x // z");
    assert_eq!(e.value, None, "{e:?}");
    assert_eq!(e.truth, None);
    assert_eq!(e.raises[0].class, ExcClass::ZeroDivisionError);
    assert_eq!(e.raises[0].truth, Truth::Always);
    assert_eq!(e.here, Ok("raises ZeroDivisionError".to_string()));
    // Python's short circuit: the index is not read where the left side decides.
    let e = ok(&mut s, then, 0, "len(t) > 0 and t[0] > 0");
    assert!(e.raises.is_empty(), "{e:?}");
    assert_eq!(e.truth, Some(Truth::Sometimes));
    // A division the path makes safe raises nothing.
    let e = ok(&mut s, then, 0, "y // z");
    assert!(e.raises.is_empty(), "{e:?}");
}

#[test]
fn errors_are_messages_never_panics() {
    let mut s = explored(BRANCHES, None, Config::default());
    let then = node_where(&s, 8, "x > 0");
    for (text, want) in [
        ("", "type an expression"),
        ("   ", "type an expression"),
        ("x +", "column"),
        ("q + 1", "cannot find value `q`"),
        ("zz > 1", "cannot find value `zz`"),
        ("x + t", "cannot add `tuple` to `int`"),
        ("x / 2", "not supported in minipy"),
        ("len", "is a function, not a value"),
        ("len(x)", "expected `tuple`"),
        ("print(x)", "print"),
        ("x = 1", "column"),
        ("(", "column"),
    ] {
        let err = s.evaluate(then, 0, text).unwrap_err();
        assert!(err.contains(want), "{text:?}: {err}");
    }
    // No such frame.
    let err = s.evaluate(then, 3, "x").unwrap_err();
    assert!(err.contains("no frame 3 up"), "{err}");
    // A name assigned later in the module: NameError on every input (Python's rule).
    let root = s.tree().root();
    let e = ok(&mut s, root, 0, "w + 1");
    assert_eq!(e.raises[0].class, ExcClass::NameError);
    assert_eq!(e.raises[0].truth, Truth::Always);
}

const FRAMES: &str = "\
@predicate
def pos(v: int) -> bool:
    return v > 0

def f(a: int) -> int:
    b = a * 2
    if b > g:
        c = b - g
        return c
    return 0

g = 5
x: int
r = f(x)
assert r != 3
";

#[test]
fn frames_locals_globals_and_calls() {
    let mut s = explored(FRAMES, None, Config::default());
    let inside = at_line(&s, 7)[0];
    // Frame 0 is f's: its locals, the module's variables and the inputs.
    let e = ok(&mut s, inside, 0, "b == 2 * a");
    assert_eq!(e.frame, "f");
    assert_eq!(e.truth, Some(Truth::Always));
    assert_eq!(ok(&mut s, inside, 0, "b > g").truth, Some(Truth::Sometimes));
    assert_eq!(ok(&mut s, inside, 0, "a == x").truth, Some(Truth::Always));
    assert_eq!(ok(&mut s, inside, 0, "g").fixed, Some(Truth::Always));
    // A local not assigned yet: UnboundLocalError, as in CPython.
    let e = ok(&mut s, inside, 0, "c");
    assert_eq!(e.raises[0].class, ExcClass::UnboundLocalError);
    assert_eq!(e.raises[0].truth, Truth::Always);
    // A module variable assigned after the call returns: NameError.
    let e = ok(&mut s, inside, 0, "r");
    assert_eq!(e.raises[0].class, ExcClass::NameError);
    // Frame 1 is the module's: f's locals are not names there.
    let err = s.evaluate(inside, 1, "a + 1").unwrap_err();
    assert!(err.contains("cannot find value `a`"), "{err}");
    let e = ok(&mut s, inside, 1, "x * 2 > 5");
    assert_eq!(e.frame, "<module>");
    assert_eq!(e.truth, Some(Truth::Sometimes));
    // Predicates may be called; other functions are refused with a reason.
    assert_eq!(
        ok(&mut s, inside, 0, "pos(b) or a <= 0").truth,
        Some(Truth::Always)
    );
    let err = s.evaluate(inside, 1, "f(x) > 0").unwrap_err();
    assert!(err.contains("`f` is not evaluated here"), "{err}");
    assert!(err.contains("@predicate"), "{err}");
    // The same answer twice (the cache), and a different frame is a different question.
    assert_eq!(
        s.evaluate(inside, 0, "b > g"),
        s.evaluate(inside, 0, " b > g ")
    );
}

#[test]
fn at_an_exception_leaf_the_frames_are_those_of_the_raise() {
    let src = "\
def h(t: tuple, i: int) -> int:
    k = i + 1
    return t[k]

u: tuple
j: int
v = h(u, j)
";
    let mut s = explored(src, None, Config::default());
    let leaf = s
        .tree()
        .nodes()
        .find(|n| n.outcome().and_then(Outcome::exception) == Some(ExcClass::IndexError))
        .unwrap()
        .id;
    let e = ok(&mut s, leaf, 0, "k >= len(t) or k < -len(t)");
    assert_eq!(e.frame, "h");
    assert_eq!(e.truth, Some(Truth::Always), "{e:?}");
    let e = ok(&mut s, leaf, 1, "j + 1 >= len(u) or j + 1 < -len(u)");
    assert_eq!(e.frame, "<module>");
    assert_eq!(e.truth, Some(Truth::Always), "{e:?}");
}

#[test]
fn entry_runs_evaluate_in_the_entry_function() {
    let src = "\
def m(p: int, q: int) -> int:
    s = p * q
    if s > 10:
        return 1
    return 0
";
    let mut s = explored(src, Some("m"), Config::default());
    let id = node_where(&s, 4, "p * q > 10");
    let e = ok(&mut s, id, 0, "s > 10");
    assert_eq!(e.frame, "m");
    assert_eq!(e.truth, Some(Truth::Always));
}

#[test]
fn unknown_is_an_answer() {
    // Sums of three cubes: Z3 neither finds 33's (its numbers have 17 digits) nor refutes it.
    let src = "\
a: int
b: int
c: int
pass
";
    let config = Config {
        timeout_ms: Some(300),
        ..Config::default()
    };
    let mut s = explored(src, None, config);
    let id = at_line(&s, 4)[0];
    let e = ok(&mut s, id, 0, "a * a * a + b * b * b + c * c * c == 33");
    assert!(
        matches!(e.truth, Some(Truth::Unknown(_))),
        "the solver cannot know: {e:?}"
    );
    assert!(e.verdict().contains("unknown"), "{}", e.verdict());
}

#[test]
fn conditions_hold_where_the_path_allows() {
    let mut s = explored(BRANCHES, None, Config::default());
    let then = node_where(&s, 8, "x > 0");
    let other = node_where(&s, 8, "x <= 0");
    assert_eq!(s.condition_at(then, "z > 3"), CondHolds::Holds);
    assert_eq!(s.condition_at(other, "z > 3"), CondHolds::Never);
    // Raising counts as not holding.
    assert_eq!(s.condition_at(other, "x // z > 0"), CondHolds::Never);
    assert!(matches!(s.condition_at(then, "zz > 3"), CondHolds::Error(m) if m.contains("zz")));
    assert!(matches!(s.condition_at(then, "z + 1"), CondHolds::Error(m) if m.contains("not bool")));
    // Which function a line is in, for checking a condition when it is set.
    let s = explored(FRAMES, None, Config::default());
    assert_eq!(s.function_at_line(6).as_deref(), Some("f"));
    assert_eq!(s.function_at_line(14), None);
    assert!(s.check_condition(7, "b > a").is_ok());
    assert!(s.check_condition(14, "b > a").unwrap_err().contains("`b`"));
    assert!(s.check_condition(14, "x + 1").unwrap_err().contains("bool"));
}

#[test]
fn an_interrupted_answer_says_so_and_is_not_kept() {
    // The sums of three cubes again, interrupted by another thread (Esc in the TUI).
    let src = "a: int\nb: int\nc: int\npass\n";
    let config = Config {
        timeout_ms: Some(1_500),
        ..Config::default()
    };
    let mut s = explored(src, None, config);
    let id = at_line(&s, 4)[0];
    let hard = "a * a * a + b * b * b + c * c * c == 33";
    let cancel = s.engine.cancel_handle();
    let interrupt = |ms| {
        let flag = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(ms));
            flag.store(true, Ordering::Relaxed);
        })
    };
    let t = interrupt(200);
    let e = ok(&mut s, id, 0, hard);
    t.join().unwrap();
    let interrupted = Truth::Unknown(crate::solver::Unknown::Interrupted);
    assert_eq!(e.truth, Some(interrupted), "{e:?}");
    // Not kept: asked again (flag cleared, as the worker does) it runs to the timeout.
    cancel.store(false, Ordering::Relaxed);
    let e = ok(&mut s, id, 0, hard);
    assert!(
        matches!(&e.truth, Some(Truth::Unknown(r)) if *r != crate::solver::Unknown::Interrupted),
        "{e:?}"
    );
    // The same for a breakpoint condition.
    let t = interrupt(200);
    let c = s.condition_at(id, &format!("{hard} and a > 1"));
    t.join().unwrap();
    assert_eq!(c, CondHolds::Undecided(crate::solver::Unknown::Interrupted));
    cancel.store(false, Ordering::Relaxed);
    assert!(matches!(
        s.condition_at(id, &format!("{hard} and a > 1")),
        CondHolds::Undecided(r) if r != crate::solver::Unknown::Interrupted
    ));
}

#[test]
fn random_text_never_panics() {
    // Token soup (with non-ASCII names, quotes, Python constructs minipy lacks) at a node
    // inside a call and at the module level: an answer or a message, never a panic.
    const TOKENS: &[&str] = &[
        "x", "z", "t", "a", "b", "g", "pos", "f", "(", ")", "[", "]", "+", "-", "*", "//", "%",
        "<", "==", "!=", "and", "or", "not", "len", "abs", "min", "all", "any", "for", "in",
        "range", ",", "1", "0", "-3", "True", "None", "ä", "'s'", ":", "lambda", "if", "else",
        "**", "/", ".", "=", "x[0]", "(1, 2)", "()", "$1",
    ];
    let mut s = explored(FRAMES, None, Config::default());
    let inside = at_line(&s, 7)[0];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut answers, mut errors) = (0, 0);
    for _ in 0..400 {
        let n = 1 + next() % 7;
        let text: Vec<&str> = (0..n)
            .map(|_| TOKENS[(next() % TOKENS.len() as u64) as usize])
            .collect();
        let text = text.join(" ");
        let up = (next() % 3) as usize;
        match s.evaluate(inside, up, &text) {
            Ok(e) => {
                answers += 1;
                assert_eq!(e.expr, text.trim());
                for r in &e.raises {
                    assert!(r.column >= 1 && r.column <= text.chars().count() + 1);
                }
            }
            Err(m) => {
                errors += 1;
                assert!(!m.is_empty());
            }
        }
    }
    assert!(
        answers > 3 && errors > 100,
        "{answers} answers, {errors} errors"
    );
}
