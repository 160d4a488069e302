//! What makes a path condition hard for the solver, found on the terms themselves.
//!
//! An `unknown` answer has no unsat core; what can be said is which conjuncts hold the
//! constructs that take Z3 out of its decision procedures for linear integer arithmetic
//! with uninterpreted functions (the encoding of `solver/translate.rs`):
//! - a **quantifier** the translation keeps: `all`/`any` over a range that is not a
//!   constant range of at most [`UNROLL_LIMIT`] values (those are unrolled);
//! - a **nonlinear product**: `a * b` with neither operand a constant;
//! - a **symbolic divisor**: `a // b` or `a % b` with `b` not a constant;
//! - a **tuple equality with a symbolic length**: `t == u` (or `!=`) where neither side has
//!   a constant length of at most [`EQ_UNROLL_LIMIT`] (the translation then compares the
//!   elements under a quantifier).
//!
//! The two limits are the translation's own (`solver/translate.rs` imports them from here),
//! so a feature is reported exactly when the translation produces the hard construct.
//!
//! [`split_parts`] splits conjuncts that are `and`s into their parts (what an unsat core
//! is made of), keeping each part's conjunct index.

use std::collections::HashSet;

use num_traits::ToPrimitive;

use super::{Term, TermKind as K};
use crate::lang::ast::CmpOp;

/// Quantifiers over constant ranges of at most this many values are unrolled by the
/// translation to Z3 (no quantifier reaches the solver).
pub const UNROLL_LIMIT: usize = 16;

/// Tuple equalities with a constant length up to this are compared element by element by
/// the translation (beyond, with a quantifier).
pub const EQ_UNROLL_LIMIT: usize = 256;

/// The kinds of hard constructs (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FeatureKind {
    /// `all(...)`/`any(...)` kept as a quantifier.
    Quantifier,
    /// A product of two non-constant terms.
    Nonlinear,
    /// `//` or `%` by a non-constant divisor.
    SymbolicDivisor,
    /// Tuple (in)equality without a small constant length.
    TupleEquality,
}

impl FeatureKind {
    /// A short name for people: "quantifier", "nonlinear", ...
    pub fn name(self) -> &'static str {
        match self {
            FeatureKind::Quantifier => "quantifier",
            FeatureKind::Nonlinear => "nonlinear",
            FeatureKind::SymbolicDivisor => "symbolic divisor",
            FeatureKind::TupleEquality => "tuple equality with a symbolic length",
        }
    }
}

/// One hard construct: its kind, the subterm, and the index of the conjunct it is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feature {
    pub kind: FeatureKind,
    pub term: Term,
    pub conjunct: usize,
}

impl std::fmt::Display for Feature {
    /// `nonlinear: x * x`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.term)
    }
}

/// The hard constructs of each conjunct, in conjunct order (within a conjunct: outermost
/// first, each distinct subterm once).
pub fn features(conjuncts: &[Term]) -> Vec<Feature> {
    let mut out = Vec::new();
    for (i, c) in conjuncts.iter().enumerate() {
        for (kind, term) in term_features(c) {
            out.push(Feature {
                kind,
                term,
                conjunct: i,
            });
        }
    }
    out
}

/// The hard constructs in one term: outermost first, each distinct subterm once. Walks the
/// DAG (shared subterms once) without recursion.
pub fn term_features(t: &Term) -> Vec<(FeatureKind, Term)> {
    let mut out = Vec::new();
    let mut seen: HashSet<Term> = HashSet::new();
    let mut todo = vec![t.clone()];
    while let Some(t) = todo.pop() {
        if !seen.insert(t.clone()) {
            continue;
        }
        if let Some(kind) = feature_of(&t) {
            out.push((kind, t.clone()));
        }
        let mut children = Vec::new();
        t.kind().for_each_child(|c| children.push(c.clone()));
        // Reversed: the work list pops the first child first.
        todo.extend(children.into_iter().rev());
    }
    out
}

/// Is this node (not its subterms) a hard construct?
pub fn feature_of(t: &Term) -> Option<FeatureKind> {
    let constant = |x: &Term| x.as_int().is_some();
    match t.kind() {
        K::Forall(_, lo, hi, _) | K::Exists(_, lo, hi, _) => {
            let unrolled = match (lo.as_int(), hi.as_int()) {
                (Some(l), Some(h)) => (h - l).to_usize().is_none_or(|n| n <= UNROLL_LIMIT),
                _ => false,
            };
            (!unrolled).then_some(FeatureKind::Quantifier)
        }
        K::Mul(a, b) if !constant(a) && !constant(b) => Some(FeatureKind::Nonlinear),
        K::FloorDiv(_, b) | K::Mod(_, b) if !constant(b) => Some(FeatureKind::SymbolicDivisor),
        // `t[a:b:c]` with a symbolic `c` reads `t[start + k * c]` and divides by `c`.
        K::Slice(_, _, _, step) if !constant(step) => Some(FeatureKind::Nonlinear),
        K::Cmp(CmpOp::Eq | CmpOp::Ne, a, b) if a.sort() == super::Sort::Seq => {
            let small = |x: &Term| {
                Term::len(x.clone())
                    .as_int()
                    .and_then(|n| n.to_usize())
                    .is_some_and(|n| n <= EQ_UNROLL_LIMIT)
            };
            (!small(a) && !small(b)).then_some(FeatureKind::TupleEquality)
        }
        _ => None,
    }
}

/// The parts of a conjunction: each conjunct that is an `and` split into its conjuncts
/// (recursively), others kept whole; each part with the index of the conjunct it came from.
/// `True` parts are dropped (they constrain nothing).
pub fn split_parts(conjuncts: &[Term]) -> Vec<(usize, Term)> {
    let mut out = Vec::new();
    for (i, c) in conjuncts.iter().enumerate() {
        let mut todo = vec![c.clone()];
        while let Some(t) = todo.pop() {
            match t.kind() {
                K::And(xs) => todo.extend(xs.iter().rev().cloned()),
                K::Bool(true) => {}
                _ => out.push((i, t)),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{Sort, Sym};

    fn v(name: &str) -> Term {
        Term::var(Sym::new(name, Sort::Int))
    }
    fn s(name: &str) -> Term {
        Term::var(Sym::new(name, Sort::Seq))
    }
    fn kinds(t: &Term) -> Vec<FeatureKind> {
        term_features(t).into_iter().map(|(k, _)| k).collect()
    }

    #[test]
    fn products_of_two_symbolic_terms_are_nonlinear() {
        let (x, y) = (v("x"), v("y"));
        // x * x == y * y + 17
        let c = Term::eq(
            Term::mul(x.clone(), x.clone()),
            Term::add(Term::mul(y.clone(), y.clone()), Term::int(17)),
        );
        let f = term_features(&c);
        assert_eq!(f.len(), 2);
        assert!(f.iter().all(|(k, _)| *k == FeatureKind::Nonlinear));
        assert_eq!(f[0].1.to_string(), "x * x");
        assert_eq!(f[1].1.to_string(), "y * y");
        // A constant factor is linear.
        assert!(kinds(&Term::gt(Term::mul(Term::int(3), x.clone()), y.clone())).is_empty());
        // Shared subterms are reported once.
        let p = Term::mul(x.clone(), y.clone());
        let twice = Term::lt(p.clone(), Term::add(p.clone(), Term::int(1)));
        assert_eq!(kinds(&twice), vec![FeatureKind::Nonlinear]);
    }

    #[test]
    fn divisions_by_symbols_and_quantifiers_and_tuple_equalities() {
        let (x, y, k) = (v("x"), v("y"), Sym::new("k", Sort::Int));
        assert_eq!(
            kinds(&Term::eq(
                Term::floor_div(x.clone(), y.clone()),
                Term::int(2)
            )),
            vec![FeatureKind::SymbolicDivisor]
        );
        assert_eq!(
            kinds(&Term::eq(Term::modulo(x.clone(), y.clone()), Term::int(0))),
            vec![FeatureKind::SymbolicDivisor]
        );
        assert!(kinds(&Term::eq(
            Term::modulo(x.clone(), Term::int(3)),
            Term::int(0)
        ))
        .is_empty());
        let t = s("t");
        let body = Term::gt(Term::index(t.clone(), Term::var(k.clone())), Term::int(0));
        let q = Term::forall(k.clone(), Term::int(0), Term::len(t.clone()), body.clone());
        assert_eq!(kinds(&q), vec![FeatureKind::Quantifier]);
        // A small constant range is unrolled: no quantifier reaches Z3.
        let small = Term::forall(k.clone(), Term::int(0), Term::int(3), body.clone());
        assert!(!kinds(&small).contains(&FeatureKind::Quantifier));
        let big = Term::exists(k, Term::int(0), Term::int(100), body);
        assert_eq!(kinds(&big), vec![FeatureKind::Quantifier]);
        let u = s("u");
        assert_eq!(
            kinds(&Term::eq(t.clone(), u.clone())),
            vec![FeatureKind::TupleEquality]
        );
        let display = Term::tuple(vec![x.clone(), y.clone()]);
        assert!(kinds(&Term::ne(t, display)).is_empty());
    }

    #[test]
    fn features_carry_their_conjunct_and_parts_split_ands() {
        let (x, y) = (v("x"), v("y"));
        let pc = vec![
            Term::gt(x.clone(), Term::int(0)),
            Term::and(
                Term::lt(y.clone(), Term::int(5)),
                Term::eq(Term::mul(x.clone(), y.clone()), Term::int(6)),
            ),
        ];
        let f = features(&pc);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].conjunct, 1);
        assert_eq!(f[0].to_string(), "nonlinear: x * y");
        let parts = split_parts(&pc);
        let idx: Vec<usize> = parts.iter().map(|(i, _)| *i).collect();
        assert_eq!(idx, vec![0, 1, 1]);
        assert_eq!(parts[1].1.to_string(), "y < 5");
        assert_eq!(Term::and_all(parts.iter().map(|(_, t)| t.clone())), {
            Term::and_all(pc.clone())
        });
    }
}
