//! Tests of the solver layer against Z3 (sat/unsat/unknown, Python semantics, models,
//! quantifiers, the cache, constraint independence, the incremental stack).

use std::collections::BTreeSet;

use num_bigint::BigInt;

mod cores;
mod isolate;
mod limits;
mod property;
mod tuples;

use super::*;
use crate::concrete::Value;
use crate::semantics;
use crate::term::{smt2_declarations, Sort, Sym, Term};

fn sym(name: &str, sort: Sort) -> Sym {
    Sym::new(name, sort)
}
fn var(name: &str) -> Term {
    Term::var(sym(name, Sort::Int))
}
fn bvar(name: &str) -> Term {
    Term::var(sym(name, Sort::Bool))
}
fn seq(name: &str) -> Term {
    Term::var(sym(name, Sort::Seq))
}
fn int(i: i64) -> Term {
    Term::int(i)
}
fn solver() -> Solver {
    Solver::new(SolverConfig::default())
}
/// One Z3 query for the whole conjunction: no cache, no slicing, a new Z3 solver.
fn fresh(pc: &[Term]) -> SatResult {
    let mut s = solver();
    s.set_caching(false);
    s.set_slicing(false);
    s.check(pc)
}

#[test]
fn sat_and_unsat() {
    let mut s = solver();
    let (x, y) = (var("x"), var("y"));
    let pc = [
        Term::gt(x.clone(), int(0)),
        Term::lt(Term::add(x.clone(), y.clone()), int(0)),
    ];
    assert_eq!(s.check(&pc), SatResult::Sat);
    let pc2 = [pc[0].clone(), pc[1].clone(), Term::ge(y.clone(), int(0))];
    assert_eq!(s.check(&pc2), SatResult::Unsat);
    assert_eq!(s.check(&[]), SatResult::Sat);
    assert_eq!(s.check(&[Term::bool(true)]), SatResult::Sat);
    assert_eq!(
        s.check(&[pc[0].clone(), Term::bool(false)]),
        SatResult::Unsat
    );
    // Nonlinear but easy.
    let sq = Term::eq(Term::mul(x.clone(), x.clone()), int(49));
    assert_eq!(
        s.check(&[sq.clone(), Term::lt(x.clone(), int(0))]),
        SatResult::Sat
    );
    let m = s
        .model(&[sq, Term::lt(x.clone(), int(0))], &[sym("x", Sort::Int)])
        .unwrap();
    assert_eq!(m.get(&sym("x", Sort::Int)), Value::Int((-7).into()));
}

#[test]
fn timeout_gives_unknown() {
    // x^3 + y^3 + z^3 == 42: an open problem until 2019; hopeless in 1 ms.
    let mut s = Solver::new(SolverConfig {
        timeout_ms: Some(1),
    });
    let cube = |v: &str| Term::mul(var(v), Term::mul(var(v), var(v)));
    let sum = Term::add(Term::add(cube("a"), cube("b")), cube("c"));
    let pc = [Term::eq(sum, int(42))];
    assert_eq!(s.check(&pc), SatResult::Unknown("timeout".into()));
    assert_eq!(s.model(&pc, &[sym("a", Sort::Int)]), None);
    // The solver is still usable afterwards.
    assert_eq!(s.check(&[Term::gt(var("a"), int(3))]), SatResult::Sat);
}

/// `a // b` and `a % b` through Z3 agree with `crate::semantics` on a grid, for a
/// symbolic divisor and for a constant one (which takes a different encoding).
#[test]
fn python_division_agrees_with_semantics() {
    let mut s = solver();
    let (x, y, q, r) = (var("x"), var("y"), var("q"), var("r"));
    let syms = [sym("q", Sort::Int), sym("r", Sort::Int)];
    for a in -9..=9i64 {
        for b in (-4..=4i64).filter(|b| *b != 0) {
            let (ba, bb) = (BigInt::from(a), BigInt::from(b));
            let want_q = Value::Int(semantics::floor_div(&ba, &bb).unwrap());
            let want_r = Value::Int(semantics::floor_mod(&ba, &bb).unwrap());
            for divisor in [y.clone(), int(b)] {
                let pc = [
                    Term::eq(x.clone(), int(a)),
                    Term::eq(y.clone(), int(b)),
                    Term::eq(q.clone(), Term::floor_div(x.clone(), divisor.clone())),
                    Term::eq(r.clone(), Term::modulo(x.clone(), divisor.clone())),
                ];
                let m = s.model(&pc, &syms).expect("sat");
                assert_eq!(m.get(&syms[0]), want_q, "{a} // {divisor} with y = {b}");
                assert_eq!(m.get(&syms[1]), want_r, "{a} % {divisor} with y = {b}");
            }
        }
    }
}

/// The SMT-LIB text of `Term::to_smt2` means the same as the API translation: Z3 parses it
/// and finds no counterexample to the Python results.
#[test]
fn smt2_text_agrees_with_semantics() {
    let (x, y, t) = (var("x"), var("y"), seq("t"));
    for a in [-7i64, -1, 0, 5, 8] {
        for b in [-3i64, -2, 2, 3] {
            let (ba, bb) = (BigInt::from(a), BigInt::from(b));
            let checks = [
                (
                    Term::floor_div(x.clone(), y.clone()),
                    semantics::floor_div(&ba, &bb).unwrap(),
                ),
                (
                    Term::modulo(x.clone(), y.clone()),
                    semantics::floor_mod(&ba, &bb).unwrap(),
                ),
                (
                    Term::floor_div(x.clone(), int(b)),
                    semantics::floor_div(&ba, &bb).unwrap(),
                ),
                (
                    Term::modulo(x.clone(), int(b)),
                    semantics::floor_mod(&ba, &bb).unwrap(),
                ),
            ];
            for (term, want) in checks {
                let fixed = Term::and(Term::eq(x.clone(), int(a)), Term::eq(y.clone(), int(b)));
                let wrong = Term::ne(term.clone(), Term::int(want));
                assert_eq!(smt2_check(&[fixed, wrong]), z3::SatResult::Unsat, "{term}");
            }
        }
    }
    // Negative indices.
    let tup = Term::eq(t.clone(), Term::tuple(vec![int(10), int(20), int(30)]));
    for (i, want) in [(-1i64, 30i64), (-3, 10), (0, 10), (2, 30)] {
        let wrong = Term::ne(Term::index(t.clone(), y.clone()), int(want));
        let at = Term::eq(y.clone(), int(i));
        assert_eq!(
            smt2_check(&[tup.clone(), at.clone(), wrong]),
            z3::SatResult::Unsat
        );
        let wrong_const = Term::ne(Term::index(t.clone(), int(i)), int(want));
        assert_eq!(
            smt2_check(&[tup.clone(), wrong_const]),
            z3::SatResult::Unsat
        );
    }
    let k = sym("k", Sort::Int);
    let all_pos = Term::forall(
        k.clone(),
        int(0),
        Term::len(t.clone()),
        Term::gt(Term::index(t.clone(), Term::var(k)), int(0)),
    );
    assert_eq!(
        smt2_check(&[tup.clone(), all_pos.clone()]),
        z3::SatResult::Sat
    );
    assert_eq!(
        smt2_check(&[tup, all_pos, Term::lt(Term::index(t, int(1)), int(0))]),
        z3::SatResult::Unsat
    );
}

fn smt2_check(pc: &[Term]) -> z3::SatResult {
    let mut syms = BTreeSet::new();
    pc.iter().for_each(|t| t.vars(&mut syms));
    let mut text = smt2_declarations(&syms);
    if pc.iter().any(crate::term::uses_py_slice) {
        text = format!("{}\n{text}", crate::term::PY_SLICE_DEFINITION);
    }
    for t in pc {
        text.push_str(&format!("\n(assert {})", t.to_smt2()));
    }
    let z = z3::Solver::new();
    z.push(); // incremental mode, as in `Incremental`
    z.from_string(text);
    z.check()
}

/// Slices with a step other than 1 are `py.slice` in SMT-LIB: with its definition, Z3
/// reads the text and agrees with Python on every step and bound (issue 25).
#[test]
fn smt2_slices_with_steps_parse_and_agree_with_python() {
    let t = seq("t");
    let tup = Term::eq(t.clone(), Term::tuple((1..=5).map(int).collect()));
    // (lo, hi, step, python3's t[lo:hi:step] of (1, 2, 3, 4, 5))
    type Case<'a> = (Option<i64>, Option<i64>, i64, &'a [i64]);
    let cases: &[Case] = &[
        (None, None, 2, &[1, 3, 5]),
        (None, None, -1, &[5, 4, 3, 2, 1]),
        (Some(1), None, 3, &[2, 5]),
        (Some(-1), Some(0), -2, &[5, 3]),
        (Some(10), Some(-10), -2, &[5, 3, 1]),
        (Some(3), Some(1), 2, &[]),
    ];
    let mut used = 0;
    for (lo, hi, step, want) in cases {
        let sliced = Term::slice(t.clone(), lo.map(int), hi.map(int), int(*step));
        // (a slice the builder decides, `t[3:1:2]`, is a constant)
        assert_eq!(
            crate::term::uses_py_slice(&sliced),
            sliced.to_smt2().contains("py.slice"),
            "{sliced}"
        );
        used += usize::from(crate::term::uses_py_slice(&sliced));
        let right = Term::eq(
            sliced.clone(),
            Term::tuple(want.iter().map(|&k| int(k)).collect()),
        );
        assert_eq!(
            smt2_check(&[tup.clone(), right.clone()]),
            z3::SatResult::Sat,
            "{sliced}"
        );
        assert_eq!(
            smt2_check(&[tup.clone(), Term::not(right)]),
            z3::SatResult::Unsat,
            "{sliced}"
        );
    }
    assert!(used >= 5, "{used}");
    // A unit step needs no definition.
    let plain = Term::slice(t.clone(), Some(int(1)), None, int(1));
    assert!(!crate::term::uses_py_slice(&plain));
}

#[test]
fn negative_indices() {
    let mut s = solver();
    let (t, i) = (seq("t"), var("i"));
    let tup = Term::eq(t.clone(), Term::tuple(vec![int(10), int(20), int(30)]));
    for (k, want) in [(-1, 30), (-2, 20), (-3, 10), (0, 10), (2, 30)] {
        let pc = [
            tup.clone(),
            Term::eq(i.clone(), int(k)),
            Term::ne(Term::index(t.clone(), i.clone()), int(want)),
        ];
        assert_eq!(s.check(&pc), SatResult::Unsat, "t[{k}]");
    }
    // The last element of a symbolic tuple, through t[-1] and t[len(t) - 1].
    let last = Term::index(t.clone(), int(-1));
    let pc = [
        Term::eq(Term::len(t.clone()), int(2)),
        Term::eq(last.clone(), int(5)),
        Term::ne(
            Term::index(t.clone(), Term::sub(Term::len(t.clone()), int(1))),
            int(5),
        ),
    ];
    assert_eq!(s.check(&pc), SatResult::Unsat);
    // In bounds: -len <= i < len.
    let pc = [
        Term::eq(Term::len(t.clone()), int(3)),
        Term::in_bounds(t.clone(), i.clone()),
        Term::lt(i.clone(), int(-3)),
    ];
    assert_eq!(s.check(&pc), SatResult::Unsat);
}

#[test]
fn models_for_tuples_bools_and_big_ints() {
    let mut s = solver();
    let (t, u, b, x) = (seq("t"), seq("u"), bvar("b"), var("x"));
    let big: BigInt = "100000000000000000000000000000000000000000"
        .parse()
        .unwrap();
    let pc = vec![
        Term::eq(Term::len(t.clone()), int(3)),
        Term::eq(Term::index(t.clone(), int(0)), int(-7)),
        Term::gt(Term::index(t.clone(), int(-1)), int(100)),
        b.clone(),
        Term::gt(x.clone(), Term::int(big.clone())),
        Term::eq(
            u.clone(),
            Term::concat(Term::tuple(vec![int(1)]), t.clone()),
        ),
    ];
    let syms = [
        sym("t", Sort::Seq),
        sym("u", Sort::Seq),
        sym("b", Sort::Bool),
        sym("c", Sort::Bool),
        sym("x", Sort::Int),
        sym("unused", Sort::Seq),
    ];
    let m = s.model(&pc, &syms).expect("sat");
    let Value::Tuple(tv) = m.get(&syms[0]) else {
        panic!("t is a tuple")
    };
    assert_eq!(tv.len(), 3);
    assert_eq!(tv[0], BigInt::from(-7));
    assert!(tv[2] > BigInt::from(100));
    let Value::Tuple(uv) = m.get(&syms[1]) else {
        panic!("u is a tuple")
    };
    assert_eq!(uv.len(), 4);
    assert_eq!(m.get(&syms[2]), Value::Bool(true));
    assert_eq!(
        m.get(&syms[3]),
        Value::Bool(false),
        "unconstrained: default"
    );
    let Value::Int(xv) = m.get(&syms[4]) else {
        panic!("x is an int")
    };
    assert!(xv > big);
    assert_eq!(m.get(&syms[5]), Value::tuple(vec![]));
    assert_eq!(m.values.len(), syms.len());
    // The model satisfies every conjunct, evaluated in Rust.
    for t in &pc {
        assert_eq!(m.eval(t), Some(Value::Bool(true)), "{t}");
    }
    assert_eq!(
        m.eval(&Term::add(Term::len(u), int(1))),
        Some(Value::Int(5.into()))
    );
    // Unsat: no model.
    assert_eq!(s.model(&[b.clone(), Term::not(b)], &syms), None);
}

#[test]
fn model_eval_in_rust() {
    let (x, t) = (sym("x", Sort::Int), sym("t", Sort::Seq));
    let mut m = Model::default();
    m.values.insert(x.clone(), Value::Int((-7).into()));
    m.values
        .insert(t.clone(), Value::tuple(vec![3.into(), 4.into()]));
    let (xv, tv) = (Term::var(x), Term::var(t));
    let ev = |term: Term| m.eval(&term);
    assert_eq!(
        ev(Term::floor_div(xv.clone(), int(2))),
        Some(Value::Int((-4).into()))
    );
    assert_eq!(
        ev(Term::modulo(xv.clone(), int(2))),
        Some(Value::Int(1.into()))
    );
    assert_eq!(
        ev(Term::floor_div(xv.clone(), Term::sub(xv.clone(), var("y")))),
        Some(Value::Int(1.into()))
    );
    assert_eq!(
        ev(Term::floor_div(int(1), var("y"))),
        None,
        "y defaults to 0"
    );
    assert_eq!(
        ev(Term::index(tv.clone(), int(-1))),
        Some(Value::Int(4.into()))
    );
    assert_eq!(
        ev(Term::index(tv.clone(), var("y"))),
        Some(Value::Int(3.into()))
    );
    assert_eq!(ev(Term::index(tv.clone(), int(2))), None);
    assert_eq!(
        ev(Term::len(Term::concat(tv.clone(), tv.clone()))),
        Some(Value::Int(4.into()))
    );
    assert_eq!(ev(Term::abs(xv.clone())), Some(Value::Int(7.into())));
    assert_eq!(
        ev(Term::max(xv.clone(), int(0))),
        Some(Value::Int(0.into()))
    );
    assert_eq!(
        ev(Term::eq(tv.clone(), Term::tuple(vec![int(3), int(4)]))),
        Some(Value::Bool(true))
    );
    assert_eq!(
        ev(Term::ite(bvar("b"), xv.clone(), int(1))),
        Some(Value::Int(1.into()))
    );
    // A false conjunct decides even next to a meaningless one.
    let meaningless = Term::eq(Term::index(tv.clone(), int(5)), int(0));
    assert_eq!(
        ev(Term::and(Term::gt(xv.clone(), int(0)), meaningless.clone())),
        Some(Value::Bool(false))
    );
    assert_eq!(
        ev(Term::and(Term::lt(xv.clone(), int(0)), meaningless)),
        None
    );
    let k = sym("k", Sort::Int);
    let kv = Term::var(k.clone());
    let all_pos = Term::forall(
        k.clone(),
        int(0),
        Term::len(tv.clone()),
        Term::gt(Term::index(tv.clone(), kv.clone()), int(0)),
    );
    assert_eq!(ev(all_pos), Some(Value::Bool(true)));
    let any4 = Term::exists(
        k.clone(),
        int(0),
        Term::len(tv.clone()),
        Term::eq(Term::index(tv.clone(), kv.clone()), int(4)),
    );
    assert_eq!(ev(any4), Some(Value::Bool(true)));
    let huge = Term::forall(
        k,
        int(0),
        Term::int(BigInt::from(1u64 << 40)),
        Term::ge(kv, int(0)),
    );
    assert_eq!(ev(huge), None);
}

#[test]
fn quantifiers() {
    let mut s = solver();
    let (t, i) = (seq("t"), var("i"));
    let k = sym("k", Sort::Int);
    let kv = Term::var(k.clone());
    let nonneg = |lo: Term, hi: Term| {
        Term::forall(
            k.clone(),
            lo,
            hi,
            Term::ge(Term::index(t.clone(), kv.clone()), int(0)),
        )
    };
    let n = Term::len(t.clone());
    // all(t[k] >= 0 for k in range(0, len(t))) with len(t) == 4 and t[2] < 0: unsat.
    let all = nonneg(int(0), n.clone());
    let pc = [
        all.clone(),
        Term::eq(n.clone(), int(4)),
        Term::lt(Term::index(t.clone(), int(2)), int(0)),
    ];
    assert_eq!(s.check(&pc), SatResult::Unsat);
    // ... with a symbolic bound i: t[2] < 0 forces i <= 2.
    let pc = [
        nonneg(int(0), i.clone()),
        Term::eq(n.clone(), int(5)),
        Term::lt(Term::index(t.clone(), int(2)), int(0)),
        Term::ge(i.clone(), int(3)),
    ];
    assert_eq!(s.check(&pc), SatResult::Unsat);
    let pc = [
        nonneg(int(0), i.clone()),
        Term::eq(n.clone(), int(5)),
        Term::lt(Term::index(t.clone(), int(2)), int(0)),
        Term::eq(i.clone(), int(2)),
    ];
    let syms = [sym("t", Sort::Seq), sym("i", Sort::Int)];
    let m = s.model(&pc, &syms).expect("sat");
    pc.iter()
        .for_each(|c| assert_eq!(m.eval(c), Some(Value::Bool(true)), "{c}"));
    // any(t[k] == 7 for k in range(0, len(t))) and len(t) == 3 and t[0] != 7 and t[1] != 7.
    let any7 = Term::exists(
        k.clone(),
        int(0),
        n.clone(),
        Term::eq(Term::index(t.clone(), kv.clone()), int(7)),
    );
    let pc = [
        any7.clone(),
        Term::eq(n.clone(), int(3)),
        Term::ne(Term::index(t.clone(), int(0)), int(7)),
        Term::ne(Term::index(t.clone(), int(1)), int(7)),
    ];
    let m = s.model(&pc, &syms).expect("sat");
    let Value::Tuple(tv) = m.get(&syms[0]) else {
        panic!()
    };
    assert_eq!(tv[2], BigInt::from(7));
    assert_eq!(
        s.check(&[
            pc[0].clone(),
            pc[1].clone(),
            pc[2].clone(),
            pc[3].clone(),
            Term::ne(Term::index(t.clone(), int(2)), int(7))
        ]),
        SatResult::Unsat
    );
    // A small constant range is unrolled; so is a negated one.
    let pc = [
        Term::not(nonneg(int(0), int(3))),
        Term::eq(n.clone(), int(3)),
        Term::ge(Term::index(t.clone(), int(0)), int(0)),
        Term::ge(Term::index(t.clone(), int(1)), int(0)),
    ];
    let m = s.model(&pc, &syms).expect("sat");
    let Value::Tuple(tv) = m.get(&syms[0]) else {
        panic!()
    };
    assert!(tv[2] < BigInt::from(0));
    // The bound variable is not the input `k`.
    let pc = [
        nonneg(int(0), n.clone()),
        Term::eq(n.clone(), int(20)),
        Term::eq(kv.clone(), int(-5)),
    ];
    assert_eq!(s.check(&pc), SatResult::Sat);
}

#[test]
fn cache_hits_are_counted() {
    let mut s = solver();
    let pc = [Term::gt(var("x"), int(0)), Term::lt(var("x"), int(5))];
    assert_eq!(s.check(&pc), SatResult::Sat);
    let before = s.stats();
    assert_eq!(before.checks, 1);
    assert_eq!(before.z3_calls, 1);
    // Same set in another order, with a duplicate and a True: a hit.
    let again = [
        pc[1].clone(),
        pc[0].clone(),
        pc[1].clone(),
        Term::bool(true),
    ];
    assert_eq!(s.check(&again), SatResult::Sat);
    let after = s.stats();
    assert_eq!(after.checks, 2);
    assert_eq!(after.cache_hits, 1);
    assert_eq!(after.z3_calls, 1);
    assert!(after.z3_time > std::time::Duration::ZERO);
    // Unsat answers are cached too.
    let bad = [pc[0].clone(), Term::lt(var("x"), int(0))];
    assert_eq!(s.check(&bad), SatResult::Unsat);
    assert_eq!(s.check(&bad), SatResult::Unsat);
    assert_eq!(s.stats().cache_hits, 2);
    assert_eq!(s.stats().z3_calls, 2);
}

#[test]
fn models_are_built_per_component_and_cached() {
    let mut s = solver();
    let syms: Vec<Sym> = ["x", "y", "z"].iter().map(|n| sym(n, Sort::Int)).collect();
    let (x, y, z) = (var("x"), var("y"), var("z"));
    let a = [
        Term::gt(x.clone(), int(5)),
        Term::lt(y.clone(), x.clone()),
        Term::gt(z.clone(), int(0)),
    ];
    let m1 = s.model(&a, &syms).expect("sat");
    assert_eq!(s.stats().z3_calls, 2, "components {{x, y}} and {{z}}");
    let b = [a[0].clone(), a[1].clone(), Term::le(z.clone(), int(0))];
    let m2 = s.model(&b, &syms).expect("sat");
    assert_eq!(s.stats().z3_calls, 3, "{{x, y}} again: cached");
    assert_eq!(s.stats().cache_hits, 1);
    for (m, pc) in [(&m1, &a), (&m2, &b)] {
        assert_eq!(m.values.len(), 3);
        pc.iter()
            .for_each(|c| assert_eq!(m.eval(c), Some(Value::Bool(true)), "{c}"));
    }
    assert_eq!(m1.get(&syms[0]), m2.get(&syms[0]));
    // Only the requested symbols are reported.
    let m3 = s.model(&a, &syms[2..]).expect("sat");
    assert_eq!(m3.values.keys().collect::<Vec<_>>(), [&syms[2]]);
    assert_eq!(
        s.model(&[a[0].clone(), Term::lt(x.clone(), int(0))], &syms),
        None
    );
}

#[test]
fn incremental_stack_reuses_the_common_prefix() {
    let mut s = solver();
    s.set_caching(false);
    s.set_slicing(false);
    let c: Vec<Term> = (0..4).map(|i| Term::gt(var("x"), int(i))).collect();
    s.check(&c[..3]);
    assert_eq!(s.inc.asserted(), &c[..3]);
    assert_eq!((s.inc.pushes, s.inc.pops), (3, 0));
    // Sibling: pop one, push one.
    let sibling = [c[0].clone(), c[1].clone(), Term::not(c[2].clone())];
    s.check(&sibling);
    assert_eq!((s.inc.pushes, s.inc.pops), (4, 1));
    // Child of the sibling: push one.
    let child = [
        sibling[0].clone(),
        sibling[1].clone(),
        sibling[2].clone(),
        c[3].clone(),
    ];
    assert_eq!(s.check(&child), SatResult::Unsat);
    assert_eq!((s.inc.pushes, s.inc.pops), (5, 1));
}

/// Path conditions longer than `PATH_KEY_LIMIT` (not keyed in the whole-path cache) along a
/// depth-first walk: every answer agrees with a fresh solver's, slicing still happens, and
/// an unsat conjunct deep down is found.
#[test]
fn long_path_conditions_agree_with_a_fresh_solver() {
    let mut s = solver();
    let mut pc: Vec<Term> = Vec::new();
    // 40 independent inputs, then a chain linking a few of them.
    for i in 0..40 {
        let c = Term::gt(var(&format!("a{i}")), int(i));
        pc.push(c);
        assert_eq!(s.check(&pc), SatResult::Sat);
    }
    let deep = pc.len();
    assert!(deep > PATH_KEY_LIMIT);
    let sliced = s.stats().sliced;
    // Siblings at depth 41: each extends the same 40-conjunct prefix.
    let siblings = [
        (Term::lt(var("a3"), int(3)), SatResult::Unsat),
        (Term::lt(var("a3"), var("a7")), SatResult::Sat),
        (Term::eq(var("a39"), int(39)), SatResult::Unsat),
        (Term::eq(var("a39"), int(40)), SatResult::Sat),
    ];
    for (c, want) in siblings {
        pc.truncate(deep);
        pc.push(c);
        assert_eq!(s.check(&pc), want, "{}", pc[deep]);
        assert_eq!(fresh(&pc), want);
    }
    assert!(s.stats().sliced > sliced, "the long conditions were sliced");
    // Deeper on the last sibling, then back up to a prefix: known satisfiable.
    pc.push(Term::lt(var("a39"), var("a0")));
    assert_eq!(s.check(&pc), fresh(&pc));
    assert_eq!(s.check(&pc[..deep]), SatResult::Sat);
    // A contradiction spread over two conjuncts far apart.
    let mut bad = pc[..deep].to_vec();
    bad.push(Term::lt(var("a0"), int(0)));
    assert_eq!(s.check(&bad), SatResult::Unsat);
    assert_eq!(fresh(&bad), SatResult::Unsat);
}

/// Persistent path conditions along a random depth-first walk (children, siblings, jumps
/// back up), interleaved with rebuilt lists and models, which move the Z3 stack away from
/// the path: every answer of `check_pc` agrees with a fresh solver's, and the debug build's
/// check of the Z3 prefix hint (`Incremental::sync`) holds throughout.
#[test]
fn persistent_path_conditions_agree_with_a_fresh_solver() {
    let mut rng = crate::base::rng::SplitMix64::new(13);
    let mut s = solver();
    let names = ["a", "b", "c"];
    let mut pc = PathCondition::default();
    let mut saved = vec![pc.clone()];
    for step in 0..150u64 {
        let pick = |rng: &mut crate::base::rng::SplitMix64| {
            let v = var(names[rng.below(3) as usize]);
            match rng.below(4) {
                0 => Term::gt(v, int(rng.below(8) as i64 - 4)),
                1 => Term::lt(v, var(names[rng.below(3) as usize])),
                2 => Term::eq(Term::index(seq("t"), int(rng.below(3) as i64)), v),
                _ => Term::lt(int(rng.below(4) as i64), Term::len(seq("t"))),
            }
        };
        pc = match rng.below(8) {
            0 => saved[rng.below(saved.len() as u64) as usize].clone(),
            1 | 2 => pc.below().push(pick(&mut rng)),
            _ => pc.push(pick(&mut rng)),
        };
        if pc.len() > 12 {
            pc = pc.below().below().below();
        }
        let got = s.check_pc(&pc);
        let want = fresh(&pc.to_vec());
        assert_eq!(got, want, "step {step}: {:?}", pc.to_vec());
        if got == SatResult::Sat {
            saved.push(pc.clone());
        } else {
            pc = pc.below();
        }
        match rng.below(6) {
            0 => assert_eq!(s.check(&pc.to_vec()), fresh(&pc.to_vec())),
            1 => assert!(s.model(&pc.to_vec(), &[sym("a", Sort::Int)]).is_some()),
            _ => {}
        }
    }
    assert!(s.stats().z3_calls > 0);
}
