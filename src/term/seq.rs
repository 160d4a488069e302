//! Slices and membership on tuple terms: `t[lo:hi:step]` and `x in t`.
//!
//! A slice is one node, [`TermKind::Slice`], holding Python's own bounds (a missing one is
//! `None`) and the step, so it prints as the source wrote it (`t[1:]`, `t[::-1]`); the
//! clamping of [`crate::semantics::slice_indices`] happens where a slice is read: in
//! [`Term::slice`] when everything is constant (it folds to a tuple display), in the model
//! evaluation and in the solver's translation (`len` and the element function, no
//! quantifier). Its meaning with a zero step is unspecified: evaluation raises
//! `ValueError` before such a value exists.
//!
//! `x in t` is no node of its own: it is `any(t[k] == x for k in range(0, len(t)))` per
//! part of `t` that is not a unit (a unit `(e,)` contributes `x == e`, so `x in (1, y)` is
//! `x == 1 or x == y`, and `x in ()` is `False`). The printer shows the quantifier as
//! `x in t` again ([`Term::as_member`]).

use std::rc::Rc;

use num_bigint::BigInt;
use num_traits::{One, ToPrimitive, Zero};

use super::{Sort, Sym, Term, TermKind as K};
use crate::semantics;

/// The name of the position variable of `x in t` (a name users cannot write).
const MEMBER_VAR: &str = "k!in";

impl Term {
    /// Python's `t[lo:hi:step]` (`None`: the part is missing; `step` is `1` when the source
    /// has none).
    pub fn slice(t: Term, lo: Option<Term>, hi: Option<Term>, step: Term) -> Term {
        debug_assert_eq!(t.sort(), Sort::Seq);
        debug_assert!(step.sort() == Sort::Int);
        let lo = lo.filter(|l| !(l.as_int().is_some_and(Zero::is_zero) && step_is(&step, 1)));
        if lo.is_none() && hi.is_none() && step_is(&step, 1) {
            // `t[:]` is `t` (CPython returns the tuple itself).
            return t;
        }
        // `t[a:b]` with constants `0 <= b <= a` (or `b == 0`) and a positive step is `()`.
        let nonneg = |p: &Option<Term>| match p {
            None => Some(BigInt::zero()),
            Some(x) => x
                .as_int()
                .filter(|k| k.sign() != num_bigint::Sign::Minus)
                .cloned(),
        };
        if let (Some(a), Some(Some(b)), Some(s)) = (
            nonneg(&lo),
            hi.as_ref().map(|h| nonneg(&Some(h.clone()))),
            step.as_int(),
        ) {
            if s.sign() == num_bigint::Sign::Plus && b <= a {
                return Term::seq_empty();
            }
        }
        // Everything constant: the positions are known, the elements read off `t`.
        if let Some(n) = Term::len(t.clone())
            .as_int()
            .and_then(ToPrimitive::to_usize)
        {
            fn constant(p: &Option<Term>) -> Option<Option<&BigInt>> {
                match p {
                    None => Some(None),
                    Some(x) => x.as_int().map(Some),
                }
            }
            if let (Some(l), Some(h), Some(s)) = (constant(&lo), constant(&hi), step.as_int()) {
                if let Ok((start, s, count)) = semantics::slice_indices(n, l, h, Some(s)) {
                    let items = (0..count)
                        .map(|k| Term::index(t.clone(), Term::int(&start + &s * BigInt::from(k))))
                        .collect();
                    return Term::tuple(items);
                }
            }
        }
        Term::mk(K::Slice(t, lo, hi, step))
    }

    /// Python's `x in t`.
    pub fn member(x: Term, t: Term) -> Term {
        debug_assert!(x.sort() == Sort::Int && t.sort() == Sort::Seq);
        let parts: Vec<Term> = super::segments(&t)
            .into_iter()
            .map(|part| match part.kind() {
                K::SeqUnit(e) => Term::eq(x.clone(), e.clone()),
                _ => {
                    let k = Sym {
                        name: Rc::from(fresh_name(&x, part).as_str()),
                        sort: Sort::Int,
                    };
                    let at = Term::index(part.clone(), Term::var(k.clone()));
                    Term::exists(
                        k,
                        Term::int(0),
                        Term::len(part.clone()),
                        Term::eq(at, x.clone()),
                    )
                }
            })
            .collect();
        Term::or_all(parts)
    }

    /// `(x, t)` if this term is `x in t` as [`Term::member`] builds it for a part that is
    /// not a unit: `any(t[k] == x for k in range(0, len(t)))` with `x` free of `k`.
    pub fn as_member(&self) -> Option<(&Term, &Term)> {
        let K::Exists(k, lo, hi, body) = self.kind() else {
            return None;
        };
        let (K::Len(t), K::Cmp(crate::lang::ast::CmpOp::Eq, at, x)) = (hi.kind(), body.kind())
        else {
            return None;
        };
        let K::Index(s, i) = at.kind() else {
            return None;
        };
        let reads_k = |e: &Term| {
            let mut vars = std::collections::BTreeSet::new();
            e.vars(&mut vars);
            vars.contains(k)
        };
        (lo.as_int().is_some_and(Zero::is_zero)
            && s == t
            && matches!(i.kind(), K::Var(v) if v == k)
            && !reads_k(x)
            && !reads_k(t))
        .then_some((x, t))
    }
}

/// Is `step` the constant `v`?
fn step_is(step: &Term, v: i64) -> bool {
    step.as_int().is_some_and(|s| *s == BigInt::from(v))
}

/// [`MEMBER_VAR`], or a variant of it, free in neither `x` nor `t` (an `in` inside the
/// element of another: the inner binder must not capture the outer one).
fn fresh_name(x: &Term, t: &Term) -> String {
    let mut free = std::collections::BTreeSet::new();
    x.vars(&mut free);
    t.vars(&mut free);
    let mut name = MEMBER_VAR.to_string();
    let mut n = BigInt::one();
    while free.iter().any(|s| *s.name == name) {
        n += 1;
        name = format!("{MEMBER_VAR}{n}");
    }
    name
}

/// The first position read and the number of elements of `t[lo:hi:step]` as terms over
/// `len(t)` (the mirror of [`semantics::slice_indices`]); element `k` is
/// `t[start + k * step]`. A constant step gives terms without a product or a symbolic
/// divisor; a symbolic one chooses by its sign.
pub fn slice_bounds(t: &Term, lo: Option<&Term>, hi: Option<&Term>, step: &Term) -> (Term, Term) {
    match step.as_int() {
        Some(s) if s.sign() == num_bigint::Sign::Minus => bounds_down(t, lo, hi, step),
        Some(_) => bounds_up(t, lo, hi, step),
        None => {
            let down = Term::lt(step.clone(), Term::int(0));
            let (s1, n1) = bounds_down(t, lo, hi, step);
            let (s2, n2) = bounds_up(t, lo, hi, step);
            (Term::ite(down.clone(), s1, s2), Term::ite(down, n1, n2))
        }
    }
}

/// `b < 0: max(b + len, floor)`, else `min(b, ceil)`.
fn clamp(b: &Term, len: &Term, floor: Term, ceil: Term) -> Term {
    let wrapped = || Term::max(Term::add(b.clone(), len.clone()), floor.clone());
    match b.as_int() {
        Some(k) if k.sign() == num_bigint::Sign::Minus => wrapped(),
        Some(_) => Term::min(b.clone(), ceil),
        None => Term::ite(
            Term::lt(b.clone(), Term::int(0)),
            wrapped(),
            Term::min(b.clone(), ceil.clone()),
        ),
    }
}

fn bounds_up(t: &Term, lo: Option<&Term>, hi: Option<&Term>, step: &Term) -> (Term, Term) {
    let len = Term::len(t.clone());
    let start = match lo {
        None => Term::int(0),
        // Past the end the count is 0, whatever the start: no clamping needed.
        Some(b)
            if b.as_int()
                .is_some_and(|k| k.sign() != num_bigint::Sign::Minus) =>
        {
            b.clone()
        }
        Some(b) => clamp(b, &len, Term::int(0), len.clone()),
    };
    let stop = match hi {
        None => len.clone(),
        Some(b) => clamp(b, &len, Term::int(0), len.clone()),
    };
    // max(0, (stop - start + step - 1) // step)
    let span = Term::sub(stop, start.clone());
    let count = if step.as_int().is_some_and(One::is_one) {
        span
    } else {
        Term::floor_div(
            Term::add(span, Term::sub(step.clone(), Term::int(1))),
            step.clone(),
        )
    };
    (start, Term::max(count, Term::int(0)))
}

fn bounds_down(t: &Term, lo: Option<&Term>, hi: Option<&Term>, step: &Term) -> (Term, Term) {
    let len = Term::len(t.clone());
    let last = Term::sub(len.clone(), Term::int(1));
    let start = match lo {
        None => last.clone(),
        Some(b) => clamp(b, &len, Term::int(-1), last.clone()),
    };
    let stop = match hi {
        None => Term::int(-1),
        Some(b) => clamp(b, &len, Term::int(-1), last),
    };
    // max(0, (start - stop - step - 1) // -step)
    let span = Term::sub(start.clone(), stop);
    let count = if step.as_int().is_some_and(|s| *s == BigInt::from(-1)) {
        span
    } else {
        Term::floor_div(
            Term::sub(Term::sub(span, step.clone()), Term::int(1)),
            Term::neg(step.clone()),
        )
    };
    (start, Term::max(count, Term::int(0)))
}
