//! Natural order for variable names: digit runs compare as numbers, so `a2` comes before
//! `a10` (as a person counts), then the rest as text.

use std::cmp::Ordering;

/// Compare two names naturally (`a2` < `a10` < `b`); equal numbers with different zero
/// padding (`a01`, `a1`) fall back to the plain text order, so the order is total.
pub fn cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a, b);
    loop {
        match (x.chars().next(), y.chars().next()) {
            (None, None) => return a.cmp(b),
            (None, _) => return Ordering::Less,
            (_, None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let n = x.find(|c: char| !c.is_ascii_digit()).unwrap_or(x.len());
                let m = y.find(|c: char| !c.is_ascii_digit()).unwrap_or(y.len());
                let (p, q) = (
                    x[..n].trim_start_matches('0'),
                    y[..m].trim_start_matches('0'),
                );
                let by_value = p.len().cmp(&q.len()).then_with(|| p.cmp(q));
                if by_value != Ordering::Equal {
                    return by_value;
                }
                x = &x[n..];
                y = &y[m..];
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(&d);
                }
                x = &x[c.len_utf8()..];
                y = &y[d.len_utf8()..];
            }
        }
    }
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
            vec!["A3", "a", "a01", "a1", "a2", "a10", "b", "x100y2", "x100y10"]
        );
        // A total order: antisymmetric on every pair of a small set.
        let names = ["a", "a0", "a00", "a1", "a10", "a9", "b2", "b", "_1", "9"];
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
