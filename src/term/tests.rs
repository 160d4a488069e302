//! Unit tests of the term language: simplification, printing, SMT-LIB text.

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeSet, HashMap};
use std::hash::{Hash, Hasher};

use super::*;
use crate::lang::ast::CmpOp;

fn int(i: i64) -> Term {
    Term::int(i)
}
fn x() -> Term {
    Term::var(Sym::new("x", Sort::Int))
}
fn y() -> Term {
    Term::var(Sym::new("y", Sort::Int))
}
fn b() -> Term {
    Term::var(Sym::new("b", Sort::Bool))
}
fn c() -> Term {
    Term::var(Sym::new("c", Sort::Bool))
}
fn t() -> Term {
    Term::var(Sym::new("t", Sort::Seq))
}
fn k() -> Sym {
    Sym::new("k", Sort::Int)
}

#[track_caller]
fn shows(term: Term, text: &str) {
    assert_eq!(term.to_string(), text);
}

#[test]
fn constants_fold_with_python_semantics() {
    shows(Term::floor_div(int(-7), int(2)), "-4");
    shows(Term::modulo(int(-7), int(2)), "1");
    shows(Term::floor_div(int(7), int(-2)), "-4");
    shows(Term::modulo(int(1), int(-2)), "-1");
    // Division by zero is not folded: the term stays, the engine guards it.
    shows(Term::floor_div(int(1), int(0)), "1 // 0");
    shows(Term::modulo(x(), int(0)), "x % 0");
    shows(Term::add(int(2), int(3)), "5");
    shows(Term::mul(int(-2), int(3)), "-6");
    shows(Term::abs(int(-4)), "4");
    shows(Term::min(int(3), int(-2)), "-2");
    shows(Term::max(int(3), int(-2)), "3");
    shows(Term::lt(int(1), int(2)), "True");
    shows(Term::eq(int(1), int(2)), "False");
}

#[test]
fn arithmetic_identities() {
    shows(Term::add(x(), int(0)), "x");
    shows(Term::add(int(0), x()), "x");
    shows(Term::mul(x(), int(1)), "x");
    shows(Term::mul(int(0), x()), "0");
    shows(Term::mul(int(-1), x()), "-x");
    shows(Term::neg(Term::neg(x())), "x");
    shows(Term::sub(x(), x()), "0");
    shows(Term::sub(int(0), x()), "-x");
    shows(Term::floor_div(x(), int(1)), "x");
    shows(Term::floor_div(x(), int(-1)), "-x");
    shows(Term::modulo(x(), int(-1)), "0");
    shows(Term::abs(Term::neg(x())), "abs(x)");
    shows(Term::abs(Term::abs(x())), "abs(x)");
    shows(Term::min(x(), x()), "x");
    // Constant offsets collect on the right.
    shows(Term::sub(Term::sub(x(), int(1)), int(1)), "x - 2");
    shows(Term::add(Term::sub(x(), int(1)), int(1)), "x");
    shows(Term::add(x(), int(-3)), "x - 3");
    shows(Term::sub(x(), int(-3)), "x + 3");
    shows(Term::add(int(1), Term::add(x(), int(2))), "x + 3");
    shows(Term::add(int(1), x()), "x + 1");
    shows(Term::add(x(), Term::neg(y())), "x - y");
    shows(Term::sub(x(), Term::neg(y())), "x + y");
}

/// The rewrites that let Z3 verify product.py (`(r * e) % e == 0`): each is Python's
/// arithmetic for every divisor but 0, where evaluation raises before using the value.
#[test]
fn multiples_and_remainders() {
    shows(Term::modulo(Term::mul(x(), y()), y()), "0");
    shows(Term::modulo(Term::mul(y(), x()), y()), "0");
    shows(Term::modulo(Term::neg(Term::mul(x(), y())), y()), "0");
    shows(Term::modulo(y(), y()), "0");
    shows(Term::modulo(Term::modulo(x(), y()), y()), "x % y");
    shows(Term::floor_div(Term::mul(x(), y()), y()), "x");
    shows(Term::floor_div(Term::mul(y(), x()), y()), "x");
    // Not a multiple: left alone.
    shows(Term::modulo(Term::add(x(), y()), y()), "(x + y) % y");
    shows(Term::floor_div(Term::mul(x(), y()), x()), "y");
    use crate::semantics::{floor_div, floor_mod};
    use num_bigint::BigInt;
    for a in -12i64..=12 {
        for d in (-7i64..=7).filter(|&d| d != 0) {
            let (a, d) = (BigInt::from(a), BigInt::from(d));
            let m = floor_mod(&a, &d).unwrap();
            assert_eq!(floor_mod(&(&a * &d), &d).unwrap(), BigInt::from(0));
            assert_eq!(floor_mod(&(-(&a * &d)), &d).unwrap(), BigInt::from(0));
            assert_eq!(floor_mod(&m, &d).unwrap(), m);
            assert_eq!(floor_div(&(&a * &d), &d).unwrap(), a);
        }
    }
}

#[test]
fn boolean_simplification() {
    shows(Term::not(Term::not(b())), "b");
    shows(Term::not(Term::lt(x(), int(0))), "x >= 0");
    shows(Term::not(Term::eq(x(), y())), "x != y");
    shows(Term::and(Term::bool(true), b()), "b");
    shows(Term::and(b(), Term::bool(false)), "False");
    shows(Term::or(b(), Term::bool(true)), "True");
    shows(Term::or(Term::bool(false), b()), "b");
    shows(Term::and(b(), b()), "b");
    shows(Term::and(b(), Term::not(b())), "False");
    shows(Term::or(b(), Term::not(b())), "True");
    shows(
        Term::and(Term::lt(x(), int(0)), Term::ge(x(), int(0))),
        "False",
    );
    // Flattening.
    let abc = Term::and(Term::and(b(), c()), Term::gt(x(), int(0)));
    assert!(matches!(abc.kind(), TermKind::And(v) if v.len() == 3));
    shows(abc, "b and c and x > 0");
    shows(Term::and_all(Vec::new()), "True");
    shows(Term::or_all(Vec::new()), "False");
    shows(Term::implies(b(), c()), "not b or c");
    // Bool equalities with constants.
    shows(Term::eq(b(), Term::bool(true)), "b");
    shows(Term::eq(Term::bool(false), b()), "not b");
    shows(Term::ne(b(), Term::bool(true)), "not b");
    shows(Term::ne(b(), Term::bool(false)), "b");
    shows(Term::eq(x(), x()), "True");
    shows(Term::lt(x(), x()), "False");
    shows(Term::eq(t(), t()), "True");
    shows(Term::ne(b(), b()), "False");
}

#[test]
fn ite_simplification() {
    shows(Term::ite(Term::bool(true), x(), y()), "x");
    shows(Term::ite(Term::bool(false), x(), y()), "y");
    shows(Term::ite(b(), x(), x()), "x");
    shows(Term::ite(Term::not(b()), x(), y()), "(y if b else x)");
    shows(Term::ite(b(), Term::bool(true), Term::bool(false)), "b");
    shows(Term::ite(b(), Term::bool(false), Term::bool(true)), "not b");
    shows(Term::ite(b(), Term::bool(true), c()), "b or c");
    shows(Term::ite(b(), c(), Term::bool(false)), "b and c");
    shows(Term::ite(b(), Term::bool(false), c()), "not b and c");
    shows(Term::ite(b(), c(), Term::bool(true)), "not b or c");
    shows(
        Term::add(Term::ite(b(), x(), y()), int(1)),
        "(x if b else y) + 1",
    );
}

#[test]
fn tuples_len_and_index() {
    let tup = Term::tuple(vec![int(1), x()]);
    shows(tup.clone(), "(1, x)");
    shows(Term::tuple(vec![]), "()");
    shows(Term::tuple(vec![x()]), "(x,)");
    let cat = Term::concat(tup.clone(), t());
    shows(cat.clone(), "(1, x) + t");
    shows(
        Term::concat(Term::concat(t(), tup.clone()), t()),
        "t + (1, x) + t",
    );
    shows(Term::concat(Term::seq_empty(), t()), "t");
    shows(Term::concat(t(), Term::seq_empty()), "t");
    // Concatenation nests as it is built (an append is one node, not a copy of the
    // spine); the parts are the same either way.
    let left = Term::concat(Term::concat(tup.clone(), t()), t());
    let right = Term::concat(tup.clone(), Term::concat(t(), t()));
    assert_eq!(super::segments(&left), super::segments(&right));
    assert_eq!(left.to_string(), right.to_string());
    shows(Term::len(tup.clone()), "2");
    shows(Term::len(cat.clone()), "len(t) + 2");
    shows(Term::len(Term::concat(t(), t())), "len(t) + len(t)");
    shows(Term::index(tup.clone(), int(1)), "x");
    shows(Term::index(tup.clone(), int(-2)), "1");
    shows(Term::index(tup.clone(), int(2)), "(1, x)[2]");
    shows(Term::index(cat.clone(), int(0)), "1");
    shows(Term::index(cat.clone(), int(2)), "((1, x) + t)[2]");
    shows(Term::index(cat.clone(), int(-1)), "((1, x) + t)[-1]");
    shows(Term::index(Term::concat(t(), tup.clone()), int(-1)), "x");
    shows(Term::index(t(), y()), "t[y]");
    shows(Term::in_bounds(t(), y()), "-len(t) <= y and y < len(t)");
    shows(Term::in_bounds(t(), int(0)), "0 < len(t)");
    shows(Term::in_bounds(t(), int(-2)), "len(t) >= 2");
    shows(Term::in_bounds(tup.clone(), int(-2)), "True");
    shows(Term::in_bounds(tup.clone(), int(2)), "False");
    shows(Term::in_bounds(tup.clone(), x()), "-2 <= x and x < 2");
    // Equalities of tuple displays.
    shows(
        Term::eq(Term::tuple(vec![int(1)]), Term::tuple(vec![int(1)])),
        "True",
    );
    shows(
        Term::ne(Term::tuple(vec![int(1)]), Term::tuple(vec![int(2)])),
        "True",
    );
    shows(Term::eq(tup.clone(), Term::tuple(vec![x()])), "False");
    shows(Term::eq(t(), tup.clone()), "t == (1, x)");
    assert_eq!(
        Term::tuple(vec![int(1), int(-2)]).as_tuple(),
        Some(vec![1.into(), (-2).into()])
    );
    assert_eq!(tup.as_tuple(), None);
    assert_eq!(
        Term::from_value(&Value::tuple(vec![3.into()])),
        Term::tuple(vec![int(3)])
    );
}

#[test]
fn minimal_parentheses() {
    shows(
        Term::lt(Term::add(x(), int(1)), Term::len(t())),
        "x + 1 < len(t)",
    );
    shows(Term::mul(Term::add(x(), y()), int(2)), "(x + y) * 2");
    shows(Term::sub(x(), Term::sub(y(), b_int())), "x - (y - z)");
    shows(Term::sub(Term::sub(x(), y()), b_int()), "x - y - z");
    shows(
        Term::floor_div(x(), Term::mul(y(), b_int())),
        "x // (y * z)",
    );
    shows(Term::mul(Term::floor_div(x(), y()), b_int()), "x // y * z");
    shows(Term::neg(Term::add(x(), y())), "-(x + y)");
    shows(Term::mul(int(-2), x()), "-2 * x");
    shows(Term::mul(x(), int(-2)), "x * -2");
    shows(Term::not(Term::and(b(), c())), "not (b and c)");
    shows(
        Term::and(Term::or(b(), c()), Term::not(b())),
        "(b or c) and not b",
    );
    shows(
        Term::or(Term::and(b(), c()), Term::not(c())),
        "b and c or not c",
    );
    shows(Term::eq(Term::lt(x(), y()), b()), "(x < y) == b");
    shows(Term::eq(Term::not(b()), c()), "(not b) == c");
    shows(Term::abs(Term::sub(x(), y())), "abs(x - y)");
    shows(Term::max(x(), Term::min(y(), int(0))), "max(x, min(y, 0))");
    shows(Term::index(t(), Term::add(y(), int(1))), "t[y + 1]");
    shows(Term::neg(Term::index(t(), int(0))), "-t[0]");
    shows(Term::not(b()), "not b");
    shows(Term::and(Term::not(b()), c()), "not b and c");
}

fn b_int() -> Term {
    Term::var(Sym::new("z", Sort::Int))
}

#[test]
fn quantifiers() {
    let i = Term::var(Sym::new("i", Sort::Int));
    let body = Term::ge(Term::index(t(), Term::var(k())), int(0));
    let all = Term::forall(k(), int(0), i.clone(), body.clone());
    shows(all.clone(), "all(t[k] >= 0 for k in range(0, i))");
    shows(
        Term::exists(k(), int(1), Term::len(t()), body.clone()),
        "any(t[k] >= 0 for k in range(1, len(t)))",
    );
    shows(Term::forall(k(), int(3), int(3), body.clone()), "True");
    shows(Term::exists(k(), int(3), int(1), body.clone()), "False");
    shows(
        Term::forall(k(), int(0), i.clone(), Term::bool(true)),
        "True",
    );
    shows(
        Term::not(all.clone()),
        "not all(t[k] >= 0 for k in range(0, i))",
    );
    // `k` is bound: only `t` and `i` are free.
    let mut vs = BTreeSet::new();
    all.vars(&mut vs);
    let names: Vec<&str> = vs.iter().map(|s| &*s.name).collect();
    assert_eq!(names, ["i", "t"]);
    // ... but a `k` in the bounds is free.
    let mut vs = BTreeSet::new();
    Term::forall(k(), Term::var(k()), int(5), body).vars(&mut vs);
    assert!(vs.contains(&k()));
}

#[test]
fn vars_collects_free_symbols() {
    let term = Term::and(
        Term::lt(Term::add(x(), int(1)), Term::len(t())),
        Term::ite(b(), Term::bool(true), Term::eq(y(), int(0))),
    );
    let mut vs = BTreeSet::new();
    term.vars(&mut vs);
    let names: Vec<&str> = vs.iter().map(|s| &*s.name).collect();
    assert_eq!(names, ["b", "t", "x", "y"]);
}

#[test]
fn structural_equality_and_hash() {
    let a = Term::lt(Term::add(x(), int(1)), Term::len(t()));
    let a2 = Term::lt(Term::add(x(), int(1)), Term::len(t()));
    assert_eq!(a, a2);
    let h = |t: &Term| {
        let mut s = DefaultHasher::new();
        t.hash(&mut s);
        s.finish()
    };
    assert_eq!(h(&a), h(&a2));
    assert_ne!(a, Term::le(Term::add(x(), int(1)), Term::len(t())));
    // A variable's sort is part of its identity.
    assert_ne!(
        Term::var(Sym::new("x", Sort::Int)),
        Term::var(Sym::new("x", Sort::Bool))
    );
    let mut m = HashMap::new();
    m.insert(a, 1);
    assert_eq!(m.get(&a2), Some(&1));
}

#[test]
fn sorts() {
    assert_eq!(Term::len(t()).sort(), Sort::Int);
    assert_eq!(Term::ite(b(), t(), Term::seq_empty()).sort(), Sort::Seq);
    assert_eq!(Term::lt(x(), y()).sort(), Sort::Bool);
    assert_eq!(Sort::of_type(Type::Tuple), Sort::Seq);
    assert_eq!(Sort::Bool.to_type(), Type::Bool);
}

#[test]
fn smt2_text() {
    let y2 = Term::lt(Term::mul(int(2), y()), int(0));
    assert_eq!(y2.to_smt2(), "(< (* 2 y) 0)");
    assert_eq!(Term::neg(Term::mul(int(2), y())).to_smt2(), "(- (* 2 y))");
    assert_eq!(int(-3).to_smt2(), "(- 3)");
    assert_eq!(
        Term::floor_div(x(), y()).to_smt2(),
        "(ite (> y 0) (div x y) (div (- x) (- y)))"
    );
    assert_eq!(
        Term::modulo(x(), y()).to_smt2(),
        "(ite (> y 0) (mod x y) (- (mod (- x) (- y))))"
    );
    assert_eq!(Term::floor_div(x(), int(3)).to_smt2(), "(div x 3)");
    assert_eq!(Term::floor_div(x(), int(-3)).to_smt2(), "(div (- x) 3)");
    assert_eq!(Term::modulo(x(), int(-3)).to_smt2(), "(- (mod (- x) 3))");
    assert_eq!(
        Term::index(t(), y()).to_smt2(),
        "(seq.nth t (ite (< y 0) (+ y (seq.len t)) y))"
    );
    assert_eq!(Term::index(t(), int(2)).to_smt2(), "(seq.nth t 2)");
    assert_eq!(
        Term::index(t(), int(-1)).to_smt2(),
        "(seq.nth t (- (seq.len t) 1))"
    );
    assert_eq!(
        Term::eq(Term::concat(Term::tuple(vec![int(1), x()]), t()), t()).to_smt2(),
        "(= (seq.++ (seq.unit 1) (seq.unit x) t) t)"
    );
    assert_eq!(Term::seq_empty().to_smt2(), "(as seq.empty (Seq Int))");
    assert_eq!(Term::ne(b(), c()).to_smt2(), "(not (= b c))");
    assert_eq!(
        Term::and(Term::not(b()), Term::ge(x(), int(0))).to_smt2(),
        "(and (not b) (>= x 0))"
    );
    assert_eq!(Term::min(x(), y()).to_smt2(), "(ite (<= x y) x y)");
    assert_eq!(Term::abs(x()).to_smt2(), "(abs x)");
    let body = Term::ge(Term::index(t(), Term::var(k())), int(0));
    assert_eq!(
        Term::forall(k(), int(0), y(), body.clone()).to_smt2(),
        "(forall ((k Int)) (=> (and (<= 0 k) (< k y)) (>= (seq.nth t (ite (< k 0) (+ k (seq.len t)) k)) 0)))"
    );
    assert_eq!(
        Term::exists(k(), int(0), y(), Term::eq(Term::var(k()), x())).to_smt2(),
        "(exists ((k Int)) (and (and (<= 0 k) (< k y)) (= k x)))"
    );
    assert_eq!(
        Term::cmp(
            CmpOp::Eq,
            Term::var(Sym::new("div", Sort::Int)),
            Term::var(Sym::new("x!1", Sort::Int))
        )
        .to_smt2(),
        "(= |div| x!1)"
    );
}

#[test]
fn smt2_declarations_text() {
    let mut syms = BTreeSet::new();
    Term::and(Term::lt(y(), Term::len(t())), b()).vars(&mut syms);
    assert_eq!(
        smt2_declarations(&syms),
        "(declare-const b Bool)\n(declare-const t (Seq Int))\n(declare-const y Int)"
    );
    assert_eq!(smt2_declarations(&BTreeSet::new()), "");
    assert_eq!(smt2::symbol("true"), "|true|");
    assert_eq!(smt2::symbol("état"), "|état|");
    assert_eq!(smt2::symbol("_x1"), "_x1");
}

#[test]
fn vars_of_small_and_large_terms_leave_out_bound_variables() {
    let i = Sym::new("i", Sort::Int);
    let iv = Term::var(i.clone());
    // x + i > 0 and forall i in [0, len(t)): t[i] > i (i free outside, bound inside)
    let q = Term::forall(
        i.clone(),
        int(0),
        Term::len(t()),
        Term::gt(Term::index(t(), iv.clone()), iv.clone()),
    );
    let small = Term::and(Term::gt(Term::add(x(), iv.clone()), int(0)), q.clone());
    let names = |term: &Term| {
        let mut vs = BTreeSet::new();
        term.vars(&mut vs);
        vs.iter().map(|s| s.name.to_string()).collect::<Vec<_>>()
    };
    assert_eq!(names(&small), ["i", "t", "x"]);
    assert_eq!(names(&q), ["t"]);
    // The same shapes past the small-term size: the work list gives the same sets.
    let mut big = Term::add(x(), iv.clone());
    for k in 0..70 {
        big = Term::add(big, Term::var(Sym::new(&format!("v{k}"), Sort::Int)));
    }
    assert!(big.tree_size() > 64);
    let with_q = Term::and(Term::gt(big, int(0)), q);
    let got = names(&with_q);
    assert_eq!(got.len(), 73);
    assert!(got.contains(&"i".to_string()) && got.contains(&"t".to_string()));
    assert!(names(&Term::forall(i, int(0), int(5), Term::gt(iv, x()))) == ["x"]);
}

/// `and`/`or` of more parts than are compared pairwise (`SMALL_JUNCTION`) deduplicate
/// and find complements the same way: first occurrences kept in order, `t` with its
/// complement (a negated comparison or `not t`) anywhere is `False`/`True`.
#[test]
fn long_junctions_deduplicate_and_find_complements() {
    for n in [2i64, 8, 9, 12] {
        let parts: Vec<Term> = (0..n).map(|i| Term::gt(x(), int(i))).collect();
        // Each part twice, interleaved.
        let twice: Vec<Term> = parts.iter().chain(&parts).cloned().collect();
        let all = Term::and_all(twice.clone());
        assert!(
            matches!(all.kind(), TermKind::And(v) if *v == parts),
            "{all}"
        );
        let any = Term::or_all(twice.clone());
        assert!(
            matches!(any.kind(), TermKind::Or(v) if *v == parts),
            "{any}"
        );
        // The complement of the last part, at the end: `x <= n - 1`.
        let mut with = twice.clone();
        with.push(Term::not(parts[n as usize - 1].clone()));
        shows(Term::and_all(with.clone()), "False");
        shows(Term::or_all(with), "True");
        // `not b` first, `b` last.
        let mut with = vec![Term::not(b())];
        with.extend(twice);
        with.push(b());
        shows(Term::and_all(with.clone()), "False");
        shows(Term::or_all(with), "True");
    }
}

/// A term knows whether it holds a quantifier anywhere below it.
#[test]
fn terms_know_whether_they_hold_a_quantifier() {
    let i = Term::var(k());
    let body = Term::gt(Term::index(t(), i.clone()), int(0));
    let all = Term::forall(k(), int(0), x(), body.clone());
    assert!(all.has_quantifier());
    assert!(Term::and(Term::not(all), Term::gt(y(), int(0))).has_quantifier());
    assert!(!body.has_quantifier());
    assert!(!Term::and(b(), Term::lt(x(), y())).has_quantifier());
}
