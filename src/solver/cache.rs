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
//!
//! Most lookups miss (a depth-first exploration asks about each whole path condition once),
//! so each map has a filter first: the set of its keys' [`set_hash`]es, a sum over the
//! distinct hash codes of the conjuncts, which is order-independent and computed from the
//! cached codes alone (no terms sorted or cloned). A set of conjuncts whose `set_hash` is
//! not in the filter is in no key; one that is gets the exact lookup. (Issue 30, round 4:
//! sorting the conjuncts for lookups that missed was ~15% of the 1M-node exploration.)

use std::borrow::Borrow;
use std::rc::Rc;

use super::{Model, SatResult};
use crate::base::{FastMap, FastSet};
use crate::term::{PathCondition, Term};

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
pub struct Scratch {
    terms: Vec<Term>,
    codes: Vec<u64>,
}

impl Scratch {
    /// `terms` in key order (the buffer's previous contents are dropped).
    pub fn sorted<'a, 'b>(&'a mut self, terms: impl IntoIterator<Item = &'b Term>) -> &'a [Term] {
        self.terms.clear();
        self.terms.extend(terms.into_iter().cloned());
        self.terms.sort_by_key(Term::hash_code);
        self.terms.dedup();
        &self.terms
    }

    /// The [`set_hash`] of `terms` (of the set they form: order and repetitions do not
    /// matter), from their cached hash codes.
    pub fn set_hash<'b>(&mut self, terms: impl IntoIterator<Item = &'b Term>) -> u64 {
        self.codes.clear();
        self.codes.extend(terms.into_iter().map(Term::hash_code));
        self.codes.sort_unstable();
        set_hash(self.codes.iter().copied())
    }
}

/// An order-independent hash of a set of conjuncts, from their hash codes in ascending
/// order: the sum of the distinct codes, each mixed (equal terms have equal codes, so a
/// set's value does not depend on how often or in which order its terms are listed).
fn set_hash(sorted_codes: impl IntoIterator<Item = u64>) -> u64 {
    let mut sum = 0u64;
    let mut last = None;
    for c in sorted_codes {
        if last != Some(c) {
            // (splitmix64's finaliser: a sum of raw codes would cancel more easily)
            let mut z = c.wrapping_add(0x9e37_79b9_7f4a_7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            sum = sum.wrapping_add(z ^ (z >> 31));
            last = Some(c);
        }
    }
    sum
}

/// The `set_hash` of a key (its terms are in ascending order of hash code).
fn key_hash(key: &Key) -> u64 {
    set_hash(key.0.iter().map(Term::hash_code))
}

/// Answers by key, and the [`set_hash`]es of the keys (cleared together).
struct Answers {
    map: FastMap<Key, SatResult>,
    filter: FastSet<u64>,
    limit: usize,
}

impl Answers {
    fn new(limit: usize) -> Answers {
        Answers {
            map: FastMap::default(),
            filter: FastSet::default(),
            limit,
        }
    }

    fn insert(&mut self, key: Key, r: SatResult) {
        if self.map.len() >= self.limit {
            self.map.clear();
            self.filter.clear();
        }
        self.filter.insert(key_hash(&key));
        self.map.insert(key, r);
    }
}

pub struct Cache {
    /// Whole path conditions by their `set_hash`: the path condition itself is kept (a
    /// reference, not a sorted copy: most are never asked about again) and compared as a
    /// set when its hash is asked for.
    paths: FastMap<u64, (PathCondition, SatResult)>,
    clusters: Answers,
    models: FastMap<Key, Rc<Model>>,
}

impl Default for Cache {
    fn default() -> Cache {
        Cache {
            paths: FastMap::default(),
            clusters: Answers::new(CLUSTERS_LIMIT),
            models: FastMap::default(),
        }
    }
}

impl Cache {
    /// The answer for conjuncts in key order ([`Scratch::sorted`]) whose
    /// [`Scratch::set_hash`] is `set_hash`.
    pub fn get(&self, key: &[Term], set_hash: u64) -> Option<&SatResult> {
        if let Some(r) = self.clusters.map.get(key) {
            return Some(r);
        }
        let (pc, r) = self.paths.get(&set_hash)?;
        // (the key the path condition would have had: `Scratch::sorted` of its conjuncts)
        (Scratch::default().sorted(pc.iter_newest()) == key).then_some(r)
    }

    /// Could [`Cache::get`] answer for a set of conjuncts whose [`Scratch::set_hash`] is
    /// `set_hash`? (`false`: it would not; `true`: ask it.)
    pub fn may_answer(&self, set_hash: u64) -> bool {
        self.clusters.filter.contains(&set_hash) || self.paths.contains_key(&set_hash)
    }

    /// Remember the answer for a whole path condition whose [`Scratch::set_hash`] is
    /// `set_hash`.
    pub fn insert_path(&mut self, set_hash: u64, pc: &PathCondition, r: SatResult) {
        if self.paths.len() >= PATHS_LIMIT {
            self.paths.clear();
        }
        self.paths.insert(set_hash, (pc.clone(), r));
    }

    /// Remember the answer for an independent cluster.
    pub fn insert_cluster(&mut self, key: Key, r: SatResult) {
        self.clusters.insert(key, r);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{Sort, Sym};

    fn atoms(n: i64) -> Vec<Term> {
        let x = Term::var(Sym::new("x", Sort::Int));
        (0..n).map(|k| Term::gt(x.clone(), Term::int(k))).collect()
    }

    fn pc_of(terms: &[Term]) -> PathCondition {
        terms
            .iter()
            .fold(PathCondition::default(), |pc, t| pc.push(t.clone()))
    }

    /// The filter never hides an answer: a stored set is found asked in any order and with
    /// repetitions, and a set stored by no key is not (the exact lookup agrees).
    #[test]
    fn lookups_find_stored_sets_in_any_order_and_only_them() {
        let t = atoms(13);
        let mut cache = Cache::default();
        let mut scratch = Scratch::default();
        // (twelve different sets)
        let stored: Vec<Vec<Term>> = (0..12).map(|k| t[k..k + 1 + k % 2].to_vec()).collect();
        for (i, set) in stored.iter().enumerate() {
            let r = if i % 3 == 0 {
                SatResult::Unsat
            } else {
                SatResult::Sat
            };
            if i % 2 == 0 {
                let h = scratch.set_hash(set);
                cache.insert_path(h, &pc_of(set), r);
            } else {
                cache.insert_cluster(Key::new(set), r);
            }
        }
        for (i, set) in stored.iter().enumerate() {
            let mut asked: Vec<Term> = set.iter().rev().cloned().collect();
            asked.extend(set.iter().take(2).cloned());
            let h = scratch.set_hash(&asked);
            assert_eq!(h, scratch.set_hash(set));
            assert!(cache.may_answer(h), "set {i}");
            let want = if i % 3 == 0 {
                SatResult::Unsat
            } else {
                SatResult::Sat
            };
            assert_eq!(cache.get(scratch.sorted(&asked), h), Some(&want), "set {i}");
        }
        // Sets no key holds: a stored one plus a term, or minus one.
        let mut more = stored[4].clone();
        more.push(t[12].clone());
        let fewer = stored[11][1..].to_vec();
        for set in [more, fewer] {
            let h = scratch.set_hash(&set);
            assert!(!cache.may_answer(h));
            assert_eq!(cache.get(scratch.sorted(&set), h), None);
        }
    }

    /// A whole path condition stored under a hash that another set has (a collision) is not
    /// taken for that set.
    #[test]
    fn a_path_condition_answers_only_for_its_own_set() {
        let t = atoms(4);
        let mut cache = Cache::default();
        let mut scratch = Scratch::default();
        let h = scratch.set_hash(&t[..2]);
        cache.insert_path(h, &pc_of(&t[..2]), SatResult::Sat);
        assert_eq!(cache.get(scratch.sorted(&t[..2]), h), Some(&SatResult::Sat));
        assert_eq!(cache.get(scratch.sorted(&t[2..]), h), None);
    }

    #[test]
    fn the_maps_stay_bounded() {
        let t = atoms(1);
        let x = Term::var(Sym::new("y", Sort::Int));
        let mut cache = Cache::default();
        let mut scratch = Scratch::default();
        for k in 0..(PATHS_LIMIT as i64 + 10) {
            let set = [t[0].clone(), Term::lt(x.clone(), Term::int(k))];
            let h = scratch.set_hash(&set);
            cache.insert_path(h, &pc_of(&set), SatResult::Sat);
            assert!(cache.paths.len() <= PATHS_LIMIT);
        }
        // A cleared set is no longer answered, the newest one is.
        let first = [t[0].clone(), Term::lt(x.clone(), Term::int(0))];
        assert!(!cache.may_answer(scratch.set_hash(&first)));
        let last = [t[0].clone(), Term::lt(x, Term::int(PATHS_LIMIT as i64 + 9))];
        assert!(cache.may_answer(scratch.set_hash(&last)));
    }
}
