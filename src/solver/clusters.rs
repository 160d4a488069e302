//! Constraint independence, incrementally: the connected components of the last path
//! condition, kept up to date as consecutive queries push and pop conjuncts.
//!
//! [`super::slice::cluster`] computes the conjuncts connected to the new ones from scratch,
//! walking the whole path condition (and hashing every conjunct's symbols) on every check:
//! at depth 963 that was a quarter of the exploration. Here the solver keeps a stack of
//! the conjuncts of the last query, aligned with the engine's depth-first order, and a
//! **union-find with rollback** over their positions: pushing a conjunct unions it with the
//! first conjunct of each of its symbols; popping undoes exactly the unions and symbol
//! entries that the push made (union by size, no path compression, so every undo is O(1)).
//! A query is a persistent [`PathCondition`]; its common prefix with the stack is found by
//! pointer, walking only the cells above it ([`Mirror`]), and the rest is pushed; per check
//! the work is proportional to the *new* conjuncts and to the size of the cluster returned,
//! not to the depth.
//!
//! Soundness is [`super::slice`]'s argument unchanged: the union of the components of
//! `pc` that contain a seed is exactly the least set closed under "shares a symbol with a
//! member" (a component is a maximal set connected through shared symbols), i.e. the same
//! `C` as the fixpoint of [`super::slice::connected`]. The stack stores the conjuncts
//! themselves (not fingerprints), so a query is matched exactly. The test
//! `incremental_cluster_equals_from_scratch` checks both against each other on random
//! depth-first sequences of pushes and pops.

use super::slice::VarsMemo;
use crate::term::{Mirror, PathCondition, Sym, Term};

/// One change made by a push, undone by the matching pop.
enum Undo {
    /// `child`'s root was set to `root` (and their member lists spliced).
    Union { child: u32, root: u32 },
    /// The symbol got its first conjunct.
    Owner(Sym),
}

/// The conjuncts of the last query and their components (see the module docs).
#[derive(Default)]
pub struct Clusters {
    /// The cells of the last query, aligned with `terms`.
    mirror: Mirror,
    terms: Vec<Term>,
    /// Union-find parent (a root is its own parent); union by size.
    parent: Vec<u32>,
    /// Members of the component, valid at roots.
    size: Vec<u32>,
    /// Members of a component form a circular list through `next`.
    next: Vec<u32>,
    /// The first conjunct that mentions a symbol.
    owner: crate::base::FastMap<Sym, u32>,
    undo: Vec<Undo>,
    /// `marks[i]`: the length of `undo` before conjunct `i` was pushed.
    marks: Vec<usize>,
    /// `terms[..sat_len]` is known to be satisfiable.
    sat_len: usize,
}

impl Clusters {
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// The conjuncts of the stack, oldest first (those of the last query).
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// Make the stack equal to `pc`: pop back to the common prefix, push the rest. Returns
    /// the length of the common prefix (which the stack kept).
    pub fn sync(&mut self, pc: &PathCondition, memo: &mut VarsMemo) -> usize {
        let (common, fresh) = self.mirror.align(pc);
        while self.terms.len() > common {
            self.pop();
        }
        self.sat_len = self.sat_len.min(common);
        for t in fresh {
            self.push(t, memo);
        }
        common
    }

    /// The length of a prefix of the stack known to be satisfiable.
    pub fn known_sat(&self) -> usize {
        self.sat_len
    }

    /// Record that the first `n` conjuncts of the stack are satisfiable.
    pub fn set_sat(&mut self, n: usize) {
        self.sat_len = self.sat_len.max(n.min(self.terms.len()));
    }

    fn push(&mut self, t: Term, memo: &mut VarsMemo) {
        let i = self.terms.len() as u32;
        self.marks.push(self.undo.len());
        self.parent.push(i);
        self.size.push(1);
        self.next.push(i);
        for s in memo.vars(&t).iter() {
            match self.owner.get(s) {
                Some(&j) => self.union(i, j),
                None => {
                    self.owner.insert(s.clone(), i);
                    self.undo.push(Undo::Owner(s.clone()));
                }
            }
        }
        self.terms.push(t);
    }

    fn pop(&mut self) {
        let mark = self.marks.pop().expect("pop of an empty stack");
        while self.undo.len() > mark {
            match self.undo.pop().expect("undo entries above the mark") {
                Undo::Owner(s) => {
                    self.owner.remove(&s);
                }
                Undo::Union { child, root } => {
                    // Splicing two circular lists is its own inverse.
                    self.next.swap(child as usize, root as usize);
                    self.size[root as usize] -= self.size[child as usize];
                    self.parent[child as usize] = child;
                }
            }
        }
        self.terms.pop();
        self.parent.pop();
        self.size.pop();
        self.next.pop();
    }

    fn root(&self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            i = self.parent[i as usize];
        }
        i
    }

    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra == rb {
            return;
        }
        let (child, root) = if self.size[ra as usize] <= self.size[rb as usize] {
            (ra, rb)
        } else {
            (rb, ra)
        };
        self.parent[child as usize] = root;
        self.size[root as usize] += self.size[child as usize];
        self.next.swap(child as usize, root as usize);
        self.undo.push(Undo::Union { child, root });
    }

    /// The positions of the conjuncts connected to `stack[seeds_from..]` (seeds included),
    /// ascending; `None` when that is the whole stack (nothing to slice away), found
    /// without listing the members.
    pub fn cluster(&self, seeds_from: usize) -> Option<Vec<usize>> {
        let mut roots: Vec<u32> = (seeds_from..self.terms.len())
            .map(|i| self.root(i as u32))
            .collect();
        roots.sort_unstable();
        roots.dedup();
        let total: usize = roots.iter().map(|&r| self.size[r as usize] as usize).sum();
        if total == self.terms.len() {
            return None;
        }
        let mut out = Vec::with_capacity(total);
        for r in roots {
            let mut i = r;
            loop {
                out.push(i as usize);
                i = self.next[i as usize];
                if i == r {
                    break;
                }
            }
        }
        out.sort_unstable();
        Some(out)
    }

    /// The conjunct at position `i` of the stack.
    pub fn term(&self, i: usize) -> &Term {
        &self.terms[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::slice::connected;
    use crate::term::Sort;

    /// A tiny deterministic generator (no dependency needed for a property test).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// A random conjunct over up to three of `nsyms` symbols (sometimes none: ground).
    fn conjunct(rng: &mut Rng, nsyms: u64, salt: i64) -> Term {
        let k = rng.next(4);
        let mut sum = Term::int(salt);
        for _ in 0..k {
            let v = Term::var(Sym::new(&format!("v{}", rng.next(nsyms)), Sort::Int));
            sum = Term::add(sum, v);
        }
        if k == 0 {
            // Ground, but not folded to a constant: a division by zero stays symbolic.
            return Term::eq(Term::floor_div(Term::int(salt), Term::int(0)), Term::int(0));
        }
        Term::gt(sum, Term::int(0))
    }

    #[test]
    fn incremental_cluster_equals_from_scratch() {
        for seed in 1..=60u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            let nsyms = 2 + rng.next(12);
            let mut memo = VarsMemo::default();
            let mut inc = Clusters::default();
            let mut list = PathCondition::default();
            let mut salt = 0;
            for _ in 0..200 {
                // Depth-first: pop a few, push a few (the kept prefix shares its cells,
                // as a child shares its parent's conjuncts); sometimes the same conjuncts
                // in new cells.
                for _ in 0..rng.next(4) {
                    list = list.below();
                }
                for _ in 0..1 + rng.next(3) {
                    salt += 1;
                    list = list.push(conjunct(&mut rng, nsyms, salt));
                }
                if rng.next(8) == 0 {
                    list = PathCondition::from_terms(&list.to_vec());
                }
                let pc = list.to_vec();
                let common = inc.sync(&list, &mut memo);
                assert!(common <= pc.len());
                assert_eq!(inc.len(), pc.len());
                for (k, t) in pc.iter().enumerate() {
                    assert!(inc.term(k) == t);
                }
                let known = rng.next(pc.len() as u64) as usize;
                let seeds: Vec<usize> = (known..pc.len()).collect();
                let want = connected(&pc, &seeds, &mut memo);
                match inc.cluster(known) {
                    None => assert_eq!(want.len(), pc.len(), "seed {seed}"),
                    Some(got) => assert_eq!(got, want, "seed {seed}"),
                }
                // Every single seed too (the components themselves).
                let i = rng.next(pc.len() as u64) as usize;
                let want = connected(&pc, &[i], &mut memo);
                let got: Vec<usize> = (0..pc.len())
                    .filter(|&j| inc.root(j as u32) == inc.root(i as u32))
                    .collect();
                assert_eq!(got, want, "seed {seed}");
            }
            // Popping everything leaves an empty structure.
            inc.sync(&PathCondition::default(), &mut memo);
            assert!(inc.owner.is_empty() && inc.undo.is_empty() && inc.marks.is_empty());
        }
    }

    #[test]
    fn sat_prefix_shrinks_to_the_common_prefix() {
        let mut memo = VarsMemo::default();
        let mut inc = Clusters::default();
        let x = Term::var(Sym::new("x", Sort::Int));
        let a = Term::gt(x.clone(), Term::int(0));
        let b = Term::gt(x.clone(), Term::int(1));
        let c = Term::gt(x, Term::int(2));
        let pa = PathCondition::default().push(a);
        inc.sync(&pa.push(b.clone()), &mut memo);
        inc.set_sat(2);
        assert_eq!(inc.known_sat(), 2);
        let pac = pa.push(c);
        assert_eq!(inc.sync(&pac, &mut memo), 1);
        assert_eq!(inc.known_sat(), 1);
        assert_eq!(inc.sync(&pac.push(b), &mut memo), 2);
        assert_eq!(inc.known_sat(), 1);
    }
}
