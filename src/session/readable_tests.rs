use std::collections::BTreeMap;

use num_bigint::BigInt;
use proptest::prelude::*;

use super::*;
use crate::concrete::Value;
use crate::term::{Model, Sym};

fn int(name: &str) -> Term {
    Term::var(Sym::new(name, Sort::Int))
}
fn tup(name: &str) -> Term {
    Term::var(Sym::new(name, Sort::Seq))
}
fn n(k: i64) -> Term {
    Term::int(k)
}
fn len(t: &Term) -> Term {
    Term::len(t.clone())
}
fn texts(pc: &[Term]) -> Vec<String> {
    show_all(pc).into_iter().map(|s| s.text).collect()
}

#[test]
fn three_reads_keep_the_outer_bounds() {
    // window_sum: t[i - 1] + t[i] + t[i + 1] on the path where all three are in range.
    let (t, i) = (tup("t"), int("i"));
    let c = Term::and_all([
        Term::in_bounds(t.clone(), Term::sub(i.clone(), n(1))),
        Term::in_bounds(t.clone(), i.clone()),
        Term::in_bounds(t.clone(), Term::add(i.clone(), n(1))),
    ]);
    assert_eq!(texts(&[c]), vec!["-len(t) <= i - 1 and i + 1 < len(t)"]);
}

#[test]
fn a_bounds_pair_is_one_chain_also_under_not() {
    // The IndexError branch of the second read.
    let (t, i) = (tup("t"), int("i"));
    let c = Term::and_all([
        Term::in_bounds(t.clone(), Term::sub(i.clone(), n(1))),
        Term::not(Term::in_bounds(t.clone(), i.clone())),
    ]);
    assert_eq!(
        texts(&[c]),
        vec!["-len(t) <= i - 1 < len(t) and not (-len(t) <= i < len(t))"]
    );
}

#[test]
fn a_guard_already_on_the_path_is_not_repeated() {
    // find: `while i < len(h)` with i = 0, then `if h[i] == x`.
    let (h, x) = (tup("h"), int("x"));
    let guard = Term::lt(n(0), len(&h));
    let branch = Term::and(
        Term::lt(n(0), len(&h)),
        Term::cmp(CmpOp::Eq, Term::index(h.clone(), n(0)), x.clone()),
    );
    let shown = texts(&[guard.clone(), branch.clone()]);
    assert_eq!(shown, vec!["0 < len(h)", "h[0] == x"]);
    assert_eq!(
        show_after(std::slice::from_ref(&guard), &branch).text,
        "h[0] == x"
    );
    // A stronger guard (`1 < len(h)`) implies the weaker bound (`0 < len(h)`).
    let stronger = Term::lt(n(1), len(&h));
    assert_eq!(show_after(&[stronger], &branch).text, "h[0] == x");
    // Nothing before: the branch says both.
    assert_eq!(show_after(&[], &branch).text, "0 < len(h) and h[0] == x");
}

#[test]
fn a_failing_check_says_what_fails_below_the_bounds() {
    // window_sum's `assert 0 < i < len(t) - 1` below the bounds of t[i + 1].
    let (t, i) = (tup("t"), int("i"));
    let before = [Term::in_bounds(t.clone(), Term::add(i.clone(), n(1)))];
    let check = Term::and(
        Term::lt(n(0), i.clone()),
        Term::lt(i.clone(), Term::sub(len(&t), n(1))),
    );
    assert_eq!(show_after(&before, &check).text, "0 < i");
    assert_eq!(
        show_after(&before, &Term::not(check.clone())).text,
        "0 >= i"
    );
    // Without the bounds, both halves stay.
    assert_eq!(
        show_after(&[], &Term::not(check)).text,
        "not (0 < i < len(t) - 1)"
    );
}

#[test]
fn a_nonnegative_index_needs_only_the_upper_bound() {
    let (t, i) = (tup("t"), int("i"));
    let pc = [
        Term::ge(i.clone(), n(0)),
        Term::and(
            Term::in_bounds(t.clone(), i.clone()),
            Term::cmp(CmpOp::Eq, Term::index(t.clone(), i.clone()), n(7)),
        ),
    ];
    assert_eq!(texts(&pc), vec!["i >= 0", "i < len(t) and t[i] == 7"]);
}

#[test]
fn a_conjunct_that_adds_nothing_keeps_its_text_and_says_so() {
    let t = tup("t");
    let pc = [Term::lt(n(2), len(&t)), Term::lt(n(1), len(&t))];
    let shown = show_all(&pc);
    assert_eq!(
        shown[1],
        Shown {
            text: "1 < len(t)".to_string(),
            implied: true
        }
    );
    assert!(!shown[0].implied);
}

#[test]
fn what_is_not_implied_stays() {
    let (t, i, x, y) = (tup("t"), int("i"), int("x"), int("y"));
    let no = |q: Term, p: Term| assert!(!implies(&q, &p), "{q} must not imply {p}");
    let yes = |q: Term, p: Term| assert!(implies(&q, &p), "{q} must imply {p}");
    // The upper bound says nothing of the lower one, and a bound of i - 1 not of i.
    no(
        Term::lt(i.clone(), len(&t)),
        Term::le(Term::neg(len(&t)), i.clone()),
    );
    no(
        Term::lt(Term::sub(i.clone(), n(1)), len(&t)),
        Term::lt(i.clone(), len(&t)),
    );
    no(Term::gt(x.clone(), n(0)), Term::gt(x.clone(), n(1)));
    no(
        Term::ge(Term::add(x.clone(), y.clone()), n(0)),
        Term::ge(x.clone(), n(0)),
    );
    // len(t) counts only with a positive sign: i >= 0 says nothing of i - len(t) >= 0.
    no(
        Term::ge(i.clone(), n(0)),
        Term::ge(Term::sub(i.clone(), len(&t)), n(0)),
    );
    no(Term::ne(x.clone(), n(0)), Term::ne(x.clone(), n(1)));
    yes(Term::gt(x.clone(), n(1)), Term::gt(x.clone(), n(0)));
    yes(
        Term::cmp(CmpOp::Eq, x.clone(), n(3)),
        Term::le(x.clone(), n(5)),
    );
    yes(
        Term::ge(x.clone(), n(0)),
        Term::ge(Term::add(x.clone(), Term::abs(y.clone())), n(0)),
    );
    let (a, b) = (x.clone(), y.clone());
    yes(
        Term::lt(a.clone(), b.clone()),
        Term::le(a.clone(), b.clone()),
    );
    yes(Term::lt(a.clone(), b.clone()), Term::gt(b, a));
}

#[test]
fn a_strict_bound_implies_the_inequality() {
    // bsearch's frame: `len(t) > 0`, then `0 < len(t)` and `len(t) != 0` add nothing.
    let (t, x) = (tup("t"), int("x"));
    let pc = [
        Term::gt(len(&t), n(0)),
        Term::lt(n(0), len(&t)),
        Term::ne(len(&t), n(0)),
        Term::not(Term::cmp(CmpOp::Eq, n(0), len(&t))),
    ];
    let implied: Vec<bool> = show_all(&pc).iter().map(|s| s.implied).collect();
    assert_eq!(implied, [false, true, true, true]);
    assert!(implies(
        &Term::lt(x.clone(), n(-2)),
        &Term::ne(x.clone(), n(-2))
    ));
    assert!(implies(
        &Term::gt(x.clone(), n(4)),
        &Term::ne(n(3), x.clone())
    ));
    assert!(!implies(
        &Term::ge(x.clone(), n(0)),
        &Term::ne(x.clone(), n(0))
    ));
    assert!(!implies(
        &Term::le(x.clone(), n(5)),
        &Term::ne(x.clone(), n(2))
    ));
    assert!(!implies(
        &Term::ne(x.clone(), n(0)),
        &Term::gt(x.clone(), n(0))
    ));
}

#[test]
fn an_or_part_is_parenthesised() {
    let (x, y) = (int("x"), int("y"));
    let c = Term::and(
        Term::or(Term::gt(x.clone(), n(0)), Term::gt(y.clone(), n(0))),
        Term::lt(x.clone(), n(5)),
    );
    assert_eq!(texts(&[c]), vec!["(x > 0 or y > 0) and x < 5"]);
}

// Soundness: the shown parts of the whole path condition are equivalent to it, checked by
// evaluating both on every small input.

fn atom() -> impl Strategy<Value = Term> {
    prop_oneof![
        Just(int("x")),
        Just(int("y")),
        Just(len(&tup("t"))),
        Just(Term::abs(int("y"))),
        (-2i64..=2).prop_map(n),
    ]
}

fn lin() -> impl Strategy<Value = Term> {
    (atom(), -2i64..=2, atom(), -2i64..=2)
        .prop_map(|(a, ka, b, c)| Term::add(Term::add(Term::mul(n(ka), a), b), n(c)))
}

fn part() -> impl Strategy<Value = Term> {
    let cmp = || {
        (lin(), 0usize..6, lin()).prop_map(|(a, op, b)| {
            let op = [
                CmpOp::Lt,
                CmpOp::Le,
                CmpOp::Gt,
                CmpOp::Ge,
                CmpOp::Eq,
                CmpOp::Ne,
            ][op];
            Term::cmp(op, a, b)
        })
    };
    prop_oneof![
        4 => cmp(),
        1 => (-1i64..=3).prop_map(|i| Term::in_bounds(tup("t"), Term::add(int("x"), n(i)))),
        1 => cmp().prop_map(Term::not),
        1 => (cmp(), cmp()).prop_map(|(a, b)| Term::not(Term::and(a, b))),
    ]
}

fn holds(m: &Model, t: &Term) -> bool {
    m.eval(t) == Some(Value::Bool(true))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn the_shown_parts_mean_the_path_condition(
        pc in prop::collection::vec(prop::collection::vec(part(), 1..4), 1..5)
    ) {
        let pc: Vec<Term> = pc.into_iter().map(Term::and_all).collect();
        let mut known = Known::default();
        let mut shown = Vec::new();
        for c in &pc {
            shown.extend(shown_parts(&known, c));
            for p in parts(c) {
                known.add(&p);
            }
        }
        let whole = Term::and_all(pc.clone());
        let kept = Term::and_all(shown);
        for x in -4i64..=4 {
            for y in -3i64..=3 {
                for l in 0..4usize {
                    let mut values = BTreeMap::new();
                    values.insert(Sym::new("x", Sort::Int), Value::Int(BigInt::from(x)));
                    values.insert(Sym::new("y", Sort::Int), Value::Int(BigInt::from(y)));
                    let elems: std::sync::Arc<[BigInt]> = (0..l).map(BigInt::from).collect();
                    values.insert(Sym::new("t", Sort::Seq), Value::Tuple(elems));
                    let m = Model { values, ..Model::default() };
                    prop_assert_eq!(holds(&m, &whole), holds(&m, &kept), "{:?} vs {:?} at x={} y={} len={}", whole, kept, x, y, l);
                }
            }
        }
    }
}
