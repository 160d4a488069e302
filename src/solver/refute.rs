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
//!
//! The other way round, [`Refuter::repair`] answers a probe `sat` without Z3 when moving a
//! few atoms of the best model so far (a tuple's large elements to 0, 1, -1, ...) keeps
//! every conjunct true under [`Model::eval`]: the moved model is a model, so Z3 would have
//! answered `sat` too (with some other model: the minimum found is the same, the model
//! that reaches it may differ).

use std::cell::RefCell;
use std::rc::Rc;

use num_bigint::BigInt;

use crate::base::{FastMap as HashMap, FastSet as HashSet};
use crate::concrete::Value;
use crate::term::{Model, Sort, Sym, Term, TermKind as K, TermMap};

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

/// Values [`Refuter::repair`] tries for one atom (0, 1, -1, 2, -2, 3, -3).
const REPAIR_TRIES: u32 = 7;

/// The largest range of values [`Refuter::refutes_range`] tries one by one.
const MAX_RANGE: u64 = 64;

pub(super) struct Refuter {
    /// The conjuncts made of atoms, and the atoms each reads.
    conjuncts: Vec<Term>,
    /// The index in the analysed part of each of `conjuncts`.
    from: Vec<usize>,
    atoms: Vec<Rc<[Atom]>>,
    /// The other conjuncts (they may read anything).
    others: Vec<Term>,
    /// For each atom, the conjuncts reading it, newest first (a path condition's newest
    /// conjuncts are usually its tightest bounds).
    by_atom: HashMap<Atom, Vec<usize>>,
    fixed: HashMap<Atom, BigInt>,
    /// Bounds on an atom stated by single conjuncts (`3 < len(t)`, `x <= -2`).
    bounds: HashMap<Atom, Bounds>,
    /// For an integer `x`, the elements `t[k]` that a conjunct `t[k] == x` ties to it:
    /// [`Refuter::repair`] moves them along with `x`.
    tied: HashMap<Atom, Vec<Atom>>,
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
        let mut from = Vec::new();
        let mut atoms_of = Vec::new();
        let mut others = Vec::new();
        let mut by_atom: HashMap<Atom, Vec<usize>> = HashMap::default();
        let mut bounds: HashMap<Atom, Bounds> = HashMap::default();
        let mut tied: HashMap<Atom, Vec<Atom>> = HashMap::default();
        for (k, c) in part.iter().enumerate().rev() {
            let a = analysis(c);
            if let Some((x, e)) = &a.partners {
                tied.entry(x.clone()).or_default().push(e.clone());
            }
            if let Some((atom, lo, hi)) = &a.bound {
                let b = bounds.entry(atom.clone()).or_default();
                if let Some(lo) = lo {
                    b.lo = Some(b.lo.take().map_or(lo.clone(), |old| old.max(lo.clone())));
                }
                if let Some(hi) = hi {
                    b.hi = Some(b.hi.take().map_or(hi.clone(), |old| old.min(hi.clone())));
                }
            }
            let Some(atoms) = &a.atoms else {
                others.push(c.clone());
                continue;
            };
            let i = conjuncts.len();
            for a in atoms.iter() {
                by_atom.entry(a.clone()).or_default().push(i);
            }
            conjuncts.push(c.clone());
            from.push(k);
            atoms_of.push(atoms.clone());
        }
        Refuter {
            conjuncts,
            from,
            atoms: atoms_of,
            others,
            by_atom,
            fixed: HashMap::default(),
            bounds,
            tied,
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
            let trial = HashMap::from_iter([(atom.clone(), v.clone())]);
            if !self.refutes_within(&trial, &mut budget) {
                return false;
            }
            v += 1;
        }
        true
    }

    /// `best` (a model of every conjunct) with each of `targets` whose value exceeds `mid`
    /// in absolute value moved to the first of 0, 1, -1, 2, -2, ... (at most `mid`, at most
    /// [`REPAIR_TRIES`] values) that keeps the conjuncts reading it true. An integer target
    /// takes the elements tied to it along, and a conjunct it then breaks that reads one
    /// other element (`t[j] != x`) moves that element too (so an integer is only a target
    /// before any element is bounded: the `|x|` measures come first). `None` if some
    /// target finds no such value, a conjunct that was not analysed is not true at the
    /// end, or the budget runs out: then only Z3 knows.
    pub(super) fn repair(&self, best: &Model, targets: &[Atom], mid: &BigInt) -> Option<Model> {
        let mut moved: HashMap<Atom, BigInt> = HashMap::default();
        let mut budget = QUERY_BUDGET;
        for a in targets {
            if read(best, a)?.magnitude() <= mid.magnitude() {
                continue;
            }
            let tied = self.tied.get(a).map_or(&[][..], |v| v);
            let mut reading: Vec<usize> = std::iter::once(a)
                .chain(tied)
                .flat_map(|b| self.by_atom.get(b).map_or(&[][..], |v| v))
                .copied()
                .collect();
            reading.sort_unstable();
            reading.dedup();
            let carries = matches!(a, Atom::Int(_));
            let fits = small_values()
                .take_while(|v: &BigInt| v.magnitude() <= mid.magnitude())
                .find_map(|v| {
                    let mut attempt = moved.clone();
                    for b in std::iter::once(a).chain(tied) {
                        attempt.insert(b.clone(), v.clone());
                    }
                    let mut changed: Vec<usize> = reading.clone();
                    for &i in &reading {
                        if self.holds(i, best, &attempt, &mut budget) {
                            continue;
                        }
                        if !carries {
                            return None;
                        }
                        // One other element breaks it: move that element too.
                        let mut free = self.atoms[i].iter().filter(|e| {
                            matches!(e, Atom::Elem(..))
                                && !attempt.contains_key(e)
                                && !self.fixed.contains_key(e)
                        });
                        let (Some(e), None) = (free.next(), free.next()) else {
                            return None;
                        };
                        let e_reading = self.by_atom.get(e).map_or(&[][..], |v| v);
                        small_values().find(|w| {
                            attempt.insert(e.clone(), w.clone());
                            e_reading
                                .iter()
                                .all(|&j| self.holds(j, best, &attempt, &mut budget))
                        })?;
                        changed.extend(e_reading);
                    }
                    changed
                        .iter()
                        .all(|&j| self.holds(j, best, &attempt, &mut budget))
                        .then_some(attempt)
                });
            moved = fits?;
        }
        let mut m = best.clone();
        for (a, v) in moved {
            write(&mut m, &a, v);
        }
        let others_hold = self.others.iter().all(|t| {
            budget = budget.saturating_sub(1);
            budget > 0 && matches!(m.eval(t), Some(Value::Bool(true)))
        });
        others_hold.then_some(m)
    }

    /// Does analysed conjunct `i` hold when the atoms read `moved`, else `best`?
    fn holds(
        &self,
        i: usize,
        best: &Model,
        moved: &HashMap<Atom, BigInt>,
        budget: &mut usize,
    ) -> bool {
        *budget = budget.saturating_sub(1);
        let value = |b: &Atom| moved.get(b).cloned().or_else(|| read(best, b));
        *budget > 0 && eval_atoms(&self.conjuncts[i], &value) == Some(true)
    }

    fn refutes_within(&self, trial: &HashMap<Atom, BigInt>, budget: &mut usize) -> bool {
        let mut seen = HashSet::default();
        let value = |a: &Atom| trial.get(a).or_else(|| self.fixed.get(a)).cloned();
        for a in trial.keys() {
            for &i in self.by_atom.get(a).map_or(&[][..], |v| v) {
                if !seen.insert(i) {
                    continue;
                }
                if *budget == 0 {
                    return false;
                }
                *budget -= 1;
                if eval_atoms(&self.conjuncts[i], &value) == Some(false) {
                    return true;
                }
            }
        }
        false
    }
}

/// The value of analysed conjunct `c` when its atoms read `value` (`None` where an atom
/// it needs is unknown, an element lies beyond its tuple's end, or `c` is meaningless).
/// Unknown atoms read as meaningless, so a result is one every such model agrees on.
fn eval_atoms(c: &Term, value: &dyn Fn(&Atom) -> Option<BigInt>) -> Option<bool> {
    match compare_atoms(c, value) {
        Some(quick) => quick,
        None => eval_atoms_in_full(c, value),
    }
}

/// [`eval_atoms`] by the general evaluator.
fn eval_atoms_in_full(c: &Term, value: &dyn Fn(&Atom) -> Option<BigInt>) -> Option<bool> {
    let reads = |t: &Term| -> Option<Option<Value>> {
        match t.kind() {
            K::Var(x) if x.sort == Sort::Int => Some(value(&Atom::Int(x.clone())).map(Value::Int)),
            K::Len(s) => match s.kind() {
                K::Var(s) => Some(value(&Atom::Len(s.clone())).map(Value::Int)),
                _ => None,
            },
            K::Index(s, i) => match (s.kind(), i.as_int().and_then(|k| usize::try_from(k).ok())) {
                (K::Var(s), Some(k)) => Some(
                    value(&Atom::Len(s.clone()))
                        .filter(|n| &BigInt::from(k) < n)
                        .and_then(|_| value(&Atom::Elem(s.clone(), k)))
                        .map(Value::Int),
                ),
                _ => None,
            },
            _ => None,
        }
    };
    match Model::default().eval_with(c, &reads)? {
        Value::Bool(b) => Some(b),
        _ => None,
    }
}

/// [`eval_atoms`] of a comparison of two atoms or constants (`k < len(t)`, `t[k] != x`,
/// their negations, and `and`/`or` of such: the linear search's `k < len(t) and t[k] != x`),
/// without the general evaluator: most conjuncts of a path condition are such, and each
/// is evaluated many times. `None`: not of that shape.
fn compare_atoms(c: &Term, value: &dyn Fn(&Atom) -> Option<BigInt>) -> Option<Option<bool>> {
    use crate::lang::ast::CmpOp as Op;
    match c.kind() {
        K::Not(a) => compare_atoms(a, value).map(|r| r.map(|b| !b)),
        // As the evaluator's junction: a deciding part decides even if another part is
        // meaningless (an element beyond the tuple's end); else meaningless if one is.
        K::And(xs) | K::Or(xs) => {
            let decides = matches!(c.kind(), K::Or(_));
            let mut unknown = false;
            for x in xs.iter() {
                match compare_atoms(x, value)? {
                    Some(b) if b == decides => return Some(Some(b)),
                    Some(_) => {}
                    None => unknown = true,
                }
            }
            Some((!unknown).then_some(!decides))
        }
        K::Cmp(op, a, b) => {
            // (an element reads as unknown beyond its tuple's known length, as in `reads`)
            let side = |t: &Term| match t.as_int() {
                Some(k) => Some(Some(k.clone())),
                None => atom_of(t).map(|a| match &a {
                    Atom::Elem(s, k) => value(&Atom::Len(s.clone()))
                        .filter(|n| &BigInt::from(*k) < n)
                        .and_then(|_| value(&a)),
                    _ => value(&a),
                }),
            };
            let (x, y) = (side(a)?, side(b)?);
            let (Some(x), Some(y)) = (x, y) else {
                return Some(None);
            };
            Some(Some(match op {
                Op::Lt => x < y,
                Op::Le => x <= y,
                Op::Gt => x > y,
                Op::Ge => x >= y,
                Op::Eq => x == y,
                Op::Ne => x != y,
                Op::In | Op::NotIn => return None,
            }))
        }
        _ => None,
    }
}

/// 0, 1, -1, 2, -2, 3, -3: the values [`Refuter::repair`] tries, smallest first.
fn small_values() -> impl Iterator<Item = BigInt> {
    (0..REPAIR_TRIES).map(|i| BigInt::from(i.div_ceil(2)) * if i % 2 == 1 { 1 } else { -1 })
}

/// The value of `a` in `m` (`None` for an element beyond the tuple's end).
fn read(m: &Model, a: &Atom) -> Option<BigInt> {
    match (a, m.values.get(sym_of(a))?) {
        (Atom::Int(_), Value::Int(i)) => Some(i.clone()),
        (Atom::Len(_), Value::Tuple(t)) => Some(BigInt::from(t.len())),
        (Atom::Elem(_, k), Value::Tuple(t)) => t.get(*k).cloned(),
        _ => None,
    }
}

/// Give `a` the value `v` in `m` (integers and elements only).
fn write(m: &mut Model, a: &Atom, v: BigInt) {
    match a {
        Atom::Int(x) => {
            m.values.insert(x.clone(), Value::Int(v));
        }
        Atom::Elem(s, k) => {
            if let Some(Value::Tuple(t)) = m.values.get(s) {
                let mut items = t.to_vec();
                if let Some(slot) = items.get_mut(*k) {
                    *slot = v;
                }
                m.values.insert(s.clone(), Value::tuple(items));
            }
        }
        Atom::Len(_) => {}
    }
}

fn sym_of(a: &Atom) -> &Sym {
    match a {
        Atom::Len(s) | Atom::Elem(s, _) | Atom::Int(s) => s,
    }
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
        Op::Ne | Op::In | Op::NotIn => return None,
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
        K::Index(s, i) => match (s.kind(), i.as_int().and_then(|k| usize::try_from(k).ok())) {
            (K::Var(v), Some(k)) => Some(Atom::Elem(v.clone(), k)),
            _ => None,
        },
        _ => None,
    }
}

/// `(x, t[k])` if `c` is `x == t[k]` or `t[k] == x`.
fn partners(c: &Term) -> Option<(Atom, Atom)> {
    let K::Cmp(crate::lang::ast::CmpOp::Eq, a, b) = c.kind() else {
        return None;
    };
    match (atom_of(a)?, atom_of(b)?) {
        (x @ Atom::Int(_), e @ Atom::Elem(..)) | (e @ Atom::Elem(..), x @ Atom::Int(_)) => {
            Some((x, e))
        }
        _ => None,
    }
}

/// What [`Refuter::new`] reads off one conjunct.
struct Analysis {
    partners: Option<(Atom, Atom)>,
    bound: Option<(Atom, Option<BigInt>, Option<BigInt>)>,
    /// The atoms it reads, `None` if it is not analysed (it reads something else, or it is
    /// larger than [`MAX_CONJUNCT_SIZE`]).
    atoms: Option<Rc<[Atom]>>,
}

/// Conjuncts analysed before this many entries are forgotten.
const ANALYSIS_MEMO_LIMIT: usize = 1 << 16;

thread_local! {
    /// The analysis of each conjunct seen lately: a deep path's conjuncts recur in the
    /// [`Refuter`] of every leaf below them (issue 30, the linear search's `--json`).
    static ANALYSES: RefCell<TermMap<Rc<Analysis>>> = RefCell::new(TermMap::default());
}

/// The analysis of conjunct `c` (memoised per thread; the same as analysing it anew).
fn analysis(c: &Term) -> Rc<Analysis> {
    let found = ANALYSES.with(|m| m.borrow().get(c).cloned());
    if let Some(a) = found {
        return a;
    }
    let mut atoms = HashSet::default();
    let analysed = c.tree_size() <= MAX_CONJUNCT_SIZE && collect(c, &mut atoms);
    let a = Rc::new(Analysis {
        partners: partners(c),
        bound: bound(c),
        atoms: analysed.then(|| atoms.into_iter().collect()),
    });
    ANALYSES.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= ANALYSIS_MEMO_LIMIT {
            m.clear();
        }
        m.insert(c.clone(), a.clone());
    });
    a
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
        // (A slice reads its tuple's elements at positions that depend on its length.)
        K::Forall(..) | K::Exists(..) | K::Slice(..) => false,
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

mod derive;
#[cfg(test)]
mod tests;
