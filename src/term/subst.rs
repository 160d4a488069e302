//! Substitution of symbols by terms (compact symbolic execution, issue 15): a template's
//! head symbols `x@h` are replaced by the values at a loop head, a quantifier's variable by
//! an iteration number. The result is rebuilt through the smart constructors, so `0 + κ1`
//! becomes `κ1` and `len((1, 2))` becomes `2`.

use std::collections::HashMap;

use super::{Sym, Term, TermKind as K};

impl Term {
    /// `self` with every free occurrence of a key of `map` replaced by its value.
    /// Quantifier-bound symbols are not replaced inside their scope. The values must not
    /// mention a symbol bound by a quantifier of `self` (callers use fresh `@` names).
    pub fn subst(&self, map: &HashMap<Sym, Term>) -> Term {
        if map.is_empty() {
            return self.clone();
        }
        let mut memo = HashMap::new();
        subst_in(self, map, &mut memo)
    }

    /// `self` with `sym` replaced by `value`.
    pub fn subst1(&self, sym: &Sym, value: &Term) -> Term {
        let mut map = HashMap::new();
        map.insert(sym.clone(), value.clone());
        self.subst(&map)
    }
}

fn subst_in(t: &Term, map: &HashMap<Sym, Term>, memo: &mut HashMap<Term, Term>) -> Term {
    if let Some(done) = memo.get(t) {
        return done.clone();
    }
    let mut go = |x: &Term| subst_in(x, map, memo);
    let out = match t.kind() {
        K::Int(_) | K::Bool(_) | K::SeqEmpty => t.clone(),
        K::Var(s) => map.get(s).cloned().unwrap_or_else(|| t.clone()),
        K::Neg(a) => Term::neg(go(a)),
        K::Add(a, b) => Term::add(go(a), go(b)),
        K::Sub(a, b) => Term::sub(go(a), go(b)),
        K::Mul(a, b) => Term::mul(go(a), go(b)),
        K::FloorDiv(a, b) => Term::floor_div(go(a), go(b)),
        K::Mod(a, b) => Term::modulo(go(a), go(b)),
        K::Abs(a) => Term::abs(go(a)),
        K::Min(a, b) => Term::min(go(a), go(b)),
        K::Max(a, b) => Term::max(go(a), go(b)),
        K::Not(a) => Term::not(go(a)),
        K::And(xs) => Term::and_all(xs.iter().map(&mut go).collect::<Vec<_>>()),
        K::Or(xs) => Term::or_all(xs.iter().map(&mut go).collect::<Vec<_>>()),
        K::Ite(c, a, b) => Term::ite(go(c), go(a), go(b)),
        K::Cmp(op, a, b) => Term::cmp(*op, go(a), go(b)),
        K::SeqUnit(a) => Term::seq_unit(go(a)),
        K::Concat(a, b) => Term::concat(go(a), go(b)),
        K::Len(a) => Term::len(go(a)),
        K::Index(a, b) => Term::index(go(a), go(b)),
        K::Slice(a, lo, hi, step) => {
            let a = go(a);
            let lo = lo.as_ref().map(&mut go);
            let hi = hi.as_ref().map(&mut go);
            Term::slice(a, lo, hi, go(step))
        }
        K::Forall(v, lo, hi, body) | K::Exists(v, lo, hi, body) => {
            let (lo, hi) = (go(lo), go(hi));
            let body = if map.contains_key(v) {
                let mut inner = map.clone();
                inner.remove(v);
                subst_in(body, &inner, &mut HashMap::new())
            } else {
                go(body)
            };
            if matches!(t.kind(), K::Forall(..)) {
                Term::forall(v.clone(), lo, hi, body)
            } else {
                Term::exists(v.clone(), lo, hi, body)
            }
        }
    };
    memo.insert(t.clone(), out.clone());
    out
}
