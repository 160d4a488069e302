//! The watchdog's time limit and cancellation, named products, minimal models, and the
//! table read of tuple models.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::*;

fn limited(ms: u64) -> Solver {
    Solver::new(SolverConfig {
        timeout_ms: Some(ms),
    })
}

fn cubes_42() -> Vec<Term> {
    let cube = |v: &str| Term::mul(var(v), Term::mul(var(v), var(v)));
    let sum = Term::add(Term::add(cube("a"), cube("b")), cube("c"));
    vec![Term::eq(sum, int(42))]
}

#[test]
fn the_watchdog_ends_a_hard_check_at_its_deadline() {
    let mut s = limited(200);
    let started = Instant::now();
    assert_eq!(s.check(&cubes_42()), SatResult::Unknown("timeout".into()));
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(150), "{took:?}");
    // Asked once more of a fresh solver (no history of earlier queries), which timed out
    // too (issue 31: the answer must not depend on what the solver was asked before).
    assert_eq!(s.inc.fresh_retries, 1);
    // A hang guard (a check that ignores its interrupt runs for minutes), not a speed limit.
    assert!(took < Duration::from_secs(60), "{took:?}");
    // No model, with the reason.
    assert_eq!(
        s.try_model(&cubes_42(), &[sym("a", Sort::Int)]),
        Err(SatResult::Unknown("timeout".into()))
    );
    // The solver (and the context) are still usable.
    assert_eq!(s.check(&[Term::gt(var("a"), int(3))]), SatResult::Sat);
}

/// Issue 31: a call that takes half its time limit or more is counted (`check --jobs N`
/// re-does such a run on one thread: at another load it may time out); a timeout is one,
/// an easy check far below a generous limit is not.
#[test]
fn calls_close_to_the_limit_are_counted() {
    let mut s = limited(200);
    assert_eq!(s.stats().close_calls, 0);
    assert_eq!(s.check(&cubes_42()), SatResult::Unknown("timeout".into()));
    assert_eq!(s.stats().close_calls, 1, "{:?}", s.stats());
    let mut easy = limited(120_000);
    assert_eq!(easy.check(&[Term::gt(var("a"), int(3))]), SatResult::Sat);
    assert!(easy
        .model(&[Term::gt(var("a"), int(3))], &[sym("a", Sort::Int)])
        .is_some());
    assert_eq!(easy.stats().close_calls, 0, "{:?}", easy.stats());
    // The rule itself: half the limit or more; no limit, never.
    let ms = Duration::from_millis;
    assert!(close_to_limit(ms(100), Some(ms(200))));
    assert!(close_to_limit(ms(250), Some(ms(200))));
    assert!(!close_to_limit(ms(99), Some(ms(200))));
    assert!(!close_to_limit(ms(1_000_000), None));
}

/// `x * x` five times: a monomial of degree 32, on which Z3 4.8.12 ignores interrupts.
/// Named products keep it out of that code: decided in well under the limit.
#[test]
fn high_degree_products_are_decided() {
    let mut s = limited(5_000);
    let mut x = var("x");
    for _ in 0..5 {
        x = Term::mul(x.clone(), x);
    }
    let started = Instant::now();
    assert_eq!(s.check(&[Term::eq(x.clone(), int(7))]), SatResult::Unsat);
    assert_eq!(s.check(&[Term::eq(x.clone(), int(1))]), SatResult::Sat);
    let m = s
        .model(&[Term::eq(x.clone(), int(1))], &[sym("x", Sort::Int)])
        .unwrap();
    let Value::Int(v) = m.get(&sym("x", Sort::Int)) else {
        panic!()
    };
    assert_eq!(v.magnitude(), &1u32.into());
    // Decided (not a timeout) is the point; the clock is only a hang guard.
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
    // The names never leak into models of the symbols asked for.
    assert_eq!(m.values.len(), 1);
}

/// The cancel flag interrupts a check in progress (`interrupted`, not cached), and the
/// next checks run normally, also after an interrupt of an idle context.
#[test]
fn the_cancel_flag_interrupts_and_does_not_stick() {
    with_watchdog(|| {
        let mut s = limited(60_000);
        let flag = Arc::new(AtomicBool::new(false));
        s.set_cancel(flag.clone());
        let setter = {
            let flag = flag.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(200));
                flag.store(true, Ordering::Relaxed);
            })
        };
        let started = Instant::now();
        assert!(s.check(&cubes_42()).is_interrupted());
        // A hang guard: the check alone would run for its minute.
        assert!(started.elapsed() < Duration::from_secs(50));
        setter.join().unwrap();
        flag.store(false, Ordering::Relaxed);
        // An interrupt while nothing runs is harmless.
        z3::Context::thread_local().interrupt();
        assert_eq!(s.check(&[Term::gt(var("b"), int(3))]), SatResult::Sat);
        // Not cached as an answer: asked again, it times out... or is interrupted again.
        let mut quick = limited(100);
        assert_eq!(
            quick.check(&cubes_42()),
            SatResult::Unknown("timeout".into())
        );
    });
}

/// Many calls in one watchdog scope send no interrupt and cost no thread each.
#[test]
fn easy_checks_are_never_interrupted() {
    with_watchdog(|| {
        // A limit no easy check reaches on a loaded machine (50 ms did, under load 11).
        let mut s = limited(10_000);
        s.set_caching(false);
        let started = Instant::now();
        for k in 0..300 {
            let pc = [Term::gt(var("x"), int(k)), Term::lt(var("x"), int(k + 2))];
            assert_eq!(s.check(&pc), SatResult::Sat);
        }
        assert_eq!(interrupt::interrupts(), 0);
        assert!(started.elapsed() < Duration::from_secs(60), "a hang guard");
    });
}

fn int_of(m: &Model, name: &str) -> BigInt {
    match m.get(&sym(name, Sort::Int)) {
        Value::Int(i) => i,
        v => panic!("{v:?}"),
    }
}

fn tuple_of(m: &Model, name: &str) -> Vec<BigInt> {
    match m.get(&sym(name, Sort::Seq)) {
        Value::Tuple(t) => t.to_vec(),
        v => panic!("{v:?}"),
    }
}

#[test]
fn models_are_minimal() {
    let mut s = solver();
    let (x, y, t) = (var("x"), var("y"), seq("t"));
    let syms = [
        sym("x", Sort::Int),
        sym("y", Sort::Int),
        sym("t", Sort::Seq),
    ];
    let m = s.model(&[Term::gt(x.clone(), int(1000))], &syms).unwrap();
    assert_eq!(int_of(&m, "x"), 1001.into());
    let m = s.model(&[Term::lt(x.clone(), int(-77))], &syms).unwrap();
    assert_eq!(int_of(&m, "x"), (-78).into());
    // |x| + |y| is not the measure: each in turn, x first.
    let pc = [
        Term::ge(Term::add(x.clone(), y.clone()), int(50)),
        Term::ge(x.clone(), Term::neg(int(3))),
    ];
    let m = s.model(&pc, &syms).unwrap();
    assert_eq!(int_of(&m, "x"), 0.into());
    assert_eq!(int_of(&m, "y"), 50.into());
    // Shortest tuple first, then the smallest elements.
    let pc = [
        Term::ge(Term::len(t.clone()), int(3)),
        Term::gt(Term::index(t.clone(), int(-1)), int(9)),
    ];
    let m = s.model(&pc, &syms).unwrap();
    assert_eq!(
        tuple_of(&m, "t"),
        vec![0.into(), 0.into(), BigInt::from(10)]
    );
    // A huge bound: one probe settles it.
    let big: BigInt = "1000000000000000000000000000000000000000".parse().unwrap();
    let m = s
        .model(&[Term::gt(x.clone(), Term::int(big.clone()))], &syms)
        .unwrap();
    assert_eq!(int_of(&m, "x"), big + 1);
    // A long tuple: the length is minimal even when Z3's first pick is not.
    let pc = [
        Term::gt(Term::len(t.clone()), int(40)),
        Term::gt(
            Term::index(t.clone(), int(-1)),
            Term::index(t.clone(), int(0)),
        ),
    ];
    let m = s.model(&pc, &syms).unwrap();
    let tv = tuple_of(&m, "t");
    assert_eq!(tv.len(), 41);
    let ones: Vec<BigInt> = tv
        .iter()
        .filter(|v| *v != &BigInt::from(0))
        .cloned()
        .collect();
    assert_eq!(ones.len(), 1, "the smallest sum of |elements|: {tv:?}");
    for c in &pc {
        assert_eq!(m.eval(c), Some(Value::Bool(true)));
    }
}

/// Minimising never returns a model that is not one, and without minimisation the
/// measures are never smaller.
#[test]
fn minimal_models_are_models_and_no_larger() {
    let (x, y, t) = (var("x"), var("y"), seq("t"));
    let syms = [
        sym("x", Sort::Int),
        sym("y", Sort::Int),
        sym("t", Sort::Seq),
    ];
    let pcs = [
        vec![Term::eq(Term::mul(x.clone(), y.clone()), int(391))],
        vec![
            Term::eq(Term::len(t.clone()), Term::add(x.clone(), int(5))),
            Term::gt(Term::len(t.clone()), int(2)),
            Term::gt(
                Term::index(t.clone(), int(2)),
                Term::mul(y.clone(), y.clone()),
            ),
            Term::gt(y.clone(), int(12)),
        ],
        vec![
            Term::eq(Term::modulo(x.clone(), int(97)), int(13)),
            Term::gt(x.clone(), int(-5000)),
        ],
    ];
    for pc in pcs {
        let mut plain = solver();
        plain.set_minimize(false);
        let big = plain.model(&pc, &syms).unwrap();
        let small = solver().model(&pc, &syms).unwrap();
        for c in &pc {
            assert_eq!(small.eval(c), Some(Value::Bool(true)), "{c}");
        }
        assert!(tuple_of(&small, "t").len() <= tuple_of(&big, "t").len());
    }
}

/// The minimisation budget is spent in Z3's resource units, not in time: on a machine so
/// busy that each check takes 200 ms longer, the models are the same (with a budget in time,
/// 250 ms, the minimisation stopped after its first check here — the tuple kept Z3's
/// elements — and a test that `testgen` wrote from such a model on a busy machine held a
/// tuple of 30,000 elements).
#[test]
fn minimal_models_do_not_depend_on_the_load() {
    let (x, t) = (var("x"), seq("t"));
    let syms = [sym("x", Sort::Int), sym("t", Sort::Seq)];
    let pc = vec![
        Term::eq(Term::len(t.clone()), Term::add(x.clone(), int(5))),
        Term::gt(x.clone(), int(17)),
        Term::eq(Term::modulo(x.clone(), int(7)), int(3)),
        Term::gt(Term::index(t.clone(), int(3)), x.clone()),
    ];
    let models = [Duration::ZERO, Duration::from_millis(200)].map(|pause| {
        super::super::work::SLOW_CHECKS.with(|d| d.set(pause));
        let mut s = solver();
        s.set_caching(false);
        let m = s.model(&pc, &syms).unwrap();
        super::super::work::SLOW_CHECKS.with(|d| d.set(Duration::ZERO));
        m
    });
    assert_eq!(models[0], models[1]);
    assert_eq!(models[0].values[&syms[0]], Value::Int(BigInt::from(24)));
    let t = tuple_of(&models[0], "t");
    assert_eq!(t.len(), 29);
    let nonzero = t.iter().filter(|e| **e != BigInt::from(0)).count();
    assert_eq!(nonzero, 1, "{t:?}");
}

/// Tuple models are read from the element function's table; every position agrees with
/// the constraints (a long tuple with scattered constraints).
#[test]
fn long_tuple_models_are_read_from_the_table() {
    let mut s = solver();
    s.set_minimize(false);
    let t = seq("t");
    let mut pc = vec![Term::eq(Term::len(t.clone()), int(300))];
    for k in (0..300).step_by(7) {
        pc.push(Term::eq(Term::index(t.clone(), int(k)), int(k * k - 5)));
    }
    let started = Instant::now();
    let m = s.model(&pc, &[sym("t", Sort::Seq)]).unwrap();
    assert!(started.elapsed() < Duration::from_secs(60), "a hang guard");
    let tv = tuple_of(&m, "t");
    assert_eq!(tv.len(), 300);
    for k in (0..300).step_by(7) {
        assert_eq!(tv[k as usize], BigInt::from(k * k - 5));
    }
    for c in &pc {
        assert_eq!(m.eval(c), Some(Value::Bool(true)));
    }
}
