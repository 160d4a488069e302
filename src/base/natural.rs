//! Natural order for names: digit runs compare as numbers, so `a2` comes before `a10` (as
//! a person counts). One order for every listing of variables: `run --tree`'s and `--dot`'s
//! stores, `exec`'s store, the debugger's store and call stack panes.
//!
//! The comparison is the `alphanumeric-sort` crate's (digit runs by value, equal values by
//! their leading zeros, other characters by code point); names it calls equal would be the
//! same text, but a plain text comparison breaks any tie so that the order is total.

use std::cmp::Ordering;

/// Compare two names naturally (`a2` < `a10` < `b`).
pub fn cmp(a: &str, b: &str) -> Ordering {
    alphanumeric_sort::compare_str(a, b).then_with(|| a.cmp(b))
}

/// Sort `(name, value)` pairs by name, naturally.
pub fn sort<V>(pairs: &mut [(String, V)]) {
    pairs.sort_by(|(a, _), (b, _)| cmp(a, b));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_compare_as_numbers() {
        let mut v = vec![
            "a10", "a2", "b", "a1", "a", "x100y2", "x100y10", "a01", "A3",
        ];
        v.sort_by(|a, b| cmp(a, b));
        assert_eq!(
            v,
            vec!["A3", "a", "a1", "a01", "a2", "a10", "b", "x100y2", "x100y10"]
        );
        // A total order: antisymmetric on every pair of a small set.
        let names = [
            "a", "a0", "a00", "a1", "a10", "a9", "b2", "b", "_1", "9", "é1", "é10",
        ];
        for p in names {
            for q in names {
                assert_eq!(cmp(p, q), cmp(q, p).reverse(), "{p} {q}");
                assert_eq!(cmp(p, q) == Ordering::Equal, p == q);
            }
        }
        // Very long digit runs do not overflow.
        assert_eq!(
            cmp("a99999999999999999999999", "a100000000000000000000000"),
            Ordering::Less
        );
    }
}
