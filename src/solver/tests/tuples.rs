//! Tuples: the solver's encoding (a length and an element function, see `translate.rs`)
//! on hand-picked formulas, and against the `(Seq Int)` SMT-LIB text on random ones.

use proptest::prelude::*;

use super::*;

#[test]
fn tuple_encoding() {
    let mut s = solver();
    let (t, u, i, b) = (seq("t"), seq("u"), var("i"), bvar("b"));
    let len = |x: &Term| Term::len(x.clone());
    let at = |x: &Term, k: Term| Term::index(x.clone(), k);
    // Lengths are never negative.
    assert_eq!(s.check(&[Term::lt(len(&t), int(0))]), SatResult::Unsat);
    assert_eq!(
        s.check(&[Term::lt(len(&Term::concat(t.clone(), u.clone())), len(&t))]),
        SatResult::Unsat
    );
    // Equality of two symbolic tuples: lengths and elements.
    let eq = Term::eq(t.clone(), u.clone());
    assert_eq!(
        s.check(&[eq.clone(), Term::ne(len(&t), len(&u))]),
        SatResult::Unsat
    );
    assert_eq!(
        s.check(&[
            eq.clone(),
            Term::gt(len(&t), int(3)),
            Term::ne(at(&t, int(3)), at(&u, int(3)))
        ]),
        SatResult::Unsat
    );
    assert_eq!(
        s.check(&[eq.clone(), Term::gt(len(&t), int(3))]),
        SatResult::Sat
    );
    let two = |x: &Term| Term::eq(len(x), int(2));
    let pc = [
        Term::ne(t.clone(), u.clone()),
        two(&t),
        two(&u),
        Term::eq(at(&t, int(0)), at(&u, int(0))),
    ];
    let syms = [sym("t", Sort::Seq), sym("u", Sort::Seq)];
    let m = s.model(&pc, &syms).expect("sat");
    assert_ne!(m.get(&syms[0]), m.get(&syms[1]));
    let pc = [
        pc[0].clone(),
        pc[1].clone(),
        pc[2].clone(),
        pc[3].clone(),
        Term::eq(at(&t, int(-1)), at(&u, int(1))),
    ];
    assert_eq!(s.check(&pc), SatResult::Unsat);
    // Concatenation with a symbolic index: ((1,) + t)[len(t)] is t[-1].
    let one_t = Term::concat(Term::tuple(vec![int(1)]), t.clone());
    let pc = [
        Term::ge(len(&t), int(1)),
        Term::eq(i.clone(), len(&t)),
        Term::ne(at(&one_t, i.clone()), at(&t, int(-1))),
    ];
    assert_eq!(s.check(&pc), SatResult::Unsat);
    let pc = [
        Term::eq(
            u.clone(),
            Term::concat(t.clone(), Term::tuple(vec![int(7)])),
        ),
        Term::ne(at(&u, int(-1)), int(7)),
    ];
    assert_eq!(s.check(&pc), SatResult::Unsat);
    // A display against a symbolic tuple.
    let pc = [
        Term::eq(Term::tuple(vec![i.clone(), int(2)]), t.clone()),
        Term::eq(at(&t, int(0)), int(9)),
    ];
    let m = s
        .model(&pc, &[sym("t", Sort::Seq), sym("i", Sort::Int)])
        .expect("sat");
    assert_eq!(
        m.get(&sym("t", Sort::Seq)),
        Value::tuple(vec![9.into(), 2.into()])
    );
    assert_eq!(m.get(&sym("i", Sort::Int)), Value::Int(9.into()));
    // Conditional tuples.
    let c = Term::ite(b.clone(), t.clone(), Term::tuple(vec![int(1), int(2)]));
    assert_eq!(
        s.check(&[Term::eq(at(&c, int(0)), int(5)), Term::not(b.clone())]),
        SatResult::Unsat
    );
    assert_eq!(
        s.check(&[Term::eq(len(&c), int(3)), Term::not(b.clone())]),
        SatResult::Unsat
    );
    assert_eq!(
        s.check(&[Term::eq(len(&c), int(3)), Term::eq(at(&c, int(-1)), int(4))]),
        SatResult::Sat
    );
    // t + u == u + t with different first elements.
    let tu = Term::concat(t.clone(), u.clone());
    let ut = Term::concat(u.clone(), t.clone());
    let pc = [
        Term::eq(tu, ut),
        Term::gt(len(&t), int(0)),
        Term::gt(len(&u), int(0)),
        Term::ne(at(&t, int(0)), at(&u, int(0))),
    ];
    let r = s.check(&pc);
    assert_ne!(
        r,
        SatResult::Sat,
        "t + u == u + t forces equal first elements"
    );
}

/// Random tuple formulas: the solver's encoding (length + element function) and the
/// SMT-LIB text's `(Seq Int)` encoding, parsed by Z3, agree.
mod encodings_agree {
    use super::*;

    fn tuple_term(k: u8, a: i8) -> Term {
        let (t, u) = (seq("t"), seq("u"));
        let c = int(i64::from(a % 4));
        match k % 6 {
            0 => t,
            1 => u,
            2 => Term::concat(t, Term::tuple(vec![c])),
            3 => Term::concat(Term::tuple(vec![var("x"), c]), u),
            4 => Term::concat(t, u),
            _ => Term::tuple(vec![c, var("x")]),
        }
    }

    fn atom(kind: u8, k1: u8, k2: u8, a: i8) -> Term {
        let (s1, s2) = (tuple_term(k1, a), tuple_term(k2, a.wrapping_add(1)));
        let c = int(i64::from(a % 5));
        let i = var("i");
        match kind % 7 {
            0 => Term::eq(s1, s2),
            1 => Term::ne(s1, s2),
            2 => Term::lt(Term::len(s1), Term::add(Term::len(s2), c)),
            3 => Term::and(
                Term::in_bounds(s1.clone(), c.clone()),
                Term::eq(Term::index(s1, c), var("x")),
            ),
            4 => Term::and(
                Term::in_bounds(s1.clone(), i.clone()),
                Term::ne(Term::index(s1, i), c),
            ),
            5 => Term::eq(Term::len(s1), c),
            _ => Term::and(
                Term::in_bounds(s1.clone(), int(-1)),
                Term::gt(Term::index(s1, int(-1)), c),
            ),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        #[test]
        fn solver_agrees_with_smt2_seq(atoms in proptest::collection::vec(
            (any::<u8>(), any::<u8>(), any::<u8>(), any::<i8>()), 1..5)) {
            let pc: Vec<Term> = atoms.iter().map(|&(k, a, b, c)| atom(k, a, b, c)).collect();
            let ours = fresh(&pc);
            let theirs = smt2_check(&pc);
            let same = matches!(
                (&ours, theirs),
                (SatResult::Unknown(_), _)
                    | (_, z3::SatResult::Unknown)
                    | (SatResult::Sat, z3::SatResult::Sat)
                    | (SatResult::Unsat, z3::SatResult::Unsat)
            );
            prop_assert!(same, "pc = {:?}: ours {:?}, Seq text {:?}", pc, ours, theirs);
            if ours == SatResult::Sat {
                let syms = [sym("t", Sort::Seq), sym("u", Sort::Seq), sym("x", Sort::Int), sym("i", Sort::Int)];
                let m = solver().model(&pc, &syms).expect("a model");
                for c in &pc {
                    prop_assert_eq!(m.eval(c), Some(Value::Bool(true)), "{} under {:?}", c, m);
                }
            }
        }
    }
}

/// A slice with step 1 in SMT-LIB (`seq.extract` with Python's clamping written out)
/// means what Python's slice means, for bounds of every sign, constant and symbolic; so
/// does `x in` it.
#[test]
fn smt2_slices_agree_with_semantics() {
    let (a, b, t) = (var("a"), var("b"), seq("t"));
    let items: Vec<BigInt> = [10, 20, 30, 40].into_iter().map(BigInt::from).collect();
    let tup = Term::eq(
        t.clone(),
        Term::tuple(items.iter().cloned().map(Term::int).collect()),
    );
    let bounds = [
        None,
        Some(-5i64),
        Some(-2),
        Some(0),
        Some(1),
        Some(3),
        Some(6),
    ];
    for lo in bounds {
        for hi in bounds {
            let (blo, bhi) = (lo.map(BigInt::from), hi.map(BigInt::from));
            let want = semantics::slice(&items, blo.as_ref(), bhi.as_ref(), None).unwrap();
            let want = Term::tuple(want.into_iter().map(Term::int).collect());
            let mut pc = vec![tup.clone()];
            let mut part = |v: &Term, k: Option<i64>| {
                k.map(|k| {
                    pc.push(Term::eq(v.clone(), int(k)));
                    v.clone()
                })
            };
            let (l, h) = (part(&a, lo), part(&b, hi));
            let sliced = Term::slice(t.clone(), l, h, int(1));
            let whole = lo.is_none() && hi.is_none();
            assert_eq!(sliced.to_smt2().contains("seq.extract"), !whole, "{sliced}");
            let mut wrong = pc.clone();
            wrong.push(Term::ne(sliced.clone(), want));
            assert_eq!(smt2_check(&wrong), z3::SatResult::Unsat, "{sliced}");
            let mut past = pc.clone();
            past.push(Term::member(int(50), sliced.clone()));
            assert_eq!(smt2_check(&past), z3::SatResult::Unsat, "50 in {sliced}");
        }
    }
}
