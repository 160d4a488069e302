//! `all`/`any` over a range: unrolled over a small constant range, split at 0 over the
//! element position when every index reads one tuple at one offset (`t[a + v]`), else a
//! plain `forall`/`exists` with a fresh bound constant.

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};
use z3::ast::{self, Ast, Bool, Int};

use super::{int_lit, reflect, Translator, UNROLL_LIMIT};
use crate::term::{Sym, Term, TermKind as K};

impl Translator {
    /// `all/any(B for v in range(lo, hi))` where every index that mentions `v` is
    /// `t[a + v]` for one tuple `t` and one `a` free of `v`, and `a + lo` is not a
    /// constant ≥ 0 (then [`Translator::nonneg`] applies): quantify over the element
    /// position instead, split at 0 (NEXT.md §1.5b): positions `m = a + v ≥ 0` read
    /// `t(m)`, negative indices read `t(m + len(t))`. Both bodies are `ite`-free. Exact.
    fn split_quantifier(
        &mut self,
        forall: bool,
        v: &Sym,
        (lo, hi, body): (&Term, &Term, &Term),
        (t, a): (&Term, &Term),
    ) -> Bool {
        let (za, zlo, zhi, zlen) = (self.int(a), self.int(lo), self.int(hi), self.len(t));
        let zero = Int::from_i64(0);
        let first = Int::add(&[&za, &zlo]);
        let end = Int::add(&[&za, &zhi]);
        let mut parts = Vec::new();
        // Non-negative indices: m = a + v, 0 <= m, a + lo <= m < a + hi.
        let m = Int::fresh_const("m");
        let range = Bool::and(&[&zero.le(&m), &first.le(&m), &m.lt(&end)]);
        self.env.push((v.clone(), Int::sub(&[&m, &za])));
        self.direct
            .push((v.clone(), a.clone(), t.clone(), m.clone()));
        let b = self.bool(body);
        self.direct.pop();
        self.env.pop();
        parts.push((m, range, b));
        // Negative indices: m = a + v + len(t), a + v < 0.
        let m = Int::fresh_const("m");
        let range = Bool::and(&[
            &Int::add(&[&first, &zlen]).le(&m),
            &m.lt(Int::add(&[&end, &zlen])),
            &m.lt(&zlen),
        ]);
        self.env.push((v.clone(), Int::sub(&[&m, &zlen, &za])));
        self.direct
            .push((v.clone(), a.clone(), t.clone(), m.clone()));
        let b = self.bool(body);
        self.direct.pop();
        self.env.pop();
        parts.push((m, range, b));
        let qs: Vec<Bool> = parts
            .iter()
            .map(|(m, range, b)| {
                if forall {
                    ast::forall_const(&[m as &dyn Ast], &[], &range.implies(b))
                } else {
                    ast::exists_const(&[m as &dyn Ast], &[], &Bool::and(&[range, b]))
                }
            })
            .collect();
        let refs: Vec<&Bool> = qs.iter().collect();
        if forall {
            Bool::and(&refs)
        } else {
            Bool::or(&refs)
        }
    }

    /// Is `i` a bound variable of [`Translator::nonneg`] plus a constant ≥ 0?
    pub(super) fn nonneg_index(&self, i: &Term) -> bool {
        self.nonneg.iter().any(|v| {
            matches!(crate::term::linear::linear_in(i, v),
                Some((c, rest)) if c == BigInt::from(1)
                    && rest.as_int().is_some_and(|r| !r.is_negative()))
        })
    }

    pub(super) fn quantifier(
        &mut self,
        forall: bool,
        v: &Sym,
        lo: &Term,
        hi: &Term,
        body: &Term,
    ) -> Bool {
        if let (Some(l), Some(h)) = (lo.as_int(), hi.as_int()) {
            if let Some(n) = (h - l).to_usize().filter(|n| *n <= UNROLL_LIMIT) {
                let mut parts = Vec::with_capacity(n);
                for k in 0..n {
                    self.env.push((v.clone(), int_lit(&(l + k))));
                    parts.push(self.bool(body));
                    self.env.pop();
                }
                let refs: Vec<&Bool> = parts.iter().collect();
                return if forall {
                    Bool::and(&refs)
                } else {
                    Bool::or(&refs)
                };
            }
        }
        let Some((t, a)) = single_offset(v, body) else {
            if let Some(up) = reflect::ascending(v, lo, hi, body) {
                if single_offset(v, &up).is_some() {
                    return self.quantifier(forall, v, lo, hi, &up);
                }
            }
            return self.plain_quantifier(forall, v, lo, hi, body);
        };
        let first = Term::add(a.clone(), lo.clone());
        if first.as_int().is_none_or(|f| f.is_negative()) {
            return self.split_quantifier(forall, v, (lo, hi, body), (&t, &a));
        }
        self.plain_quantifier(forall, v, lo, hi, body)
    }

    /// `forall k. lo <= k < hi => body` (or the `exists`), `k` fresh.
    fn plain_quantifier(
        &mut self,
        forall: bool,
        v: &Sym,
        lo: &Term,
        hi: &Term,
        body: &Term,
    ) -> Bool {
        let (zlo, zhi) = (self.int(lo), self.int(hi));
        let k = Int::fresh_const(&v.name);
        self.env.push((v.clone(), k.clone()));
        let nonneg = lo.as_int().is_some_and(|l| !l.is_negative());
        if nonneg {
            self.nonneg.push(v.clone());
        }
        let zbody = self.bool(body);
        if nonneg {
            self.nonneg.pop();
        }
        self.env.pop();
        let range = Bool::and(&[&zlo.le(&k), &k.lt(&zhi)]);
        if forall {
            ast::forall_const(&[&k as &dyn Ast], &[], &range.implies(&zbody))
        } else {
            ast::exists_const(&[&k as &dyn Ast], &[], &Bool::and(&[&range, &zbody]))
        }
    }
}

/// If every index in `body` that mentions `v` is `t[a + v]` for one tuple `t` and one `a`
/// free of `v` (and `v` occurs nowhere else under a tuple operation), that `(t, a)`.
fn single_offset(v: &Sym, body: &Term) -> Option<(Term, Term)> {
    use crate::term::linear::{linear_in, mentions};
    let mut found: Option<(Term, Term)> = None;
    let mut todo = vec![body];
    let mut seen = std::collections::HashSet::new();
    while let Some(t) = todo.pop() {
        if !seen.insert(t.clone()) || !mentions(t, v) {
            continue;
        }
        match t.kind() {
            K::Index(s, i) => {
                if mentions(s, v) {
                    return None;
                }
                let (c, a) = linear_in(i, v)?;
                if c != BigInt::from(1) {
                    return None;
                }
                match &found {
                    Some((s0, a0)) if s0 != s || *a0 != a => return None,
                    Some(_) => {}
                    None => found = Some((s.clone(), a)),
                }
            }
            // A nested quantifier over the same name shadows it: keep the plain form.
            K::Forall(w, ..) | K::Exists(w, ..) if w == v => return None,
            _ => t.kind().for_each_child(|c| todo.push(c)),
        }
    }
    found
}
