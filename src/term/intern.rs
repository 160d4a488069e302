//! Hash-consing of small terms (issue 13): a step rebuilds the same small terms over and
//! over (`xi > 0` and its negation at every instance of an `if`, the constant `s + 1`
//! folds to), and each copy cost a node of the tree ~100 bytes. [`intern`] returns the
//! existing term when an equal one of at most [`MAX_SIZE`] nodes was made before on this
//! thread. Only sharing changes: equality and hashing are structural as before, and no code
//! relies on two equal terms being distinct allocations.
//!
//! The table holds its terms (strong references) and is bounded: at [`CAPACITY`] entries
//! it starts afresh, so it keeps at most a few MB alive. Large terms are not interned
//! (they are rarely rebuilt equal, and each entry would cost more than it saves).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use std::rc::Rc;

use super::{Node, Term, TermKind};

/// Terms of at most this many nodes (written out as a tree) are interned.
pub(super) const MAX_SIZE: u64 = 12;

/// Entries before the table starts afresh.
const CAPACITY: usize = 1 << 16;

/// For maps keyed by a term (or by its structural hash, a SipHash already): the hash is
/// used as it is ([`TermMap`]).
#[derive(Default)]
pub struct PassHasher(u64);

/// A map keyed by terms that hashes each by its cached structural hash.
pub type TermMap<V> = HashMap<Term, V, BuildHasherDefault<PassHasher>>;

impl Hasher for PassHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

thread_local! {
    /// One term per hash (a colliding different term is simply not interned).
    static TABLE: RefCell<HashMap<u64, Term, BuildHasherDefault<PassHasher>>> =
        RefCell::new(HashMap::default());
}

/// Should `kind` (of a term of at most [`MAX_SIZE`] nodes) be interned? Not if it holds
/// an integer constant of more than 64 bits: the table would keep it alive.
pub(super) fn internable(kind: &TermKind) -> bool {
    let mut ok = !matches!(kind, TermKind::Int(i) if i.bits() > 64);
    kind.for_each_child(|c| ok = ok && internable(&c.0.kind));
    ok
}

/// The interned term equal to `node` (made from it if there is none yet).
pub(super) fn intern(node: Node) -> Term {
    let hash = node.hash;
    let mut node = Some(node);
    let found = TABLE.try_with(|table| {
        let mut table = table.try_borrow_mut().ok()?;
        let new = node.as_ref().expect("not taken yet");
        if let Some(t) = table.get(&hash) {
            return (t.0.kind == new.kind).then(|| t.clone());
        }
        if table.len() >= CAPACITY {
            table.clear();
        }
        let t = Term(Rc::new(node.take().expect("not taken yet")));
        table.insert(hash, t.clone());
        Some(t)
    });
    match found {
        Ok(Some(t)) => t,
        // (a hash collision, or the table is gone: this thread is ending)
        _ => Term(Rc::new(node.expect("not taken when not found"))),
    }
}

/// How many terms the table holds now.
#[cfg(test)]
fn table_len() -> usize {
    TABLE.with(|t| t.borrow().len())
}

#[cfg(test)]
mod tests {
    use super::super::{Sort, Sym, Term};

    #[test]
    fn the_table_stays_bounded_and_terms_outlive_a_reset() {
        let x = Term::var(Sym::new("x", Sort::Int));
        let first = Term::lt(x.clone(), Term::int(-1));
        // Enough distinct small terms to fill the table more than once.
        for i in 0..(super::CAPACITY as i64 + 10) {
            let _ = Term::lt(x.clone(), Term::int(i));
            assert!(super::table_len() <= super::CAPACITY);
        }
        // A term made before the reset is still whole and equal to a new copy.
        let again = Term::lt(x.clone(), Term::int(-1));
        assert_eq!(first, again);
        assert_eq!(first.to_string(), "x < -1");
    }

    #[test]
    fn equal_small_terms_share_one_node_and_large_ones_do_not() {
        let x = Term::var(Sym::new("x", Sort::Int));
        let a = Term::gt(x.clone(), Term::int(0));
        let b = Term::gt(x.clone(), Term::int(0));
        assert_eq!(a, b);
        assert!(a.ptr_eq(&b));
        let c = Term::gt(x.clone(), Term::int(1));
        assert_ne!(a, c);
        assert!(!a.ptr_eq(&c));
        // Integers of more than 64 bits are not kept by the table.
        let huge: num_bigint::BigInt = num_bigint::BigInt::from(1i64) << 100u32;
        assert!(!Term::int(huge.clone()).ptr_eq(&Term::int(huge)));
        assert!(Term::int(7).ptr_eq(&Term::int(7)));
        // A term of more than MAX_SIZE nodes is built anew (still equal).
        let mut big = x.clone();
        let mut big2 = x.clone();
        for i in 0..super::MAX_SIZE {
            big = Term::add(big, Term::var(Sym::new(&format!("y{i}"), Sort::Int)));
            big2 = Term::add(big2, Term::var(Sym::new(&format!("y{i}"), Sort::Int)));
        }
        assert!(big.tree_size() > super::MAX_SIZE);
        assert_eq!(big, big2);
        assert!(!big.ptr_eq(&big2));
    }
}
