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
