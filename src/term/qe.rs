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
    let Some((op, c, e)) = affine_cmp(conjunct, j) else {
        return symbolic_bounded(conjunct, j, kappa);
    };
    // `f = 0` iff `-f = 0`: a positive coefficient reads better (`x % 2`, not `-x % -2`).
    let (c, e) = if matches!(op, CmpOp::Eq | CmpOp::Ne) && c.is_negative() {
        (-c, Term::neg(e))
    } else {
        (c, e)
    };
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
        CmpOp::In | CmpOp::NotIn => unreachable!("no term compares with `in`"),
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
    let Some((op, c, e)) = affine_cmp(conjunct, j) else {
        return symbolic_unbounded(conjunct, j);
    };
    // `f = 0` iff `-f = 0`: a positive coefficient reads better (`x % 2`, not `-x % -2`).
    let (c, e) = if matches!(op, CmpOp::Eq | CmpOp::Ne) && c.is_negative() {
        (-c, Term::neg(e))
    } else {
        (c, e)
    };
    let at0 = conjunct.subst1(j, &zero);
    Some(match op {
        CmpOp::Lt | CmpOp::Le if c.is_positive() => Term::bool(false),
        CmpOp::Gt | CmpOp::Ge if c.is_negative() => Term::bool(false),
        CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge => at0,
        CmpOp::Eq if c.is_zero() => at0,
        CmpOp::Eq => Term::bool(false),
        CmpOp::In | CmpOp::NotIn => unreachable!("no term compares with `in`"),
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

/// An ordering `a op b` whose difference is `c·j + e` with a symbolic `c` (free of `j`).
fn symbolic_ordering(t: &Term, j: &Sym) -> Option<(CmpOp, Term, Term)> {
    let K::Cmp(op, a, b) = t.kind() else {
        return None;
    };
    if a.sort() != super::Sort::Int || matches!(op, CmpOp::Eq | CmpOp::Ne) {
        return None;
    }
    let (c, e) = super::linear::affine_in(&Term::sub(a.clone(), b.clone()), j)?;
    Some((*op, c, e))
}

/// `∀j ∈ [0, κ). c·j + e op 0` with a symbolic `c`: an affine function is monotone one
/// way or the other, so both ends decide.
fn symbolic_bounded(conjunct: &Term, j: &Sym, kappa: &Term) -> Option<Term> {
    symbolic_ordering(conjunct, j)?;
    let last = Term::sub(kappa.clone(), Term::int(1));
    Some(Term::or(
        Term::le(kappa.clone(), Term::int(0)),
        Term::and(conjunct.subst1(j, &Term::int(0)), conjunct.subst1(j, &last)),
    ))
}

/// `∀j ≥ 0. c·j + e op 0` with a symbolic `c`: true at 0 and `c` not against it.
fn symbolic_unbounded(conjunct: &Term, j: &Sym) -> Option<Term> {
    let (op, c, _) = symbolic_ordering(conjunct, j)?;
    let zero = Term::int(0);
    let slope = match op {
        CmpOp::Lt | CmpOp::Le => Term::le(c, zero.clone()),
        _ => Term::ge(c, zero.clone()),
    };
    Some(Term::and(conjunct.subst1(j, &zero), slope))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::concrete::Value;
    use crate::term::{Model, Sort};

    fn eval(m: &Model, t: &Term) -> bool {
        m.eval(t) == Some(Value::Bool(true))
    }

    /// Every rewrite against iteration: c in -4..=4, e in -10..=10, κ in -3..=12, each
    /// comparison; the unbounded form against a 60-step prefix (the functions are affine:
    /// past 60 steps nothing changes sign within the constants used).
    #[test]
    fn quantifier_elimination_equals_iteration() {
        let j = Sym::new("j@1", Sort::Int);
        let x = Sym::new("x", Sort::Int);
        let k = Sym::new("k@1", Sort::Int);
        let ops = [
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Gt,
            CmpOp::Ge,
            CmpOp::Eq,
            CmpOp::Ne,
        ];
        for c in -4i64..=4 {
            for op in ops {
                let f = Term::add(
                    Term::mul(Term::int(c), Term::var(j.clone())),
                    Term::var(x.clone()),
                );
                let conj = Term::cmp(op, f, Term::int(0));
                let bounded = qe_bounded(&conj, &j, &Term::var(k.clone())).expect("affine");
                let unbounded = qe_unbounded(&conj, &j).expect("affine");
                for e in -10i64..=10 {
                    let mut m = Model::default();
                    m.values.insert(x.clone(), Value::Int(e.into()));
                    let at = |m: &mut Model, jj: i64| {
                        m.values.insert(j.clone(), Value::Int(jj.into()));
                        let r = eval(m, &conj);
                        m.values.remove(&j);
                        r
                    };
                    for kk in -3i64..=12 {
                        let want = (0..kk).all(|jj| at(&mut m, jj));
                        m.values.insert(k.clone(), Value::Int(kk.into()));
                        assert_eq!(eval(&m, &bounded), want, "{conj} κ={kk} x={e}: {bounded}");
                        m.values.remove(&k);
                    }
                    let want = (0..60).all(|jj| at(&mut m, jj));
                    assert_eq!(eval(&m, &unbounded), want, "{conj} x={e}: {unbounded}");
                }
            }
        }
    }

    /// Orderings with a symbolic coefficient (`i += s` read by the loop condition).
    #[test]
    fn symbolic_slopes_equal_iteration() {
        let j = Sym::new("j@1", Sort::Int);
        let c = Sym::new("c", Sort::Int);
        let x = Sym::new("x", Sort::Int);
        let k = Sym::new("k@1", Sort::Int);
        for op in [CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge] {
            let f = Term::add(
                Term::mul(Term::var(c.clone()), Term::var(j.clone())),
                Term::var(x.clone()),
            );
            let conj = Term::cmp(op, f, Term::int(0));
            let bounded = qe_bounded(&conj, &j, &Term::var(k.clone())).expect("ordering");
            let unbounded = qe_unbounded(&conj, &j).expect("ordering");
            for cc in -4i64..=4 {
                for e in -10i64..=10 {
                    let mut m = Model::default();
                    m.values.insert(c.clone(), Value::Int(cc.into()));
                    m.values.insert(x.clone(), Value::Int(e.into()));
                    let at = |m: &Model, jj: i64| {
                        let mut m = m.clone();
                        m.values.insert(j.clone(), Value::Int(jj.into()));
                        eval(&m, &conj)
                    };
                    for kk in -3i64..=12 {
                        let want = (0..kk).all(|jj| at(&m, jj));
                        let mut mk = m.clone();
                        mk.values.insert(k.clone(), Value::Int(kk.into()));
                        assert_eq!(eval(&mk, &bounded), want, "{conj} c={cc} x={e} κ={kk}");
                    }
                    let want = (0..60).all(|jj| at(&m, jj));
                    assert_eq!(eval(&m, &unbounded), want, "{conj} c={cc} x={e}");
                }
            }
        }
    }

    #[test]
    fn in_context_simplification_drops_refuted_disjuncts() {
        let i = Term::var(Sym::new("i", Sort::Int));
        let t = Term::var(Sym::new("t", Sort::Seq));
        let ge = Term::ge(i.clone(), Term::int(0));
        let guard = Term::or(Term::not(ge.clone()), Term::in_bounds(t.clone(), i.clone()));
        let parts = conjuncts_in_context(&Term::and(guard, ge.clone()));
        assert!(parts.contains(&ge));
        assert!(
            parts.iter().all(|p| !matches!(p.kind(), K::Or(_))),
            "{parts:?}"
        );
    }
}
