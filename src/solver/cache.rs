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

use std::collections::HashMap;
use std::rc::Rc;

use super::{Model, SatResult};
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
        let mut v = terms.to_vec();
        v.sort_by_key(Term::hash_code);
        v.dedup();
        Key(v.into())
    }
}

#[derive(Default)]
pub struct Cache {
    paths: HashMap<Key, SatResult>,
    clusters: HashMap<Key, SatResult>,
    models: HashMap<Key, Rc<Model>>,
}

impl Cache {
    pub fn get(&self, key: &Key) -> Option<&SatResult> {
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
    pub fn model(&self, key: &Key) -> Option<&Rc<Model>> {
        self.models.get(key)
    }

    pub fn insert_model(&mut self, key: Key, m: Rc<Model>) {
        insert(&mut self.models, MODELS_LIMIT, key, m);
    }
}

fn insert<V>(map: &mut HashMap<Key, V>, limit: usize, key: Key, r: V) {
    if map.len() >= limit {
        map.clear();
    }
    map.insert(key, r);
}
