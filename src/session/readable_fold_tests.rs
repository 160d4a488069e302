use super::*;

fn k(n: u32) -> Term {
    Term::var(Sym::new(&format!("k@{n}"), Sort::Int))
}

fn len_t() -> Term {
    Term::len(Term::var(Sym::new("t", Sort::Seq)))
}

#[test]
fn kappa_sums_are_collected() {
    let lhs = Term::add(
        Term::add(Term::add(Term::add(k(1), Term::int(1)), k(2)), Term::int(1)),
        Term::sub(k(3), Term::int(1)),
    );
    let t = Term::lt(lhs, len_t());
    assert_eq!(tidy(&t).to_string(), "κ1 + κ2 + κ3 + 1 < len(t)");
}

#[test]
fn disjunctions_that_always_hold_become_true() {
    let t = Term::or(
        Term::le(k(1), Term::int(0)),
        Term::le(Term::neg(len_t()), Term::int(0)),
    );
    assert!(tidy(&t).is_true(), "{}", tidy(&t));
    // Not a tautology: kept (its sides collected).
    let t = Term::or(
        Term::le(k(1), Term::int(0)),
        Term::lt(Term::sub(k(1), Term::int(1)), len_t()),
    );
    assert_eq!(tidy(&t).to_string(), "κ1 <= 0 or κ1 - 1 < len(t)");
}

#[test]
fn index_terms_are_collected_in_quantifiers_and_values() {
    let t_ = Term::var(Sym::new("t", Sort::Seq));
    let x = Term::var(Sym::new("x", Sort::Int));
    let j = Sym::new("j@2", Sort::Int);
    // t[κ1 + 1 + (τ2 + 0) - 1] != x for τ2 in range(0, κ2 + 1 - 1)
    let idx = Term::sub(
        Term::add(Term::add(k(1), Term::int(1)), Term::var(j.clone())),
        Term::int(1),
    );
    let body = Term::ne(Term::index(t_.clone(), idx), x.clone());
    let q = Term::forall(
        j,
        Term::int(0),
        Term::sub(Term::add(k(2), Term::int(1)), Term::int(1)),
        body,
    );
    assert_eq!(
        tidy(&q).to_string(),
        "all(t[κ1 + τ2] != x for τ2 in range(0, κ2))"
    );
    // A comparison whose side reads such an index.
    let idx = Term::add(Term::add(k(1), Term::int(1)), Term::add(k(2), Term::int(2)));
    let t = Term::eq(
        Term::add(Term::index(t_, idx), Term::int(0)),
        Term::add(x, k(1)),
    );
    assert_eq!(tidy(&t).to_string(), "t[κ1 + κ2 + 3] == x + κ1");
}

#[test]
fn terms_without_kappa_are_unchanged() {
    let i = Term::var(Sym::new("i", Sort::Int));
    let t = Term::lt(Term::add(Term::add(i.clone(), Term::int(1)), i), len_t());
    assert_eq!(tidy(&t), t);
}

fn l(n: u32) -> Term {
    Term::var(Sym::new(&format!("l@{n}"), Sort::Int))
}

#[test]
fn store_values_are_collected_with_the_coefficient_after_its_term() {
    // two_counters' `last * 100 + j` with last = κ1 + λ1 ... as the fold builds it.
    let v = Term::add(Term::mul(k(1), Term::int(100)), Term::add(k(1), l(1)));
    assert_eq!(shown(&v), "κ1 * 101 + λ1");
    // `0 + 1 + κ1 * 2 + 3` (built without the smart constructors' folding).
    let raw = |a: Term, b: Term| Term::mk_for_tests(K::Add(a, b));
    let v = raw(
        raw(
            raw(Term::int(0), Term::int(1)),
            Term::mul(k(1), Term::int(2)),
        ),
        Term::int(3),
    );
    assert_eq!(shown(&v), "κ1 * 2 + 4");
    // `x + -1` is `x - 1`; a constant-only sum is its value.
    let x = Term::var(Sym::new("x", Sort::Int));
    let v = raw(Term::add(x.clone(), k(1)), Term::int(-1));
    assert_eq!(shown(&v), "x + κ1 - 1");
    assert_eq!(shown(&Term::sub(Term::add(k(1), Term::int(2)), k(1))), "2");
}

#[test]
fn a_sum_starts_with_an_added_term_or_its_constant() {
    // two_counters' return value: κ1 + (10 - 2 * (κ1 - 1) - 2) is 10 - κ1.
    let inner = Term::sub(
        Term::sub(
            Term::int(10),
            Term::mul(Term::int(2), Term::sub(k(1), Term::int(1))),
        ),
        Term::int(2),
    );
    assert_eq!(shown(&Term::add(k(1), inner)), "10 - κ1");
    let x = Term::var(Sym::new("x", Sort::Int));
    assert_eq!(shown(&Term::add(Term::neg(k(1)), x.clone())), "x - κ1");
    assert_eq!(
        shown(&Term::sub(
            Term::neg(Term::mul(Term::int(2), k(1))),
            Term::int(3)
        )),
        "-κ1 * 2 - 3"
    );
    assert_eq!(shown(&Term::sub(Term::int(0), k(1))), "-κ1");
    // Inside a conditional value, times a constant.
    let ite = Term::ite(
        Term::ge(k(1), Term::int(1)),
        Term::add(k(1), Term::sub(Term::int(10), k(1))),
        Term::int(0),
    );
    assert_eq!(
        shown(&Term::mul(ite, Term::int(100))),
        "(10 if κ1 >= 1 else 0) * 100"
    );
}

#[test]
fn comparisons_keep_a_term_and_the_constant_on_one_side() {
    let x = Term::var(Sym::new("x", Sort::Int));
    // divmod_sub's `x - 3 * κ1 + 3 >= 3`.
    let lhs = Term::add(
        Term::sub(x.clone(), Term::mul(Term::int(3), k(1))),
        Term::int(3),
    );
    assert_eq!(shown(&Term::ge(lhs, Term::int(3))), "x - κ1 * 3 >= 0");
    // κ1 + λ1 < κ1 + 5: κ1 on neither side.
    let t = Term::lt(Term::add(k(1), l(1)), Term::add(k(1), Term::int(5)));
    assert_eq!(shown(&t), "λ1 < 5");
    let t = Term::le(
        Term::add(k(1), Term::int(2)),
        Term::add(Term::mul(k(1), Term::int(3)), x),
    );
    assert_eq!(shown(&t), "2 <= κ1 * 2 + x");
}

#[test]
fn a_product_of_two_terms_is_an_atom_with_its_factors_normalised() {
    // rows.py's nested fold: (κ1 + κ2 * max(n, 0)) * 100 + (κ2 + 1).
    let n = Term::var(Sym::new("n", Sort::Int));
    let prod = Term::mul(k(2), Term::max(n, Term::int(0)));
    let v = Term::add(
        Term::mul(Term::add(k(1), prod), Term::int(100)),
        Term::add(k(2), Term::int(1)),
    );
    assert_eq!(shown(&v), "κ1 * 100 + κ2 * max(n, 0) * 100 + κ2 + 1");
    let v = Term::mul(Term::add(k(1), Term::sub(k(1), Term::int(1))), k(2));
    assert_eq!(shown(&v), "(κ1 * 2 - 1) * κ2");
}

#[test]
fn lambda_only_terms_are_tidied_too() {
    let t = Term::lt(
        Term::add(Term::add(l(1), Term::int(1)), Term::int(1)),
        len_t(),
    );
    assert_eq!(shown(&t), "λ1 + 2 < len(t)");
}

/// Random linear terms over κ, λ, x and `len(t)`, with constants, negations, products
/// with constants, conditional values and comparisons.
fn int_term() -> impl Strategy<Value = Term> {
    let leaf = prop_oneof![
        (-4i64..=4).prop_map(Term::int),
        Just(k(1)),
        Just(k(2)),
        Just(l(1)),
        Just(Term::var(Sym::new("x", Sort::Int))),
        Just(len_t()),
    ];
    // (built raw: the smart constructors would fold much of it away)
    let raw = |k: K| Term::mk_for_tests(k);
    leaf.prop_recursive(4, 24, 2, move |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(move |(a, b)| raw(K::Add(a, b))),
            (inner.clone(), inner.clone()).prop_map(move |(a, b)| raw(K::Sub(a, b))),
            inner.clone().prop_map(move |a| raw(K::Neg(a))),
            (inner.clone(), -3i64..=3).prop_map(move |(a, c)| raw(K::Mul(a, Term::int(c)))),
            (-3i64..=3, inner.clone()).prop_map(move |(c, a)| raw(K::Mul(Term::int(c), a))),
            // (non-linear: a product of two terms is an atom, its factors normalised)
            (inner.clone(), inner.clone()).prop_map(move |(a, b)| raw(K::Mul(a, b))),
            (inner.clone(), inner.clone(), inner.clone(), 0usize..4).prop_map(
                move |(a, b, c, op)| {
                    let cond = Term::cmp([CmpOp::Lt, CmpOp::Le, CmpOp::Eq, CmpOp::Ge][op], a, b);
                    raw(K::Ite(cond, c.clone(), Term::add(c, Term::int(1))))
                }
            ),
        ]
    })
}

use crate::lang::ast::CmpOp;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn normalising_keeps_every_value(a in int_term(), b in int_term(), op in 0usize..6) {
        use crate::concrete::Value;
        use crate::term::Model;
        use std::collections::BTreeMap;
        let op = [CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge, CmpOp::Eq, CmpOp::Ne][op];
        let cmp = Term::mk_for_tests(K::Cmp(op, a.clone(), b));
        let (ta, tc) = (tidy(&a), tidy(&cmp));
        for kv in -2i64..=3 {
            for lv in 0i64..=2 {
                for x in -3i64..=3 {
                    for n in [0usize, 2, 5] {
                        let mut values = BTreeMap::new();
                        let int = |v: i64| Value::Int(BigInt::from(v));
                        values.insert(Sym::new("k@1", Sort::Int), int(kv));
                        values.insert(Sym::new("k@2", Sort::Int), int(kv * 2 - 1));
                        values.insert(Sym::new("l@1", Sort::Int), int(lv));
                        values.insert(Sym::new("x", Sort::Int), int(x));
                        let elems: std::sync::Arc<[BigInt]> = (0..n).map(BigInt::from).collect();
                        values.insert(Sym::new("t", Sort::Seq), Value::Tuple(elems));
                        let m = Model { values, ..Model::default() };
                        prop_assert_eq!(m.eval(&a), m.eval(&ta), "{} vs {}", a, ta);
                        prop_assert_eq!(m.eval(&cmp), m.eval(&tc), "{} vs {}", cmp, tc);
                    }
                }
            }
        }
    }
}

#[test]
fn a_factor_that_folds_to_zero_is_a_constant_not_a_sign_change() {
    // Found by `normalising_keeps_every_value` (CI): `0 + κ1 < κ1 * (0 * 0) + κ2` read
    // `κ1 < -κ2`.
    let raw = |k: K| Term::mk_for_tests(k);
    let zero_product = raw(K::Mul(Term::int(0), Term::int(0)));
    let a = raw(K::Add(Term::int(0), k(1)));
    let b = raw(K::Add(raw(K::Mul(k(1), zero_product)), k(2)));
    assert_eq!(shown(&Term::lt(a, b)), "κ1 < κ2");
}
