//! Programs built by hand, independent of the parser.

use num_bigint::BigInt;

use super::*;

pub(super) fn sp(start: usize, end: usize) -> Span {
    Span::new(start, end)
}

pub(super) fn id(name: &str, at: usize) -> Ident {
    Ident {
        name: name.into(),
        span: sp(at, at + name.len()),
    }
}

pub(super) fn ex(kind: ExprKind, at: usize) -> Expr {
    Expr {
        kind,
        span: sp(at, at + 1),
    }
}

pub(super) fn int(v: i64, at: usize) -> Expr {
    ex(ExprKind::Int(BigInt::from(v)), at)
}

pub(super) fn name(n: &str, at: usize) -> Expr {
    Expr {
        kind: ExprKind::Name(n.into()),
        span: sp(at, at + n.len()),
    }
}

pub(super) fn st(kind: StmtKind, at: usize) -> Stmt {
    Stmt {
        kind,
        span: sp(at, at + 1),
    }
}

pub(super) fn assign(target: &str, value: Expr, at: usize) -> Stmt {
    st(
        StmtKind::Assign {
            target: id(target, at),
            ann: None,
            value,
        },
        at,
    )
}

#[test]
fn ast_module_with_input_and_assignments() {
    // x: int / y = x + 1 / if y < 3: y = 0
    let program = Program {
        preconditions: Vec::new(),
        body: vec![
            st(
                StmtKind::Declare {
                    name: id("x", 0),
                    ty: Type::Int,
                },
                0,
            ),
            assign(
                "y",
                ex(
                    ExprKind::Binary {
                        op: BinOp::Add,
                        lhs: Box::new(name("x", 11)),
                        rhs: Box::new(int(1, 15)),
                    },
                    11,
                ),
                7,
            ),
            st(
                StmtKind::If {
                    branches: vec![(
                        ex(
                            ExprKind::Compare {
                                first: Box::new(name("y", 20)),
                                rest: vec![(crate::lang::ast::CmpOp::Lt, int(3, 24))],
                            },
                            20,
                        ),
                        vec![assign("y", int(0, 35), 31)],
                    )],
                    orelse: None,
                },
                17,
            ),
        ],
    };
    let info = check(&program).unwrap();
    assert_eq!(info.globals.get("x"), Some(&Type::Int));
    assert_eq!(info.globals.get("y"), Some(&Type::Int));
}

#[test]
fn ast_condition_must_be_bool() {
    // x: int / assert x
    let program = Program {
        preconditions: Vec::new(),
        body: vec![
            st(
                StmtKind::Declare {
                    name: id("x", 0),
                    ty: Type::Int,
                },
                0,
            ),
            st(StmtKind::Assert(name("x", 14)), 7),
        ],
    };
    let d = check(&program).unwrap_err();
    assert_eq!(d.len(), 1);
    assert_eq!(
        d[0].message,
        "mismatched types: expected `bool`, found `int`"
    );
    assert_eq!(d[0].span, Some(sp(14, 15)));
    assert!(has_note(&d[0], "write `x != 0`"));
}

#[test]
fn ast_variable_read_before_assignment_in_loop_is_inferred() {
    // while True: / if c: t = t + (1,) / t = ()    -- t's type comes from a later assignment
    let tuple_of_one = ex(ExprKind::Tuple(vec![int(1, 40)]), 39);
    let program = Program {
        preconditions: Vec::new(),
        body: vec![
            st(
                StmtKind::Declare {
                    name: id("c", 0),
                    ty: Type::Bool,
                },
                0,
            ),
            st(
                StmtKind::While {
                    cond: ex(ExprKind::Bool(true), 14),
                    invariants: vec![],
                    body: vec![
                        assign(
                            "u",
                            ex(
                                ExprKind::Binary {
                                    op: BinOp::Add,
                                    lhs: Box::new(name("t", 30)),
                                    rhs: Box::new(tuple_of_one),
                                },
                                30,
                            ),
                            26,
                        ),
                        assign("t", ex(ExprKind::Tuple(vec![]), 60), 56),
                        st(StmtKind::Break, 70),
                    ],
                    orelse: None,
                },
                8,
            ),
        ],
    };
    let info = check(&program).unwrap();
    assert_eq!(info.globals.get("t"), Some(&Type::Tuple));
    assert_eq!(info.globals.get("u"), Some(&Type::Tuple));
}

#[test]
fn ast_function_locals_and_missing_return() {
    // def f(a: int) -> int: / b = a * 2        (no return)
    let f = FunctionDef {
        name: id("f", 4),
        params: vec![Param {
            name: id("a", 6),
            ty: Type::Int,
        }],
        ret: Some(Type::Int),
        body: vec![assign(
            "b",
            ex(
                ExprKind::Binary {
                    op: BinOp::Mul,
                    lhs: Box::new(name("a", 30)),
                    rhs: Box::new(int(2, 34)),
                },
                30,
            ),
            26,
        )],
        predicate: false,
        contract: Default::default(),
    };
    let mut program = Program {
        preconditions: Vec::new(),
        body: vec![st(StmtKind::FunctionDef(f.clone()), 0)],
    };
    let d = check(&program).unwrap_err();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].message, "missing return at end of `f`");
    assert_eq!(d[0].span, Some(sp(4, 5)));

    let mut f = f;
    f.body.push(st(StmtKind::Return(Some(name("b", 45))), 38));
    program.body = vec![st(StmtKind::FunctionDef(f), 0)];
    let info = check(&program).unwrap();
    let locals = &info.locals["f"];
    assert_eq!(locals.get("a"), Some(&Type::Int));
    assert_eq!(locals.get("b"), Some(&Type::Int));
    assert_eq!(info.functions["f"].ret, Some(Type::Int));
}

#[test]
fn ast_break_outside_loop_and_unknown_except() {
    let program = Program {
        preconditions: Vec::new(),
        body: vec![
            st(StmtKind::Break, 0),
            st(
                StmtKind::Try {
                    body: vec![st(StmtKind::Pass, 10)],
                    handlers: vec![crate::lang::ast::Handler {
                        class: Some(id("IndexErorr", 27)),
                        body: vec![st(StmtKind::Pass, 45)],
                        span: sp(20, 38),
                    }],
                },
                6,
            ),
        ],
    };
    let d = check(&program).unwrap_err();
    let msgs: Vec<_> = d.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        msgs,
        [
            "`break` outside of a loop",
            "cannot find exception class `IndexErorr`"
        ]
    );
    assert!(has_note(&d[1], "`IndexError`"));
}
