//! Folded conditions as people read them (issue 27): a fold's conditions are built by
//! substitution, so their κ arithmetic comes out as `κ1 + 1 + κ2 + 1 + (κ3 - 1) < len(t)`
//! and its "the first iteration is in bounds" disjuncts as `(κ1 <= 0 or -len(t) <= 0)`,
//! which holds for every value. For display only, a part that mentions a fold's
//! parameter gets each side of its integer comparisons with like terms collected
//! (`κ1 + κ2 + κ3 + 1 < len(t)`, terms in order of first appearance, the constant last),
//! and a disjunction with a disjunct that always holds (a bound over `len(..)`/`abs(..)`
//! with non-negative coefficients and constant) becomes `true`, which
//! [`super::readable`] drops. Both rewrites are equivalences; the engine's path condition
//! and `--json`'s `path_condition` are the exact terms.

use num_bigint::BigInt;
use num_traits::{Signed, Zero};

use crate::term::{Sort, Sym, Term, TermKind as K};

/// Does `t` mention a fold's parameter (`k@n`, printed `κn`)?
fn mentions_kappa(t: &Term) -> bool {
    let mut vars = std::collections::BTreeSet::<Sym>::new();
    t.vars(&mut vars);
    vars.iter().any(|s| s.name.starts_with("k@"))
}

/// `t` tidied for display (an equivalent term), when it mentions a κ; else `t`.
pub(super) fn tidy(t: &Term) -> Term {
    if t.tree_size() > 400 || !mentions_kappa(t) {
        return t.clone();
    }
    tidy_in(t)
}

fn tidy_in(t: &Term) -> Term {
    match t.kind() {
        K::Cmp(op, a, b) if a.sort() == Sort::Int && !op.is_membership() => {
            let cmp = Term::cmp(*op, collected(a), collected(b));
            if always(&cmp) {
                Term::bool(true)
            } else {
                cmp
            }
        }
        K::Cmp(op, a, b) => Term::cmp(*op, tidy_in(a), tidy_in(b)),
        K::Or(xs) => Term::or_all(xs.iter().map(tidy_in)),
        K::And(xs) => Term::and_all(xs.iter().map(tidy_in)),
        K::Not(x) => Term::not(tidy_in(x)),
        // Index terms (`t[κ1 + 1 + κ2]`), in quantifiers and conditional values too.
        K::Add(..) | K::Sub(..) | K::Neg(_) | K::Mul(..) => collected(t),
        K::Index(a, i) => Term::index(tidy_in(a), collected(i)),
        K::Len(a) => Term::len(tidy_in(a)),
        K::Ite(c, a, b) => Term::ite(tidy_in(c), tidy_in(a), tidy_in(b)),
        K::Forall(v, lo, hi, body) => {
            Term::forall(v.clone(), collected(lo), collected(hi), tidy_in(body))
        }
        K::Exists(v, lo, hi, body) => {
            Term::exists(v.clone(), collected(lo), collected(hi), tidy_in(body))
        }
        _ => t.clone(),
    }
}

/// Like terms collected: `Σ c·atom + k`, atoms in order of first appearance.
fn collected(t: &Term) -> Term {
    let mut terms: Vec<(Term, BigInt)> = Vec::new();
    let mut constant = BigInt::zero();
    linear(t, &BigInt::from(1), &mut terms, &mut constant);
    terms.retain(|(_, c)| !c.is_zero());
    let mut out: Option<Term> = None;
    for (atom, c) in terms {
        let magnitude = if c.abs() == BigInt::from(1) {
            atom
        } else {
            Term::mul(Term::int(c.abs()), atom)
        };
        out = Some(match out {
            None if c.is_negative() => Term::neg(magnitude),
            None => magnitude,
            Some(acc) if c.is_negative() => Term::sub(acc, magnitude),
            Some(acc) => Term::add(acc, magnitude),
        });
    }
    match out {
        None => Term::int(constant),
        Some(acc) if constant.is_zero() => acc,
        Some(acc) if constant.is_negative() => Term::sub(acc, Term::int(-constant)),
        Some(acc) => Term::add(acc, Term::int(constant)),
    }
}

fn linear(t: &Term, k: &BigInt, terms: &mut Vec<(Term, BigInt)>, constant: &mut BigInt) {
    match t.kind() {
        K::Int(n) => *constant += k * n,
        K::Neg(a) => linear(a, &-k, terms, constant),
        K::Add(a, b) => {
            linear(a, k, terms, constant);
            linear(b, k, terms, constant);
        }
        K::Sub(a, b) => {
            linear(a, k, terms, constant);
            linear(b, &-k, terms, constant);
        }
        K::Mul(a, b) if a.as_int().is_some() => {
            linear(b, &(k * a.as_int().expect("int")), terms, constant)
        }
        K::Mul(a, b) if b.as_int().is_some() => {
            linear(a, &(k * b.as_int().expect("int")), terms, constant)
        }
        _ => {
            // An atom: its own index terms tidied (`t[κ1 + 1 + κ2]`).
            let atom = match t.kind() {
                K::Index(..) | K::Ite(..) | K::Len(_) => tidy_in(t),
                _ => t.clone(),
            };
            match terms.iter_mut().find(|(u, _)| *u == atom) {
                Some((_, c)) => *c += k,
                None => terms.push((atom, k.clone())),
            }
        }
    }
}

/// Does the comparison hold for every value? (`lhs - rhs` or its mirror is a sum of
/// `len(..)`/`abs(..)` terms with non-negative coefficients plus a non-negative constant.)
fn always(t: &Term) -> bool {
    let K::Cmp(op, a, b) = t.kind() else {
        return t.as_bool() == Some(true);
    };
    use crate::lang::ast::CmpOp;
    // `big >= small` as `big - small >= strict`.
    let (big, small, strict) = match op {
        CmpOp::Ge => (a, b, 0),
        CmpOp::Gt => (a, b, 1),
        CmpOp::Le => (b, a, 0),
        CmpOp::Lt => (b, a, 1),
        _ => return false,
    };
    let mut terms = Vec::new();
    let mut constant = BigInt::zero();
    linear(big, &BigInt::from(1), &mut terms, &mut constant);
    linear(small, &BigInt::from(-1), &mut terms, &mut constant);
    terms.retain(|(_, c)| !c.is_zero());
    constant >= BigInt::from(strict)
        && terms
            .iter()
            .all(|(u, c)| !c.is_negative() && matches!(u.kind(), K::Len(_) | K::Abs(_)))
}

#[cfg(test)]
mod tests {
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
}
