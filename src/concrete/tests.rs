//! Unit tests of the interpreter on hand-built ASTs (no parser needed). Expected values
//! were checked with python3; whole programs are tested through the CLI in tests/it/exec.rs.

use num_bigint::BigInt;

use super::*;
use crate::base::ExcClass;
use crate::lang::ast::*;

/// Where an exception of these tests is raised: at the expression (CPython's traceback
/// position), and the hand-built expressions here have no spans of their own.
const EXPR: Span = Span { start: 0, end: 0 };

fn sp(k: usize) -> Span {
    Span::new(k, k + 1)
}
fn ex(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::default(),
    }
}
fn int(i: i64) -> Expr {
    ex(ExprKind::Int(BigInt::from(i)))
}
fn tru() -> Expr {
    ex(ExprKind::Bool(true))
}
fn name(n: &str) -> Expr {
    ex(ExprKind::Name(n.into()))
}
fn id(n: &str) -> Ident {
    Ident {
        name: n.into(),
        span: Span::default(),
    }
}
fn bin(op: BinOp, l: Expr, r: Expr) -> Expr {
    ex(ExprKind::Binary {
        op,
        lhs: Box::new(l),
        rhs: Box::new(r),
    })
}
fn cmp(l: Expr, rest: Vec<(CmpOp, Expr)>) -> Expr {
    ex(ExprKind::Compare {
        first: Box::new(l),
        rest,
    })
}
fn call(f: &str, args: Vec<Expr>) -> Expr {
    ex(ExprKind::Call { func: id(f), args })
}
fn st(k: usize, kind: StmtKind) -> Stmt {
    Stmt { kind, span: sp(k) }
}
fn assign(k: usize, x: &str, e: Expr) -> Stmt {
    st(
        k,
        StmtKind::Assign {
            target: id(x),
            ann: None,
            value: e,
        },
    )
}
fn ret(k: usize, e: Expr) -> Stmt {
    st(k, StmtKind::Return(Some(e)))
}
fn def(k: usize, f: &str, params: &[&str], body: Vec<Stmt>) -> Stmt {
    st(
        k,
        StmtKind::FunctionDef(FunctionDef {
            name: id(f),
            params: params
                .iter()
                .map(|p| Param {
                    name: id(p),
                    ty: Type::Int,
                })
                .collect(),
            ret: Some(Type::Int),
            body,
            predicate: false,
            contract: Default::default(),
        }),
    )
}
fn program(body: Vec<Stmt>) -> Program {
    Program {
        body,
        preconditions: Vec::new(),
    }
}
fn run_module(p: &Program) -> RunResult {
    run(
        p,
        &TypeInfo::default(),
        None,
        &BTreeMap::new(),
        &Config::default(),
    )
    .unwrap()
}
fn get(r: &RunResult, x: &str) -> Value {
    r.store[x].clone()
}
fn ival(i: i64) -> Value {
    Value::Int(BigInt::from(i))
}

#[test]
fn floor_division_and_modulo() {
    let p = program(vec![
        assign(0, "a", bin(BinOp::FloorDiv, int(1), int(-2))),
        assign(1, "b", bin(BinOp::Mod, int(1), int(-2))),
        assign(2, "c", bin(BinOp::FloorDiv, int(-7), int(2))),
        assign(3, "d", bin(BinOp::Mod, int(-7), int(0))),
    ]);
    let r = run_module(&p);
    assert_eq!(get(&r, "a"), ival(-1));
    assert_eq!(get(&r, "b"), ival(-1));
    assert_eq!(get(&r, "c"), ival(-4));
    assert_eq!(r.outcome, Outcome::Exception(ExcClass::ZeroDivisionError));
    assert_eq!(r.exception_at, Some(EXPR));
    assert_eq!(r.trace, vec![sp(0), sp(1), sp(2), sp(3)]);
}

#[test]
fn recursion_limit_counts_the_module_frame() {
    // def f(n): if n == 0: return 0 / return f(n - 1) + 1 — CPython: f(998) ok, f(999) fails.
    let body = vec![
        st(
            1,
            StmtKind::If {
                branches: vec![(
                    cmp(name("n"), vec![(CmpOp::Eq, int(0))]),
                    vec![ret(2, int(0))],
                )],
                orelse: None,
            },
        ),
        ret(
            3,
            bin(
                BinOp::Add,
                call("f", vec![bin(BinOp::Sub, name("n"), int(1))]),
                int(1),
            ),
        ),
    ];
    let run_with = |n: i64| {
        let p = program(vec![
            def(0, "f", &["n"], body.clone()),
            assign(4, "r", call("f", vec![int(n)])),
        ]);
        // Deep recursion needs a big stack, as in the CLI.
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || {
                let r = run_module(&p);
                (r.outcome, r.store.get("r").map(Value::to_string))
            })
            .unwrap()
            .join()
            .unwrap()
    };
    assert_eq!(run_with(998), (Outcome::Normal, Some("998".into())));
    assert_eq!(
        run_with(999),
        (Outcome::Exception(ExcClass::RecursionError), None)
    );
}

#[test]
fn locals_globals_and_unbound_names() {
    // g = 10; def f(x): y = x + g; return y   → f(1) == 11, caller's y untouched.
    // def h(x): z = z + 1 …                   → UnboundLocalError
    let p = program(vec![
        assign(0, "g", int(10)),
        assign(1, "y", int(5)),
        def(
            2,
            "f",
            &["x"],
            vec![
                assign(3, "y", bin(BinOp::Add, name("x"), name("g"))),
                ret(4, name("y")),
            ],
        ),
        assign(5, "r", call("f", vec![int(1)])),
        def(
            6,
            "h",
            &["x"],
            vec![
                assign(7, "z", bin(BinOp::Add, name("z"), int(1))),
                ret(8, int(0)),
            ],
        ),
        assign(9, "s", call("h", vec![int(1)])),
    ]);
    let r = run_module(&p);
    assert_eq!(get(&r, "r"), ival(11));
    assert_eq!(get(&r, "y"), ival(5));
    assert_eq!(r.outcome, Outcome::Exception(ExcClass::UnboundLocalError));
    assert_eq!(r.exception_at, Some(EXPR));
    assert!(!r.store.contains_key("z") && !r.store.contains_key("s"));
}

#[test]
fn call_before_def_and_global_not_yet_assigned_are_name_errors() {
    let p = program(vec![
        assign(0, "r", call("f", vec![])),
        def(1, "f", &[], vec![ret(2, int(1))]),
    ]);
    let r = run_module(&p);
    assert_eq!(r.outcome, Outcome::Exception(ExcClass::NameError));
    assert_eq!(r.exception_at, Some(EXPR));

    let p = program(vec![
        def(0, "f", &[], vec![ret(1, name("later"))]),
        assign(2, "r", call("f", vec![])),
        assign(3, "later", int(1)),
    ]);
    let r = run_module(&p);
    assert_eq!(r.outcome, Outcome::Exception(ExcClass::NameError));
    assert_eq!(r.exception_at, Some(EXPR));
}

#[test]
fn try_except_follows_the_class_hierarchy() {
    let try_with = |class: Option<&str>| {
        program(vec![
            assign(0, "x", int(0)),
            st(
                1,
                StmtKind::Try {
                    body: vec![assign(2, "x", bin(BinOp::FloorDiv, int(1), int(0)))],
                    handlers: vec![Handler {
                        class: class.map(id),
                        body: vec![assign(4, "x", int(7))],
                        span: sp(3),
                    }],
                },
            ),
        ])
    };
    for caught in [None, Some("ArithmeticError"), Some("Exception")] {
        let r = run_module(&try_with(caught));
        assert_eq!((r.outcome, get(&r, "x")), (Outcome::Normal, ival(7)));
        assert_eq!(r.trace, vec![sp(0), sp(1), sp(2), sp(3), sp(4)]);
    }
    let r = run_module(&try_with(Some("LookupError")));
    assert_eq!(r.outcome, Outcome::Exception(ExcClass::ZeroDivisionError));
    assert_eq!(r.exception_at, Some(EXPR));
}

#[test]
fn while_else_break_and_invariants() {
    // i = 0; while i < 5: [invariant i <= 5] i += 1; if i == k: break  else: e = 1
    let prog = |k: i64, inv: Expr| {
        program(vec![
            assign(0, "i", int(0)),
            st(
                1,
                StmtKind::While {
                    cond: cmp(name("i"), vec![(CmpOp::Lt, int(5))]),
                    invariants: vec![inv],
                    body: vec![
                        st(
                            2,
                            StmtKind::AugAssign {
                                target: id("i"),
                                op: BinOp::Add,
                                value: int(1),
                            },
                        ),
                        st(
                            3,
                            StmtKind::If {
                                branches: vec![(
                                    cmp(name("i"), vec![(CmpOp::Eq, int(k))]),
                                    vec![st(4, StmtKind::Break)],
                                )],
                                orelse: None,
                            },
                        ),
                    ],
                    orelse: Some(vec![assign(5, "e", int(1))]),
                },
            ),
        ])
    };
    let le5 = || cmp(name("i"), vec![(CmpOp::Le, int(5))]);
    let r = run_module(&prog(3, le5()));
    assert_eq!((get(&r, "i"), r.store.get("e")), (ival(3), None));
    let r = run_module(&prog(9, le5()));
    assert_eq!((get(&r, "i"), get(&r, "e")), (ival(5), ival(1)));
    let mut lt3 = cmp(name("i"), vec![(CmpOp::Lt, int(3))]);
    lt3.span = sp(9);
    let r = run_module(&prog(9, lt3));
    assert_eq!(r.outcome, Outcome::Exception(ExcClass::AssertionError));
    assert_eq!((r.exception_at, get(&r, "i")), (Some(sp(9)), ival(3)));
    assert!(r.invariant_failure);
}

#[test]
fn loop_scope_and_assume() {
    // The invariant at sp(5): a failure is reported there, as an invariant failure.
    let scope = |inv: bool, exit: StmtKind| {
        let mut inv = ex(ExprKind::Bool(inv));
        inv.span = sp(5);
        program(vec![st(
            0,
            StmtKind::LoopScope {
                inv,
                body: vec![st(1, exit)],
            },
        )])
    };
    assert_eq!(
        run_module(&scope(true, StmtKind::Continue)).outcome,
        Outcome::Halt
    );
    let r = run_module(&scope(false, StmtKind::Continue));
    assert_eq!(r.outcome, Outcome::Exception(ExcClass::AssertionError));
    assert_eq!((r.exception_at, r.invariant_failure), (Some(sp(5)), true));
    assert_eq!(
        run_module(&scope(false, StmtKind::Break)).outcome,
        Outcome::Normal
    );
    let p = program(vec![
        st(0, StmtKind::Assume(ex(ExprKind::Bool(false)))),
        assign(1, "x", int(1)),
    ]);
    let r = run_module(&p);
    assert_eq!((r.outcome, r.store.len()), (Outcome::Infeasible, 0));
}

#[test]
fn short_circuit_and_chains_evaluate_once() {
    // ok = False and 1 // 0 == 0;  c = f() < 5 < f()  with f's body traced once per call
    let and = ex(ExprKind::BoolOp {
        op: BoolOp::And,
        lhs: Box::new(ex(ExprKind::Bool(false))),
        rhs: Box::new(cmp(
            bin(BinOp::FloorDiv, int(1), int(0)),
            vec![(CmpOp::Eq, int(0))],
        )),
    });
    let p = program(vec![
        assign(0, "ok", and),
        def(1, "f", &[], vec![ret(2, int(3))]),
        assign(
            3,
            "c",
            cmp(
                call("f", vec![]),
                vec![(CmpOp::Lt, int(5)), (CmpOp::Lt, call("f", vec![]))],
            ),
        ),
        assign(
            4,
            "d",
            cmp(
                int(9),
                vec![
                    (CmpOp::Lt, call("f", vec![])),
                    (CmpOp::Lt, call("f", vec![])),
                ],
            ),
        ),
    ]);
    let r = run_module(&p);
    assert_eq!(get(&r, "ok"), Value::Bool(false));
    assert_eq!(get(&r, "c"), Value::Bool(false));
    assert_eq!(get(&r, "d"), Value::Bool(false));
    let calls = r.trace.iter().filter(|s| **s == sp(2)).count();
    assert_eq!(calls, 3);
}

#[test]
fn tuples_indexing_and_quantifiers() {
    let t = ex(ExprKind::Tuple(vec![int(10), int(20), int(30)]));
    let idx = |i: i64| {
        ex(ExprKind::Index {
            base: Box::new(name("t")),
            index: Box::new(int(i)),
        })
    };
    let all_pos = ex(ExprKind::Quantifier {
        kind: Quantifier::All,
        var: id("k"),
        lo: None,
        hi: Box::new(call("len", vec![name("t")])),
        body: Box::new(cmp(
            ex(ExprKind::Index {
                base: Box::new(name("t")),
                index: Box::new(name("k")),
            }),
            vec![(CmpOp::Gt, int(0))],
        )),
    });
    let p = program(vec![
        assign(
            0,
            "t",
            bin(BinOp::Add, t, ex(ExprKind::Tuple(vec![int(40)]))),
        ),
        assign(1, "a", idx(-1)),
        assign(2, "q", all_pos),
        assign(
            3,
            "m",
            call("max", vec![idx(0), call("abs", vec![int(-50)])]),
        ),
        assign(4, "b", idx(-5)),
    ]);
    let r = run_module(&p);
    assert_eq!(get(&r, "a"), ival(40));
    assert_eq!(get(&r, "q"), Value::Bool(true));
    assert_eq!(get(&r, "m"), ival(50));
    assert_eq!(r.outcome, Outcome::Exception(ExcClass::IndexError));
    assert_eq!(r.exception_at, Some(EXPR));
    assert_eq!(get(&r, "t").to_string(), "(10, 20, 30, 40)");
}

#[test]
fn method_frame_assigns_its_result() {
    let p = program(vec![
        st(
            0,
            StmtKind::MethodFrame {
                result: id("r"),
                body: vec![
                    assign(1, "a", int(4)),
                    ret(2, bin(BinOp::Mul, name("a"), int(2))),
                ],
            },
        ),
        assign(3, "after", tru()),
    ]);
    let r = run_module(&p);
    assert_eq!(
        (get(&r, "r"), get(&r, "after")),
        (ival(8), Value::Bool(true))
    );
}

#[test]
fn entry_runs_and_input_errors() {
    let p = program(vec![
        assign(0, "g", int(100)),
        def(
            1,
            "f",
            &["x"],
            vec![
                assign(2, "y", bin(BinOp::Add, name("x"), name("g"))),
                ret(3, name("y")),
            ],
        ),
    ]);
    let info = TypeInfo::default();
    let cfg = Config::default();
    let inputs: BTreeMap<String, Value> = [("x".to_string(), ival(5))].into();
    // The top level runs first: the constant `g` is set, the function reads it.
    let r = run(&p, &info, Some("f"), &inputs, &cfg).unwrap();
    assert_eq!(r.outcome, Outcome::Return);
    assert_eq!(r.return_value, Some(ival(105)));
    assert_eq!(r.trace, vec![sp(0), sp(1), sp(2), sp(3)]);

    // The top level reads an unbound name: the import fails, `f` is never called.
    let p = program(vec![
        assign(0, "g", name("inp")),
        def(
            1,
            "f",
            &["x"],
            vec![
                assign(2, "y", bin(BinOp::Add, name("x"), name("g"))),
                ret(3, name("y")),
            ],
        ),
    ]);
    let r = run(&p, &info, Some("f"), &inputs, &cfg).unwrap();
    assert_eq!(r.outcome, Outcome::Exception(ExcClass::NameError));
    assert_eq!((r.exception_at, r.return_value), (Some(EXPR), None));
    assert_eq!(r.store, BTreeMap::new());
    assert_eq!(r.trace, vec![sp(0)]);

    let p = program(vec![
        def(
            1,
            "f",
            &["x"],
            vec![
                assign(2, "y", bin(BinOp::Add, name("x"), int(100))),
                ret(3, name("y")),
            ],
        ),
        assign(0, "r", call("f", vec![int(7)])),
    ]);
    let r = run(&p, &info, Some("f"), &inputs, &cfg).unwrap();
    assert_eq!(r.outcome, Outcome::Return);
    assert_eq!(r.return_value, Some(ival(105)));
    assert_eq!(
        r.store,
        [("x".into(), ival(5)), ("y".into(), ival(105))].into()
    );

    let err = run(&p, &info, Some("nope"), &inputs, &cfg).unwrap_err();
    assert!(err.message.contains("no function `nope`"), "{err:?}");
    let err = run(&p, &info, Some("f"), &BTreeMap::new(), &cfg).unwrap_err();
    assert!(err.message.contains("missing input `x`"), "{err:?}");
    let bad: BTreeMap<String, Value> = [("x".to_string(), Value::Bool(true))].into();
    let err = run(&p, &info, Some("f"), &bad, &cfg).unwrap_err();
    assert!(
        err.message.contains("must be an int, got a bool"),
        "{err:?}"
    );
    let err = run(&p, &info, None, &inputs, &cfg).unwrap_err();
    assert!(err.message.contains("unknown input `x`"), "{err:?}");
}

#[test]
fn step_limit_stops_infinite_loops() {
    let p = program(vec![st(
        0,
        StmtKind::While {
            cond: tru(),
            invariants: vec![],
            body: vec![st(1, StmtKind::Pass)],
            orelse: None,
        },
    )]);
    let cfg = Config {
        max_steps: 1000,
        ..Config::default()
    };
    let r = run(&p, &TypeInfo::default(), None, &BTreeMap::new(), &cfg).unwrap();
    assert_eq!(r.outcome, Outcome::StepLimit);
    assert_eq!(r.trace.len(), 1000);
}

#[test]
fn stray_break_is_a_diagnostic() {
    let p = program(vec![def(0, "f", &[], vec![st(1, StmtKind::Break)]), {
        assign(2, "x", call("f", vec![]))
    }]);
    let info = TypeInfo::default();
    let err = run(&p, &info, None, &BTreeMap::new(), &Config::default()).unwrap_err();
    assert_eq!(err.span, Some(sp(1)));
}
