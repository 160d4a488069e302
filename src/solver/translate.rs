//! [`Term`] → Z3 AST.
//!
//! Ints and Bools map to Z3's. Python's `a // b` (for `b != 0`) is
//! `ite(b > 0, div(a, b), div(-a, -b))` and `a % b` is `ite(b > 0, mod(a, b), -mod(-a, -b))`
//! — equal to `a - b * (a // b)`, but linear whenever `b` is a constant, where the `ite`
//! disappears too. `all(body for k in range(lo, hi))` is `forall k. lo <= k < hi => body`
//! with a fresh bound constant (never captured by an input named `k`), `any` the `exists`
//! with `and`; a range of at most [`UNROLL_LIMIT`] constants is unrolled instead.
//!
//! **Tuples are not Z3 sequences here.** Z3 4.8.12's sequence solver slows down sharply
//! with the number of `seq.nth` constraints: on `symdbg run` of the linear search of
//! `benches/programs.py` unrolled 40 times, 2.4 s in Z3 with `(Seq Int)` against 71 ms
//! with the encoding below (`examples/filter_nonnegative.py --unroll 10`: 15.3 s against
//! 1.2 s; `benches/solver_dfs.rs` replays such queries without the engine). A tuple
//! symbol `t` is a length constant `len(t) >= 0` and an uninterpreted function
//! `t : Int -> Int` (its elements at `0 <= k < len(t)`, unspecified elsewhere). Any tuple
//! term then has a length (`len(a + b) = len(a) + len(b)`, ...) and an element function
//! built structurally: `(a + b)[k] = ite(k < len(a), a[k], b[k - len(a)])`, `(e,)[0] = e`.
//! Indexing normalises negative indices as Python does (`t[i]` reads position
//! `ite(i < 0, i + len(t), i)`), like `seq.nth` unspecified out of range (the engine
//! guards indexing with `Term::in_bounds`). Tuple equality is equal lengths and equal
//! elements: a conjunction when one side has a constant length (a tuple display), else a
//! bounded `forall`. The SMT-LIB text (`Term::to_smt2`) keeps `(Seq Int)`; both encodings
//! are exact, and the tests check them against each other and against `crate::semantics`.
//!
//! Translations of closed subterms are memoised, keyed by the term (hash cached in the
//! node): a path condition's conjuncts share most of their structure with the previous
//! check's.
//!
//! **Products of high degree are named.** Z3 4.8.12's arithmetic solver, given a monomial
//! of degree 32 (`x = x * x` five times, then `x == 7`), computes for minutes and ignores
//! interrupts; with the intermediate products named (`p = x*x*x*x`, `q = p*p`, ...) it
//! answers in milliseconds. A closed product whose degree exceeds [`NAME_DEGREE`] becomes a
//! fresh constant, and every conjunct that mentions it carries its definition (so a pop
//! never leaves a name undefined; asserting a definition twice is harmless).

use std::collections::BTreeSet;
use std::str::FromStr;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};
use z3::ast::{Ast, Bool, Int};
use z3::FuncDecl;

use crate::lang::ast::CmpOp;
use crate::term::{Sort, Sym, Term, TermKind as K};

mod quantifiers;
mod reflect;
mod tuples;

/// Quantifiers over constant ranges of at most this many values are unrolled; tuple
/// equalities with a constant length up to `EQ_UNROLL_LIMIT` are compared element by element
/// (beyond, with a quantifier). Defined beside the feature detection that mirrors them.
pub use crate::term::features::{EQ_UNROLL_LIMIT, UNROLL_LIMIT};

/// Closed products of a higher degree than this are named (see the module doc).
const NAME_DEGREE: u32 = 4;

/// A translated Int or Bool term (tuple terms are never translated as a whole).
#[derive(Clone)]
enum Z {
    Int(Int),
    Bool(Bool),
}

impl Z {
    fn int(self) -> Int {
        match self {
            Z::Int(i) => i,
            Z::Bool(_) => unreachable!("sort error: expected an Int term"),
        }
    }

    fn bool(self) -> Bool {
        match self {
            Z::Bool(b) => b,
            Z::Int(_) => unreachable!("sort error: expected a Bool term"),
        }
    }
}

/// The Z3 constant of an Int symbol.
pub fn int_const(sym: &Sym) -> Int {
    Int::new_const(&*sym.name)
}

/// The Z3 constant of a Bool symbol.
pub fn bool_const(sym: &Sym) -> Bool {
    Bool::new_const(&*sym.name)
}

/// The length constant `len(t)` and element function `t` of a tuple symbol.
pub fn tuple_consts(sym: &Sym) -> (Int, FuncDecl) {
    let len = Int::new_const(format!("len({})", sym.name));
    let elems = FuncDecl::new(&*sym.name, &[&z3::Sort::int()], &z3::Sort::int());
    (len, elems)
}

pub fn int_lit(i: &BigInt) -> Int {
    match i.to_i64() {
        Some(v) => Int::from_i64(v),
        None => Int::from_str(&i.to_string()).expect("a decimal numeral"),
    }
}

fn apply(f: &FuncDecl, k: &Int) -> Int {
    f.apply(&[k as &dyn Ast])
        .as_int()
        .expect("an Int -> Int function")
}

/// Translates terms, memoising closed subterms.
#[derive(Default)]
pub struct Translator {
    memo: crate::term::TermMap<Z>,
    /// Quantifier-bound variables in scope, innermost last.
    env: Vec<(Sym, Int)>,
    /// Polynomial degrees of product terms (see [`NAME_DEGREE`]).
    degrees: crate::term::TermMap<u32>,
    /// Named products: their definitions `name == a * b`.
    named: crate::term::TermMap<Bool>,
    /// Names given so far (the names stay unique when the memo is cleared).
    names: u64,
    /// Bound variables whose range starts at a constant ≥ 0 (index-normal form, issue 15).
    nonneg: Vec<Sym>,
    /// Inside a split quantifier (issue 15): `t[a + v]` reads `t`'s element function at this
    /// position variable directly: (v, a, t, position).
    direct: Vec<(Sym, Term, Term, Int)>,
}

impl Translator {
    /// Translate a path-condition conjunct, with `len(t) >= 0` for each tuple symbol in it.
    pub fn conjunct(&mut self, t: &Term) -> Bool {
        let b = self.bool(t);
        let mut syms = BTreeSet::new();
        t.vars(&mut syms);
        let mut parts: Vec<Bool> = syms
            .iter()
            .filter(|s| s.sort == Sort::Seq)
            .map(|s| tuple_consts(s).0.ge(Int::from_i64(0)))
            .collect();
        if !self.named.is_empty() {
            self.definitions(t, &mut parts);
        }
        if parts.is_empty() {
            return b;
        }
        parts.push(b);
        Bool::and(&parts.iter().collect::<Vec<_>>())
    }

    /// Number of memoised translations (the memo is dropped when it grows too large).
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    pub fn clear_memo(&mut self) {
        self.memo.clear();
        self.degrees.clear();
        self.named.clear();
    }

    /// The definitions of the named products in `t`.
    fn definitions(&self, t: &Term, out: &mut Vec<Bool>) {
        let mut seen = std::collections::HashSet::new();
        let mut todo = vec![t];
        while let Some(t) = todo.pop() {
            if !seen.insert(t) {
                continue;
            }
            if let Some(def) = self.named.get(t) {
                out.push(def.clone());
            }
            t.kind().for_each_child(|c| todo.push(c));
        }
    }

    /// The polynomial degree of an Int term (other operations count as atoms, degree 1).
    fn degree(&mut self, t: &Term) -> u32 {
        match t.kind() {
            K::Int(_) => 0,
            K::Neg(a) => self.degree(a),
            K::Add(a, b) | K::Sub(a, b) => self.degree(a).max(self.degree(b)),
            K::Mul(a, b) => {
                if let Some(&d) = self.degrees.get(t) {
                    return d;
                }
                let d = self.degree(a).saturating_add(self.degree(b));
                self.degrees.insert(t.clone(), d);
                d
            }
            _ => 1,
        }
    }

    /// `a * b`, named when its degree is high (see [`NAME_DEGREE`]).
    fn product(&mut self, t: &Term, a: &Term, b: &Term) -> Int {
        let p = Int::mul(&[&self.int(a), &self.int(b)]);
        if !self.env.is_empty() || self.degree(t) <= NAME_DEGREE {
            return p;
        }
        self.names += 1;
        let name = Int::new_const(format!("mul!{}", self.names));
        self.named.insert(t.clone(), name.eq(&p));
        name
    }

    fn bool(&mut self, t: &Term) -> Bool {
        self.tr(t).bool()
    }

    fn int(&mut self, t: &Term) -> Int {
        self.tr(t).int()
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
            K::Var(s) => match (self.env.iter().rev().find(|(v, _)| v == s), s.sort) {
                (Some((_, k)), _) => Z::Int(k.clone()),
                (None, Sort::Int) => Z::Int(int_const(s)),
                (None, Sort::Bool) => Z::Bool(bool_const(s)),
                (None, Sort::Seq) => unreachable!("a tuple is translated by its parts"),
            },
            K::Neg(a) => Z::Int(self.int(a).unary_minus()),
            K::Add(a, b) => Z::Int(Int::add(&[&self.int(a), &self.int(b)])),
            K::Sub(a, b) => Z::Int(Int::sub(&[&self.int(a), &self.int(b)])),
            K::Mul(a, b) => Z::Int(self.product(t, a, b)),
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
            K::And(xs) | K::Or(xs) => {
                let xs: Vec<Bool> = xs.iter().map(|x| self.bool(x)).collect();
                let refs: Vec<&Bool> = xs.iter().collect();
                Z::Bool(if matches!(t.kind(), K::And(_)) {
                    Bool::and(&refs)
                } else {
                    Bool::or(&refs)
                })
            }
            K::Ite(c, a, b) => {
                let c = self.bool(c);
                match (self.tr(a), self.tr(b)) {
                    (Z::Int(a), Z::Int(b)) => Z::Int(c.ite(&a, &b)),
                    (Z::Bool(a), Z::Bool(b)) => Z::Bool(c.ite(&a, &b)),
                    _ => unreachable!("sort error: ite branches of different sorts"),
                }
            }
            K::Cmp(op, a, b) if a.sort() == Sort::Seq => {
                let eq = self.tuple_eq(a, b);
                Z::Bool(if *op == CmpOp::Ne { eq.not() } else { eq })
            }
            K::Cmp(op, a, b) => Z::Bool(self.compare(*op, a, b)),
            K::Len(a) => Z::Int(self.len(a)),
            K::Index(s, i) => Z::Int(self.index(s, i)),
            K::Forall(v, lo, hi, body) => Z::Bool(self.quantifier(true, v, lo, hi, body)),
            K::Exists(v, lo, hi, body) => Z::Bool(self.quantifier(false, v, lo, hi, body)),
            K::SeqEmpty | K::SeqUnit(_) | K::Concat(..) | K::Slice(..) => {
                unreachable!("a tuple is translated by its parts")
            }
        }
    }

    fn compare(&mut self, op: CmpOp, a: &Term, b: &Term) -> Bool {
        match (self.tr(a), self.tr(b)) {
            (Z::Int(a), Z::Int(b)) => match op {
                CmpOp::Lt => a.lt(&b),
                CmpOp::Le => a.le(&b),
                CmpOp::Gt => a.gt(&b),
                CmpOp::Ge => a.ge(&b),
                CmpOp::Eq => a.eq(&b),
                CmpOp::Ne => a.eq(&b).not(),
                CmpOp::In | CmpOp::NotIn => unreachable!("no term compares with `in`"),
            },
            (Z::Bool(a), Z::Bool(b)) => match op {
                CmpOp::Eq => a.eq(&b),
                CmpOp::Ne => a.eq(&b).not(),
                _ => unreachable!("sort error: ordering on Bool"),
            },
            _ => unreachable!("sort error: comparison of different sorts"),
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
}
