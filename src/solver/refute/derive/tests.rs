//! Derived models are models (checked by evaluation and by Z3), and the minimal models
//! that start from them are as small as those that start from Z3's.

use num_bigint::BigInt;
use num_traits::Signed;

use super::super::Refuter;
use crate::base::rng::SplitMix64;
use crate::concrete::Value;
use crate::solver::{SatResult, Solver, SolverConfig};
use crate::term::{Model, Sort, Sym, Term};

fn x() -> Sym {
    Sym::new("x", Sort::Int)
}
fn y() -> Sym {
    Sym::new("y", Sort::Int)
}
fn t() -> Sym {
    Sym::new("t", Sort::Seq)
}
fn at(k: i64) -> Term {
    Term::index(Term::var(t()), Term::int(k))
}
fn len() -> Term {
    Term::len(Term::var(t()))
}
fn big(i: i64) -> BigInt {
    BigInt::from(i)
}

fn model(x: i64, t: &[i64]) -> Model {
    Model {
        values: [
            (self::x(), Value::Int(big(x))),
            (self::t(), Value::tuple(t.iter().map(|&v| big(v)).collect())),
        ]
        .into_iter()
        .collect(),
        ..Model::default()
    }
}

/// The linear search `find(x, t)` after `k` elements that differ from `x`: the path
/// condition of the leaf "found at `k`" (`found`) or "not found, `len(t) == k`".
fn search_leaf(k: i64, found: bool) -> Vec<Term> {
    let xv = Term::var(x());
    let mut pc = Vec::new();
    for j in 0..k {
        pc.push(Term::lt(Term::int(j), len()));
        pc.push(Term::ne(at(j), xv.clone()));
    }
    if found {
        pc.push(Term::lt(Term::int(k), len()));
        pc.push(Term::eq(at(k), xv));
    } else {
        pc.push(Term::not(Term::lt(Term::int(k), len())));
    }
    pc
}

fn is_model(m: &Model, pc: &[Term]) -> bool {
    pc.iter().all(|c| m.eval(c) == Some(Value::Bool(true)))
}

/// Z3 agrees that `m` is a model of `pc`: `pc` with every value of `m` fixed is sat.
fn z3_agrees(m: &Model, pc: &[Term]) -> bool {
    let mut query = pc.to_vec();
    for (s, v) in &m.values {
        match v {
            Value::Int(i) => query.push(Term::eq(Term::var(s.clone()), Term::int(i.clone()))),
            Value::Tuple(items) => {
                let var = Term::var(s.clone());
                query.push(Term::eq(
                    Term::len(var.clone()),
                    Term::int(items.len() as i64),
                ));
                for (k, e) in items.iter().enumerate() {
                    let at = Term::index(var.clone(), Term::int(k as i64));
                    query.push(Term::eq(at, Term::int(e.clone())));
                }
            }
            Value::Bool(_) => {}
        }
    }
    Solver::new(SolverConfig::default()).check(&query) == SatResult::Sat
}

#[test]
fn the_next_leaf_of_the_linear_search_is_derived_from_the_last_one() {
    // The leaf "found at 3" had x = 0, t = (1, 1, 1, 0); "found at 4" moves t[3] out of
    // x's way and grows the tuple by one zero.
    let pc = search_leaf(4, true);
    let seed = model(0, &[1, 1, 1, 0]);
    assert!(!is_model(&seed, &pc));
    let m = Refuter::new(&pc)
        .derive(&seed, &[x(), t()])
        .expect("derived");
    assert_eq!(m, model(0, &[1, 1, 1, 1, 0]));
    assert!(z3_agrees(&m, &pc));
    // And "not found, len(t) == 4" from that: the length goes back to 4.
    let pc = search_leaf(4, false);
    let m = Refuter::new(&pc).derive(&m, &[x(), t()]).expect("derived");
    assert!(is_model(&m, &pc), "{m:?}");
    assert_eq!(m.values[&t()], Value::tuple(vec![big(1); 4]));
}

#[test]
fn symbols_the_seed_does_not_give_start_from_their_defaults() {
    let pc = vec![Term::gt(Term::var(y()), Term::int(2))];
    let m = Refuter::new(&pc)
        .derive(&model(5, &[]), &[y()])
        .expect("derived");
    assert_eq!(m.values.len(), 1, "only the wanted symbols: {m:?}");
    assert_eq!(m.values[&y()], Value::Int(big(3)));
}

/// A random conjunct over x, y, len(t), t[0..3] (as in `refute::tests`).
fn conjunct(rng: &mut SplitMix64) -> Term {
    let atom = |rng: &mut SplitMix64| match rng.below(4) {
        0 => Term::var(x()),
        1 => Term::var(y()),
        2 => len(),
        _ => at(rng.below(3) as i64),
    };
    let a = atom(rng);
    let b = match rng.below(3) {
        0 => Term::int(rng.below(5) as i64 - 2),
        1 => atom(rng),
        _ => Term::add(atom(rng), Term::int(rng.below(3) as i64 - 1)),
    };
    match rng.below(5) {
        0 => Term::eq(a, b),
        1 => Term::ne(a, b),
        2 => Term::lt(a, b),
        3 => Term::le(a, b),
        _ => Term::gt(a, b),
    }
}

/// Whatever `derive` returns is a model: every conjunct evaluates to true, and Z3 says
/// the path condition is satisfiable with all its values fixed.
#[test]
fn every_derived_model_is_a_model() {
    let mut rng = SplitMix64::from_name("derive");
    let syms = [x(), y(), t()];
    let (mut derived, mut tried) = (0, 0);
    for _ in 0..400 {
        let mut pc: Vec<Term> = (0..1 + rng.below(6)).map(|_| conjunct(&mut rng)).collect();
        pc.push(Term::lt(Term::int(2), len()));
        let small = |rng: &mut SplitMix64| big(rng.below(7) as i64 - 3);
        let items: Vec<BigInt> = (0..rng.below(5)).map(|_| small(&mut rng)).collect();
        let seed = Model {
            values: [
                (x(), Value::Int(small(&mut rng))),
                (y(), Value::Int(small(&mut rng))),
                (t(), Value::tuple(items)),
            ]
            .into_iter()
            .collect(),
            ..Model::default()
        };
        tried += 1;
        if let Some(m) = Refuter::new(&pc).derive(&seed, &syms) {
            derived += 1;
            assert!(is_model(&m, &pc), "{pc:?} under {m:?} from {seed:?}");
            assert!(z3_agrees(&m, &pc), "{pc:?} under {m:?} from {seed:?}");
        }
    }
    assert!(derived > 100, "{derived} of {tried}");
    eprintln!("{derived} of {tried} derived");
}

/// The measures the minimisation makes minimal, in its order.
fn measures(m: &Model) -> (usize, BigInt, BigInt) {
    let Value::Tuple(items) = &m.values[&t()] else {
        panic!("no tuple in {m:?}")
    };
    let Value::Int(xv) = &m.values[&x()] else {
        panic!("no x in {m:?}")
    };
    let largest = items.iter().map(|e| e.abs()).max().unwrap_or_default();
    (items.len(), xv.abs(), largest)
}

/// The leaves of the linear search in depth-first order, with models from derived starts
/// (every leaf but the first) and from Z3's: each is a model of its leaf, and both are
/// equally small (length, |x|, largest |element|).
#[test]
fn deep_leaves_get_derived_models_as_small_as_z3s() {
    let mut derived = Solver::new(SolverConfig::default());
    derived.set_derive_from(0);
    let mut z3 = Solver::new(SolverConfig::default());
    z3.set_derive_from(usize::MAX);
    let syms = [x(), t()];
    let mut leaves = 0;
    for k in 0..40 {
        for found in [true, false] {
            let pc = search_leaf(k, found);
            let a = derived.model(&pc, &syms).expect("a model");
            let b = z3.model(&pc, &syms).expect("a model");
            assert!(is_model(&a, &pc), "leaf {k} {found}: {a:?}");
            assert_eq!(measures(&a), measures(&b), "leaf {k} {found}: {a:?} {b:?}");
            leaves += 1;
        }
    }
    assert_eq!(z3.derived_models(), 0);
    // Every leaf after the first starts from its neighbour's model.
    assert_eq!(derived.derived_models(), leaves - 1);
}

/// The quick evaluation of comparisons (and of `and`/`or` of them) gives what the general
/// evaluator gives, unknown atoms and elements beyond the length included.
#[test]
fn the_quick_comparison_agrees_with_the_evaluator() {
    use super::super::{compare_atoms, eval_atoms_in_full, Atom};
    let mut rng = SplitMix64::from_name("quick");
    let (mut quick, mut junctions) = (0, 0);
    for _ in 0..2000 {
        let c = conjunct(&mut rng);
        let c = if rng.below(4) == 0 { Term::not(c) } else { c };
        // `and`/`or` of comparisons too (the linear search's `k < len(t) and t[k] != x`).
        let c = match rng.below(4) {
            0 => Term::and(c, conjunct(&mut rng)),
            1 => Term::not(Term::or(c, conjunct(&mut rng))),
            _ => c,
        };
        let mut known: Vec<(Atom, BigInt)> = Vec::new();
        for a in [Atom::Int(x()), Atom::Int(y()), Atom::Len(t())]
            .into_iter()
            .chain((0..3).map(|k| Atom::Elem(t(), k)))
        {
            if rng.below(5) > 0 {
                let v = rng.below(7) as i64 - if matches!(a, Atom::Len(_)) { 0 } else { 3 };
                known.push((a, big(v)));
            }
        }
        let value = |a: &Atom| known.iter().find(|(b, _)| b == a).map(|(_, v)| v.clone());
        if let Some(q) = compare_atoms(&c, &value) {
            quick += 1;
            let inner = match c.kind() {
                crate::term::TermKind::Not(a) => a,
                _ => &c,
            };
            if matches!(
                inner.kind(),
                crate::term::TermKind::And(_) | crate::term::TermKind::Or(_)
            ) {
                junctions += 1;
            }
            assert_eq!(q, eval_atoms_in_full(&c, &value), "{c} under {known:?}");
        }
    }
    assert!(quick > 1000, "{quick}");
    assert!(junctions > 300, "{junctions}");
}

/// A derived start is a model, so the leaf's path is not checked first: on the linear
/// search's leaves in depth-first order, whose probes the refuter answers, a derived
/// minimal model costs no Z3 call at all (each cost a check before).
#[test]
fn derived_leaf_models_of_the_linear_search_ask_z3_nothing() {
    let mut s = Solver::new(SolverConfig::default());
    s.set_derive_from(0);
    let syms = [x(), t()];
    let (mut leaves, mut asked) = (0, 0);
    for k in 0..40 {
        for found in [true, false] {
            let pc = search_leaf(k, found);
            let before = s.stats().z3_calls;
            let m = s.model(&pc, &syms).expect("a model");
            assert!(is_model(&m, &pc), "leaf {k} {found}: {m:?}");
            if leaves > 0 {
                asked += s.stats().z3_calls - before;
            }
            leaves += 1;
        }
    }
    assert_eq!(s.derived_models(), leaves - 1);
    assert_eq!(asked, 0, "Z3 calls for {} derived models", leaves - 1);
}

/// When a probe of a minimisation from a derived start does need Z3 (`t[y] == x`, a
/// symbolic index, is not the refuter's), the path is checked then, and the minimum is
/// the one a start from Z3's model reaches.
#[test]
fn a_derived_start_asks_z3_when_a_probe_needs_it() {
    let (xv, yv) = (Term::var(x()), Term::var(y()));
    let path = |shortest: i64| {
        vec![
            Term::lt(Term::int(shortest - 1), len()),
            Term::ge(yv.clone(), Term::int(0)),
            Term::lt(yv.clone(), len()),
            Term::eq(Term::index(Term::var(t()), yv.clone()), xv.clone()),
            Term::gt(xv.clone(), Term::int(5)),
        ]
    };
    let syms = [x(), y(), t()];
    let mut s = Solver::new(SolverConfig::default());
    s.set_derive_from(0);
    // The seed: a model of the path with `len(t) >= 2`.
    let seed = s.model(&path(2), &syms).expect("a model");
    assert_eq!(s.derived_models(), 0);
    let Value::Tuple(items) = &seed.values[&t()] else {
        panic!("{seed:?}")
    };
    assert_eq!(items.len(), 2);
    // The seed is a model of the path with `len(t) >= 1`: derived as it is, then shortened
    // by Z3's probes.
    let pc = path(1);
    let before = s.stats().z3_calls;
    let m = s.model(&pc, &syms).expect("a model");
    assert_eq!(s.derived_models(), 1);
    // (the minimisation's probes are not counted as calls: the check made for them is)
    assert_eq!(s.stats().z3_calls - before, 1, "the path's check");
    assert!(is_model(&m, &pc), "{m:?}");
    assert!(z3_agrees(&m, &pc), "{m:?}");
    let mut z3 = Solver::new(SolverConfig::default());
    z3.set_derive_from(usize::MAX);
    let want = z3.model(&pc, &syms).expect("a model");
    assert_eq!(measures(&m), measures(&want), "{m:?} {want:?}");
    // Shortened by Z3 (a length probe is never repaired by evaluation).
    assert_eq!(measures(&m).0, 1);
}

/// Leaf after leaf of the linear search (depth-first: found at 0, 1, ..., then not found
/// from the deepest up), a start that knows which conjuncts the seed's own path shares
/// (`derive_known`: they are not evaluated) derives the model that evaluating them all
/// derives, and it is a model.
#[test]
fn a_known_prefix_derives_the_same_model() {
    let syms = [x(), t()];
    let mut leaves: Vec<Vec<Term>> = (0..30).map(|k| search_leaf(k, true)).collect();
    leaves.extend((0..30).rev().map(|k| search_leaf(k, false)));
    let (mut seed, mut seed_pc) = (model(0, &[0]), search_leaf(0, true));
    let mut skipped = 0;
    for pc in &leaves[1..] {
        let known = pc.iter().zip(&seed_pc).take_while(|(a, b)| a == b).count();
        skipped += known;
        let r = Refuter::new(pc);
        let all = r.derive(&seed, &syms).expect("derived");
        let fast = r.derive_known(&seed, &syms, known).expect("derived");
        assert_eq!(fast, all, "{pc:?}");
        assert!(is_model(&fast, pc), "{pc:?} under {fast:?}");
        (seed, seed_pc) = (fast, pc.clone());
    }
    assert!(skipped > 1000, "{skipped}");
}
