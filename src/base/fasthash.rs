//! Hash maps with a fast, fixed-seed hasher for the engine's and the solver's hot maps
//! (issue 30: SipHash, std's default, was about a tenth of a large exploration's time).
//! The keys are the program's own terms, symbols and atoms, not input an attacker picks,
//! so resistance to collision attacks is not needed; the seed is fixed, so iteration
//! orders are the same from run to run. Maps keyed by one term use `term::TermMap`
//! instead (the term's cached hash, as it is).

/// A `HashMap` hashed by foldhash (fixed seed).
pub type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;

/// A `HashSet` hashed by foldhash (fixed seed).
pub type FastSet<K> = std::collections::HashSet<K, foldhash::fast::FixedState>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_hash_the_same_from_map_to_map() {
        // The fixed seed: two maps built alike iterate alike (std's maps do not).
        let a: FastMap<u32, u32> = (0..100).map(|i| (i, i)).collect();
        let b: FastMap<u32, u32> = (0..100).map(|i| (i, i)).collect();
        assert!(a.keys().eq(b.keys()));
        let s: FastSet<&str> = ["x", "y"].into_iter().collect();
        assert!(s.contains("x") && !s.contains("z"));
    }
}
