//! The answer cache, keyed by sets of conjuncts.
//!
//! Two bounded maps of answers: whole path conditions, and the independent clusters that
//! constraint independence sent to Z3 (plus one of models, per component of a path
//! condition). In a depth-first exploration a whole path condition is asked
//! about once (the tree never repeats a path), so that map only serves repeated questions
//! and the "is the parent satisfiable?" lookup, and is kept small; clusters recur all the
//! time (the same `x > 0` under every path of an unrelated subtree) and are small, so many
//! are kept. A full map is simply cleared: the cache holds its terms alive, and an exact
//! cache (no fingerprints) never gives a wrong answer.
//!
//! A lookup does not build a [`Key`]: the conjuncts are sorted into a buffer the solver
//! reuses ([`Scratch`]) and looked up as a slice (a `Key` borrows as one); a key is
//! allocated only when an answer is stored (issue 30: building and freeing a key per check
//! was ~8% of a large exploration).

use std::borrow::Borrow;
use std::rc::Rc;

use super::{Model, SatResult};
use crate::base::FastMap;
use crate::term::Term;

/// Whole path conditions kept at most.
const PATHS_LIMIT: usize = 1 << 15;
/// Clusters kept at most.
const CLUSTERS_LIMIT: usize = 1 << 20;
/// Models of components kept at most.
const MODELS_LIMIT: usize = 1 << 16;

/// A set of conjuncts (sorted by hash, duplicates removed). Terms with equal hashes may end
/// up in different orders, which can only cost a cache miss.
#[derive(PartialEq, Eq, Hash)]
pub struct Key(Box<[Term]>);

impl Key {
    pub fn new(terms: &[Term]) -> Key {
        let mut s = Scratch::default();
        Key::of_sorted(s.sorted(terms))
    }

    /// The key of conjuncts that [`Scratch::sorted`] put in key order.
    pub fn of_sorted(sorted: &[Term]) -> Key {
        Key(sorted.into())
    }
}

/// A `Key` hashes and compares as its sorted slice (the derived `Hash` of a boxed slice is
/// the slice's), so a map of keys is searched with a `&[Term]`.
impl Borrow<[Term]> for Key {
    fn borrow(&self) -> &[Term] {
        &self.0
    }
}

/// A reusable buffer that puts conjuncts in key order (sorted by hash, duplicates removed).
#[derive(Default)]
pub struct Scratch(Vec<Term>);

impl Scratch {
    /// `terms` in key order (the buffer's previous contents are dropped).
    pub fn sorted<'a, 'b>(&'a mut self, terms: impl IntoIterator<Item = &'b Term>) -> &'a [Term] {
        self.0.clear();
        self.0.extend(terms.into_iter().cloned());
        self.0.sort_by_key(Term::hash_code);
        self.0.dedup();
        &self.0
    }
}

#[derive(Default)]
pub struct Cache {
    paths: FastMap<Key, SatResult>,
    clusters: FastMap<Key, SatResult>,
    models: FastMap<Key, Rc<Model>>,
}

impl Cache {
    /// The answer for conjuncts in key order ([`Scratch::sorted`]).
    pub fn get(&self, key: &[Term]) -> Option<&SatResult> {
        self.clusters.get(key).or_else(|| self.paths.get(key))
    }

    /// Remember the answer for a whole path condition.
    pub fn insert_path(&mut self, key: Key, r: SatResult) {
        insert(&mut self.paths, PATHS_LIMIT, key, r);
    }

    /// Remember the answer for an independent cluster.
    pub fn insert_cluster(&mut self, key: Key, r: SatResult) {
        insert(&mut self.clusters, CLUSTERS_LIMIT, key, r);
    }

    /// The model found for a component of a path condition.
    pub fn model(&self, key: &[Term]) -> Option<&Rc<Model>> {
        self.models.get(key)
    }

    pub fn insert_model(&mut self, key: Key, m: Rc<Model>) {
        insert(&mut self.models, MODELS_LIMIT, key, m);
    }
}

fn insert<V>(map: &mut FastMap<Key, V>, limit: usize, key: Key, r: V) {
    if map.len() >= limit {
        map.clear();
    }
    map.insert(key, r);
}
