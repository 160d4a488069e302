//! Unsat cores (`solver/core.rs`), checked outside Z3: every member is needed (a model of
//! the core without it, evaluated in Rust, satisfies the others and falsifies it), and the
//! core is unsat again in a fresh solver with another seed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::*;

const BUDGET: Duration = Duration::from_secs(20);

fn gt(a: Term, k: i64) -> Term {
    Term::gt(a, int(k))
}
fn lt(a: Term, k: i64) -> Term {
    Term::lt(a, int(k))
}

/// The checks of the module doc on a core of `parts`. `Model::eval` has no value for an
/// index out of range, where Z3's element function has one: with `partial`, such a member
/// may evaluate to nothing (never to the wrong truth value).
fn assert_irreducible(parts: &[Term], core: &[usize]) {
    check_irreducible(parts, core, false)
}

fn check_irreducible(parts: &[Term], core: &[usize], partial: bool) {
    let mut s = solver();
    let mut syms = BTreeSet::new();
    core.iter().for_each(|&i| parts[i].vars(&mut syms));
    let syms: Vec<Sym> = syms.into_iter().collect();
    let members: Vec<Term> = core.iter().map(|&i| parts[i].clone()).collect();
    assert_eq!(s.check_fresh(&members, 7), SatResult::Unsat, "{members:?}");
    for (k, c) in members.iter().enumerate() {
        let rest: Vec<Term> = members
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != k)
            .map(|(_, t)| t.clone())
            .collect();
        let m = s
            .model(&rest, &syms)
            .unwrap_or_else(|| panic!("{rest:?} without {c:?} has no model"));
        for r in &rest {
            let v = m.eval(r);
            let ok = v == Some(Value::Bool(true)) || (partial && v.is_none());
            assert!(ok, "{r:?} is {v:?} under {m:?}");
        }
        let v = m.eval(c);
        let ok = v == Some(Value::Bool(false)) || (partial && v.is_none());
        assert!(ok, "{c:?} is {v:?} under {m:?}");
    }
}

fn unsat_core(answer: CoreAnswer) -> Vec<usize> {
    match answer {
        CoreAnswer::Unsat {
            core,
            minimal: true,
        } => core,
        other => panic!("expected a minimal core, got {other:?}"),
    }
}

#[test]
fn a_pruned_branch_clashes_with_its_assumption_only() {
    let (x, y) = (var("x"), var("y"));
    // assume x > 5; y > 0; x >= y; then `if x < 3` is pruned.
    let parts = vec![
        gt(x.clone(), 5),
        gt(y.clone(), 0),
        Term::ge(x.clone(), y.clone()),
        lt(x.clone(), 3),
    ];
    let core = unsat_core(solver().core(&parts, &[3], BUDGET, None));
    assert_eq!(core, vec![0, 3]);
    assert_irreducible(&parts, &core);
}

#[test]
fn deletion_removes_redundant_members_and_the_goal_is_in_every_core() {
    let (x, y, z) = (var("x"), var("y"), var("z"));
    // Two reasons for the clash; x > 7 implies x > 5: whichever core, it is irreducible.
    let parts = vec![
        gt(x.clone(), 5),
        gt(x.clone(), 7),
        Term::eq(y.clone(), Term::add(x.clone(), int(1))),
        gt(z.clone(), 0),
        Term::eq(Term::modulo(z.clone(), int(2)), int(1)),
        lt(y.clone(), 4),
    ];
    for goal in [vec![5], vec![]] {
        let core = unsat_core(solver().core(&parts, &goal, BUDGET, None));
        assert!(core.contains(&5), "{core:?}");
        assert!(!core.contains(&3) && !core.contains(&4), "{core:?}");
        assert_eq!(core.len(), 3, "{core:?}");
        assert_irreducible(&parts, &core);
    }
}

#[test]
fn a_leaf_core_is_found_in_its_own_component() {
    let (x, y, t) = (var("x"), var("y"), seq("t"));
    let k = sym("k", Sort::Int);
    let body = Term::ge(Term::index(t.clone(), Term::var(k.clone())), int(0));
    let parts = vec![
        Term::lt(x.clone(), y.clone()),
        Term::forall(k, int(0), Term::len(t.clone()), body),
        gt(Term::len(t.clone()), 2),
        lt(Term::index(t.clone(), int(1)), 0),
        gt(y.clone(), 0),
    ];
    let core = unsat_core(solver().core(&parts, &[], BUDGET, None));
    assert_eq!(core, vec![1, 2, 3]);
    // Without `len(t) > 2`, `t[1]` is out of range in the model: no value in Rust.
    check_irreducible(&parts, &core, true);
}

#[test]
fn satisfiable_parts_false_parts_and_true_parts() {
    let x = var("x");
    let parts = vec![gt(x.clone(), 0), Term::bool(true), lt(x.clone(), 9)];
    assert_eq!(solver().core(&parts, &[2], BUDGET, None), CoreAnswer::Sat);
    assert_eq!(solver().core(&parts, &[], BUDGET, None), CoreAnswer::Sat);
    let parts = vec![gt(x.clone(), 0), Term::bool(false)];
    assert_eq!(
        unsat_core(solver().core(&parts, &[0], BUDGET, None)),
        vec![1]
    );
}

#[test]
fn too_many_parts_after_slicing_is_too_large() {
    // A chain x0 < x1 < ... < x299 < x0: every part connected to the goal.
    let n = CORE_PART_LIMIT + 44;
    let v = |i: usize| var(&format!("x{}", i % n));
    let parts: Vec<Term> = (0..n).map(|i| Term::lt(v(i), v(i + 1))).collect();
    match solver().core(&parts, &[n - 1], BUDGET, None) {
        CoreAnswer::Unknown(r) => assert!(r.text().starts_with("too large"), "{r}"),
        other => panic!("{other:?}"),
    }
    // Unrelated parts are sliced away: a small clash among many is found.
    let mut parts: Vec<Term> = (0..n).map(|i| gt(var(&format!("y{i}")), 0)).collect();
    parts.push(gt(var("z"), 3));
    parts.push(lt(var("z"), 1));
    let core = unsat_core(solver().core(&parts, &[n + 1], BUDGET, None));
    assert_eq!(core, vec![n, n + 1]);
}

/// Cubes: x³ + y³ = z³ with positive x, y, z (Fermat, n = 3) keeps Z3 busy.
fn hard() -> Vec<Term> {
    let cube = |v: Term| Term::mul(v.clone(), Term::mul(v.clone(), v));
    let (x, y, z) = (var("x"), var("y"), var("z"));
    vec![
        gt(x.clone(), 0),
        gt(y.clone(), 0),
        gt(z.clone(), 0),
        Term::eq(Term::add(cube(x), cube(y)), cube(z)),
    ]
}

#[test]
fn cancelling_a_core_computation_returns_promptly() {
    let mut s = Solver::new(SolverConfig {
        timeout_ms: Some(60_000),
    });
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let start = Instant::now();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        flag.store(true, Ordering::Relaxed);
    });
    let answer = s.core(&hard(), &[3], Duration::from_secs(240), Some(&cancel));
    setter.join().unwrap();
    assert_eq!(answer, CoreAnswer::Unknown(INTERRUPTED.into()));
    // A hang guard (without the cancel or the budget: the 60 s limit), not a speed limit.
    assert!(
        start.elapsed() < Duration::from_secs(50),
        "{:?}",
        start.elapsed()
    );
    // Already cancelled: no Z3 call at all.
    let calls = s.stats().z3_calls;
    let answer = s.core(&hard(), &[3], Duration::from_secs(240), Some(&cancel));
    assert_eq!(answer, CoreAnswer::Unknown(INTERRUPTED.into()));
    assert_eq!(s.stats().z3_calls, calls);
}

#[test]
fn the_budget_bounds_the_whole_computation() {
    let mut s = Solver::new(SolverConfig {
        timeout_ms: Some(60_000),
    });
    let start = Instant::now();
    let answer = s.core(&hard(), &[3], Duration::from_millis(300), None);
    assert_eq!(answer, CoreAnswer::Unknown("timeout".into()));
    // A hang guard (without the cancel or the budget: the 60 s limit), not a speed limit.
    assert!(
        start.elapsed() < Duration::from_secs(50),
        "{:?}",
        start.elapsed()
    );
}
