//! Quantifier elimination for affine iteration conditions (compact symbolic execution,
//! issue 15; design NEXT.md §1.5a). A folded loop's condition is
//! `∀j ∈ [0, κ). φ(j)`; every conjunct of `φ` that compares an affine function of `j`
//! (constant coefficient) with 0 is replaced by an equivalent quantifier-free formula over
//! the range's ends, because an affine function is monotone. What stays under the
//! quantifier reads tuple elements. Exact rewrites; tested against iteration.

use num_bigint::BigInt;
use num_traits::{Signed, Zero};

use super::linear::{linear_in, mentions};
use super::{Sym, Term, TermKind as K};
use crate::lang::ast::CmpOp;

/// The conjuncts of `t` (flattened), simplified in context: a disjunct whose negation is
/// another conjunct is dropped (`(i < 0 or B) and i >= 0` becomes `B and i >= 0`), a
/// disjunction with a disjunct that is a conjunct is dropped.
pub fn conjuncts_in_context(t: &Term) -> Vec<Term> {
    let parts: Vec<Term> = match t.kind() {
        K::And(xs) => xs.clone(),
        _ => vec![t.clone()],
    };
    let atoms: std::collections::HashSet<Term> = parts
        .iter()
        .filter(|p| !matches!(p.kind(), K::Or(_)))
        .cloned()
        .collect();
    let mut out = Vec::new();
    for p in parts {
        match p.kind() {
            K::Or(ds) => {
                if ds.iter().any(|d| atoms.contains(d)) {
                    continue;
                }
                let kept: Vec<Term> = ds
                    .iter()
                    .filter(|d| !atoms.contains(&Term::not((*d).clone())))
                    .cloned()
                    .collect();
                match Term::or_all(kept) {
                    t if t.is_true() => {}
                    t => match t.kind() {
                        K::And(xs) => out.extend(xs.iter().cloned()),
                        _ => out.push(t),
                    },
                }
            }
            _ => out.push(p),
        }
    }
    out
}

/// `f(j) = c·j + e` of a comparison `a op b` (as `a - b op 0`), if affine in `j`.
fn affine_cmp(t: &Term, j: &Sym) -> Option<(CmpOp, BigInt, Term)> {
    let K::Cmp(op, a, b) = t.kind() else {
        return None;
    };
    if a.sort() != super::Sort::Int {
        return None;
    }
    let (c, e) = linear_in(&Term::sub(a.clone(), b.clone()), j)?;
    Some((*op, c, e))
}

/// `∀j ∈ [0, κ). conjunct` without a quantifier, if the conjunct is affine in `j` (or free
/// of it).
pub fn qe_bounded(conjunct: &Term, j: &Sym, kappa: &Term) -> Option<Term> {
    let zero = Term::int(0);
    let empty = Term::le(kappa.clone(), zero.clone());
    if !mentions(conjunct, j) {
        return Some(Term::or(empty, conjunct.clone()));
    }
    let (op, c, e) = affine_cmp(conjunct, j)?;
    let last = Term::sub(kappa.clone(), Term::int(1));
    let body = match op {
        // Ordering: the conjunct itself at the end where it is hardest to meet.
        CmpOp::Lt | CmpOp::Le => {
            let worst = if c.is_positive() { last } else { zero.clone() };
            conjunct.subst1(j, &worst)
        }
        CmpOp::Gt | CmpOp::Ge => {
            let worst = if c.is_negative() { last } else { zero.clone() };
            conjunct.subst1(j, &worst)
        }
        CmpOp::Eq => {
            let e0 = Term::eq(e.clone(), zero.clone());
            if c.is_zero() {
                e0
            } else {
                Term::and(e0, Term::eq(kappa.clone(), Term::int(1)))
            }
        }
        CmpOp::Ne => {
            if c.is_zero() {
                Term::ne(e, zero.clone())
            } else {
                // No j in [0, κ) with c·j + e = 0: -e divisible by c, quotient in range.
                let ne = Term::neg(e);
                let cc = Term::int(c.clone());
                let q = Term::floor_div(ne.clone(), cc.clone());
                Term::not(Term::and_all([
                    Term::eq(Term::modulo(ne, cc), zero.clone()),
                    Term::le(zero.clone(), q.clone()),
                    Term::lt(q, kappa.clone()),
                ]))
            }
        }
    };
    Some(Term::or(empty, body))
}

/// `∀j ≥ 0. conjunct` without a quantifier, if the conjunct is affine in `j` (or free of it).
pub fn qe_unbounded(conjunct: &Term, j: &Sym) -> Option<Term> {
    let zero = Term::int(0);
    if !mentions(conjunct, j) {
        return Some(conjunct.clone());
    }
    let (op, c, e) = affine_cmp(conjunct, j)?;
    let at0 = conjunct.subst1(j, &zero);
    Some(match op {
        CmpOp::Lt | CmpOp::Le if c.is_positive() => Term::bool(false),
        CmpOp::Gt | CmpOp::Ge if c.is_negative() => Term::bool(false),
        CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge => at0,
        CmpOp::Eq if c.is_zero() => at0,
        CmpOp::Eq => Term::bool(false),
        CmpOp::Ne if c.is_zero() => at0,
        CmpOp::Ne => {
            let ne = Term::neg(e);
            let cc = Term::int(c.clone());
            Term::not(Term::and(
                Term::eq(Term::modulo(ne.clone(), cc.clone()), zero.clone()),
                Term::le(zero, Term::floor_div(ne, cc)),
            ))
        }
    })
}

/// `∀j ∈ [0, κ). body`: the affine conjuncts eliminated, the rest under one quantifier.
/// Returns the conjuncts (quantifier-free ones first).
pub fn forall_upto(j: &Sym, kappa: &Term, body: &Term) -> Vec<Term> {
    let mut out = Vec::new();
    let mut rest = Vec::new();
    for c in conjuncts_in_context(body) {
        match qe_bounded(&c, j, kappa) {
            Some(t) => out.push(t),
            None => rest.push(c),
        }
    }
    if !rest.is_empty() {
        out.push(Term::forall(
            j.clone(),
            Term::int(0),
            kappa.clone(),
            Term::and_all(rest),
        ));
    }
    out
}

/// `∀j ≥ 0. body` without a quantifier: `Some(false)` when an affine conjunct fails for
/// some j, `None` when a conjunct that is not affine in `j` remains (then no term says it).
pub fn forall_from_zero(j: &Sym, body: &Term) -> Option<Term> {
    let mut out = Vec::new();
    let mut rest = false;
    for c in conjuncts_in_context(body) {
        match qe_unbounded(&c, j) {
            Some(t) if t.is_false() => return Some(t),
            Some(t) => out.push(t),
            None => rest = true,
        }
    }
    (!rest).then(|| Term::and_all(out))
}
