//! Unit tests of the term limits: integer size, depth, printing caps, sharing.

use std::collections::BTreeSet;

use super::*;

fn x() -> Term {
    Term::var(Sym::new("x", Sort::Int))
}
fn y() -> Term {
    Term::var(Sym::new("y", Sort::Int))
}

#[test]
fn products_of_huge_constants_are_not_folded() {
    let mut v = Term::int(2);
    for _ in 0..17 {
        v = Term::mul(v.clone(), v);
    }
    // 2^(2^17): folded, within the limit.
    assert_eq!(v.as_int().unwrap().bits(), (1 << 17) + 1);
    assert!(v.limit_exceeded().is_none());
    let w = Term::mul(v.clone(), v.clone());
    assert!(w.as_int().is_some() && w.too_large());
    // Past the limit: never multiplied or divided again, and flagged.
    let z = Term::mul(w.clone(), w.clone());
    assert!(
        z.as_int().is_none(),
        "a product of huge constants stays a term"
    );
    assert!(z.limit_exceeded().unwrap().contains("integer too large"));
    assert!(Term::floor_div(w.clone(), Term::int(3)).as_int().is_none());
    assert!(Term::modulo(w.clone(), Term::int(3)).as_int().is_none());
    // The flag spreads to every term built on it.
    assert!(Term::lt(Term::add(x(), z), y()).too_large());
}

#[test]
fn depth_and_size_are_cached() {
    let mut t = x();
    for _ in 0..30_000 {
        t = Term::add(Term::mul(t, y()), Term::int(1));
    }
    assert!(t.depth() > MAX_TERM_DEPTH);
    assert!(t.limit_exceeded().unwrap().contains("too deep"));
    assert_eq!(t.tree_size(), 1 + 30_000 * 4);
    // Printing is capped, and dropping such a term does not recurse (this thread has the
    // test harness's small stack).
    assert!(t.to_string().starts_with("…(term too large to print"));
    assert!(t.to_smt2().starts_with("…(term too large to print"));
    drop(t);
}

#[test]
fn shared_subterms_print_once_in_smt2() {
    // z = z // y, 40 times: a tree of 2^40 nodes, a DAG of a few hundred.
    let mut z = Term::add(x(), Term::int(1));
    for _ in 0..40 {
        z = Term::add(Term::floor_div(z.clone(), y()), Term::modulo(z, y()));
    }
    let text = z.to_smt2();
    assert!(text.len() < 20_000, "{} bytes", text.len());
    assert!(text.starts_with("(let (("), "{}", &text[..100]);
    // Balanced parentheses; every name bound before use.
    let opens = text.matches('(').count();
    assert_eq!(opens, text.matches(')').count());
    let mut vars = BTreeSet::new();
    z.vars(&mut vars);
    assert_eq!(vars.len(), 2);
    assert!(z.to_string().contains("term too large to print"));
    // Small terms print as before, without `let`.
    assert_eq!(
        Term::floor_div(x(), y()).to_smt2(),
        "(ite (> y 0) (div x y) (div (- x) (- y)))"
    );
    // A shared compound is named once.
    let s = Term::add(x(), Term::int(1));
    assert_eq!(
        Term::min(s.clone(), y()).to_smt2(),
        "(let ((?t1 (+ x 1))) (ite (<= ?t1 y) ?t1 y))"
    );
}

#[test]
fn subterms_under_a_quantifier_variable_stay_inside() {
    let k = Sym::new("k", Sort::Int);
    let kk = Term::add(Term::var(k.clone()), Term::int(1));
    let body = Term::lt(Term::min(kk.clone(), x()), y());
    let q = Term::forall(k, Term::int(0), y(), body);
    let text = q.to_smt2();
    // `(+ k 1)` mentions the bound `k`: written in place, never hoisted by a `let`.
    assert!(!text.contains("let"), "{text}");
    assert_eq!(text.matches("(+ k 1)").count(), 2, "{text}");
}

#[test]
fn a_long_tuple_is_shown_by_its_length_and_named_elements_never_evaluated() {
    use super::model::LongTuple;
    let big = |s: &str| s.parse::<num_bigint::BigInt>().unwrap();
    let n = big("4294967297");
    let t = LongTuple::new(
        n.clone(),
        vec![(big("4294967296"), big("5"))],
        Some(big("0")),
    );
    assert_eq!(t.to_string(), "(0, …, 0, 5) (len 4294967297)");
    // Positions outside the tuple and repeats are dropped; short gaps are written out.
    let t = LongTuple::new(
        big("3"),
        vec![
            (big("1"), big("7")),
            (big("1"), big("8")),
            (big("9"), big("1")),
        ],
        Some(big("0")),
    );
    assert_eq!(t.to_string(), "(0, 7, 0) (len 3)");
    // Unknown other elements: not shown, never a guess (an ellipsis reads as defaults).
    let t = LongTuple::new(big("1000000000000000000001"), Vec::new(), None);
    assert_eq!(
        t.describe("t"),
        "t: len 1000000000000000000001, elements not shown"
    );
    let t = LongTuple::new(
        big("1000000000000000000001"),
        vec![(big("7"), big("2"))],
        None,
    );
    assert_eq!(
        t.describe("t"),
        "t: len 1000000000000000000001, t[7] = 2, other elements not shown"
    );
    // A model holding one: terms that read it have no value, and it is named.
    let s = Sym::new("t", Sort::Seq);
    let mut m = Model::default();
    m.long
        .insert(s.clone(), LongTuple::new(n, Vec::new(), Some(big("0"))));
    assert_eq!(m.eval(&Term::len(Term::var(s.clone()))), None);
    assert_eq!(
        m.too_large([&s]).as_deref(),
        Some("model too large: t = (0, …, 0) (len 4294967297)")
    );
    // Every input's value and each κ are named; auxiliary symbols are not.
    let x = Sym::new("x", Sort::Int);
    let kappa = Sym::new("k@1", Sort::Int);
    let aux = Sym::new("i!1", Sort::Int);
    let u = Sym::new("u", Sort::Seq);
    m.values
        .insert(x.clone(), crate::concrete::Value::Int(big("-4")));
    m.values
        .insert(kappa.clone(), crate::concrete::Value::Int(big("12")));
    m.values
        .insert(aux.clone(), crate::concrete::Value::Int(big("3")));
    m.values.insert(
        u.clone(),
        crate::concrete::Value::tuple((0..20).map(num_bigint::BigInt::from).collect()),
    );
    assert_eq!(
        m.too_large([&kappa, &aux, &s, &u, &x]).as_deref(),
        Some(
            "model too large: t = (0, …, 0) (len 4294967297), u: len 20, first elements \
             0, 1, 2, 3, 4, 5, 6, 7, other elements not shown, x = -4, κ1 = 12"
        )
    );
    // Without a long tuple among them, the model is not too large.
    assert_eq!(m.too_large([&x, &kappa]), None);
}
