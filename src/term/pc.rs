//! Path conditions: persistent lists of conjuncts, and stacks aligned with them by pointer.
//!
//! A [`PathCondition`] is a persistent list, newest conjunct first: a child's path
//! condition is its parent's plus one cell, so the nodes of a tree share their common
//! prefixes. Walking it is O(depth), which is what a deep path must not pay per step
//! (docs/PERFORMANCE.md, "Deep paths and large trees").
//!
//! A [`Mirror`] is the other half: a stack of the cells of the last path condition it was
//! aligned with, oldest first. [`Mirror::align`] finds the common prefix of that stack and
//! a new path condition *by pointer* (a cell is immutable, so two lists that share a cell
//! share everything below it), in time proportional to what changed: in a depth-first
//! exploration, consecutive path conditions differ in their last few conjuncts. The owner
//! of a mirror keeps its own per-conjunct data (the engine a membership index, the solver
//! its components and Z3 stack) and updates it from what `align` returns.

use std::rc::Rc;

use super::{Term, TermMap};

/// A path condition: a persistent list of conjuncts, newest first. Never holds `true`.
#[derive(Clone, Debug, Default)]
pub struct PathCondition {
    head: Option<Rc<Cell>>,
}

/// One conjunct and the path condition below it. (24 bytes: with the `Rc` counts, glibc's
/// 48-byte chunks; one per conjunct of every path.)
#[derive(Debug)]
pub struct Cell {
    term: Term,
    below: PathCondition,
    /// Conjuncts from the bottom to this one.
    len: u32,
    /// Some conjunct of this cell or below is `false`.
    has_false: bool,
}

impl PathCondition {
    /// The path condition with `t` added as one conjunct (an `And` stays one conjunct).
    /// Adds nothing for `true` or for a conjunct already present (syntactically equal):
    /// each conjunct appears once, and its origin (the engine's provenance) is the first
    /// edge that added it. Walks the list; [`PathCondition::push`] does not.
    pub fn and(&self, t: Term) -> PathCondition {
        if t.is_true() || self.contains(&t) {
            return self.clone();
        }
        self.push(t)
    }

    /// The path condition with `t` added, without looking for it: the caller knows it is
    /// not `true` and not present (e.g. from a [`Mirror`]'s index).
    pub fn push(&self, t: Term) -> PathCondition {
        debug_assert!(!t.is_true());
        let len = u32::try_from(self.len() + 1).expect("fewer than 2^32 conjuncts");
        PathCondition {
            head: Some(Rc::new(Cell {
                has_false: t.is_false() || self.has_false(),
                term: t,
                below: self.clone(),
                len,
            })),
        }
    }

    /// Whether `t` is one of the conjuncts (syntactically). O(length).
    pub fn contains(&self, t: &Term) -> bool {
        self.cells().any(|c| c.term == *t)
    }

    pub fn len(&self) -> usize {
        self.head.as_ref().map_or(0, |c| c.len as usize)
    }

    pub fn is_empty(&self) -> bool {
        self.head.is_none()
    }

    /// Whether some conjunct is `false`. O(1).
    pub fn has_false(&self) -> bool {
        self.head.as_ref().is_some_and(|c| c.has_false)
    }

    /// The newest conjunct.
    pub fn last(&self) -> Option<&Term> {
        self.head.as_ref().map(|c| &c.term)
    }

    /// The path condition without its newest conjunct.
    pub fn below(&self) -> PathCondition {
        self.head
            .as_ref()
            .map_or_else(PathCondition::default, |c| c.below.clone())
    }

    /// The newest `k` conjuncts (all if there are fewer), oldest first: a walk of `k`
    /// links, not of the whole path condition (the edge condition of a step).
    pub fn newest(&self, k: usize) -> Vec<Term> {
        let mut out: Vec<Term> = self.cells().take(k).map(|c| c.term.clone()).collect();
        out.reverse();
        out
    }

    /// The conjuncts, newest first, without copying them. O(length).
    pub fn iter_newest(&self) -> impl Iterator<Item = &Term> + Clone {
        self.cells().map(|c| &c.term)
    }

    /// The conjuncts, oldest first. O(length).
    pub fn to_vec(&self) -> Vec<Term> {
        self.newest(self.len())
    }

    /// The path condition of these conjuncts (oldest first), `true` skipped, nothing else
    /// removed.
    pub fn from_terms<'a>(terms: impl IntoIterator<Item = &'a Term>) -> PathCondition {
        let mut pc = PathCondition::default();
        for t in terms.into_iter().filter(|t| !t.is_true()) {
            pc = pc.push(t.clone());
        }
        pc
    }

    /// Same list (same cells, hence the same conjuncts)?
    pub fn ptr_eq(&self, other: &PathCondition) -> bool {
        match (&self.head, &other.head) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }

    /// The cells, newest first.
    fn cells(&self) -> impl Iterator<Item = &Cell> + Clone {
        let mut cur = self.head.as_deref();
        std::iter::from_fn(move || {
            let c = cur?;
            cur = c.below.head.as_deref();
            Some(c)
        })
    }
}

/// Dropping a long path condition would recurse once per conjunct: unlink the cells that
/// die with it.
impl Drop for PathCondition {
    fn drop(&mut self) {
        let mut cur = self.head.take();
        while let Some(rc) = cur {
            match Rc::try_unwrap(rc) {
                Ok(mut cell) => cur = cell.below.head.take(),
                Err(_) => break,
            }
        }
    }
}

/// A stack aligned with the last path condition given to [`Mirror::align`]: its cells,
/// oldest first (see the module docs).
#[derive(Default)]
pub struct Mirror {
    /// `cells[i]` holds conjunct `i` (its `len` is `i + 1`).
    cells: Vec<Rc<Cell>>,
}

impl Mirror {
    /// Align with `pc`: returns the length of the common prefix with the previous path
    /// condition (the owner pops its own stack to it) and the conjuncts of `pc` after it,
    /// oldest first (the owner pushes them). Equal cells are found by pointer, walking only
    /// the cells above the common one; if none is shared, the conjuncts are compared (a path
    /// condition rebuilt with the same conjuncts keeps its prefix), which walks both.
    pub fn align(&mut self, pc: &PathCondition) -> (usize, Vec<Term>) {
        self.align_with(pc, |_| {})
    }

    /// [`Mirror::align`], calling `popped` with each conjunct that leaves the stack (the
    /// newest first).
    pub fn align_with(
        &mut self,
        pc: &PathCondition,
        mut popped: impl FnMut(&Term),
    ) -> (usize, Vec<Term>) {
        let top = self.cells.last();
        if pc.head.as_ref().map(Rc::as_ptr) == top.map(Rc::as_ptr) {
            // The same path condition again (a step that adds no conjunct).
            return (self.cells.len(), Vec::new());
        }
        if let Some(below) = pc.head.as_ref().map(|c| &c.below.head) {
            if below.as_ref().map(Rc::as_ptr) == top.map(Rc::as_ptr) {
                // One conjunct more (a child of the last path condition).
                let c = pc.head.clone().expect("checked above");
                let term = c.term.clone();
                self.cells.push(c);
                return (self.cells.len() - 1, vec![term]);
            }
        }
        let mut fresh: Vec<Rc<Cell>> = Vec::new();
        let mut cur = pc.head.clone();
        // Down to the mirror's length, then in step until a shared cell.
        while let Some(c) = cur.clone().filter(|c| c.len as usize > self.cells.len()) {
            cur = c.below.head.clone();
            fresh.push(c);
        }
        let mut common = cur.as_ref().map_or(0, |c| c.len as usize);
        while let Some(c) = cur.clone() {
            if Rc::ptr_eq(&c, &self.cells[common - 1]) {
                break;
            }
            cur = c.below.head.clone();
            fresh.push(c);
            common -= 1;
        }
        fresh.reverse();
        if common == 0 && !self.cells.is_empty() && !fresh.is_empty() {
            // Nothing shared by pointer: compare the conjuncts.
            let same = self
                .cells
                .iter()
                .zip(&fresh)
                .take_while(|(a, b)| a.term == b.term)
                .count();
            self.truncate(same, &mut popped);
            // Adopt the new cells, so that the next call matches them by pointer.
            for (slot, c) in self.cells.iter_mut().zip(fresh.drain(..same)) {
                *slot = c;
            }
            common = same;
        }
        self.truncate(common, &mut popped);
        let terms = fresh.iter().map(|c| c.term.clone()).collect();
        self.cells.extend(fresh);
        (common, terms)
    }

    fn truncate(&mut self, n: usize, popped: &mut impl FnMut(&Term)) {
        while self.cells.len() > n {
            let c = self.cells.pop().expect("longer than n");
            popped(&c.term);
        }
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Conjunct `i` (oldest first).
    pub fn term(&self, i: usize) -> &Term {
        &self.cells[i].term
    }
}

/// O(1) membership in a path condition: a [`Mirror`] and a map of its conjuncts. Aligning
/// costs what changed since the last path condition (see [`Mirror::align`]); the map holds
/// one entry per conjunct of one path, not per node.
#[derive(Default)]
pub struct Index {
    mirror: Mirror,
    /// How many times each conjunct occurs in the mirrored path condition.
    count: TermMap<u32>,
}

impl Index {
    /// Make this the index of `pc`.
    pub fn align(&mut self, pc: &PathCondition) {
        let count = &mut self.count;
        let (_, fresh) = self.mirror.align_with(pc, |t| {
            if let Some(n) = count.get_mut(t) {
                *n -= 1;
                if *n == 0 {
                    count.remove(t);
                }
            }
        });
        for t in fresh {
            *self.count.entry(t).or_insert(0) += 1;
        }
    }

    /// Is `t` a conjunct of the path condition last given to [`Index::align`]? O(1).
    pub fn contains(&self, t: &Term) -> bool {
        self.count.contains_key(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::SplitMix64 as Rng;
    use crate::term::{Sort, Sym};

    fn conjunct(k: u64) -> Term {
        let x = Term::var(Sym::new(&format!("x{}", k % 7), Sort::Int));
        Term::gt(x, Term::int(k as i64))
    }

    #[test]
    fn long_lists_drop_without_recursion() {
        // On the test harness's small stack: recursive drops would overflow it.
        let mut pc = PathCondition::default();
        for i in 0..30_000u64 {
            pc = pc.and(conjunct(i));
        }
        assert_eq!(pc.newest(2), pc.to_vec()[29_998..].to_vec());
        assert!(pc.newest(0).is_empty());
        assert_eq!(pc.newest(40_000).len(), 30_000);
        let shared = pc.clone();
        drop(pc);
        assert_eq!(shared.len(), 30_000);
        drop(shared);
    }

    #[test]
    fn and_skips_true_and_duplicates_push_does_not_look() {
        let a = conjunct(1);
        let pc = PathCondition::default()
            .and(a.clone())
            .and(Term::bool(true));
        assert_eq!(pc.len(), 1);
        assert!(pc.and(a.clone()).ptr_eq(&pc));
        assert_eq!(pc.push(a).len(), 2);
        assert!(!pc.has_false());
        let f = pc.push(Term::bool(false)).push(conjunct(2));
        assert!(f.has_false() && !f.below().below().has_false());
        assert_eq!(f.below().last(), Some(&Term::bool(false)));
    }

    /// The mirror's stack equals the path condition after every `align`, and what `align`
    /// says changed is exactly the difference, on random depth-first sequences (shared
    /// prefixes) mixed with rebuilt lists (equal conjuncts, new cells) and jumps.
    #[test]
    fn mirror_follows_random_paths() {
        for seed in 1..=40u64 {
            let mut rng = Rng::new(seed);
            let mut mirror = Mirror::default();
            let mut index = Index::default();
            // The owner's stack, maintained only from what `align` returns.
            let mut owned: Vec<Term> = Vec::new();
            let mut saved: Vec<PathCondition> = vec![PathCondition::default()];
            let mut pc = PathCondition::default();
            for step in 0..300u64 {
                pc = match rng.below(10) {
                    0 => PathCondition::from_terms(&pc.to_vec()),
                    1 => saved[rng.below(saved.len() as u64) as usize].clone(),
                    2..=4 => {
                        let mut p = pc.clone();
                        for _ in 0..rng.below(4) {
                            p = p.below();
                        }
                        p
                    }
                    _ => pc.push(conjunct(rng.below(50) + step)),
                };
                if rng.below(5) == 0 {
                    saved.push(pc.clone());
                }
                let before = owned.clone();
                let (common, fresh) = mirror.align(&pc);
                let want: Vec<Term> = pc.to_vec();
                let real_common = before.iter().zip(&want).take_while(|(a, b)| a == b).count();
                assert!(common <= real_common, "seed {seed}");
                owned.truncate(common);
                owned.extend(fresh);
                assert_eq!(owned, want, "seed {seed}");
                assert_eq!(mirror.len(), pc.len());
                for (i, t) in want.iter().enumerate() {
                    assert_eq!(mirror.term(i), t);
                }
                // Membership agrees with the walk, for present and absent conjuncts (the
                // conjuncts repeat across steps, so most probes were present at some time).
                index.align(&pc);
                for _ in 0..20 {
                    let probe = conjunct(rng.below(50) + rng.below(step + 1));
                    assert_eq!(index.contains(&probe), pc.contains(&probe), "seed {seed}");
                }
                for t in &want {
                    assert!(index.contains(t));
                }
                assert!(index.count.values().sum::<u32>() as usize == pc.len());
            }
        }
    }

    /// Depth-first steps cost what changed: a child is one new conjunct, a sibling one pop
    /// and one push, a rebuilt list keeps its whole prefix.
    #[test]
    fn mirror_reports_only_the_change() {
        let mut m = Mirror::default();
        let p = PathCondition::from_terms(&[conjunct(1), conjunct(2)]);
        assert_eq!(m.align(&p), (0, p.to_vec()));
        let child = p.push(conjunct(3));
        assert_eq!(m.align(&child), (2, vec![conjunct(3)]));
        let sibling = p.push(conjunct(4));
        assert_eq!(m.align(&sibling), (2, vec![conjunct(4)]));
        let rebuilt = PathCondition::from_terms(&sibling.to_vec());
        assert_eq!(m.align(&rebuilt), (3, vec![]));
        assert_eq!(m.align(&PathCondition::default()), (0, vec![]));
    }
}
