//! Shared store updates (issue 30, round 4): an assignment that writes the same value (the
//! same term node) under the same name into the same store (the same map node) as an
//! earlier one gets that earlier result, not a new copy of the map's path.
//!
//! Paths that reach equal stores by different branches then share them: after `if xi > 0:
//! s += 1` the paths with the same count `s` hold one map, not one each (`rpds` copies about
//! five map nodes per insertion; on 18 ifs that was about 90 bytes of every node). Only
//! sharing changes: the result is the map the insertion would build, with the same value
//! node (hits need the identical value, so `ptr_eq` comparisons of values, as the origins
//! make, see the same terms). The table is per thread, holds its maps and values (strong
//! references: no address is reused while an entry names it) and is bounded: at
//! [`CAPACITY`] entries it starts afresh.

use std::cell::RefCell;
use std::hash::{BuildHasher, Hash, Hasher};
use std::rc::Rc;

use crate::base::FastMap;
use crate::engine::state::Env;
use crate::term::Term;

/// Entries before the table starts afresh (each holds a few references: ~100 KB).
const CAPACITY: usize = 4096;

/// Entries kept per name and value (the most recent stores it was written into).
const PER_KEY: usize = 4;

struct Entry {
    before: Env,
    name: Rc<str>,
    value: Term,
    after: Env,
}

#[derive(Default)]
struct Table {
    /// By a hash of the name and the value's hash code.
    entries: FastMap<u64, Vec<Entry>>,
    len: usize,
}

thread_local! {
    static TABLE: RefCell<Table> = RefCell::default();
}

fn slot(name: &str, value: &Term) -> u64 {
    let mut h = foldhash::fast::FixedState::default().build_hasher();
    name.hash(&mut h);
    value.hash_code().hash(&mut h);
    h.finish()
}

/// `env.insert(name, value)`, shared with an earlier identical insertion if there was one.
pub(super) fn insert(env: &Env, name: Rc<str>, value: Term) -> Env {
    let key = slot(&name, &value);
    let shared = TABLE.try_with(|table| {
        let mut table = table.try_borrow_mut().ok()?;
        if let Some(list) = table.entries.get(&key) {
            if let Some(e) = list
                .iter()
                .find(|e| e.before.ptr_eq(env) && e.value.ptr_eq(&value) && e.name == name)
            {
                return Some(e.after.clone());
            }
        }
        let after = env.insert(name.clone(), value.clone());
        if table.len >= CAPACITY {
            table.entries.clear();
            table.len = 0;
        }
        let table = &mut *table;
        let list = table.entries.entry(key).or_default();
        if list.len() >= PER_KEY {
            list.remove(0);
        } else {
            table.len += 1;
        }
        list.push(Entry {
            before: env.clone(),
            name: name.clone(),
            value: value.clone(),
            after: after.clone(),
        });
        Some(after)
    });
    match shared {
        Ok(Some(after)) => after,
        // (the table is in use or gone: this thread is ending)
        _ => env.insert(name, value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Config, Engine, Limits};
    use crate::term::{Sort, Sym};

    #[test]
    fn the_same_insertion_into_the_same_store_shares_the_result() {
        let env = Env::new().insert(Rc::from("x"), Term::int(1));
        let five = Term::int(5);
        let a = insert(&env, Rc::from("s"), five.clone());
        let b = insert(&env, Rc::from("s"), five.clone());
        assert!(a.ptr_eq(&b));
        // The map the insertion builds, value node included.
        assert_eq!(a, env.insert(Rc::from("s"), five.clone()));
        assert!(a.get("s").is_some_and(|v| v.ptr_eq(&five)));
        // Another value, name or store (even an equal one): another map.
        let c = insert(&env, Rc::from("s"), Term::int(6));
        assert!(!c.ptr_eq(&a) && c.get("s") == Some(&Term::int(6)));
        let d = insert(&env, Rc::from("t"), five.clone());
        assert!(!d.ptr_eq(&a) && d.get("t") == Some(&five) && d.get("s").is_none());
        let equal = Env::new().insert(Rc::from("x"), Term::int(1));
        let e = insert(&equal, Rc::from("s"), five.clone());
        assert!(!e.ptr_eq(&a) && e == a);
        // An equal value that is another node (terms this large are not hash-consed): not
        // shared, so the store holds the node the step built (origins compare nodes).
        let big = |k| {
            (0..20).fold(Term::var(Sym::new("y", Sort::Int)), |t, i| {
                Term::add(t, Term::var(Sym::new(&format!("z{}", i + k), Sort::Int)))
            })
        };
        let (v1, v2) = (big(0), big(0));
        assert!(v1 == v2 && !v1.ptr_eq(&v2));
        let f = insert(&env, Rc::from("s"), v1.clone());
        let g = insert(&env, Rc::from("s"), v2.clone());
        assert!(!f.ptr_eq(&g) && f == g);
        assert!(g.get("s").is_some_and(|v| v.ptr_eq(&v2)));
    }

    #[test]
    fn the_table_stays_bounded() {
        let env = Env::new();
        for k in 0..(CAPACITY as i64 * 2 + 7) {
            let m = insert(&env, Rc::from("s"), Term::int(k));
            assert_eq!(m.get("s"), Some(&Term::int(k)));
            TABLE.with(|t| assert!(t.borrow().len <= CAPACITY));
        }
        // (per name and value, only the most recent stores are kept)
        let envs: Vec<Env> = (0..PER_KEY as i64 * 3)
            .map(|k| Env::new().insert(Rc::from("x"), Term::int(k)))
            .collect();
        for e in &envs {
            insert(e, Rc::from("s"), Term::int(0));
        }
        TABLE.with(|t| {
            let t = t.borrow();
            assert!(t.entries.values().all(|l| l.len() <= PER_KEY));
        });
    }

    /// 12 independent ifs that count: 2^12 paths, but the count takes 13 values, and the
    /// paths with the same count share one store (each path had its own before).
    #[test]
    fn paths_that_count_alike_share_their_stores() {
        let mut src: String = (0..12).map(|i| format!("x{i}: int\n")).collect();
        src.push_str("s = 0\n");
        for i in 0..12 {
            src.push_str(&format!("if x{i} > 0:\n    s += 1\n"));
        }
        let (program, types, ir) = crate::transform::load(&src).unwrap();
        let mut e = Engine::new(&program, types, ir, None, Config::default()).unwrap();
        let root = e.tree().root();
        e.run(root, Limits::default());
        let leaves: Vec<_> = e.tree().nodes().filter(|n| n.is_leaf()).collect();
        assert_eq!(leaves.len(), 1 << 12);
        let mut distinct: Vec<&Env> = Vec::new();
        for n in &leaves {
            let g = &n.state.globals;
            if !distinct.iter().any(|d| d.ptr_eq(g)) {
                distinct.push(g);
            }
        }
        assert_eq!(distinct.len(), 13);
        // Each holds the count its path condition implies (the then-branches taken).
        for n in &leaves {
            let taken = e
                .path_condition(n.id)
                .iter()
                .filter(|t| t.to_string().ends_with("> 0"))
                .count();
            assert_eq!(n.state.globals.get("s"), Some(&Term::int(taken as i64)));
        }
    }
}
