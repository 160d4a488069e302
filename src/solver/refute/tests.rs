//! The refuter proves only what Z3 proves: each refutation is checked against Z3.

use num_bigint::BigInt;

use super::{Atom, Refuter};
use crate::base::rng::SplitMix64;
use crate::concrete::Value;
use crate::solver::{SatResult, Solver, SolverConfig};
use crate::term::Model;
use crate::term::{Sort, Sym, Term};

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

/// The path condition of the linear search's leaf "found at 3".
fn found_at_3() -> Vec<Term> {
    let xv = Term::var(x());
    let mut pc = Vec::new();
    for k in 0..3 {
        pc.push(Term::lt(Term::int(k), len()));
        pc.push(Term::ne(at(k), xv.clone()));
    }
    pc.push(Term::lt(Term::int(3), len()));
    pc.push(Term::eq(at(3), xv));
    pc
}

#[test]
fn the_linear_searchs_probes_are_refuted_once_x_and_the_length_are_fixed() {
    let pc = found_at_3();
    let mut r = Refuter::new(&pc);
    // Lengths 0..=3 contradict `3 < len(t)`; 4 does not.
    assert!(r.refutes_range(&Atom::Len(t()), &big(0), &big(3)));
    assert!(!r.refutes_range(&Atom::Len(t()), &big(0), &big(4)));
    // Nothing about elements is known before x and the length are fixed.
    assert!(!r.refutes(&[(Atom::Elem(t(), 1), big(0))]));
    r.fix(Atom::Len(t()), big(4));
    r.fix(Atom::Int(x()), big(0));
    assert!(r.refutes(&[(Atom::Elem(t(), 1), big(0))]));
    assert!(!r.refutes(&[(Atom::Elem(t(), 1), big(5))]));
    // `t[3] == x` holds with t[3] = 0.
    assert!(!r.refutes(&[(Atom::Elem(t(), 3), big(0))]));
    // All zeros at once: refuted by any `t[k] != x`.
    let zeros: Vec<_> = (0..4).map(|k| (Atom::Elem(t(), k), big(0))).collect();
    assert!(r.refutes(&zeros));
}

#[test]
fn conjuncts_that_are_not_made_of_atoms_are_never_used() {
    let xv = Term::var(x());
    let i = Term::var(y());
    // A symbolic index, a Boolean symbol, a whole-tuple comparison.
    let pc = vec![
        Term::ne(Term::index(Term::var(t()), i), xv.clone()),
        Term::var(Sym::new("b", Sort::Bool)),
        Term::eq(Term::var(t()), Term::var(Sym::new("u", Sort::Seq))),
    ];
    let mut r = Refuter::new(&pc);
    r.fix(Atom::Int(x()), big(0));
    r.fix(Atom::Len(t()), big(2));
    for k in 0..2 {
        assert!(!r.refutes(&[
            (Atom::Elem(t(), k), big(0)),
            (Atom::Int(y()), big(k as i64))
        ]));
    }
    assert!(!r.refutes_range(&Atom::Int(y()), &big(-5), &big(5)));
}

/// A random conjunct over x, y, len(t), t[0..3].
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

/// Whenever the refuter says a probe is impossible, Z3 agrees: the conjuncts, the fixed
/// values and the probe are unsatisfiable together.
#[test]
fn every_refutation_is_confirmed_by_z3() {
    let mut rng = SplitMix64::from_name("refute");
    let (mut refuted, mut tried) = (0, 0);
    for _ in 0..1000 {
        let pc: Vec<Term> = (0..1 + rng.below(5)).map(|_| conjunct(&mut rng)).collect();
        let mut r = Refuter::new(&pc);
        let mut facts = Vec::new();
        let n = rng.below(4) as i64;
        if rng.below(2) == 0 {
            r.fix(Atom::Len(t()), big(n));
            facts.push(Term::eq(len(), Term::int(n)));
        }
        if rng.below(2) == 0 {
            let v = rng.below(3) as i64 - 1;
            r.fix(Atom::Int(x()), big(v));
            facts.push(Term::eq(Term::var(x()), Term::int(v)));
        }
        let k = rng.below(3);
        let v = rng.below(3) as i64 - 1;
        let (probe, term) = match rng.below(3) {
            0 => (Atom::Elem(t(), k as usize), at(k as i64)),
            1 => (Atom::Int(y()), Term::var(y())),
            _ => (Atom::Len(t()), len()),
        };
        let mut query = pc.clone();
        query.extend(facts);
        // A length probe is a range `len(t) <= hi`, the others one value.
        let says = if matches!(probe, Atom::Len(_)) {
            let hi = 1 + rng.below(3) as i64;
            query.push(Term::le(term, Term::int(hi)));
            r.refutes_range(&probe, &big(0), &big(hi))
        } else {
            query.push(Term::eq(term, Term::int(v)));
            r.refutes(&[(probe, big(v))])
        };
        tried += 1;
        if says {
            refuted += 1;
            let got = Solver::new(SolverConfig::default()).check(&query);
            assert_eq!(got, SatResult::Unsat, "{query:?}");
        }
    }
    // The generator makes refutable probes often enough for the test to mean something.
    assert!(refuted > 100, "{refuted} of {tried}");
    eprintln!("{refuted} of {tried} refuted");
}

#[test]
fn bounds_refute_ranges_too_wide_to_try_one_by_one() {
    let pc = vec![
        Term::lt(Term::int(700), len()),
        Term::gt(Term::var(x()), Term::int(1000)),
    ];
    let r = Refuter::new(&pc);
    assert!(r.refutes_range(&Atom::Len(t()), &big(0), &big(700)));
    assert!(!r.refutes_range(&Atom::Len(t()), &big(0), &big(701)));
    assert!(r.refutes_range(&Atom::Int(x()), &big(-1000), &big(1000)));
    assert!(!r.refutes_range(&Atom::Int(x()), &big(-1001), &big(1001)));
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

/// `x` is moved to 0 with the element tied to it, and the element that then equals it
/// moves out of the way: a model of every conjunct, without Z3.
#[test]
fn repair_moves_x_its_tied_element_and_the_element_in_the_way() {
    let pc = found_at_3();
    let best = model(2, &[0, 1, -1, 2]);
    assert!(pc.iter().all(|c| best.eval(c) == Some(Value::Bool(true))));
    let r = Refuter::new(&pc);
    let m = r
        .repair(&best, &[Atom::Int(x())], &big(1))
        .expect("a repair");
    assert_eq!(m, model(0, &[1, 1, -1, 0]));
    // Elements are not carried along: t[0] = 0 would need x moved.
    assert_eq!(r.repair(&m, &[Atom::Elem(t(), 1)], &big(0)), None);
}

/// Whatever `repair` returns is a model of every conjunct.
#[test]
fn every_repair_is_a_model() {
    let mut rng = SplitMix64::from_name("repair");
    let syms = [x(), y(), t()];
    let (mut repaired, mut tried) = (0, 0);
    for _ in 0..400 {
        let mut pc: Vec<Term> = (0..1 + rng.below(5)).map(|_| conjunct(&mut rng)).collect();
        // Keep indices meaningful, as the engine does.
        pc.push(Term::lt(Term::int(2), len()));
        let mut s = Solver::new(SolverConfig::default());
        s.set_minimize(false);
        let Some(best) = s.model(&pc, &syms) else {
            continue;
        };
        let r = Refuter::new(&pc);
        let targets: Vec<Atom> = match rng.below(3) {
            0 => vec![Atom::Int(x())],
            1 => vec![Atom::Int(y())],
            _ => (0..3).map(|k| Atom::Elem(t(), k)).collect(),
        };
        let mid = big(rng.below(3) as i64);
        tried += 1;
        if let Some(m) = r.repair(&best, &targets, &mid) {
            repaired += 1;
            for c in &pc {
                assert_eq!(
                    m.eval(c),
                    Some(Value::Bool(true)),
                    "{c} under {m:?} from {best:?}"
                );
            }
        }
    }
    assert!(repaired > 50, "{repaired} of {tried}");
    eprintln!("{repaired} of {tried} repaired");
}
