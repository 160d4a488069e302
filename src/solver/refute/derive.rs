//! A model of a path condition derived from a neighbour's model, without Z3 (issue 30).
//!
//! On a deep path, Z3's model construction (`Z3_solver_get_model`) costs far more than the
//! check (0.56 ms against 0.06 ms at 320 conjuncts, growing with them), and `run --json`
//! asks for a model at every leaf. Consecutive leaves of a depth-first exploration share
//! most of their path conditions, so the previous leaf's model is nearly a model of the
//! next one: [`Refuter::derive`] starts from it (symbols it does not give read their
//! defaults) and *repairs* it by local moves on atoms (`len(t)`, `t[k]`, an integer): while
//! some analysed conjunct is false under evaluation, take the oldest such and move one of
//! its atoms to a value that makes it true and leaves fewer of the conjuncts reading that
//! atom false (so every move lowers the number of false conjuncts: at most that many
//! moves). The result is returned only when *every* conjunct of the path condition, the
//! analysed ones and the others (evaluated in full by [`Model::eval`]), is true: it is a
//! model, exactly as a repaired probe is in [`Refuter::repair`]. It is only a starting
//! point: the minimisation then runs on it as on Z3's model, so every measure reaches the
//! same minimum; which of the equally small models comes out may differ. `None` (no
//! repair found within the budget) sends the caller back to Z3.

use std::collections::BTreeSet;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

use super::{eval_atoms, read, small_values, sym_of, Atom, Refuter};
use crate::concrete::Value;
use crate::term::{Model, Sort, Sym, Term, TermKind as K};

/// Candidate values tried for one atom in one move.
const MAX_CANDIDATES: usize = 24;

/// Tuples are not grown past this length by a move.
const MAX_DERIVED_LEN: u64 = 4096;

/// One proposed change: `atom` reads `value`.
struct Move<'a> {
    atom: &'a Atom,
    value: &'a BigInt,
}

impl Move<'_> {
    /// The value of `b` in `m` with this move made (a tuple grown by a length move reads
    /// zeros in its new positions; a shrunk one has none beyond its end).
    fn read(&self, m: &Model, b: &Atom) -> Option<BigInt> {
        if b == self.atom {
            return Some(self.value.clone());
        }
        match (self.atom, b) {
            (Atom::Len(s), Atom::Elem(u, k)) if s == u => {
                if BigInt::from(*k) >= *self.value {
                    None
                } else {
                    read(m, b).or_else(|| Some(BigInt::zero()))
                }
            }
            _ => read(m, b),
        }
    }
}

impl Refuter {
    /// A model of every conjunct, derived from `seed` by evaluation and repair (see the
    /// module doc), giving a value to each of `syms`; `None` if none was found.
    #[cfg(test)]
    pub(in crate::solver) fn derive(&self, seed: &Model, syms: &[Sym]) -> Option<Model> {
        self.derive_known(seed, syms, 0)
    }

    /// [`Refuter::derive`] knowing that `seed` satisfies the first `known` conjuncts of
    /// the analysed part (they were in the part `seed` is a model of): those are not
    /// evaluated at the start. The result is the same as [`Refuter::derive`]'s (the
    /// budget is charged as if they were evaluated).
    pub(in crate::solver) fn derive_known(
        &self,
        seed: &Model,
        syms: &[Sym],
        known: usize,
    ) -> Option<Model> {
        let mut m = Model::default();
        for s in syms {
            let v = match (s.sort, seed.values.get(s)) {
                (Sort::Int, Some(v @ Value::Int(_)))
                | (Sort::Bool, Some(v @ Value::Bool(_)))
                | (Sort::Seq, Some(v @ Value::Tuple(_))) => v.clone(),
                _ => Value::default_of(s.sort.to_type()),
            };
            m.values.insert(s.clone(), v);
        }
        let n = self.conjuncts.len();
        let mut budget = 64 * (n + self.others.len()) + 4096;
        // False analysed conjuncts; the highest index is the oldest (`conjuncts` is newest
        // first).
        let mut violated: BTreeSet<usize> = BTreeSet::new();
        for i in 0..n {
            if self.from[i] < known {
                // True in `seed` (the budget as if evaluated: the initial budget exceeds n).
                budget = budget.saturating_sub(1);
            } else if !self.holds_under(i, &m, None, &mut budget) {
                violated.insert(i);
            }
        }
        while let Some(&i) = violated.iter().next_back() {
            let (atom, value, holds) = self.best_move(&m, i, &violated, &mut budget)?;
            apply(&mut m, &atom, value);
            // `best_move` evaluated every reader of `atom` with the move made: the same
            // values as evaluating them again now (charged to the budget as such).
            let readers = self.by_atom.get(&atom).map_or(&[][..], |v| v);
            budget = budget.saturating_sub(readers.len());
            if budget == 0 {
                return None;
            }
            for (&j, holds) in readers.iter().zip(holds) {
                if holds {
                    violated.remove(&j);
                } else {
                    violated.insert(j);
                }
            }
        }
        let others_hold = self.others.iter().all(|t| {
            budget = budget.saturating_sub(1);
            budget > 0 && matches!(m.eval(t), Some(Value::Bool(true)))
        });
        others_hold.then_some(m)
    }

    /// Does analysed conjunct `i` hold in `m` (with `mv` made)?
    fn holds_under(&self, i: usize, m: &Model, mv: Option<&Move>, budget: &mut usize) -> bool {
        *budget = budget.saturating_sub(1);
        let value = |b: &Atom| match mv {
            Some(mv) => mv.read(m, b),
            None => read(m, b),
        };
        *budget > 0 && eval_atoms(&self.conjuncts[i], &value) == Some(true)
    }

    /// The first move on an atom of conjunct `i` (elements, then lengths, then integers;
    /// small values first) that makes `i` true and leaves fewer conjuncts reading the
    /// atom false, with whether each reader of the atom holds after it.
    fn best_move(
        &self,
        m: &Model,
        i: usize,
        violated: &BTreeSet<usize>,
        budget: &mut usize,
    ) -> Option<(Atom, BigInt, Vec<bool>)> {
        let mut atoms: Vec<&Atom> = self.atoms[i].iter().collect();
        atoms.sort_by_key(|a| match a {
            Atom::Elem(s, k) => (0, s.name.clone(), *k),
            Atom::Len(s) => (1, s.name.clone(), 0),
            Atom::Int(s) => (2, s.name.clone(), 0),
        });
        for atom in atoms {
            if self.fixed.contains_key(atom) {
                continue;
            }
            let current = read(m, atom);
            if matches!(atom, Atom::Elem(..)) && current.is_none() {
                // Beyond the tuple's end: a length move comes first.
                continue;
            }
            let readers = self.by_atom.get(atom).map_or(&[][..], |v| v);
            let before = readers.iter().filter(|j| violated.contains(j)).count();
            for value in self.candidates(m, i, atom) {
                if Some(&value) == current.as_ref() {
                    continue;
                }
                let mv = Move {
                    atom,
                    value: &value,
                };
                if !self.holds_under(i, m, Some(&mv), budget) {
                    continue;
                }
                let mut after = 0;
                let mut holds = Vec::with_capacity(readers.len());
                for &j in readers {
                    let h = self.holds_under(j, m, Some(&mv), budget);
                    holds.push(h);
                    if !h {
                        after += 1;
                        if after >= before {
                            break;
                        }
                    }
                }
                if after < before {
                    // (no early break: every reader was evaluated)
                    return Some((atom.clone(), value, holds));
                }
                if *budget == 0 {
                    return None;
                }
            }
        }
        None
    }

    /// Values to try for `atom` to make conjunct `i` true: 0, ±1, ±2, ±3, the constants of
    /// `i` and the values of its other atoms (each ±1), smallest first; lengths `>= 0`.
    fn candidates(&self, m: &Model, i: usize, atom: &Atom) -> Vec<BigInt> {
        let mut near: Vec<BigInt> = Vec::new();
        constants(&self.conjuncts[i], &mut near);
        for b in self.atoms[i].iter() {
            if b != atom {
                near.extend(read(m, b));
            }
        }
        let mut out: Vec<BigInt> = small_values().collect();
        for c in near {
            out.push(&c - 1);
            out.push(&c + 1);
            out.push(c);
        }
        if let Atom::Len(_) = atom {
            out.retain(|v| !v.is_negative() && v.to_u64().is_some_and(|v| v <= MAX_DERIVED_LEN));
        }
        out.sort_by(|a, b| {
            a.magnitude()
                .cmp(b.magnitude())
                .then(b.is_positive().cmp(&a.is_positive()))
        });
        out.dedup();
        out.truncate(MAX_CANDIDATES);
        out
    }
}

/// Make the move in `m`.
fn apply(m: &mut Model, atom: &Atom, v: BigInt) {
    let s = sym_of(atom);
    match atom {
        Atom::Int(_) => {
            m.values.insert(s.clone(), Value::Int(v));
        }
        Atom::Elem(..) | Atom::Len(_) => {
            let mut items = match m.values.get(s) {
                Some(Value::Tuple(t)) => t.to_vec(),
                _ => Vec::new(),
            };
            match atom {
                Atom::Elem(_, k) => {
                    if let Some(slot) = items.get_mut(*k) {
                        *slot = v;
                    }
                }
                _ => {
                    let n = v.to_usize().unwrap_or(0);
                    items.resize(n, BigInt::zero());
                }
            }
            m.values.insert(s.clone(), Value::tuple(items));
        }
    }
}

/// The integer constants of `t` (of at most 64 bits; `t` is an analysed conjunct: small).
fn constants(t: &Term, out: &mut Vec<BigInt>) {
    match t.kind() {
        K::Int(i) if i.bits() <= 64 => out.push(i.clone()),
        _ => t.kind().for_each_child(|c| constants(c, out)),
    }
}

#[cfg(test)]
mod tests;
