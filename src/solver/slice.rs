//! Constraint independence (KLEE): which conjuncts of a path condition need checking.
//!
//! Soundness. Let `pc = P ++ N`, where the prefix `P` is known satisfiable and `N` holds the
//! new conjuncts. Let `C` be the conjuncts connected to `N` through shared free symbols
//! (the least set containing `N` and every conjunct of `P` that shares a symbol with a
//! member), and `R = P \ C`.
//!
//! 1. `R ⊆ P` is satisfiable, since any model of `P` satisfies every subset of it.
//! 2. No conjunct of `R` shares a symbol with one of `C` (else it would be in `C`).
//! 3. So if `C` has a model `m_C`, then `m_C` on the symbols of `C`, joined with a model
//!    `m_R` of `R` on the symbols of `R` (disjoint sets), is well defined and satisfies
//!    every conjunct: each conjunct's truth depends only on its own free symbols.
//!    Conversely a model of `pc` is a model of `C ⊆ pc`. Hence `pc` is sat iff `C` is.
//!
//! Ground conjuncts (no symbols) of `P` fall into `R`: they are true, `P` being sat.
//! Quantifier-bound variables are not free symbols ([`Term::vars`]), so they connect
//! nothing. Sorts are no issue: a symbol is a name *and* a sort. An `Unknown` answer for
//! `C` is reported as the answer for `pc` (never upgraded to `Sat`).
//!
//! [`Solver::check`](super::Solver::check) finds `C` incrementally, as the union of the
//! components (kept by a union-find with rollback over the last query's conjuncts) that
//! contain a new conjunct: the same set, see `solver/clusters.rs`.

use std::collections::{BTreeSet, HashSet};
use std::rc::Rc;

use crate::term::{Sym, Term};

/// Drop the memo beyond this many entries.
const MEMO_LIMIT: usize = 200_000;

/// Free symbols of terms, memoised (a path condition's conjuncts recur in every check
/// below them in the tree).
#[derive(Default)]
pub struct VarsMemo {
    memo: crate::term::TermMap<Rc<[Sym]>>,
}

impl VarsMemo {
    pub fn vars(&mut self, t: &Term) -> Rc<[Sym]> {
        if let Some(v) = self.memo.get(t) {
            return v.clone();
        }
        if self.memo.len() > MEMO_LIMIT {
            self.memo.clear();
        }
        let mut set = BTreeSet::new();
        t.vars(&mut set);
        let v: Rc<[Sym]> = set.into_iter().collect();
        self.memo.insert(t.clone(), v.clone());
        v
    }
}

/// The conjuncts of `pc` that need checking when `pc[..known]` is known satisfiable: those
/// connected to `pc[known..]` by shared symbols, in their order in `pc`. The solver computes
/// the same set incrementally (`solver/clusters.rs`); this from-scratch version is the
/// reference its tests compare against.
#[cfg(test)]
pub fn cluster(pc: &[Term], known: usize, memo: &mut VarsMemo) -> Vec<Term> {
    let seeds: Vec<usize> = (known..pc.len()).collect();
    connected(pc, &seeds, memo)
        .into_iter()
        .map(|i| pc[i].clone())
        .collect()
}

/// The indices of the conjuncts of `pc` connected to `pc[seeds]` by shared symbols (the
/// seeds included), ascending. The soundness argument above holds for any seed set whose
/// complement is known satisfiable (`solver/core.rs` relies on it for unsat cores).
pub fn connected(pc: &[Term], seeds: &[usize], memo: &mut VarsMemo) -> Vec<usize> {
    let vars: Vec<Rc<[Sym]>> = pc.iter().map(|t| memo.vars(t)).collect();
    let mut inside = vec![false; pc.len()];
    let mut reached: HashSet<&Sym> = HashSet::new();
    for &i in seeds {
        inside[i] = true;
        reached.extend(vars[i].iter());
    }
    // Fixpoint: add conjuncts sharing a symbol with the cluster.
    loop {
        let mut grew = false;
        for i in 0..pc.len() {
            if !inside[i] && vars[i].iter().any(|s| reached.contains(s)) {
                inside[i] = true;
                reached.extend(vars[i].iter());
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    (0..pc.len()).filter(|&i| inside[i]).collect()
}

/// The connected components of `pc` (conjuncts linked by shared symbols), each in `pc`'s
/// order. A model of `pc` is the union of models of its components (disjoint symbols).
pub fn components(pc: &[Term], memo: &mut VarsMemo) -> Vec<Vec<Term>> {
    component_indices(pc, memo)
        .into_iter()
        .map(|g| g.into_iter().map(|i| pc[i].clone()).collect())
        .collect()
}

/// [`components`] as indices into `pc`: ascending within a component, components ordered
/// by their first conjunct.
pub fn component_indices(pc: &[Term], memo: &mut VarsMemo) -> Vec<Vec<usize>> {
    // Union-find over conjunct indices; a symbol links every conjunct it occurs in.
    let mut parent: Vec<usize> = (0..pc.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut first: crate::base::FastMap<Sym, usize> = Default::default();
    for (i, t) in pc.iter().enumerate() {
        for s in memo.vars(t).iter() {
            // (no clone of a symbol met before)
            let j = match first.get(s) {
                Some(&j) => j,
                None => {
                    first.insert(s.clone(), i);
                    i
                }
            };
            let (a, b) = (root(&mut parent, i), root(&mut parent, j));
            parent[a] = b;
        }
    }
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for i in 0..pc.len() {
        let r = root(&mut parent, i);
        match groups.iter_mut().find(|(g, _)| *g == r) {
            Some((_, members)) => members.push(i),
            None => groups.push((r, vec![i])),
        }
    }
    groups.into_iter().map(|(_, members)| members).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Sort;

    fn v(name: &str) -> Term {
        Term::var(Sym::new(name, Sort::Int))
    }

    #[test]
    fn cluster_follows_shared_symbols_transitively() {
        let (x, y, z, w) = (v("x"), v("y"), v("z"), v("w"));
        let zero = || Term::int(0);
        let pc = vec![
            Term::gt(x.clone(), zero()),          // x
            Term::gt(w.clone(), zero()),          // w: independent
            Term::lt(x.clone(), y.clone()),       // x, y
            Term::lt(Term::int(1), Term::int(2)), // ground (folded to True)
            Term::gt(z.clone(), zero()),          // z: independent
            Term::eq(y.clone(), Term::int(3)),    // new: y
        ];
        let mut memo = VarsMemo::default();
        let c = cluster(&pc, 5, &mut memo);
        assert_eq!(c, vec![pc[0].clone(), pc[2].clone(), pc[5].clone()]);
        // Nothing known: everything connected to the whole pc is kept.
        assert_eq!(cluster(&pc, 0, &mut memo).len(), pc.len());
        // A ground new conjunct needs only itself.
        let pc2 = vec![
            pc[0].clone(),
            Term::eq(Term::floor_div(Term::int(1), Term::int(0)), Term::int(0)),
        ];
        assert_eq!(cluster(&pc2, 1, &mut memo), vec![pc2[1].clone()]);
    }

    #[test]
    fn components_partition_by_shared_symbols() {
        let (x, y, z) = (v("x"), v("y"), v("z"));
        let pc = vec![
            Term::gt(x.clone(), Term::int(0)),
            Term::gt(z.clone(), Term::int(0)),
            Term::lt(y.clone(), Term::int(0)),
            Term::lt(x.clone(), y.clone()),
            Term::eq(Term::floor_div(Term::int(1), Term::int(0)), Term::int(0)),
        ];
        let comps = components(&pc, &mut VarsMemo::default());
        assert_eq!(
            comps,
            vec![
                vec![pc[0].clone(), pc[2].clone(), pc[3].clone()],
                vec![pc[1].clone()],
                vec![pc[4].clone()],
            ]
        );
    }
}
