//! Descending and reflected indices (issue 31): a quantifier whose tuple reads are all
//! `t[a - v]` (a backwards search's `t[len(t) - τ - 1]`, a suffix's `t[-τ - 1]`) reads
//! the range's positions in the reverse order. Renaming `v ↦ lo + hi - 1 - v` maps
//! `range(lo, hi)` onto itself (reversed) and turns every such read into the ascending
//! `t[(a - lo - hi + 1) + v]`, which the position translation
//! ([`super::Translator::split_quantifier`]) decides without `ite`: Z3 4.8.12 times out on
//! the descending form. Exact for `all` and `any` alike.

use num_bigint::BigInt;

use crate::term::linear::{linear_in, mentions};
use crate::term::{Sym, Term, TermKind as K};

/// The body with `v ↦ lo + hi - 1 - v` if every index in `body` that mentions `v` is
/// `t[a - v]` (coefficient -1, `t` free of `v`) and there is at least one; else `None`.
pub(super) fn ascending(v: &Sym, lo: &Term, hi: &Term, body: &Term) -> Option<Term> {
    if !descending_only(v, body) {
        return None;
    }
    let var = Term::var(v.clone());
    let mirror = Term::sub(
        Term::sub(Term::add(lo.clone(), hi.clone()), Term::int(1)),
        var,
    );
    Some(body.subst1(v, &mirror))
}

/// Does `v` occur under an index only as `t[a - v]`, at least once?
fn descending_only(v: &Sym, body: &Term) -> bool {
    let minus_one = BigInt::from(-1);
    let mut found = false;
    let mut todo = vec![body];
    let mut seen = std::collections::HashSet::new();
    while let Some(t) = todo.pop() {
        if !seen.insert(t.clone()) || !mentions(t, v) {
            continue;
        }
        match t.kind() {
            K::Index(s, i) => {
                if mentions(s, v) {
                    return false;
                }
                match linear_in(i, v) {
                    Some((c, _)) if c == minus_one => found = true,
                    _ => return false,
                }
            }
            // A nested quantifier over the same name shadows it.
            K::Forall(w, ..) | K::Exists(w, ..) if w == v => return false,
            _ => t.kind().for_each_child(|c| todo.push(c)),
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Sort;

    fn int(name: &str) -> Term {
        Term::var(Sym::new(name, Sort::Int))
    }

    #[test]
    fn a_backwards_read_becomes_ascending_and_others_stay() {
        let t = Term::var(Sym::new("t", Sort::Seq));
        let v = Sym::new("τ1", Sort::Int);
        let (lo, hi) = (Term::int(0), int("κ1"));
        let back = Term::sub(
            Term::sub(Term::len(t.clone()), Term::var(v.clone())),
            Term::int(1),
        );
        let body = Term::cmp(CmpOp::Ne, Term::index(t.clone(), back), int("x"));
        let up = ascending(&v, &lo, &hi, &body).expect("descending");
        // t[len(t) - (κ1 - 1 - τ1) - 1] = t[(len(t) - κ1) + τ1]
        let K::Cmp(_, read, _) = up.kind() else {
            panic!("{up:?}")
        };
        let K::Index(_, i) = read.kind() else {
            panic!("{read:?}")
        };
        let (c, _) = linear_in(i, &v).expect("linear");
        assert_eq!(c, BigInt::from(1));
        // An ascending read, or one mixed with an ascending read, is left alone.
        let asc = Term::cmp(
            CmpOp::Ne,
            Term::index(t.clone(), Term::var(v.clone())),
            int("x"),
        );
        assert!(ascending(&v, &lo, &hi, &asc).is_none());
        let mixed = Term::and_all(vec![body.clone(), asc]);
        assert!(ascending(&v, &lo, &hi, &mixed).is_none());
        // `t[-τ - 1]` is reflected too.
        let neg = Term::sub(Term::neg(Term::var(v.clone())), Term::int(1));
        let body = Term::cmp(CmpOp::Ne, Term::index(t, neg), int("x"));
        assert!(ascending(&v, &lo, &hi, &body).is_some());
    }

    use crate::lang::ast::CmpOp;
}
