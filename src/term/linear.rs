//! Linear decomposition of integer terms in one symbol (compact symbolic execution,
//! issue 15): `t = c·s + rest` with a constant `c` and `rest` free of `s`. Sums,
//! differences, negations and products with a constant are looked through; any other
//! subterm that mentions `s` makes the term non-linear in `s`.

use std::collections::BTreeSet;

use num_bigint::BigInt;
use num_traits::{One, Zero};

use super::{Sort, Sym, Term, TermKind as K};

/// Does `t` mention the symbol `s` (free)?
pub fn mentions(t: &Term, s: &Sym) -> bool {
    let mut vars = BTreeSet::new();
    t.vars(&mut vars);
    vars.contains(s)
}

/// `t = c·s + rest`: `Some((c, rest))` with `rest` free of `s`, or `None` when `t` is not
/// linear in `s` with a constant coefficient.
pub fn linear_in(t: &Term, s: &Sym) -> Option<(BigInt, Term)> {
    if t.sort() != Sort::Int {
        return None;
    }
    if !mentions(t, s) {
        return Some((BigInt::zero(), t.clone()));
    }
    match t.kind() {
        K::Var(v) if v == s => Some((BigInt::one(), Term::int(0))),
        K::Neg(a) => {
            let (c, r) = linear_in(a, s)?;
            Some((-c, Term::neg(r)))
        }
        K::Add(a, b) => {
            let (ca, ra) = linear_in(a, s)?;
            let (cb, rb) = linear_in(b, s)?;
            Some((ca + cb, Term::add(ra, rb)))
        }
        K::Sub(a, b) => {
            let (ca, ra) = linear_in(a, s)?;
            let (cb, rb) = linear_in(b, s)?;
            Some((ca - cb, Term::sub(ra, rb)))
        }
        K::Mul(a, b) => {
            let (k, other) = match (a.as_int(), b.as_int()) {
                (Some(k), _) => (k.clone(), b),
                (_, Some(k)) => (k.clone(), a),
                _ => return None,
            };
            let (c, r) = linear_in(other, s)?;
            Some((c * &k, Term::mul(Term::int(k), r)))
        }
        _ => None,
    }
}

/// `c·s + rest` built back (for tests and callers that rewrite `s`).
pub fn rebuild(c: &BigInt, s: &Term, rest: Term) -> Term {
    Term::add(Term::mul(Term::int(c.clone()), s.clone()), rest)
}

/// `t = c·s + rest` with `c` and `rest` terms free of `s` (a symbolic coefficient allowed:
/// `j * step`), or `None`.
pub fn affine_in(t: &Term, s: &Sym) -> Option<(Term, Term)> {
    if t.sort() != Sort::Int {
        return None;
    }
    if !mentions(t, s) {
        return Some((Term::int(0), t.clone()));
    }
    match t.kind() {
        K::Var(v) if v == s => Some((Term::int(1), Term::int(0))),
        K::Neg(a) => {
            let (c, r) = affine_in(a, s)?;
            Some((Term::neg(c), Term::neg(r)))
        }
        K::Add(a, b) => {
            let (ca, ra) = affine_in(a, s)?;
            let (cb, rb) = affine_in(b, s)?;
            Some((Term::add(ca, cb), Term::add(ra, rb)))
        }
        K::Sub(a, b) => {
            let (ca, ra) = affine_in(a, s)?;
            let (cb, rb) = affine_in(b, s)?;
            Some((Term::sub(ca, cb), Term::sub(ra, rb)))
        }
        K::Mul(a, b) => {
            let (k, other) = match (mentions(a, s), mentions(b, s)) {
                (false, true) => (a, b),
                (true, false) => (b, a),
                _ => return None,
            };
            let (c, r) = affine_in(other, s)?;
            Some((Term::mul(k.clone(), c), Term::mul(k.clone(), r)))
        }
        _ => None,
    }
}

/// Does `given` imply `c`, seen without a solver? `c` is `given` or one of its conjuncts,
/// or both bound one integer term the same way with constants (`n > 0` implies
/// `n >= 1`, `i < 3` implies `i <= 5`). `false` means "not seen", not "does not".
pub fn implies(given: &Term, c: &Term) -> bool {
    if given == c || c.is_true() {
        return true;
    }
    if let K::And(xs) = given.kind() {
        return xs.iter().any(|x| implies(x, c));
    }
    // `base != m` holds where `given` bounds `base` away from `m`.
    if let K::Cmp(crate::lang::ast::CmpOp::Ne, a, b) = c.kind() {
        let eq = Term::eq(a.clone(), b.clone());
        return match (bound_of(given), bound_of(&eq)) {
            (Some((g, lo, hi)), Some((t, Some(m), _))) if g == t => {
                lo.is_some_and(|l| l > m) || hi.is_some_and(|h| h < m)
            }
            _ => false,
        };
    }
    match (bound_of(given), bound_of(c)) {
        (Some((g, lo_g, hi_g)), Some((t, lo_c, hi_c))) if g == t => {
            let within = |outer: Option<BigInt>, inner: Option<BigInt>, lower: bool| match outer {
                None => true,
                Some(o) => inner.is_some_and(|i| if lower { i >= o } else { i <= o }),
            };
            within(lo_c, lo_g, true) && within(hi_c, hi_g, false)
        }
        _ => false,
    }
}

/// `(base, lo, hi)` with `lo <= base <= hi` (a missing side unbounded) if `c` compares
/// an integer term with a constant offset (`base + k op m` in any arrangement).
fn bound_of(c: &Term) -> Option<(Term, Option<BigInt>, Option<BigInt>)> {
    use crate::lang::ast::CmpOp;
    let K::Cmp(op, a, b) = c.kind() else {
        return None;
    };
    if a.sort() != Sort::Int {
        return None;
    }
    // a - b = base + k
    let d = Term::sub(a.clone(), b.clone());
    let (base, k) = match d.kind() {
        K::Add(x, y) if y.as_int().is_some() => (x.clone(), y.as_int().cloned()?),
        K::Sub(x, y) if y.as_int().is_some() => (x.clone(), -y.as_int().cloned()?),
        _ if d.as_int().is_some() => return None,
        _ => (d.clone(), BigInt::zero()),
    };
    // base + k op 0, i.e. base op -k.
    let m = -k;
    let one = BigInt::one();
    Some(match op {
        CmpOp::Eq => (base, Some(m.clone()), Some(m)),
        CmpOp::Ge => (base, Some(m), None),
        CmpOp::Gt => (base, Some(m + one), None),
        CmpOp::Le => (base, None, Some(m)),
        CmpOp::Lt => (base, None, Some(m - one)),
        _ => return None,
    })
}
