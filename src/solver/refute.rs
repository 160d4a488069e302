//! Refuting a minimisation probe without Z3 (issue 13: `run --json` on the linear search
//! spent most of its time proving probes unsatisfiable, one Z3 check over the whole path
//! condition each).
//!
//! While [`super::Incremental::minimal_model`] shrinks a model, some parts of every
//! remaining model become *fixed*: a tuple's length once its minimum is found (`len <= n`
//! is asserted and `len <= n - 1` was refuted), an integer whose smallest `|x|` is 0, a
//! tuple element asserted zero. A probe proposes values for a few more *atoms* (`len(t)`,
//! `t[k]` for a constant `k >= 0`, an integer symbol). If some conjunct of the path
//! condition reads nothing but fixed and proposed atoms, its value is the same in every
//! model of what is asserted plus the probe; when [`Model::eval`] says that value is
//! `False`, no such model exists and the probe is unsatisfiable: exactly the answer Z3
//! would have given, so the minimised model is the same as without this shortcut.
//! A conjunct that reads a tuple any other way (a symbolic index, `==` on whole tuples,
//! a quantifier) or a Boolean symbol is never used: it is not determined by atoms.

use std::collections::{BTreeMap, HashMap, HashSet};

use num_bigint::BigInt;

use crate::concrete::Value;
use crate::term::{Model, Sort, Sym, Term, TermKind as K};

/// A part of a model that a conjunct may read.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) enum Atom {
    Len(Sym),
    /// `t[k]`, `k >= 0`.
    Elem(Sym, usize),
    Int(Sym),
}

/// Conjuncts bigger than this (nodes written out as a tree) are not analysed.
const MAX_CONJUNCT_SIZE: u64 = 256;

/// Evaluations one query may spend (each is one conjunct under one candidate).
const QUERY_BUDGET: usize = 4096;

/// The largest range of values [`Refuter::refutes_range`] tries one by one.
const MAX_RANGE: u64 = 64;

pub(super) struct Refuter {
    /// The analysable conjuncts with the atoms each reads.
    conjuncts: Vec<(Term, Vec<Atom>)>,
    /// For each atom, the conjuncts reading it, newest first (a path condition's newest
    /// conjuncts are usually its tightest bounds).
    by_atom: HashMap<Atom, Vec<usize>>,
    fixed: HashMap<Atom, BigInt>,
    /// Bounds on an atom stated by single conjuncts (`3 < len(t)`, `x <= -2`).
    bounds: HashMap<Atom, Bounds>,
}

/// `lo <= atom <= hi` (either side may be unknown).
#[derive(Default)]
struct Bounds {
    lo: Option<BigInt>,
    hi: Option<BigInt>,
}

impl Refuter {
    /// Analyse `part` (the conjuncts every minimised model satisfies).
    pub(super) fn new(part: &[Term]) -> Refuter {
        let mut conjuncts = Vec::new();
        let mut by_atom: HashMap<Atom, Vec<usize>> = HashMap::new();
        let mut bounds: HashMap<Atom, Bounds> = HashMap::new();
        for c in part.iter().rev() {
            if let Some((atom, lo, hi)) = bound(c) {
                let b = bounds.entry(atom).or_default();
                if let Some(lo) = lo {
                    b.lo = Some(b.lo.take().map_or(lo.clone(), |old| old.max(lo)));
                }
                if let Some(hi) = hi {
                    b.hi = Some(b.hi.take().map_or(hi.clone(), |old| old.min(hi)));
                }
            }
            if c.tree_size() > MAX_CONJUNCT_SIZE {
                continue;
            }
            let mut atoms = HashSet::new();
            if !collect(c, &mut atoms) {
                continue;
            }
            let i = conjuncts.len();
            for a in &atoms {
                by_atom.entry(a.clone()).or_default().push(i);
            }
            conjuncts.push((c.clone(), atoms.into_iter().collect()));
        }
        Refuter {
            conjuncts,
            by_atom,
            fixed: HashMap::new(),
            bounds,
        }
    }

    /// From now on every model gives `atom` the value `v`.
    pub(super) fn fix(&mut self, atom: Atom, v: BigInt) {
        self.fixed.insert(atom, v);
    }

    /// Is every model that gives the atoms of `trial` these values impossible? `true`
    /// only if proved (some conjunct evaluates to `False`); `false` means "not known".
    pub(super) fn refutes(&self, trial: &[(Atom, BigInt)]) -> bool {
        let mut budget = QUERY_BUDGET;
        self.refutes_within(&trial.iter().cloned().collect(), &mut budget)
    }

    /// Is every value `v` of `atom` in `lo..=hi` impossible (as [`Refuter::refutes`])?
    pub(super) fn refutes_range(&self, atom: &Atom, lo: &BigInt, hi: &BigInt) -> bool {
        if let Some(b) = self.bounds.get(atom) {
            if b.lo.as_ref().is_some_and(|l| l > hi) || b.hi.as_ref().is_some_and(|h| h < lo) {
                return true;
            }
        }
        if hi < lo || hi - lo >= BigInt::from(MAX_RANGE) {
            return false;
        }
        let mut budget = QUERY_BUDGET;
        let mut v = lo.clone();
        while &v <= hi {
            let trial = HashMap::from([(atom.clone(), v.clone())]);
            if !self.refutes_within(&trial, &mut budget) {
                return false;
            }
            v += 1;
        }
        true
    }

    fn refutes_within(&self, trial: &HashMap<Atom, BigInt>, budget: &mut usize) -> bool {
        let mut seen = HashSet::new();
        for a in trial.keys() {
            for &i in self.by_atom.get(a).map_or(&[][..], |v| v) {
                if !seen.insert(i) {
                    continue;
                }
                if *budget == 0 {
                    return false;
                }
                *budget -= 1;
                let (c, atoms) = &self.conjuncts[i];
                let value = |a: &Atom| trial.get(a).or_else(|| self.fixed.get(a));
                if atoms.iter().all(|a| value(a).is_some())
                    && model_of(atoms, &value)
                        .is_some_and(|m| matches!(m.eval(c), Some(Value::Bool(false))))
                {
                    return true;
                }
            }
        }
        false
    }
}

/// A model giving each atom its value; tuples get their (known) length, the elements no
/// atom names are 0 (no analysed conjunct reads them). `None` if an element lies beyond
/// its tuple's length or a length is unknown or negative.
fn model_of<'a>(atoms: &[Atom], value: &impl Fn(&Atom) -> Option<&'a BigInt>) -> Option<Model> {
    let mut values = BTreeMap::new();
    let mut tuples: BTreeMap<&Sym, Vec<BigInt>> = BTreeMap::new();
    for a in atoms {
        match a {
            Atom::Int(x) => {
                values.insert(x.clone(), Value::Int(value(a)?.clone()));
            }
            Atom::Len(s) | Atom::Elem(s, _) => {
                if !tuples.contains_key(s) {
                    let n: usize = value(&Atom::Len(s.clone()))?.try_into().ok()?;
                    if n > 1 << 16 {
                        return None;
                    }
                    tuples.insert(s, vec![BigInt::default(); n]);
                }
                if let Atom::Elem(_, k) = a {
                    *tuples.get_mut(s)?.get_mut(*k)? = value(a)?.clone();
                }
            }
        }
    }
    for (s, items) in tuples {
        values.insert(s.clone(), Value::tuple(items));
    }
    Some(Model { values })
}

/// `(atom, lo, hi)` if `c` compares an atom with a constant: `lo <= atom <= hi`.
fn bound(c: &Term) -> Option<(Atom, Option<BigInt>, Option<BigInt>)> {
    use crate::lang::ast::CmpOp as Op;
    let K::Cmp(op, a, b) = c.kind() else {
        return None;
    };
    // Written as `atom op k`.
    let (atom, op, k) = match (atom_of(a), b.as_int(), atom_of(b), a.as_int()) {
        (Some(atom), Some(k), _, _) => (atom, *op, k.clone()),
        (_, _, Some(atom), Some(k)) => (atom, mirrored(*op), k.clone()),
        _ => return None,
    };
    let one = BigInt::from(1);
    Some(match op {
        Op::Eq => (atom, Some(k.clone()), Some(k)),
        Op::Lt => (atom, None, Some(k - one)),
        Op::Le => (atom, None, Some(k)),
        Op::Gt => (atom, Some(k + one), None),
        Op::Ge => (atom, Some(k), None),
        Op::Ne => return None,
    })
}

/// `b op' a` for `a op b`.
fn mirrored(op: crate::lang::ast::CmpOp) -> crate::lang::ast::CmpOp {
    use crate::lang::ast::CmpOp as Op;
    match op {
        Op::Lt => Op::Gt,
        Op::Le => Op::Ge,
        Op::Gt => Op::Lt,
        Op::Ge => Op::Le,
        eq_or_ne => eq_or_ne,
    }
}

/// The atom `t` is, if it is one that a bound can be about.
fn atom_of(t: &Term) -> Option<Atom> {
    match t.kind() {
        K::Var(s) if s.sort == Sort::Int => Some(Atom::Int(s.clone())),
        K::Len(s) => match s.kind() {
            K::Var(v) => Some(Atom::Len(v.clone())),
            _ => None,
        },
        _ => None,
    }
}

/// Add the atoms `t` reads; `false` if `t` reads something that is not an atom.
fn collect(t: &Term, out: &mut HashSet<Atom>) -> bool {
    match t.kind() {
        K::Var(s) => match s.sort {
            Sort::Int => {
                out.insert(Atom::Int(s.clone()));
                true
            }
            Sort::Bool | Sort::Seq => false,
        },
        K::Len(s) => match s.kind() {
            K::Var(v) => {
                out.insert(Atom::Len(v.clone()));
                true
            }
            _ => false,
        },
        K::Index(s, i) => match (s.kind(), i.as_int().and_then(|k| usize::try_from(k).ok())) {
            (K::Var(v), Some(k)) => {
                // Reading `t[k]` needs `k < len(t)` to mean anything: the length is read too.
                out.insert(Atom::Len(v.clone()));
                out.insert(Atom::Elem(v.clone(), k));
                true
            }
            _ => false,
        },
        K::Forall(..) | K::Exists(..) => false,
        K::Int(_) | K::Bool(_) | K::SeqEmpty => true,
        K::Neg(a) | K::Abs(a) | K::Not(a) | K::SeqUnit(a) => collect(a, out),
        K::Add(a, b)
        | K::Sub(a, b)
        | K::Mul(a, b)
        | K::FloorDiv(a, b)
        | K::Mod(a, b)
        | K::Min(a, b)
        | K::Max(a, b)
        | K::Cmp(_, a, b)
        | K::Concat(a, b) => collect(a, out) && collect(b, out),
        K::And(xs) | K::Or(xs) => xs.iter().all(|x| collect(x, out)),
        K::Ite(c, a, b) => collect(c, out) && collect(a, out) && collect(b, out),
    }
}

#[cfg(test)]
mod tests;
