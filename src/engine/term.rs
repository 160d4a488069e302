//! STUB (replaced by the solver helper's term.rs): just enough of the brief's API to compile.
#![allow(missing_docs, dead_code)]
use std::collections::BTreeSet;
use std::fmt;
use std::rc::Rc;

use num_bigint::BigInt;

use crate::lang::ast::CmpOp;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Sort {
    Int,
    Bool,
    Seq,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Sym {
    pub name: Rc<str>,
    pub sort: Sort,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Term(Rc<TermKind>);

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TermKind {
    Int(BigInt),
    Bool(bool),
    Var(Sym),
    Neg(Term),
    Add(Term, Term),
    Sub(Term, Term),
    Mul(Term, Term),
    FloorDiv(Term, Term),
    Mod(Term, Term),
    Abs(Term),
    Min(Term, Term),
    Max(Term, Term),
    Not(Term),
    And(Vec<Term>),
    Or(Vec<Term>),
    Ite(Term, Term, Term),
    Cmp(CmpOp, Term, Term),
    SeqEmpty,
    SeqUnit(Term),
    Concat(Term, Term),
    Len(Term),
    Index(Term, Term),
    Forall(Sym, Term, Term, Term),
    Exists(Sym, Term, Term, Term),
}

fn t(k: TermKind) -> Term {
    Term(Rc::new(k))
}

impl Term {
    pub fn kind(&self) -> &TermKind {
        &self.0
    }
    pub fn sort(&self) -> Sort {
        use TermKind::*;
        match self.kind() {
            Int(_) | Neg(_) | Add(..) | Sub(..) | Mul(..) | FloorDiv(..) | Mod(..) | Abs(_)
            | Min(..) | Max(..) | Len(_) | Index(..) => Sort::Int,
            Bool(_) | Not(_) | And(_) | Or(_) | Cmp(..) | Forall(..) | Exists(..) => Sort::Bool,
            Var(s) => s.sort,
            Ite(_, a, _) => a.sort(),
            SeqEmpty | SeqUnit(_) | Concat(..) => Sort::Seq,
        }
    }
    pub fn int(i: impl Into<BigInt>) -> Term {
        t(TermKind::Int(i.into()))
    }
    pub fn bool(b: bool) -> Term {
        t(TermKind::Bool(b))
    }
    pub fn var(s: Sym) -> Term {
        t(TermKind::Var(s))
    }
    pub fn neg(a: Term) -> Term {
        t(TermKind::Neg(a))
    }
    pub fn add(a: Term, b: Term) -> Term {
        t(TermKind::Add(a, b))
    }
    pub fn sub(a: Term, b: Term) -> Term {
        t(TermKind::Sub(a, b))
    }
    pub fn mul(a: Term, b: Term) -> Term {
        t(TermKind::Mul(a, b))
    }
    pub fn floor_div(a: Term, b: Term) -> Term {
        t(TermKind::FloorDiv(a, b))
    }
    pub fn modulo(a: Term, b: Term) -> Term {
        t(TermKind::Mod(a, b))
    }
    pub fn abs(a: Term) -> Term {
        t(TermKind::Abs(a))
    }
    pub fn min(a: Term, b: Term) -> Term {
        t(TermKind::Min(a, b))
    }
    pub fn max(a: Term, b: Term) -> Term {
        t(TermKind::Max(a, b))
    }
    pub fn not(a: Term) -> Term {
        if let TermKind::Bool(b) = a.kind() {
            return Term::bool(!b);
        }
        t(TermKind::Not(a))
    }
    pub fn and(a: Term, b: Term) -> Term {
        if a.is_true() {
            return b;
        }
        if b.is_true() {
            return a;
        }
        if a.is_false() || b.is_false() {
            return Term::bool(false);
        }
        t(TermKind::And(vec![a, b]))
    }
    pub fn or(a: Term, b: Term) -> Term {
        if a.is_false() {
            return b;
        }
        if b.is_false() {
            return a;
        }
        if a.is_true() || b.is_true() {
            return Term::bool(true);
        }
        t(TermKind::Or(vec![a, b]))
    }
    pub fn and_all(it: impl IntoIterator<Item = Term>) -> Term {
        it.into_iter().fold(Term::bool(true), Term::and)
    }
    pub fn or_all(it: impl IntoIterator<Item = Term>) -> Term {
        it.into_iter().fold(Term::bool(false), Term::or)
    }
    pub fn implies(a: Term, b: Term) -> Term {
        Term::or(Term::not(a), b)
    }
    pub fn ite(c: Term, a: Term, b: Term) -> Term {
        if c.is_true() {
            return a;
        }
        if c.is_false() {
            return b;
        }
        t(TermKind::Ite(c, a, b))
    }
    pub fn cmp(op: CmpOp, a: Term, b: Term) -> Term {
        t(TermKind::Cmp(op, a, b))
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
    pub fn seq_empty() -> Term {
        t(TermKind::SeqEmpty)
    }
    pub fn seq_unit(a: Term) -> Term {
        t(TermKind::SeqUnit(a))
    }
    pub fn concat(a: Term, b: Term) -> Term {
        t(TermKind::Concat(a, b))
    }
    pub fn tuple(items: Vec<Term>) -> Term {
        items
            .into_iter()
            .map(Term::seq_unit)
            .reduce(Term::concat)
            .unwrap_or_else(Term::seq_empty)
    }
    pub fn len(a: Term) -> Term {
        t(TermKind::Len(a))
    }
    pub fn index(a: Term, i: Term) -> Term {
        t(TermKind::Index(a, i))
    }
    pub fn in_bounds(a: Term, i: Term) -> Term {
        let n = Term::len(a);
        Term::and(Term::le(Term::neg(n.clone()), i.clone()), Term::lt(i, n))
    }
    pub fn forall(v: Sym, lo: Term, hi: Term, body: Term) -> Term {
        t(TermKind::Forall(v, lo, hi, body))
    }
    pub fn exists(v: Sym, lo: Term, hi: Term, body: Term) -> Term {
        t(TermKind::Exists(v, lo, hi, body))
    }
    pub fn is_true(&self) -> bool {
        matches!(self.kind(), TermKind::Bool(true))
    }
    pub fn is_false(&self) -> bool {
        matches!(self.kind(), TermKind::Bool(false))
    }
    pub fn as_int(&self) -> Option<&BigInt> {
        if let TermKind::Int(i) = self.kind() {
            Some(i)
        } else {
            None
        }
    }
    pub fn vars(&self, out: &mut BTreeSet<Sym>) {
        if let TermKind::Var(s) = self.kind() {
            out.insert(s.clone());
        }
    }
    pub fn to_smt2(&self) -> String {
        format!("{self:?}")
    }
}
impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}
pub fn smt2_declarations(syms: &BTreeSet<Sym>) -> String {
    format!("{syms:?}")
}
