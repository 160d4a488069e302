//! Terms below a fold as people read them (issue 27). A fold's values and conditions are
//! built by substitution, so their arithmetic comes out as `κ1 + 1 + κ2 + 1 + (κ3 - 1) <
//! len(t)`, a store value as `κ1 * 100 + (κ1 + λ1)` and a return value as `κ1 + (10 - 2 *
//! (κ1 - 1) - 2)`; the "first iteration is in bounds" disjuncts as `(κ1 <= 0 or -len(t)
//! <= 0)`, which holds for every value. For display only, a term that mentions a fold's
//! symbol (κ, λ, ω or τ) is normalised ([`tidy`], [`shown`]):
//!
//! - linear integer arithmetic is collected: like terms summed (`κ1 * 101 + λ1`), the
//!   terms in order of first appearance, a coefficient after its term, the constant last
//!   (`κ1 + κ2 + 1`); a sum that starts with a subtraction starts with its first added
//!   term or constant instead (`10 - κ1`, `x - κ1`), and `x + -1` reads `x - 1`;
//! - a comparison's sides share no term and at most one side has a constant (`x - κ1 * 3
//!   + 3 >= 3` reads `x - κ1 * 3 >= 0`);
//! - a comparison that holds for every value (a bound over `len(..)`/`abs(..)` with
//!   non-negative coefficients and constant) becomes `True`, which [`super::readable`]
//!   drops from a path condition;
//! - every other operator keeps its place, its operands normalised (inside conditional
//!   values, tuples, indexes and quantifiers too).
//!
//! Every rewrite is an equivalence (a property test evaluates random terms before and
//! after under random values). The engine's terms and `--json`'s texts are the exact ones;
//! terms without a fold's symbol print as they are.

use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

use crate::term::{Sort, Sym, Term, TermKind as K};

/// Larger terms are printed as they are.
const MAX_NODES: u64 = 400;

/// Does `t` mention a fold's symbol (`k@n` κ, `l@n` λ, `w@n` ω, `j@n` τ)?
fn mentions_fold(t: &Term) -> bool {
    let mut vars = std::collections::BTreeSet::<Sym>::new();
    t.vars(&mut vars);
    vars.iter().any(|s| is_fold_symbol(&s.name))
}

fn is_fold_symbol(name: &str) -> bool {
    matches!(name.split_once('@'), Some(("k" | "l" | "w" | "j", n))
        if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// `t` normalised for display (an equivalent term) when it mentions a fold's symbol;
/// else `t`.
pub fn tidy(t: &Term) -> Term {
    if t.tree_size() > MAX_NODES || !mentions_fold(t) {
        return t.clone();
    }
    tidy_in(t)
}

/// The text of `t` as people read it: [`tidy`]'s term printed.
pub fn shown(t: &Term) -> String {
    tidy(t).to_string()
}

fn tidy_in(t: &Term) -> Term {
    let go = tidy_in;
    match t.kind() {
        K::Int(_) | K::Bool(_) | K::SeqEmpty | K::Var(_) => t.clone(),
        K::Add(..) | K::Sub(..) | K::Neg(_) | K::Mul(..) => collected(t),
        K::Cmp(op, a, b) if a.sort() == Sort::Int && !op.is_membership() => {
            let (l, r) = balanced(a, b);
            let cmp = Term::cmp(*op, l, r);
            if always(&cmp) {
                Term::bool(true)
            } else {
                cmp
            }
        }
        // `x in t` as `Term::member` builds it: left as it is (its shape prints `in`).
        K::Exists(..) if t.as_member().is_some() => t.clone(),
        K::Cmp(op, a, b) => Term::cmp(*op, go(a), go(b)),
        K::FloorDiv(a, b) => Term::floor_div(go(a), go(b)),
        K::Mod(a, b) => Term::modulo(go(a), go(b)),
        K::Abs(a) => Term::abs(go(a)),
        K::Min(a, b) => Term::min(go(a), go(b)),
        K::Max(a, b) => Term::max(go(a), go(b)),
        K::Not(x) => Term::not(go(x)),
        K::And(xs) => Term::and_all(xs.iter().map(go)),
        K::Or(xs) => Term::or_all(xs.iter().map(go)),
        K::Ite(c, a, b) => Term::ite(go(c), go(a), go(b)),
        K::SeqUnit(a) => Term::seq_unit(go(a)),
        K::Concat(a, b) => Term::concat(go(a), go(b)),
        K::Len(a) => Term::len(go(a)),
        K::Index(a, i) => Term::index(go(a), go(i)),
        K::Slice(a, lo, hi, step) => {
            Term::slice(go(a), lo.as_ref().map(go), hi.as_ref().map(go), go(step))
        }
        K::Forall(v, lo, hi, body) => Term::forall(v.clone(), go(lo), go(hi), go(body)),
        K::Exists(v, lo, hi, body) => Term::exists(v.clone(), go(lo), go(hi), go(body)),
    }
}

/// A linear integer term `Σ c·atom + constant`, atoms in order of first appearance.
#[derive(Default)]
struct Lin {
    terms: Vec<(Term, BigInt)>,
    constant: BigInt,
}

impl Lin {
    fn of(t: &Term) -> Lin {
        let mut lin = Lin::default();
        lin.add(t, &BigInt::one());
        lin.terms.retain(|(_, c)| !c.is_zero());
        lin
    }

    /// Add `k · t`.
    fn add(&mut self, t: &Term, k: &BigInt) {
        match t.kind() {
            K::Int(n) => self.constant += k * n,
            K::Neg(a) => self.add(a, &-k),
            K::Add(a, b) => {
                self.add(a, k);
                self.add(b, k);
            }
            K::Sub(a, b) => {
                self.add(a, k);
                self.add(b, &-k);
            }
            K::Mul(a, b) if a.as_int().is_some() => self.add(b, &(k * a.as_int().expect("int"))),
            K::Mul(a, b) if b.as_int().is_some() => self.add(a, &(k * b.as_int().expect("int"))),
            _ => {
                // An atom, its own operands normalised (`t[κ1 + 1 + κ2]`; a product of
                // two non-constants, each factor: `κ2 * max(n, 0)`).
                let atom = match t.kind() {
                    K::Mul(a, b) => Term::mul(collected(a), collected(b)),
                    _ => tidy_in(t),
                };
                // (a factor that folds to a constant: `κ1 * (0 * 0)` is 0)
                if let Some(n) = atom.as_int() {
                    self.constant += k * n;
                    return;
                }
                match self.terms.iter_mut().find(|(u, _)| *u == atom) {
                    Some((_, c)) => *c += k,
                    None => self.terms.push((atom, k.clone())),
                }
            }
        }
    }

    /// The sum as a term (see the module's rules for its order).
    fn build(mut self) -> Term {
        self.terms.retain(|(_, c)| !c.is_zero());
        // A sum starts with an added term, else with a positive constant.
        if let Some(p) = self.terms.iter().position(|(_, c)| c.is_positive()) {
            let first = self.terms.remove(p);
            self.terms.insert(0, first);
        }
        let lead_constant =
            self.terms.first().is_none_or(|(_, c)| c.is_negative()) && !self.constant.is_negative();
        let mut out: Option<Term> =
            lead_constant.then(|| Term::int(std::mem::take(&mut self.constant)));
        for (atom, c) in self.terms {
            let magnitude = |atom: Term| {
                if c.abs().is_one() {
                    atom
                } else {
                    Term::mul(atom, Term::int(c.abs()))
                }
            };
            out = Some(match out {
                None if c.is_negative() => magnitude(Term::neg(atom)),
                None => magnitude(atom),
                // (a leading 0 is dropped: `0 - κ1` reads `-κ1`)
                Some(acc) if acc.as_int().is_some_and(Zero::is_zero) && c.is_negative() => {
                    magnitude(Term::neg(atom))
                }
                Some(acc) if acc.as_int().is_some_and(Zero::is_zero) => magnitude(atom),
                Some(acc) if c.is_negative() => Term::sub(acc, magnitude(atom)),
                Some(acc) => Term::add(acc, magnitude(atom)),
            });
        }
        let acc = out.unwrap_or_else(|| Term::int(0));
        if self.constant.is_zero() {
            acc
        } else if self.constant.is_negative() {
            Term::sub(acc, Term::int(-self.constant))
        } else {
            Term::add(acc, Term::int(self.constant))
        }
    }
}

/// Like terms collected: see [`Lin::build`].
fn collected(t: &Term) -> Term {
    Lin::of(t).build()
}

/// The sides of a comparison `a ? b` collected, a term on one side only (where its
/// coefficient is positive) and the constant on one side only (the right, unless only
/// the left has one).
fn balanced(a: &Term, b: &Term) -> (Term, Term) {
    let (mut l, mut r) = (Lin::of(a), Lin::of(b));
    for (atom, c) in &mut l.terms {
        if let Some((_, d)) = r.terms.iter_mut().find(|(u, _)| u == atom) {
            let net = std::mem::take(c) - std::mem::take(d);
            if net.is_positive() {
                *c = net;
            } else {
                *d = -net;
            }
        }
    }
    if !l.constant.is_zero() && !r.constant.is_zero() {
        r.constant -= std::mem::take(&mut l.constant);
    }
    (l.build(), r.build())
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
    let mut d = Lin::default();
    d.add(big, &BigInt::one());
    d.add(small, &-BigInt::one());
    d.terms.retain(|(_, c)| !c.is_zero());
    d.constant >= BigInt::from(strict)
        && d.terms
            .iter()
            .all(|(u, c)| !c.is_negative() && matches!(u.kind(), K::Len(_) | K::Abs(_)))
}

#[cfg(test)]
#[path = "readable_fold_tests.rs"]
mod tests;
