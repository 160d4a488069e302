//! The smart constructors of [`Term`]: each simplifies on the fly.
//!
//! The rewrites are all exact (they hold for every value of the symbols, including the
//! "meaningless" cases: `x // 0` stays a term, it is never folded). Constants are folded
//! with [`crate::semantics`], so Python's flooring `//` and `%` cannot drift from the
//! concrete interpreter. Sums keep one constant offset on the right (`n - 1 - 1` is
//! `n - 2`), `and`/`or` are flattened and deduplicated, tuple concatenation is kept
//! right-nested so `len` and constant indexing see through tuple displays.
//! (`1 + x` becomes `x + 1`: constants go right, which also makes equal sums equal terms.)

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

use super::{negate_cmp, Sort, Sym, Term, TermKind};
use crate::base::FastSet;
use crate::lang::ast::CmpOp;
use crate::semantics;

use TermKind as K;

/// Is `a` syntactically a multiple of `b` (`b`, or a product with a factor `b`)?
fn multiple_of(a: &Term, b: &Term) -> bool {
    a == b
        || match a.kind() {
            K::Mul(x, y) => multiple_of(x, b) || multiple_of(y, b),
            K::Neg(x) => multiple_of(x, b),
            _ => false,
        }
}

/// Both constants are short enough to multiply or divide (see [`super::MAX_INT_BITS`]);
/// otherwise the operation stays a term, and the step that built it ends as `unknown`.
fn foldable(x: &BigInt, y: &BigInt) -> bool {
    x.bits().max(y.bits()) <= super::MAX_INT_BITS
}

fn is_int(t: &Term, v: i64) -> bool {
    t.as_int().is_some_and(|i| *i == BigInt::from(v))
}

/// `a` as `base + c` (`x + 3` is `(x, 3)`, `x - 3` is `(x, -3)`, anything else `(a, 0)`).
fn split_offset(a: &Term) -> (Term, BigInt) {
    match a.kind() {
        K::Add(x, c) if c.as_int().is_some() => (x.clone(), c.as_int().unwrap().clone()),
        K::Sub(x, c) if c.as_int().is_some() => (x.clone(), -c.as_int().unwrap()),
        _ => (a.clone(), BigInt::zero()),
    }
}

/// `base + k`, printed `base - |k|` when `k < 0` (`base` is not a constant).
fn offset(base: Term, k: BigInt) -> Term {
    if k.is_zero() {
        base
    } else if k.is_negative() {
        Term::mk(K::Sub(base, Term::int(-k)))
    } else {
        Term::mk(K::Add(base, Term::int(k)))
    }
}

/// The parts of a tuple concatenation (nested either way), left to right; `()`s dropped.
pub fn segments(t: &Term) -> Vec<&Term> {
    let mut out = Vec::new();
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        match t.kind() {
            K::Concat(a, b) => {
                stack.push(b);
                stack.push(a);
            }
            K::SeqEmpty => {}
            _ => out.push(t),
        }
    }
    out
}

/// The length of a tuple display like `(x, 1)` (elements may be symbolic).
fn known_len(t: &Term) -> Option<usize> {
    let segs = segments(t);
    segs.iter()
        .all(|s| matches!(s.kind(), K::SeqUnit(_)))
        .then_some(segs.len())
}

// The names mirror minipy's operators (`Term::add(a, b)` is `a + b`); they take two terms
// rather than `self`, so they are constructors, not the `std::ops` methods.
#[allow(clippy::should_implement_trait)]
impl Term {
    pub fn int(i: impl Into<BigInt>) -> Term {
        Term::mk(K::Int(i.into()))
    }

    pub fn bool(b: bool) -> Term {
        Term::mk(K::Bool(b))
    }

    pub fn var(sym: Sym) -> Term {
        Term::mk(K::Var(sym))
    }

    pub fn neg(a: Term) -> Term {
        match a.kind() {
            K::Int(i) => Term::int(-i),
            K::Neg(x) => x.clone(),
            _ => Term::mk(K::Neg(a)),
        }
    }

    pub fn add(a: Term, b: Term) -> Term {
        debug_assert!(a.sort() == Sort::Int && b.sort() == Sort::Int);
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => return Term::int(x + y),
            (Some(x), None) if x.is_zero() => return b,
            (None, Some(y)) => {
                let (base, c) = split_offset(&a);
                return offset(base, c + y);
            }
            (Some(x), None) => {
                // `1 + x` is `x + 1`: the constant offset goes to the right.
                let (base, c) = split_offset(&b);
                return offset(base, c + x);
            }
            (None, None) => {}
        }
        if let K::Neg(y) = b.kind() {
            return Term::sub(a, y.clone());
        }
        Term::mk(K::Add(a, b))
    }

    pub fn sub(a: Term, b: Term) -> Term {
        debug_assert!(a.sort() == Sort::Int && b.sort() == Sort::Int);
        if a == b {
            return Term::int(0);
        }
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => return Term::int(x - y),
            (Some(x), None) if x.is_zero() => return Term::neg(b),
            (None, Some(y)) => {
                let (base, c) = split_offset(&a);
                return offset(base, c - y);
            }
            _ => {}
        }
        if let K::Neg(y) = b.kind() {
            return Term::add(a, y.clone());
        }
        Term::mk(K::Sub(a, b))
    }

    pub fn mul(a: Term, b: Term) -> Term {
        debug_assert!(a.sort() == Sort::Int && b.sort() == Sort::Int);
        if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
            if foldable(x, y) {
                return Term::int(x * y);
            }
        }
        for (c, other) in [(&a, &b), (&b, &a)] {
            if is_int(c, 0) {
                return Term::int(0);
            }
            if is_int(c, 1) {
                return other.clone();
            }
            if is_int(c, -1) {
                return Term::neg(other.clone());
            }
        }
        Term::mk(K::Mul(a, b))
    }

    /// Python's `a // b`.
    pub fn floor_div(a: Term, b: Term) -> Term {
        debug_assert!(a.sort() == Sort::Int && b.sort() == Sort::Int);
        if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
            if foldable(x, y) {
                if let Ok(q) = semantics::floor_div(x, y) {
                    return Term::int(q);
                }
            }
        }
        if is_int(&b, 1) {
            return a;
        }
        if is_int(&b, -1) {
            return Term::neg(a);
        }
        // `(x * b) // b` is x exactly (b == 0 raises before the value is used).
        if let K::Mul(x, y) = a.kind() {
            if *y == b {
                return x.clone();
            }
            if *x == b {
                return y.clone();
            }
        }
        Term::mk(K::FloorDiv(a, b))
    }

    /// Python's `a % b`.
    pub fn modulo(a: Term, b: Term) -> Term {
        debug_assert!(a.sort() == Sort::Int && b.sort() == Sort::Int);
        if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
            if foldable(x, y) {
                if let Ok(r) = semantics::floor_mod(x, y) {
                    return Term::int(r);
                }
            }
        }
        if is_int(&b, 1) || is_int(&b, -1) {
            return Term::int(0);
        }
        // A multiple of b leaves no remainder; `(a % b) % b` is `a % b`. (At b == 0 the
        // value is never used: evaluation raises ZeroDivisionError on that path. Z3 cannot
        // see these with a symbolic b: its nonlinear arithmetic gives up.)
        if multiple_of(&a, &b) {
            return Term::int(0);
        }
        if matches!(a.kind(), K::Mod(_, m) if *m == b) {
            return a;
        }
        Term::mk(K::Mod(a, b))
    }

    pub fn abs(a: Term) -> Term {
        match a.kind() {
            K::Int(i) => Term::int(semantics::abs(i)),
            K::Abs(_) => a,
            K::Neg(x) => Term::abs(x.clone()),
            _ => Term::mk(K::Abs(a)),
        }
    }

    pub fn min(a: Term, b: Term) -> Term {
        if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
            return Term::int(semantics::min(x, y));
        }
        if a == b {
            return a;
        }
        Term::mk(K::Min(a, b))
    }

    pub fn max(a: Term, b: Term) -> Term {
        if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
            return Term::int(semantics::max(x, y));
        }
        if a == b {
            return a;
        }
        Term::mk(K::Max(a, b))
    }

    pub fn not(a: Term) -> Term {
        debug_assert_eq!(a.sort(), Sort::Bool);
        match a.kind() {
            K::Bool(b) => Term::bool(!b),
            K::Not(x) => x.clone(),
            K::Cmp(op, x, y) => Term::cmp(negate_cmp(*op), x.clone(), y.clone()),
            _ => Term::mk(K::Not(a)),
        }
    }

    pub fn and(a: Term, b: Term) -> Term {
        Term::and_all([a, b])
    }

    pub fn or(a: Term, b: Term) -> Term {
        Term::or_all([a, b])
    }

    /// The conjunction, flattened, without duplicates; `False` if it contains `x` and
    /// `not x` (or `a < b` and `a >= b`).
    pub fn and_all(items: impl IntoIterator<Item = Term>) -> Term {
        junction(items, true)
    }

    /// The disjunction, flattened, without duplicates; `True` if it contains `x` and `not x`.
    pub fn or_all(items: impl IntoIterator<Item = Term>) -> Term {
        junction(items, false)
    }

    pub fn implies(a: Term, b: Term) -> Term {
        Term::or(Term::not(a), b)
    }

    pub fn ite(c: Term, a: Term, b: Term) -> Term {
        debug_assert_eq!(c.sort(), Sort::Bool);
        debug_assert_eq!(a.sort(), b.sort());
        if let Some(c) = c.as_bool() {
            return if c { a } else { b };
        }
        if a == b {
            return a;
        }
        if let K::Not(c) = c.kind() {
            return Term::ite(c.clone(), b, a);
        }
        // `(p if c else q) if c else r` is `p if c else r` (and likewise in the else side).
        if let K::Ite(c2, p, _) = a.kind() {
            if *c2 == c {
                return Term::ite(c, p.clone(), b);
            }
        }
        if let K::Ite(c2, _, q) = b.kind() {
            if *c2 == c {
                return Term::ite(c, a, q.clone());
            }
        }
        if a.sort() == Sort::Bool {
            match (a.as_bool(), b.as_bool()) {
                (Some(true), _) => return Term::or(c, b),
                (Some(false), _) => return Term::and(Term::not(c), b),
                (_, Some(false)) => return Term::and(c, a),
                (_, Some(true)) => return Term::or(Term::not(c), a),
                _ => {}
            }
        }
        Term::mk(K::Ite(c, a, b))
    }

    pub fn cmp(op: CmpOp, a: Term, b: Term) -> Term {
        if op.is_membership() {
            let m = Term::member(a, b);
            return if op == CmpOp::In { m } else { Term::not(m) };
        }
        debug_assert_eq!(a.sort(), b.sort(), "{a} {} {b}", op.symbol());
        debug_assert!(a.sort() == Sort::Int || matches!(op, CmpOp::Eq | CmpOp::Ne));
        if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
            return Term::bool(semantics::int_compare(op, x, y));
        }
        if a == b {
            return Term::bool(matches!(op, CmpOp::Eq | CmpOp::Le | CmpOp::Ge));
        }
        let eq = match op {
            CmpOp::Eq => true,
            CmpOp::Ne => false,
            _ => return Term::mk(K::Cmp(op, a, b)),
        };
        match a.sort() {
            Sort::Bool => {
                // `x == True` is `x`, `x != True` is `not x`, ...
                for (c, other) in [(&a, &b), (&b, &a)] {
                    if let Some(k) = c.as_bool() {
                        return if k == eq {
                            other.clone()
                        } else {
                            Term::not(other.clone())
                        };
                    }
                }
            }
            Sort::Seq => {
                if let (Some(x), Some(y)) = (a.as_tuple(), b.as_tuple()) {
                    return Term::bool((x == y) == eq);
                }
                if let (Some(m), Some(n)) = (known_len(&a), known_len(&b)) {
                    if m != n {
                        return Term::bool(!eq);
                    }
                }
            }
            Sort::Int => {}
        }
        Term::mk(K::Cmp(op, a, b))
    }

    pub fn eq(a: Term, b: Term) -> Term {
        Term::cmp(CmpOp::Eq, a, b)
    }

    pub fn ne(a: Term, b: Term) -> Term {
        Term::cmp(CmpOp::Ne, a, b)
    }

    pub fn lt(a: Term, b: Term) -> Term {
        Term::cmp(CmpOp::Lt, a, b)
    }

    pub fn le(a: Term, b: Term) -> Term {
        Term::cmp(CmpOp::Le, a, b)
    }

    pub fn gt(a: Term, b: Term) -> Term {
        Term::cmp(CmpOp::Gt, a, b)
    }

    pub fn ge(a: Term, b: Term) -> Term {
        Term::cmp(CmpOp::Ge, a, b)
    }

    /// `()`.
    pub fn seq_empty() -> Term {
        Term::mk(K::SeqEmpty)
    }

    /// `(a,)`.
    pub fn seq_unit(a: Term) -> Term {
        debug_assert_eq!(a.sort(), Sort::Int);
        Term::mk(K::SeqUnit(a))
    }

    /// `a + b` on tuples.
    pub fn concat(a: Term, b: Term) -> Term {
        debug_assert!(a.sort() == Sort::Seq && b.sort() == Sort::Seq);
        match (a.kind(), b.kind()) {
            (K::SeqEmpty, _) => b,
            (_, K::SeqEmpty) => a,
            // (Not re-associated: `t + (x,)` repeated would copy `t`'s spine each time,
            // quadratic memory over a path.)
            _ => Term::mk(K::Concat(a, b)),
        }
    }

    /// The tuple display `(items[0], items[1], ...)`: a concatenation of units.
    pub fn tuple(items: Vec<Term>) -> Term {
        items.into_iter().rev().fold(Term::seq_empty(), |acc, x| {
            Term::concat(Term::seq_unit(x), acc)
        })
    }

    pub fn len(t: Term) -> Term {
        debug_assert_eq!(t.sort(), Sort::Seq);
        match t.kind() {
            K::SeqEmpty => Term::int(0),
            K::SeqUnit(_) => Term::int(1),
            K::Concat(a, b) => Term::add(Term::len(a.clone()), Term::len(b.clone())),
            // `t[::-1]` (and `t[::1]`) has the length of `t`.
            K::Slice(s, None, None, step)
                if step.as_int().is_some_and(|k| k.magnitude() == &1u32.into()) =>
            {
                Term::len(s.clone())
            }
            _ => Term::mk(K::Len(t)),
        }
    }

    /// Python's `t[i]` (negative `i` counts from the end).
    pub fn index(t: Term, i: Term) -> Term {
        debug_assert!(t.sort() == Sort::Seq && i.sort() == Sort::Int);
        if let Some(k) = i.as_int() {
            let segs = segments(&t);
            let found = if k.is_negative() {
                (-k - 1u32)
                    .to_usize()
                    .and_then(|p| unit_at(segs.iter().rev(), p))
            } else {
                k.to_usize().and_then(|p| unit_at(segs.iter(), p))
            };
            if let Some(x) = found {
                return x;
            }
        }
        Term::mk(K::Index(t, i))
    }

    /// `-len(t) <= i < len(t)`: `t[i]` does not raise `IndexError`.
    pub fn in_bounds(t: Term, i: Term) -> Term {
        let n = Term::len(t);
        match i.as_int() {
            Some(k) if !k.is_negative() => Term::lt(i, n),
            Some(k) => Term::ge(n, Term::int(-k)),
            None => Term::and(Term::le(Term::neg(n.clone()), i.clone()), Term::lt(i, n)),
        }
    }

    /// `all(body for var in range(lo, hi))`.
    pub fn forall(var: Sym, lo: Term, hi: Term, body: Term) -> Term {
        debug_assert_eq!(var.sort, Sort::Int);
        if body.is_true() || empty_range(&lo, &hi) {
            return Term::bool(true);
        }
        Term::mk(K::Forall(var, lo, hi, body))
    }

    /// `any(body for var in range(lo, hi))`.
    pub fn exists(var: Sym, lo: Term, hi: Term, body: Term) -> Term {
        debug_assert_eq!(var.sort, Sort::Int);
        if body.is_false() || empty_range(&lo, &hi) {
            return Term::bool(false);
        }
        Term::mk(K::Exists(var, lo, hi, body))
    }
}

fn empty_range(lo: &Term, hi: &Term) -> bool {
    matches!((lo.as_int(), hi.as_int()), (Some(lo), Some(hi)) if lo >= hi)
}

/// Junctions of at most this many parts are deduplicated and checked for complements by
/// comparing pairs, without a hash set (most have one or two parts: an edge's condition,
/// a guard).
const SMALL_JUNCTION: usize = 8;

/// `and` (`conj`) or `or` of `items`.
fn junction(items: impl IntoIterator<Item = Term>, conj: bool) -> Term {
    let mut out: Vec<Term> = Vec::new();
    // Filled once `out` outgrows SMALL_JUNCTION (until then `out` is searched).
    let mut seen: FastSet<Term> = FastSet::default();
    let mut add = |t: &Term, out: &mut Vec<Term>| {
        let new = if seen.is_empty() {
            let new = !out.contains(t);
            if new && out.len() == SMALL_JUNCTION {
                seen.extend(out.iter().cloned());
                seen.insert(t.clone());
            }
            new
        } else {
            seen.insert(t.clone())
        };
        if new {
            out.push(t.clone());
        }
    };
    for t in items {
        debug_assert_eq!(t.sort(), Sort::Bool);
        match (t.kind(), conj) {
            (K::Bool(b), _) if *b == conj => {}
            (K::Bool(_), _) => return Term::bool(!conj),
            (K::And(xs), true) | (K::Or(xs), false) => {
                for x in xs {
                    add(x, &mut out);
                }
            }
            _ => add(&t, &mut out),
        }
    }
    // `x and not x` is False, `x or not x` is True.
    if has_complements(&out) {
        return Term::bool(!conj);
    }
    match out.len() {
        0 => Term::bool(conj),
        1 => out.pop().unwrap(),
        _ if conj => Term::mk(K::And(out)),
        _ => Term::mk(K::Or(out)),
    }
}

/// Does `parts` (distinct terms) hold some `t` and its complement (`not t`'s operand, a
/// comparison with the negated operator)?
fn has_complements(parts: &[Term]) -> bool {
    if parts.len() < 2 {
        return false;
    }
    if parts.len() <= SMALL_JUNCTION {
        // Pairwise, as the set below: `u` equal to the complement of `t`.
        return parts.iter().any(|t| {
            parts.iter().any(|u| match (t.kind(), u.kind()) {
                (K::Not(x), _) => x == u,
                (K::Cmp(op, a, b), K::Cmp(op2, a2, b2)) => {
                    *op2 == negate_cmp(*op) && a == a2 && b == b2
                }
                _ => false,
            })
        });
    }
    let seen: FastSet<&Term> = parts.iter().collect();
    let complement = |t: &Term| match t.kind() {
        K::Not(x) => Some(x.clone()),
        K::Cmp(op, a, b) => Some(Term::mk(K::Cmp(negate_cmp(*op), a.clone(), b.clone()))),
        _ => None,
    };
    parts
        .iter()
        .filter_map(complement)
        .any(|c| seen.contains(&c))
}

/// The element at `pos` of a sequence of segments, if all segments up to it are units.
fn unit_at<'a>(segs: impl Iterator<Item = &'a &'a Term>, pos: usize) -> Option<Term> {
    for (n, s) in segs.enumerate() {
        match s.kind() {
            K::SeqUnit(x) if n == pos => return Some(x.clone()),
            K::SeqUnit(_) => {}
            _ => return None,
        }
    }
    None
}
