//! Hard queries in a solver process (`solver/isolate.rs`): the wire format, the answers, and
//! what a late or cancelled process becomes. The "process" here answers in this process
//! through [`super::super::isolate::serve`] (the real one is the binary: tests/it/solver_limits.rs).

use std::cell::Cell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::super::isolate::{serve, wire, Asked, Isolator, Served, END};
use super::*;

/// Answers with `serve` (a solver of its own), counting the requests.
struct Here {
    solver: Option<Served>,
    asked: Rc<Cell<usize>>,
}

impl Isolator for Here {
    fn ask(&mut self, request: &str, _: Option<Instant>, _: Option<&AtomicBool>) -> Asked {
        self.asked.set(self.asked.get() + 1);
        let request = request
            .strip_suffix(&format!("{END}\n"))
            .expect("ends with END");
        let answer = serve(request, &mut self.solver);
        let mut lines: Vec<String> = answer.lines().map(str::to_string).collect();
        assert_eq!(lines.pop().as_deref(), Some(END));
        Asked::Answer(lines)
    }
}

/// Never answers: what a process that ignores interrupts looks like once it is killed at
/// the deadline, or when the cancel flag is set.
struct Stuck;

impl Isolator for Stuck {
    fn ask(&mut self, _: &str, _: Option<Instant>, cancel: Option<&AtomicBool>) -> Asked {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            Asked::Cancelled
        } else {
            Asked::Late
        }
    }
}

fn isolated(asked: &Rc<Cell<usize>>) -> Solver {
    let mut s = solver();
    s.isolation.set_process(Box::new(Here {
        solver: None,
        asked: asked.clone(),
    }));
    s
}

/// Every kind of term, with sharing, big and negative numbers and names with spaces.
fn zoo() -> Vec<Term> {
    let (x, y, t) = (var("x"), var("y"), seq("t"));
    let k = sym("k 1", Sort::Int);
    let big = Term::int("-123456789012345678901234567890".parse::<BigInt>().unwrap());
    let prod = Term::mul(x.clone(), y.clone());
    vec![
        Term::gt(
            Term::add(prod.clone(), big),
            Term::sub(prod.clone(), int(-3)),
        ),
        Term::or(
            Term::eq(
                Term::floor_div(x.clone(), y.clone()),
                Term::modulo(y.clone(), x.clone()),
            ),
            Term::and(bvar("b"), Term::not(Term::le(Term::abs(x.clone()), int(7)))),
        ),
        Term::ne(
            Term::ite(
                bvar("b"),
                Term::min(x.clone(), y.clone()),
                Term::max(x.clone(), int(2)),
            ),
            Term::neg(y.clone()),
        ),
        Term::eq(
            Term::concat(Term::seq_unit(x.clone()), t.clone()),
            Term::concat(t.clone(), Term::seq_empty()),
        ),
        Term::forall(
            k.clone(),
            int(0),
            Term::len(t.clone()),
            Term::lt(Term::index(t.clone(), Term::var(k.clone())), x.clone()),
        ),
        Term::exists(
            k.clone(),
            y.clone(),
            Term::len(t.clone()),
            Term::ge(Term::index(t.clone(), Term::var(k)), prod),
        ),
        Term::bool(true),
    ]
}

#[test]
fn requests_carry_the_terms_and_symbols_exactly() {
    let terms = zoo();
    let syms = vec![
        sym("x", Sort::Int),
        sym("b", Sort::Bool),
        sym("t", Sort::Seq),
    ];
    let text = wire::request(&wire::Ask::Model, Some(250), true, &syms, &terms);
    let back = wire::parse_request(&text).expect("parses");
    assert_eq!(back.ask, wire::Ask::Model);
    assert_eq!(back.timeout_ms, Some(250));
    assert!(back.minimize);
    assert_eq!(back.syms, syms);
    assert_eq!(back.terms, terms);
    // Malformed requests are refused with a reason, never a panic.
    for bad in [
        "",
        "hello",
        &text.replace("nodes", "nodez"),
        &text.replace("roots", "roots 999999"),
        &text.replace("add ", "add 99999 "),
        &text.replace("v int x", "v float x"),
    ] {
        assert!(wire::parse_request(bad).is_err(), "{bad}");
    }
    let answer = serve("garbage", &mut None);
    assert!(answer.starts_with("unknown bad request"), "{answer}");
}

/// Hard queries go to the process and get the answers a solver in this process gives;
/// linear ones stay here.
#[test]
fn hard_queries_are_answered_by_the_process_as_here() {
    let asked = Rc::new(Cell::new(0));
    let mut s = isolated(&asked);
    let (x, y) = (var("x"), var("y"));
    let linear = [Term::gt(x.clone(), int(0)), Term::lt(y.clone(), x.clone())];
    assert_eq!(s.check(&linear), SatResult::Sat);
    assert_eq!(asked.get(), 0, "linear queries stay in this process");
    let square = |v: &Term| Term::mul(v.clone(), v.clone());
    let cases = [
        vec![Term::eq(square(&x), int(49)), Term::gt(x.clone(), int(0))],
        vec![Term::eq(square(&x), int(50))],
        vec![
            Term::eq(Term::add(square(&x), square(&y)), int(25)),
            Term::gt(y.clone(), int(3)),
        ],
        vec![
            Term::eq(Term::modulo(x.clone(), y.clone()), int(3)),
            Term::eq(y.clone(), int(2)),
        ],
    ];
    let mut here = solver();
    for pc in &cases {
        let before = asked.get();
        assert_eq!(s.check(pc), here.check(pc), "{pc:?}");
        assert!(
            asked.get() > before,
            "a hard query was asked of the process: {pc:?}"
        );
        let syms = [sym("x", Sort::Int), sym("y", Sort::Int)];
        assert_eq!(s.model(pc, &syms), here.model(pc, &syms), "{pc:?}");
    }
    let m = s.model(&cases[0], &[sym("x", Sort::Int)]).expect("sat");
    assert_eq!(m.get(&sym("x", Sort::Int)), Value::Int(7.into()));
}

/// A process that does not answer in time is a timeout; one cancelled is an
/// interruption, which is not cached (the next check asks again).
#[test]
fn a_late_or_cancelled_process_is_a_timeout_or_an_interruption() {
    let x = var("x");
    let hard = [Term::eq(Term::mul(x.clone(), x.clone()), int(49))];
    let mut s = solver();
    s.isolation.set_process(Box::new(Stuck));
    assert_eq!(s.check(&hard), SatResult::Unknown("timeout".into()));
    assert_eq!(
        s.try_model(&hard, &[sym("x", Sort::Int)]),
        Err(SatResult::Unknown("timeout".into()))
    );
    let flag = Arc::new(AtomicBool::new(true));
    let mut s = solver();
    s.set_cancel(flag.clone());
    s.isolation.set_process(Box::new(Stuck));
    let hard2 = [Term::eq(Term::mul(x.clone(), x.clone()), int(64))];
    assert!(s.check(&hard2).is_interrupted());
    flag.store(false, Ordering::Relaxed);
    assert_eq!(
        s.check(&hard2),
        SatResult::Unknown("timeout".into()),
        "asked again"
    );
}

/// Unsat cores of hard parts (`why`) come from the process too, the same as here.
#[test]
fn cores_of_hard_parts_are_the_processs() {
    let asked = Rc::new(Cell::new(0));
    let mut s = isolated(&asked);
    let (x, y) = (var("x"), var("y"));
    let parts = [
        Term::gt(y.clone(), int(0)),
        Term::eq(Term::mul(x.clone(), x.clone()), int(50)),
        Term::lt(x.clone(), int(100)),
    ];
    let budget = std::time::Duration::from_secs(5);
    let here = solver().core(&parts, &[1], budget, None);
    assert!(
        matches!(here, CoreAnswer::Unsat { ref core, .. } if core == &[1]),
        "{here:?}"
    );
    assert_eq!(s.core(&parts, &[1], budget, None), here);
    assert_eq!(asked.get(), 1);
    let sat = [Term::eq(Term::mul(x.clone(), y.clone()), int(6))];
    assert_eq!(s.core(&sat, &[], budget, None), CoreAnswer::Sat);
    // A core naming a part that does not exist is refused, not trusted.
    assert!(super::super::isolate::wire::parse_core_answer(&["core 1 7".into()], 3).is_err());
    let mut stuck = solver();
    stuck.isolation.set_process(Box::new(Stuck));
    assert_eq!(
        stuck.core(&parts, &[1], budget, None),
        CoreAnswer::Unknown("timeout".into())
    );
}

/// A model with a tuple too long to materialise crosses the wire as its length and named
/// elements, never as a default `()` (issue 22 items 2 and 9).
#[test]
fn long_tuples_cross_the_wire_as_they_are() {
    use crate::term::model::LongTuple;
    let (t, x) = (sym("t", Sort::Seq), sym("x", Sort::Int));
    let mut m = crate::term::Model::default();
    m.values.insert(x.clone(), Value::Int(BigInt::from(-3)));
    let len: BigInt = BigInt::from(1u64 << 32) + 1;
    let long = LongTuple::new(
        len.clone(),
        vec![(len.clone() - 1, BigInt::from(5))],
        Some(BigInt::from(0)),
    );
    m.long.insert(t.clone(), long);
    let syms = [t, x];
    let text = wire::answer(&Ok(Some(m.clone())), &syms);
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let (r, back) = wire::parse_answer(&lines, &syms).expect("parses");
    assert_eq!(r, SatResult::Sat);
    assert_eq!(back, Some(m));
}
