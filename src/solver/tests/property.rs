//! Property tests and counter experiments of the solver: DFS sequences of checks against
//! fresh checks, constraint independence.

use proptest::prelude::*;

use super::*;

/// The book's "N independent ifs": a DFS over 2^N paths. Constraint independence sends Z3
/// one conjunct at a time, and the cache answers every repeated one: 2N Z3 calls instead
/// of 2^(N+1) - 2. (A counter experiment, not a timing; `benches/solver_dfs.rs` has times.)
#[test]
fn independence_reduces_z3_calls() {
    fn dfs(s: &mut Solver, pc: &mut Vec<Term>, depth: usize, n: usize) {
        if depth == n {
            return;
        }
        let c = Term::gt(var(&format!("x{depth}")), int(0));
        for branch in [c.clone(), Term::not(c)] {
            pc.push(branch);
            assert_eq!(s.check(pc), SatResult::Sat);
            dfs(s, pc, depth + 1, n);
            pc.pop();
        }
    }
    let n = 8;
    let mut counts = Vec::new();
    for (caching, slicing) in [(false, false), (true, false), (true, true)] {
        let mut s = solver();
        s.set_caching(caching);
        s.set_slicing(slicing);
        dfs(&mut s, &mut Vec::new(), 0, n);
        counts.push(s.stats());
    }
    let checks = (1u64 << (n + 1)) - 2;
    assert!(counts.iter().all(|c| c.checks == checks));
    assert_eq!(counts[0].z3_calls, checks);
    assert_eq!(
        counts[1].z3_calls, checks,
        "DFS never repeats a path condition"
    );
    assert_eq!(counts[2].z3_calls, 2 * n as u64);
    assert_eq!(counts[2].sliced, checks - 2);
}

/// A node's pc extends its parent's; siblings differ in the last conjunct. Random DFS
/// walks over small linear/arithmetic conjuncts: the incremental, caching, slicing solver
/// gives the answers of a fresh solver.
mod dfs_property {
    use super::*;

    #[derive(Debug, Clone)]
    pub enum Op {
        Push(u8, u8, u8, i8),
        Pop,
    }

    fn atom(kind: u8, a: u8, b: u8, c: i8) -> Term {
        let names = ["x", "y", "z", "w"];
        let v = |i: u8| var(names[usize::from(i) % names.len()]);
        let c = i64::from(c % 7);
        let (a, b) = (v(a), v(b));
        let t = seq("t");
        match kind % 10 {
            0 => Term::lt(a, Term::add(b, int(c))),
            1 => Term::eq(a, int(c)),
            2 => Term::ge(Term::sub(a, b), int(c)),
            3 => Term::eq(Term::floor_div(a, int(if c == 0 { 2 } else { c })), b),
            4 => Term::ne(Term::modulo(a, int(if c == 0 { -3 } else { c })), int(1)),
            5 => Term::not(Term::lt(Term::mul(int(2), a), b)),
            6 => Term::and(
                Term::in_bounds(t.clone(), a.clone()),
                Term::eq(Term::index(t, a), b),
            ),
            7 => Term::le(Term::len(t), Term::abs(a)),
            8 => Term::or(Term::gt(a, int(c)), Term::lt(b, int(-c))),
            _ => Term::eq(Term::max(a, b), int(c)),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
        #[test]
        fn incremental_matches_fresh(ops in proptest::collection::vec(
            prop_oneof![
                3 => (any::<u8>(), any::<u8>(), any::<u8>(), any::<i8>()).prop_map(|(k, a, b, c)| Op::Push(k, a, b, c)),
                2 => Just(Op::Pop),
            ], 1..24)) {
            let mut s = solver();
            let mut pc: Vec<Term> = Vec::new();
            for op in ops {
                match op {
                    Op::Push(k, a, b, c) => {
                        pc.push(atom(k, a, b, c));
                        prop_assert_eq!(s.check(&pc), fresh(&pc), "pc = {:?}", pc);
                    }
                    Op::Pop => { pc.pop(); }
                }
            }
        }
    }
}
