//! [`Term`] → Z3 AST.
//!
//! The encodings are those of `Term::to_smt2` (see `engine/term/smt2.rs`), built through
//! the API instead of text:
//! - Python's `a // b` (for `b != 0`) is `ite(b > 0, div(a, b), div(-a, -b))` and `a % b`
//!   is `ite(b > 0, mod(a, b), -mod(-a, -b))` — equal to `a - b * (a // b)` but linear
//!   whenever `b` is a constant, where the `ite` disappears too;
//! - `t[i]` is `seq.nth(t, ite(i < 0, i + len(t), i))` (Z3's `seq.nth` is unspecified out of
//!   range, so the engine guards indexing with `Term::in_bounds`);
//! - `all(body for k in range(lo, hi))` is `forall k. lo <= k < hi => body` with a fresh
//!   bound constant (never captured by an input named `k`), `any` the `exists` with `and`;
//!   a range of at most [`UNROLL_LIMIT`] constants is unrolled into a conjunction
//!   (disjunction) instead, which Z3 decides without quantifier instantiation.
//!
//! Translations of closed subterms are memoised, keyed by the term (hash cached in the
//! node): a path condition's conjuncts share most of their structure with the previous
//! check's.

use std::collections::HashMap;
use std::str::FromStr;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};
use z3::ast::{self, Ast, Bool, Int, Seq};

use crate::engine::term::{Sort, Sym, Term, TermKind as K};
use crate::lang::ast::CmpOp;

/// Quantifiers over constant ranges of at most this many values are unrolled.
pub const UNROLL_LIMIT: usize = 16;

/// A translated term, by sort.
#[derive(Clone)]
pub enum Z {
    Int(Int),
    Bool(Bool),
    Seq(Seq),
}

impl Z {
    fn int(self) -> Int {
        match self {
            Z::Int(i) => i,
            _ => unreachable!("sort error: expected an Int term"),
        }
    }

    fn bool(self) -> Bool {
        match self {
            Z::Bool(b) => b,
            _ => unreachable!("sort error: expected a Bool term"),
        }
    }

    fn seq(self) -> Seq {
        match self {
            Z::Seq(s) => s,
            _ => unreachable!("sort error: expected a Seq term"),
        }
    }
}

/// The Z3 constant of an input symbol.
pub fn constant(sym: &Sym) -> Z {
    let name: &str = &sym.name;
    match sym.sort {
        Sort::Int => Z::Int(Int::new_const(name)),
        Sort::Bool => Z::Bool(Bool::new_const(name)),
        Sort::Seq => Z::Seq(Seq::new_const(name, &z3::Sort::int())),
    }
}

pub fn int_lit(i: &BigInt) -> Int {
    match i.to_i64() {
        Some(v) => Int::from_i64(v),
        None => Int::from_str(&i.to_string()).expect("a decimal numeral"),
    }
}

/// Translates terms, memoising closed subterms.
#[derive(Default)]
pub struct Translator {
    memo: HashMap<Term, Z>,
    /// Quantifier-bound variables in scope, innermost last.
    env: Vec<(Sym, Int)>,
}

impl Translator {
    /// Translate a Bool term (a path-condition conjunct).
    pub fn bool(&mut self, t: &Term) -> Bool {
        self.tr(t).bool()
    }

    fn int(&mut self, t: &Term) -> Int {
        self.tr(t).int()
    }

    fn seq(&mut self, t: &Term) -> Seq {
        self.tr(t).seq()
    }

    /// Number of memoised translations (the memo is dropped when it grows too large).
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    pub fn clear_memo(&mut self) {
        self.memo.clear();
    }

    fn tr(&mut self, t: &Term) -> Z {
        if !self.env.is_empty() {
            return self.build(t);
        }
        if let Some(z) = self.memo.get(t) {
            return z.clone();
        }
        let z = self.build(t);
        self.memo.insert(t.clone(), z.clone());
        z
    }

    fn build(&mut self, t: &Term) -> Z {
        match t.kind() {
            K::Int(i) => Z::Int(int_lit(i)),
            K::Bool(b) => Z::Bool(Bool::from_bool(*b)),
            K::Var(s) => match self.env.iter().rev().find(|(v, _)| v == s) {
                Some((_, k)) => Z::Int(k.clone()),
                None => constant(s),
            },
            K::Neg(a) => Z::Int(self.int(a).unary_minus()),
            K::Add(a, b) => Z::Int(Int::add(&[&self.int(a), &self.int(b)])),
            K::Sub(a, b) => Z::Int(Int::sub(&[&self.int(a), &self.int(b)])),
            K::Mul(a, b) => Z::Int(Int::mul(&[&self.int(a), &self.int(b)])),
            K::FloorDiv(a, b) => Z::Int(self.division(a, b, false)),
            K::Mod(a, b) => Z::Int(self.division(a, b, true)),
            K::Abs(a) => {
                let a = self.int(a);
                Z::Int(a.ge(Int::from_i64(0)).ite(&a, &a.unary_minus()))
            }
            K::Min(a, b) | K::Max(a, b) => {
                let (a, b) = (self.int(a), self.int(b));
                let c = if matches!(t.kind(), K::Min(..)) {
                    a.le(&b)
                } else {
                    a.ge(&b)
                };
                Z::Int(c.ite(&a, &b))
            }
            K::Not(a) => Z::Bool(self.bool(a).not()),
            K::And(xs) => {
                let xs: Vec<Bool> = xs.iter().map(|x| self.bool(x)).collect();
                Z::Bool(Bool::and(&xs.iter().collect::<Vec<_>>()))
            }
            K::Or(xs) => {
                let xs: Vec<Bool> = xs.iter().map(|x| self.bool(x)).collect();
                Z::Bool(Bool::or(&xs.iter().collect::<Vec<_>>()))
            }
            K::Ite(c, a, b) => {
                let c = self.bool(c);
                match (self.tr(a), self.tr(b)) {
                    (Z::Int(a), Z::Int(b)) => Z::Int(c.ite(&a, &b)),
                    (Z::Bool(a), Z::Bool(b)) => Z::Bool(c.ite(&a, &b)),
                    (Z::Seq(a), Z::Seq(b)) => Z::Seq(c.ite(&a, &b)),
                    _ => unreachable!("sort error: ite branches of different sorts"),
                }
            }
            K::Cmp(op, a, b) => Z::Bool(self.compare(*op, a, b)),
            K::SeqEmpty => Z::Seq(Seq::empty(&z3::Sort::int())),
            K::SeqUnit(a) => Z::Seq(Seq::unit(&self.int(a))),
            K::Concat(a, b) => Z::Seq(Seq::concat(&[&self.seq(a), &self.seq(b)])),
            K::Len(a) => Z::Int(self.seq(a).length()),
            K::Index(s, i) => Z::Int(self.index(s, i)),
            K::Forall(v, lo, hi, body) => Z::Bool(self.quantifier(true, v, lo, hi, body)),
            K::Exists(v, lo, hi, body) => Z::Bool(self.quantifier(false, v, lo, hi, body)),
        }
    }

    fn compare(&mut self, op: CmpOp, a: &Term, b: &Term) -> Bool {
        let eq = match (self.tr(a), self.tr(b)) {
            (Z::Int(a), Z::Int(b)) => match op {
                CmpOp::Lt => return a.lt(&b),
                CmpOp::Le => return a.le(&b),
                CmpOp::Gt => return a.gt(&b),
                CmpOp::Ge => return a.ge(&b),
                CmpOp::Eq | CmpOp::Ne => a.eq(&b),
            },
            (Z::Bool(a), Z::Bool(b)) => a.eq(&b),
            (Z::Seq(a), Z::Seq(b)) => a.eq(&b),
            _ => unreachable!("sort error: comparison of different sorts"),
        };
        match op {
            CmpOp::Eq => eq,
            CmpOp::Ne => eq.not(),
            _ => unreachable!("sort error: ordering on a non-Int sort"),
        }
    }

    /// Python's `//` (`modulo == false`) or `%` on Z3's Euclidean `div`/`mod`.
    fn division(&mut self, a: &Term, b: &Term, modulo: bool) -> Int {
        let op = |x: &Int, y: &Int| if modulo { x.modulo(y) } else { x.div(y) };
        // b < 0: a // b == (-a) div (-b) and a % b == -((-a) mod (-b)).
        let negated = |r: Int| if modulo { r.unary_minus() } else { r };
        let za = self.int(a);
        match b.as_int() {
            Some(c) if c.is_positive() => op(&za, &int_lit(c)),
            Some(c) if c.is_negative() => negated(op(&za.unary_minus(), &int_lit(&-c))),
            _ => {
                let zb = self.int(b);
                let pos = op(&za, &zb);
                let neg = negated(op(&za.unary_minus(), &zb.unary_minus()));
                zb.gt(Int::from_i64(0)).ite(&pos, &neg)
            }
        }
    }

    fn index(&mut self, s: &Term, i: &Term) -> Int {
        let zs = self.seq(s);
        let pos = match i.as_int() {
            Some(k) if !k.is_negative() => int_lit(k),
            Some(k) => Int::add(&[&zs.length(), &int_lit(k)]),
            None => {
                let zi = self.int(i);
                let wrapped = Int::add(&[&zi, &zs.length()]);
                zi.lt(Int::from_i64(0)).ite(&wrapped, &zi)
            }
        };
        zs.nth(pos).as_int().expect("a (Seq Int) has Int elements")
    }

    fn quantifier(&mut self, forall: bool, v: &Sym, lo: &Term, hi: &Term, body: &Term) -> Bool {
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
        let (zlo, zhi) = (self.int(lo), self.int(hi));
        let k = Int::fresh_const(&v.name);
        self.env.push((v.clone(), k.clone()));
        let zbody = self.bool(body);
        self.env.pop();
        let range = Bool::and(&[&zlo.le(&k), &k.lt(&zhi)]);
        if forall {
            ast::forall_const(&[&k as &dyn Ast], &[], &range.implies(&zbody))
        } else {
            ast::exists_const(&[&k as &dyn Ast], &[], &Bool::and(&[&range, &zbody]))
        }
    }
}
