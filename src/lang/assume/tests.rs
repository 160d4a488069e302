use super::*;
use crate::base::span::{assumption_of_offset, VIRTUAL_BASE};

const SRC: &str = "\
N = 3
x: int
t: tuple
@predicate
def pos(v: int) -> bool:
    return v > 0
def f(a: int, u: tuple) -> int:
    r = a + N
    return r
y = f(x, t)
";

fn apply_to(entry: Option<&str>, texts: &[&str]) -> Result<Program, Vec<Diagnostic>> {
    let program = crate::lang::parse(SRC).unwrap();
    let texts: Vec<String> = texts.iter().map(|s| s.to_string()).collect();
    apply(&program, entry, &texts).map(|(p, _)| p)
}

fn messages(entry: Option<&str>, texts: &[&str]) -> Vec<String> {
    apply_to(entry, texts)
        .unwrap_err()
        .into_iter()
        .map(|d| d.message)
        .collect()
}

#[test]
fn preconditions_get_virtual_spans_and_leave_the_body_alone() {
    let p = apply_to(None, &["x > 0", "pos(x) and len(t) < 3"]).unwrap();
    let original = crate::lang::parse(SRC).unwrap();
    assert_eq!(p.body, original.body);
    assert_eq!(p.preconditions.len(), 2);
    let s = &p.preconditions[1];
    assert!(s.span.start >= VIRTUAL_BASE);
    assert_eq!(assumption_of_offset(s.span.start), Some((2, 0)));
    let StmtKind::Assume(e) = &s.kind else {
        panic!("{s:?}")
    };
    // Every span inside the expression is in #2's text: `len` is at byte 11.
    let mut spans = Vec::new();
    visit(e, &mut |x| spans.push(x.span));
    assert!(spans
        .iter()
        .all(|sp| assumption_of_offset(sp.start).is_some_and(|(k, _)| k == 2)));
    assert!(spans
        .iter()
        .any(|sp| assumption_of_offset(sp.start) == Some((2, 11))));
}

#[test]
fn module_runs_may_mention_inputs_functions_and_predicates() {
    assert!(apply_to(None, &["x > 0 and all(t[k] > x for k in range(len(t)))"]).is_ok());
    assert!(apply_to(None, &["pos(x)", "f(x, t) > 0"]).is_ok());
    let m = messages(None, &["N > 0"]);
    assert!(m[0].contains("`N` is not an input"), "{m:?}");
    let m = messages(None, &["zz > 0", "x > w"]);
    assert_eq!(m.len(), 2, "{m:?}");
    assert!(m[0].contains("unknown name `zz` in --assume #1"), "{m:?}");
    assert!(m[1].contains("unknown name `w` in --assume #2"), "{m:?}");
}

#[test]
fn entry_runs_see_the_parameters_and_the_module_variables() {
    assert!(apply_to(Some("f"), &["a > N and len(u) == 2"]).is_ok());
    let m = messages(Some("f"), &["x > 0"]);
    assert!(m[0].contains("`x` is a module input"), "{m:?}");
    let m = messages(Some("f"), &["r > 0"]);
    assert!(m[0].contains("`r` is a local variable of `f`"), "{m:?}");
    let m = messages(Some("pos"), &["v > 0"]);
    assert!(m[0].contains("@predicate"), "{m:?}");
    let m = messages(Some("nope"), &["v > 0"]);
    assert!(m[0].contains("no function `nope`"), "{m:?}");
}

#[test]
fn malformed_and_ill_typed_expressions_are_located_in_the_expression() {
    for (text, what, at) in [
        ("", "is empty", 0),
        ("a >", "expected an expression", 3),
        ("x +", "expected an expression", 3),
        ("x + 1", "", 0),
        ("t", "", 0),
        ("x > 0\ny > 0", "several lines", 5),
        ("x / 2 > 0", "", 2),
        ("pos(t)", "", 4),
    ] {
        let d = apply_to(None, &["x > 1", text]).unwrap_err();
        assert!(!d.is_empty(), "{text:?}");
        assert!(d[0].message.contains(what), "{text:?}: {d:?}");
        let (k, rel) = assumption_of_offset(d[0].span.unwrap().start).expect("located");
        assert_eq!((k, rel), (2, at), "{text:?}: {d:?}");
    }
}

#[test]
fn no_assumptions_is_the_program_itself() {
    let program = crate::lang::parse(SRC).unwrap();
    let (p, _) = apply(&program, Some("f"), &[]).unwrap();
    assert_eq!(p, program);
}
