//! A solver-free refutation of `pc ∧ F` (the directed search's pruning check): the
//! conjuncts of the path condition taken as facts, the failure formula evaluated under
//! them in three values, integers as intervals. A merged state's counter
//! (`s = ite(x2 > 0, ite(x1 > 0, 1, 0) + 1, ...)`) has an interval, so `s == 0` on a
//! path that took one increment is refuted here, without Z3 (which needs milliseconds for
//! each such check: it splits the `ite`s). Sound, incomplete: `false` only when no
//! assignment satisfies the facts and the formula; `None` (undecided) otherwise.

use std::collections::HashMap;

use num_traits::ToPrimitive;

use crate::lang::CmpOp;
use crate::term::{Sym, Term, TermKind as K};

/// An integer interval, `None` for an unbounded side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Range {
    lo: Option<i128>,
    hi: Option<i128>,
}

const ANY: Range = Range { lo: None, hi: None };

impl Range {
    fn point(k: i128) -> Range {
        Range {
            lo: Some(k),
            hi: Some(k),
        }
    }

    fn hull(self, o: Range) -> Range {
        Range {
            lo: self.lo.zip(o.lo).map(|(a, b)| a.min(b)),
            hi: self.hi.zip(o.hi).map(|(a, b)| a.max(b)),
        }
    }

    fn meet(self, o: Range) -> Range {
        let pick = |a: Option<i128>, b: Option<i128>, f: fn(i128, i128) -> i128| match (a, b) {
            (Some(a), Some(b)) => Some(f(a, b)),
            (a, None) => a,
            (None, b) => b,
        };
        Range {
            lo: pick(self.lo, o.lo, i128::max),
            hi: pick(self.hi, o.hi, i128::min),
        }
    }

    fn add(self, o: Range) -> Range {
        let f = |a: Option<i128>, b: Option<i128>| a.zip(b).and_then(|(a, b)| a.checked_add(b));
        Range {
            lo: f(self.lo, o.lo),
            hi: f(self.hi, o.hi),
        }
    }

    fn neg(self) -> Range {
        Range {
            lo: self.hi.and_then(i128::checked_neg),
            hi: self.lo.and_then(i128::checked_neg),
        }
    }
}

/// Facts (the path condition's conjuncts) and what was evaluated under them.
pub(super) struct Facts {
    truth: HashMap<Term, bool>,
    vars: HashMap<Sym, Range>,
    bools: HashMap<Term, Option<bool>>,
    ints: HashMap<Term, Range>,
}

impl Facts {
    pub(super) fn new<'a>(conjuncts: impl Iterator<Item = &'a Term>) -> Facts {
        let mut facts = Facts {
            truth: HashMap::new(),
            vars: HashMap::new(),
            bools: HashMap::new(),
            ints: HashMap::new(),
        };
        for c in conjuncts {
            facts.assume(c);
        }
        facts
    }

    fn assume(&mut self, c: &Term) {
        if let K::And(xs) = c.kind() {
            xs.iter().for_each(|x| self.assume(x));
            return;
        }
        self.truth.insert(c.clone(), true);
        self.truth.insert(Term::not(c.clone()), false);
        if let K::Cmp(op, a, b) = c.kind() {
            let bound = |op: CmpOp, k: i128| match op {
                CmpOp::Eq => Some(Range::point(k)),
                CmpOp::Lt => k.checked_sub(1).map(|h| Range {
                    lo: None,
                    hi: Some(h),
                }),
                CmpOp::Le => Some(Range {
                    lo: None,
                    hi: Some(k),
                }),
                CmpOp::Gt => k.checked_add(1).map(|l| Range {
                    lo: Some(l),
                    hi: None,
                }),
                CmpOp::Ge => Some(Range {
                    lo: Some(k),
                    hi: None,
                }),
                _ => None,
            };
            let flipped = |op: CmpOp| match op {
                CmpOp::Lt => CmpOp::Gt,
                CmpOp::Le => CmpOp::Ge,
                CmpOp::Gt => CmpOp::Lt,
                CmpOp::Ge => CmpOp::Le,
                o => o,
            };
            let (v, op, k) = match (a.kind(), b.kind()) {
                (K::Var(v), K::Int(k)) => (v, *op, k),
                (K::Int(k), K::Var(v)) => (v, flipped(*op), k),
                _ => return,
            };
            if let Some(r) = k.to_i128().and_then(|k| bound(op, k)) {
                let now = self.vars.get(v).copied().unwrap_or(ANY).meet(r);
                self.vars.insert(v.clone(), now);
            }
        }
    }

    /// Is `t` refuted: false under every assignment that satisfies the facts?
    pub(super) fn refutes(&mut self, t: &Term) -> bool {
        self.truth(t) == Some(false)
    }

    fn truth(&mut self, t: &Term) -> Option<bool> {
        if let Some(&b) = self.truth.get(t) {
            return Some(b);
        }
        if let Some(&b) = self.bools.get(t) {
            return b;
        }
        let b = match t.kind() {
            K::Bool(b) => Some(*b),
            K::Not(a) => self.truth(a).map(|b| !b),
            K::And(xs) => {
                let mut all = Some(true);
                for x in xs {
                    match self.truth(x) {
                        Some(false) => {
                            all = Some(false);
                            break;
                        }
                        None => all = None,
                        Some(true) => {}
                    }
                }
                all
            }
            K::Or(xs) => {
                let mut any = Some(false);
                for x in xs {
                    match self.truth(x) {
                        Some(true) => {
                            any = Some(true);
                            break;
                        }
                        None => any = None,
                        Some(false) => {}
                    }
                }
                any
            }
            K::Ite(c, a, b) => match self.truth(c) {
                Some(true) => self.truth(a),
                Some(false) => self.truth(b),
                None => match (self.truth(a), self.truth(b)) {
                    (Some(x), Some(y)) if x == y => Some(x),
                    _ => None,
                },
            },
            K::Cmp(op, a, b) if a.sort() == crate::term::Sort::Int => {
                let (x, y) = (self.range(a), self.range(b));
                compare(*op, x, y)
            }
            _ => None,
        };
        self.bools.insert(t.clone(), b);
        b
    }

    fn range(&mut self, t: &Term) -> Range {
        if let Some(&r) = self.ints.get(t) {
            return r;
        }
        let r = match t.kind() {
            K::Int(k) => k.to_i128().map_or(ANY, Range::point),
            K::Var(v) => self.vars.get(v).copied().unwrap_or(ANY),
            K::Neg(a) => self.range(a).neg(),
            K::Add(a, b) => {
                let (x, y) = (self.range(a), self.range(b));
                x.add(y)
            }
            K::Sub(a, b) => {
                let (x, y) = (self.range(a), self.range(b));
                x.add(y.neg())
            }
            K::Ite(c, a, b) => match self.truth(c) {
                Some(true) => self.range(a),
                Some(false) => self.range(b),
                None => {
                    let (x, y) = (self.range(a), self.range(b));
                    x.hull(y)
                }
            },
            _ => ANY,
        };
        self.ints.insert(t.clone(), r);
        r
    }
}

/// `x op y` for every `x` in the first interval and `y` in the second, if decided.
fn compare(op: CmpOp, x: Range, y: Range) -> Option<bool> {
    // x < y surely: x.hi < y.lo; x >= y surely: x.lo >= y.hi.
    let lt = x.hi.zip(y.lo).is_some_and(|(a, b)| a < b);
    let gt = x.lo.zip(y.hi).is_some_and(|(a, b)| a > b);
    let le = x.hi.zip(y.lo).is_some_and(|(a, b)| a <= b);
    let ge = x.lo.zip(y.hi).is_some_and(|(a, b)| a >= b);
    match op {
        CmpOp::Lt => (lt).then_some(true).or(ge.then_some(false)),
        CmpOp::Le => (le).then_some(true).or(gt.then_some(false)),
        CmpOp::Gt => (gt).then_some(true).or(le.then_some(false)),
        CmpOp::Ge => (ge).then_some(true).or(lt.then_some(false)),
        CmpOp::Eq => (lt || gt).then_some(false).or((le && ge).then_some(true)),
        CmpOp::Ne => (lt || gt).then_some(true).or((le && ge).then_some(false)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Sort;

    fn var(n: &str) -> Term {
        Term::var(Sym::new(n, Sort::Int))
    }

    fn gt0(t: Term) -> Term {
        Term::cmp(CmpOp::Gt, t, Term::int(0))
    }

    /// `s` after `if xi > 0: s += 1` for i < n, merged: nested `ite`s.
    fn counter(n: usize) -> Term {
        let mut s = Term::int(0);
        for i in 0..n {
            let c = gt0(var(&format!("x{i}")));
            s = Term::ite(c, Term::add(s.clone(), Term::int(1)), s);
        }
        s
    }

    #[test]
    fn a_counter_that_took_an_increment_is_not_zero() {
        let f = Term::cmp(CmpOp::Eq, counter(6), Term::int(0));
        let took = gt0(var("x3"));
        assert!(Facts::new([&took].into_iter()).refutes(&f));
        // (x3 <= 0: the counter may still be 0; nothing known: undecided)
        let skipped = Term::not(took);
        assert!(!Facts::new([&skipped].into_iter()).refutes(&f));
        assert!(!Facts::new(std::iter::empty()).refutes(&f));
        // Every increment skipped: `s == 0` holds, not refuted.
        let all: Vec<Term> = (0..6)
            .map(|i| Term::not(gt0(var(&format!("x{i}")))))
            .collect();
        let mut facts = Facts::new(all.iter());
        assert!(!facts.refutes(&f));
        assert_eq!(facts.truth(&f), Some(true));
    }

    #[test]
    fn bounds_on_variables_decide_comparisons() {
        let x = var("x");
        let le = Term::cmp(CmpOp::Le, x.clone(), Term::int(-2));
        let mut facts = Facts::new([&le].into_iter());
        assert!(facts.refutes(&Term::cmp(CmpOp::Ge, x.clone(), Term::int(0))));
        assert!(facts.refutes(&Term::cmp(
            CmpOp::Eq,
            Term::add(x.clone(), Term::int(2)),
            Term::int(1)
        )));
        assert!(!facts.refutes(&Term::cmp(CmpOp::Eq, x.clone(), Term::int(-5))));
        // A product is not bounded: undecided.
        let sq = Term::mul(x.clone(), x);
        assert!(!facts.refutes(&Term::cmp(CmpOp::Lt, sq, Term::int(0))));
    }
}
