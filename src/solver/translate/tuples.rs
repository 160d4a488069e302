//! Tuples as a length constant and an element function (see the module doc of
//! [`super`]): the length of a tuple term, its element at a position (through
//! concatenations, conditionals and slices), Python's indexing, and tuple equality.

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};
use z3::ast::{self, Ast, Bool, Int};

use super::{apply, int_lit, tuple_consts, Translator, EQ_UNROLL_LIMIT};
use crate::term::{Term, TermKind as K};

impl Translator {
    /// The length of a tuple term.
    pub(super) fn len(&mut self, s: &Term) -> Int {
        match s.kind() {
            K::Var(v) => tuple_consts(v).0,
            K::SeqEmpty => Int::from_i64(0),
            K::SeqUnit(_) => Int::from_i64(1),
            K::Concat(a, b) => Int::add(&[&self.len(a), &self.len(b)]),
            K::Ite(c, a, b) => self.bool(c).ite(&self.len(a), &self.len(b)),
            K::Slice(t, lo, hi, step) => {
                let (_, count) = crate::term::slice_bounds(t, lo.as_ref(), hi.as_ref(), step);
                self.int(&count)
            }
            _ => unreachable!("sort error: expected a tuple term"),
        }
    }

    /// The element at position `k` (`0 <= k < len(s)`; unspecified elsewhere). `known` is
    /// `k`'s value when it is a constant, which selects the branch of a concatenation.
    fn elem(&mut self, s: &Term, k: &Int, known: Option<&BigInt>) -> Int {
        match s.kind() {
            K::Var(v) => apply(&tuple_consts(v).1, k),
            // Out of range: any value will do.
            K::SeqEmpty => Int::from_i64(0),
            K::SeqUnit(e) => self.int(e),
            K::Concat(..) => self.elem_of_parts(&crate::term::segments(s), k, known),
            K::Ite(c, a, b) => {
                let c = self.bool(c);
                c.ite(&self.elem(a, k, known), &self.elem(b, k, known))
            }
            // Element k of `t[lo:hi:step]` is `t[start + k * step]` (a position in range
            // whenever k is below the slice's length).
            K::Slice(t, lo, hi, step) => {
                let (start, _) = crate::term::slice_bounds(t, lo.as_ref(), hi.as_ref(), step);
                // A constant position when the start, the step and k are constants.
                if let (Some(s0), Some(sc), Some(kc)) = (start.as_int(), step.as_int(), known) {
                    let p = s0 + sc * kc;
                    return self.elem(t, &int_lit(&p), Some(&p));
                }
                let zstart = self.int(&start);
                let offset = match step.as_int() {
                    Some(sc) if *sc == BigInt::from(1) => k.clone(),
                    Some(sc) => Int::mul(&[k, &int_lit(sc)]),
                    None => Int::mul(&[k, &self.int(step)]),
                };
                self.elem(t, &Int::add(&[&zstart, &offset]), None)
            }
            _ => unreachable!("sort error: expected a tuple term"),
        }
    }

    /// [`Translator::elem`] in a concatenation of `parts` (nested either way; appends nest
    /// to the left): a constant position picks its part while the lengths before it are
    /// constants; from the first part of unknown length on, an `ite` per part.
    fn elem_of_parts(&mut self, parts: &[&Term], k: &Int, known: Option<&BigInt>) -> Int {
        let mut from = 0;
        let mut rest = known.cloned();
        if let Some(r) = rest.as_mut() {
            while let Some(part) = parts.get(from) {
                match Term::len((*part).clone()).as_int() {
                    Some(n) if &*r < n => return self.elem(part, &int_lit(r), Some(r)),
                    Some(n) => *r -= n,
                    None => break,
                }
                from += 1;
            }
        }
        let parts = &parts[from..];
        let Some((last, init)) = parts.split_last() else {
            // Out of range: any value will do.
            return Int::from_i64(0);
        };
        let k = rest.as_ref().map_or_else(|| k.clone(), int_lit);
        let mut start = Int::from_i64(0);
        let mut starts = Vec::with_capacity(parts.len());
        for part in parts {
            starts.push(start.clone());
            start = Int::add(&[&start, &self.len(part)]);
        }
        let at = |start: &Int| Int::sub(&[&k, start]);
        let mut out = self.elem(last, &at(&starts[init.len()]), None);
        for (i, part) in init.iter().enumerate().rev() {
            let inner = self.elem(part, &at(&starts[i]), None);
            out = k.lt(&starts[i + 1]).ite(&inner, &out);
        }
        out
    }

    /// Python's `s[i]`.
    pub(super) fn index(&mut self, s: &Term, i: &Term) -> Int {
        match i.as_int() {
            Some(k) if !k.is_negative() => self.elem(s, &int_lit(k), Some(k)),
            Some(k) => {
                let pos = Int::add(&[&self.len(s), &int_lit(k)]);
                self.elem(s, &pos, None)
            }
            // `t[j + c]` under `all(... for j in range(lo, hi))` with constants lo, c ≥ 0:
            // the index is never negative, no `ite` (which makes MBQI give up; NEXT.md §1.5b).
            None if self.direct_index(s, i).is_some() => {
                let m = self.direct_index(s, i).expect("checked");
                self.elem(s, &m, None)
            }
            None if self.nonneg_index(i) => {
                let zi = self.int(i);
                self.elem(s, &zi, None)
            }
            None => {
                let zi = self.int(i);
                let wrapped = Int::add(&[&zi, &self.len(s)]);
                let pos = zi.lt(Int::from_i64(0)).ite(&wrapped, &zi);
                self.elem(s, &pos, None)
            }
        }
    }

    /// The position variable of a split quantifier that `s[i]` reads, if any.
    fn direct_index(&self, s: &Term, i: &Term) -> Option<Int> {
        self.direct.iter().rev().find_map(|(v, a, t, m)| {
            (t == s
                && matches!(crate::term::linear::linear_in(i, v),
                    Some((c, rest)) if c == BigInt::from(1) && rest == *a))
            .then(|| m.clone())
        })
    }

    /// `a == b` on tuples: equal lengths and equal elements.
    pub(super) fn tuple_eq(&mut self, a: &Term, b: &Term) -> Bool {
        let same_len = self.len(a).eq(self.len(b));
        let known = Term::len(a.clone())
            .as_int()
            .or(Term::len(b.clone()).as_int())
            .cloned();
        if let Some(n) = known
            .and_then(|n| n.to_usize())
            .filter(|n| *n <= EQ_UNROLL_LIMIT)
        {
            let mut parts = vec![same_len];
            for k in 0..n {
                let big = BigInt::from(k);
                let kz = int_lit(&big);
                parts.push(
                    self.elem(a, &kz, Some(&big))
                        .eq(self.elem(b, &kz, Some(&big))),
                );
            }
            return Bool::and(&parts.iter().collect::<Vec<_>>());
        }
        let k = Int::fresh_const("k");
        let n = self.len(a);
        let range = Bool::and(&[&Int::from_i64(0).le(&k), &k.lt(&n)]);
        let body = self.elem(a, &k, None).eq(self.elem(b, &k, None));
        let all = ast::forall_const(&[&k as &dyn Ast], &[], &range.implies(&body));
        Bool::and(&[&same_len, &all])
    }
}
