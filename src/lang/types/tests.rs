use num_bigint::BigInt;

use super::*;
use crate::lang::ast::{FunctionDef, Ident, Param, Stmt, StmtKind};
use crate::lang::Span;

// ----- helpers ------------------------------------------------------------------------

fn parse(src: &str) -> Program {
    match crate::lang::parse(src) {
        Ok(p) => p,
        Err(d) => panic!("test program does not parse: {d:?}\n{src}"),
    }
}

/// Check a program that must be accepted.
fn ok(src: &str) -> TypeInfo {
    match check(&parse(src)) {
        Ok(info) => info,
        Err(d) => panic!("expected no errors, got {d:#?}\n{src}"),
    }
}

/// Check a program that must be rejected; the errors' messages.
fn errs(src: &str) -> Vec<Diagnostic> {
    match check(&parse(src)) {
        Ok(_) => panic!("expected errors, the program was accepted:\n{src}"),
        Err(d) => d,
    }
}

/// The messages of a rejected program's errors.
fn messages(src: &str) -> Vec<String> {
    errs(src).into_iter().map(|d| d.message).collect()
}

/// Exactly one error, with this message; the diagnostic for further checks.
fn one(src: &str, message: &str) -> Diagnostic {
    let mut d = errs(src);
    assert_eq!(
        d.iter().map(|d| d.message.as_str()).collect::<Vec<_>>(),
        vec![message],
        "\n{src}"
    );
    d.remove(0)
}

/// The source text a diagnostic points at.
fn at<'s>(src: &'s str, d: &Diagnostic) -> &'s str {
    let s = d.span.expect("a located diagnostic");
    &src[s.start..s.end]
}

fn has_note(d: &Diagnostic, text: &str) -> bool {
    d.notes.iter().any(|n| n.contains(text))
}

// ----- hand-built ASTs (independent of the parser) ------------------------------------

fn sp(start: usize, end: usize) -> Span {
    Span::new(start, end)
}

fn id(name: &str, at: usize) -> Ident {
    Ident {
        name: name.into(),
        span: sp(at, at + name.len()),
    }
}

fn ex(kind: ExprKind, at: usize) -> Expr {
    Expr {
        kind,
        span: sp(at, at + 1),
    }
}

fn int(v: i64, at: usize) -> Expr {
    ex(ExprKind::Int(BigInt::from(v)), at)
}

fn name(n: &str, at: usize) -> Expr {
    Expr {
        kind: ExprKind::Name(n.into()),
        span: sp(at, at + n.len()),
    }
}

fn st(kind: StmtKind, at: usize) -> Stmt {
    Stmt {
        kind,
        span: sp(at, at + 1),
    }
}

fn assign(target: &str, value: Expr, at: usize) -> Stmt {
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
    };
    let mut program = Program {
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

// ----- accepted programs --------------------------------------------------------------

#[test]
fn accepts_linear_search() {
    let info = ok("
def find(t: tuple, x: int) -> int:
    i = 0
    while i < len(t):
        if t[i] == x:
            return i
        i += 1
    return -1

t: tuple
x: int
r = find(t, x)
assert r == -1 or t[r] == x
");
    assert_eq!(info.globals["r"], Type::Int);
    assert_eq!(info.globals["t"], Type::Tuple);
    assert_eq!(info.locals["find"]["i"], Type::Int);
    assert_eq!(info.locals["find"].len(), 3);
    assert_eq!(
        info.functions["find"],
        Signature {
            params: vec![("t".into(), Type::Tuple), ("x".into(), Type::Int)],
            ret: Some(Type::Int),
            predicate: false
        }
    );
}

#[test]
fn accepts_all_expression_forms() {
    let info = ok("
x: int
t: tuple
b: bool
y = -x + +3 * (x // 2) % 5 - abs(x) + min(x, 1) + max(1, 2)
u = t + (x,) + () + tuple() + (1, 2, 3,)
c = not b and (x < y <= 3 or x == y) and t != u and b == True
n = len(u) + u[-1] + u[x]
q = all(u[k] <= u[k + 1] for k in range(len(u) - 1)) or any(u[k] == 0 for k in range(3))
");
    assert_eq!(info.globals["u"], Type::Tuple);
    assert_eq!(info.globals["c"], Type::Bool);
    assert_eq!(info.globals["q"], Type::Bool);
    assert_eq!(info.globals["n"], Type::Int);
}

#[test]
fn infers_type_of_variable_read_before_its_first_assignment() {
    let info = ok("
n: int
i = 0
while i < n:
    if i > 0:
        s = s + (last,)
    else:
        s = ()
    last = i
    i += 1
");
    assert_eq!(info.globals["s"], Type::Tuple);
    assert_eq!(info.globals["last"], Type::Int);
}

#[test]
fn function_reads_module_variable_assigned_after_def() {
    let info = ok("
def scale(x: int) -> int:
    return x * factor

factor = 3
y = scale(2)
");
    assert_eq!(info.globals["factor"], Type::Int);
    assert!(!info.locals["scale"].contains_key("factor"));
}

#[test]
fn accepts_recursion_and_forward_calls() {
    ok("
def even(n: int) -> bool:
    if n == 0:
        return True
    return odd(n - 1)

def odd(n: int) -> bool:
    if n == 0:
        return False
    else:
        return even(n - 1)

assert even(4)
");
}

#[test]
fn accepts_procedures_called_as_statements() {
    let info = ok("
def check_positive(x: int) -> None:
    assert x > 0
    return

def log(x: int):
    pass

check_positive(3)
log(1)
");
    assert_eq!(info.functions["log"].ret, None);
    assert_eq!(info.functions["check_positive"].ret, None);
}

#[test]
fn accepts_returns_in_all_branches_try_and_while_true() {
    ok("
def sign(x: int) -> int:
    if x < 0:
        return -1
    elif x == 0:
        return 0
    else:
        return 1

def safe_div(a: int, b: int) -> int:
    try:
        return a // b
    except ZeroDivisionError:
        return 0

def first_even(t: tuple) -> int:
    i = 0
    while True:
        if t[i] % 2 == 0:
            return t[i]
        i += 1
");
}

#[test]
fn accepts_try_except_with_known_classes() {
    ok("
t: tuple
try:
    x = t[3] // t[0]
except ArithmeticError:
    x = 0
except LookupError:
    x = 1
except:
    x = 2
");
}

#[test]
fn accepts_predicates_with_quantifiers() {
    let info = ok("
@predicate
def sorted_(t: tuple) -> bool:
    return all(t[k] <= t[k + 1] for k in range(len(t) - 1))

@predicate
def is_sorted_from(t: tuple, i: int) -> bool:
    return 0 <= i and sorted_(t) and any(t[k] >= i for k in range(i, len(t)))

t: tuple
assume sorted_(t)
");
    assert!(info.functions["sorted_"].predicate);
}

#[test]
fn accepts_verification_statements() {
    let info = ok("
x: int
t: tuple
havoc x
assume x > 0
method-frame(result=r):
    a = x
    if a < 0:
        return -a
    return a
i = 0
while i < len(t):
    invariant 0 <= i <= len(t)
    invariant r >= 0
    i += 1
loop-scope(inv=i >= 0):
    if i > 10:
        break
    i = i + 1
    continue
");
    assert_eq!(info.globals["r"], Type::Int);
    assert_eq!(info.globals["a"], Type::Int);
}

#[test]
fn accepts_method_frame_inside_function() {
    let info = ok("
def f(x: int) -> int:
    method-frame(result=y):
        if x > 0:
            return True
        return False
    if y:
        return 1
    return 0
");
    assert_eq!(info.locals["f"]["y"], Type::Bool);
}

#[test]
fn accepts_annotated_assignment_and_reassigned_input() {
    let info = ok("
x: int
x = x + 1
flag: bool = x > 0
t: tuple = (x, 1)
");
    assert_eq!(info.globals["flag"], Type::Bool);
}

#[test]
fn quantifier_variable_is_local_to_the_body() {
    // `k` is an int inside the quantifier even though a module variable `k` is a tuple.
    ok("
k = (1, 2)
b = all(k >= 0 for k in range(len(k)))
");
}

#[test]
fn type_of_helpers_give_expression_types() {
    let program = parse(
        "
def f(t: tuple) -> int:
    n = len(t)
    return n
x = 1
",
    );
    let info = check(&program).unwrap();
    let e = crate::lang::parse_expr("t + (n,)").unwrap();
    assert_eq!(info.expr_type(Some("f"), &e), Some(Type::Tuple));
    let e = crate::lang::parse_expr("x < 2 and True").unwrap();
    assert_eq!(info.expr_type(None, &e), Some(Type::Bool));
    assert_eq!(info.var_type(Some("f"), "x"), Some(Type::Int));
    assert_eq!(info.var_type(None, "n"), None);
    assert_eq!(info.signature("min").unwrap().params.len(), 2);
}

// ----- rejected programs --------------------------------------------------------------

#[test]
fn condition_must_be_bool() {
    let src = "x: int\nif x:\n    pass\n";
    let d = one(src, "mismatched types: expected `bool`, found `int`");
    assert_eq!(at(src, &d), "x");
    assert!(has_note(&d, "write `x != 0`"));

    let src = "t: tuple\nwhile t:\n    pass\n";
    let d = one(src, "mismatched types: expected `bool`, found `tuple`");
    assert!(has_note(&d, "len(t) != 0"));
}

#[test]
fn operands_of_and_or_not_must_be_bool() {
    let m = messages("x: int\nb = x and True\nc = not x\nd = False or 1\n");
    assert_eq!(m, vec!["mismatched types: expected `bool`, found `int`"; 3]);
}

#[test]
fn bool_in_arithmetic_is_rejected() {
    let src = "b: bool\ny = b + 1\n";
    let d = one(src, "mismatched types: expected `int`, found `bool`");
    assert_eq!(at(src, &d), "b");
    assert!(has_note(&d, "`bool` is not a number"));
    let m = messages("b: bool\ny = -b * 2\n");
    assert_eq!(m, ["mismatched types: expected `int`, found `bool`"]);
}

#[test]
fn tuple_plus_int_is_rejected_with_help() {
    let src = "t: tuple\nx: int\nu = t + x\n";
    let d = one(src, "cannot add `int` to `tuple`");
    assert_eq!(at(src, &d), "t + x");
    assert!(has_note(&d, "write `t + (x,)`"));
    one(
        "t: tuple\nu = t * 2\n",
        "mismatched types: expected `int`, found `tuple`",
    );
}

#[test]
fn nested_tuples_are_rejected() {
    let src = "t = (1, (2, 3))\n";
    let d = one(src, "nested tuples are not supported in minipy");
    assert_eq!(at(src, &d), "(2, 3)");
    one(
        "t = (1, True)\n",
        "mismatched types: expected `int`, found `bool`",
    );
}

#[test]
fn comparisons_are_typed() {
    one(
        "t: tuple\nb = t < (1,)\n",
        "tuple comparison with `<` is not supported in minipy",
    );
    one(
        "t: tuple\nb = t == 1\n",
        "cannot compare `tuple` with `int`",
    );
    one(
        "x: int\nb = 0 <= x < True\n",
        "mismatched types: expected `int`, found `bool`",
    );
}

#[test]
fn indexing_is_typed() {
    let src = "x: int\ny = x[0]\n";
    let d = one(src, "cannot index into a value of type `int`");
    assert_eq!(at(src, &d), "x");
    one(
        "t: tuple\ny = t[True]\n",
        "mismatched types: expected `int`, found `bool`",
    );
}

#[test]
fn variable_cannot_change_type() {
    let src = "x = 1\nx = (1, 2)\n";
    let d = one(src, "`x` was `int`, cannot assign a `tuple`");
    assert_eq!(at(src, &d), "(1, 2)");
    one(
        "x: int\nx = True\n",
        "`x` was `int`, cannot assign a `bool`",
    );
    one(
        "x: bool\nx += 1\n",
        "cannot use `+=` on `x`, which is a `bool`",
    );
    one(
        "t: tuple\nt -= 1\n",
        "cannot use `-=` on `t`, which is a `tuple`",
    );
    let d = one(
        "t: tuple\nt += 1\n",
        "mismatched types: expected `tuple`, found `int`",
    );
    assert!(has_note(&d, "t += (1,)"));
}

#[test]
fn annotations_must_match() {
    one(
        "x: int = True\n",
        "mismatched types: expected `int`, found `bool`",
    );
    one(
        "x: int\nx: tuple = ()\n",
        "`x` was `int`, cannot annotate it as `tuple`",
    );
    one(
        "x: int\nx: bool\n",
        "`x` was `int`, cannot declare it as `bool`",
    );
    one(
        "x: int\nx: int\n",
        "the input `x` is declared more than once",
    );
}

#[test]
fn undeclared_name_suggests_input_declaration() {
    let src = "y = x + 1\nz = x * 2\n";
    let d = one(src, "cannot find value `x` in this scope");
    assert_eq!(d.span, Some(Span::new(4, 5)));
    assert!(has_note(&d, "declare it as an input: `x: int`"));

    let d = one("y = t[0]\n", "cannot find value `t` in this scope");
    assert!(has_note(&d, "`t: tuple`"));

    let d = one("if b:\n    pass\n", "cannot find value `b` in this scope");
    assert!(has_note(&d, "`b: bool`"));
}

#[test]
fn undeclared_name_suggests_similar_name() {
    let d = one(
        "count = 0\ny = coutn + 1\n",
        "cannot find value `coutn` in this scope",
    );
    assert!(has_note(&d, "similar name exists: `count`"));
}

#[test]
fn undeclared_name_in_function() {
    let src = "def f(a: int) -> int:\n    return a + b\n";
    let d = one(src, "cannot find value `b` in this scope");
    assert_eq!(at(src, &d), "b");
    assert!(has_note(&d, "add a parameter `b: int` to `f`"));
}

#[test]
fn augmented_assignment_needs_an_existing_variable() {
    let d = one("x += 1\n", "cannot find value `x` in this scope");
    assert!(has_note(&d, "`x: int`"));
}

#[test]
fn functions_cannot_assign_module_variables() {
    let src = "n = 0\ndef inc() -> None:\n    n += 1\n";
    let d = one(
        src,
        "cannot assign to module variable `n` inside function `inc`",
    );
    assert_eq!(at(src, &d), "n");
}

#[test]
fn return_types_are_checked() {
    let src = "def f(x: int) -> bool:\n    return x\n";
    let d = one(src, "mismatched types: expected `bool`, found `int`");
    assert_eq!(at(src, &d), "x");
    one(
        "def f(x: int) -> int:\n    return\n",
        "`return` without a value in `f`, which returns `int`",
    );
    let d = one(
        "def p(x: int):\n    return x\n",
        "cannot return a value from procedure `p`",
    );
    assert!(has_note(&d, "`-> int`"));
}

#[test]
fn missing_return_at_end() {
    let src = "def f(x: int) -> int:\n    if x > 0:\n        return 1\n";
    let d = one(src, "missing return at end of `f`");
    assert_eq!(at(src, &d), "f");
    one(
        "def g(x: int) -> int:\n    while True:\n        if x > 0:\n            break\n        return 1\n",
        "missing return at end of `g`",
    );
    one(
        "def h(x: int) -> int:\n    try:\n        return 1 // x\n    except ZeroDivisionError:\n        pass\n",
        "missing return at end of `h`",
    );
}

#[test]
fn calls_check_arity_and_argument_types() {
    let src = "def f(a: int, t: tuple) -> int:\n    return a\ny = f(1)\n";
    let d = one(src, "`f` takes 2 arguments but 1 argument was supplied");
    assert_eq!(at(src, &d), "f(1)");
    let src = "def f(a: int, t: tuple) -> int:\n    return a\ny = f(1, 2)\n";
    let d = one(src, "mismatched types: expected `tuple`, found `int`");
    assert_eq!(at(src, &d), "2");
    assert!(has_note(&d, "parameter `t` of `f` is a `tuple`"));
}

#[test]
fn builtin_calls_are_checked() {
    one(
        "x: int\ny = len(x)\n",
        "mismatched types: expected `tuple`, found `int`",
    );
    one(
        "t: tuple\ny = abs(t)\n",
        "mismatched types: expected `int`, found `tuple`",
    );
    one(
        "y = min(1)\n",
        "`min` takes 2 arguments but 1 argument was supplied",
    );
    one(
        "y = max(1, 2, 3)\n",
        "`max` takes 2 arguments but 3 arguments were supplied",
    );
    one(
        "t: tuple\nb: bool = len(t)\n",
        "mismatched types: expected `bool`, found `int`",
    );
}

#[test]
fn procedure_calls_are_not_values() {
    let src = "def p(x: int):\n    pass\ny = p(1)\n";
    let d = one(src, "procedure `p` has no return value");
    assert_eq!(at(src, &d), "p(1)");
}

#[test]
fn unknown_function_suggests_similar_name() {
    let src = "def compute(x: int) -> int:\n    return x\ny = compte(1)\n";
    let d = one(src, "cannot find function `compte` in this module");
    assert_eq!(at(src, &d), "compte");
    assert!(has_note(&d, "similar name exists: `compute`"));
    one("x = 1\nprint(x)\n", "`print` is not supported in minipy");
}

#[test]
fn predicates_are_restricted() {
    one(
        "@predicate\ndef p(x: int) -> int:\n    return x\n",
        "predicate `p` must return `bool`",
    );
    one(
        "@predicate\ndef p(x: int) -> bool:\n    y = x > 0\n    return y\n",
        "the body of predicate `p` must be a single `return` statement",
    );
    one(
        "def f(x: int) -> bool:\n    return x > 0\n@predicate\ndef p(x: int) -> bool:\n    return f(x)\n",
        "predicate `p` cannot call `f`, which is not a predicate",
    );
    one(
        "@predicate\ndef p(x: int) -> bool:\n    return x + 1\n",
        "mismatched types: expected `bool`, found `int`",
    );
}

#[test]
fn quantifiers_are_typed() {
    one(
        "t: tuple\nb = all(t[k] for k in range(len(t)))\n",
        "mismatched types: expected `bool`, found `int`",
    );
    one(
        "t: tuple\nb = any(t[k] > 0 for k in range(t))\n",
        "mismatched types: expected `int`, found `tuple`",
    );
    // The quantified variable does not exist outside the quantifier.
    one(
        "t: tuple\nb = all(t[k] > 0 for k in range(3))\ny = k\n",
        "cannot find value `k` in this scope",
    );
}

#[test]
fn break_continue_return_outside_their_place() {
    one("break\n", "`break` outside of a loop");
    one(
        "x = 1\nif x > 0:\n    continue\n",
        "`continue` outside of a loop",
    );
    one("return 1\n", "`return` outside of a function");
    // A loop in the module does not make `break` in a function legal.
    one(
        "def f() -> None:\n    break\nwhile True:\n    f()\n",
        "`break` outside of a loop",
    );
    // `while ... else`: the else block is not inside the loop.
    one(
        "x: int\nwhile x > 0:\n    x -= 1\nelse:\n    break\n",
        "`break` outside of a loop",
    );
}

#[test]
fn declarations_inside_functions_and_blocks() {
    let d = one(
        "def f() -> None:\n    x: int\n",
        "variable declarations are not supported inside functions",
    );
    assert!(has_note(&d, "parameter"));
    one(
        "b: bool\nif b:\n    x: int\n",
        "input declarations must be at the top level of the module",
    );
}

#[test]
fn nested_defs_are_rejected() {
    let src = "def f() -> None:\n    def g() -> None:\n        pass\n";
    let d = one(src, "nested functions are not supported in minipy");
    assert_eq!(at(src, &d), "g");
}

#[test]
fn duplicate_functions_and_parameters() {
    let m = messages("def f() -> None:\n    pass\ndef f() -> None:\n    pass\n");
    assert_eq!(m, ["the name `f` is defined multiple times"]);
    let src = "def f(a: int, a: int) -> None:\n    pass\n";
    let d = one(
        src,
        "identifier `a` is bound more than once in the parameters of `f`",
    );
    assert_eq!(d.span.map(|s| s.start), Some(14));
}

#[test]
fn builtin_names_cannot_be_redefined() {
    one(
        "def len(t: tuple) -> int:\n    return 0\n",
        "`len` is a builtin name and cannot be redefined",
    );
    one(
        "max = 3\n",
        "`max` is a builtin name and cannot be used as a variable",
    );
    one(
        "def f() -> int:\n    return 1\nf = 2\n",
        "`f` is a function and cannot be used as a variable",
    );
    one("x = len\n", "`len` is a function, not a value");
}

#[test]
fn unknown_exception_class() {
    let src = "try:\n    pass\nexcept ZeroDivison:\n    pass\n";
    let d = one(src, "cannot find exception class `ZeroDivison`");
    assert_eq!(at(src, &d), "ZeroDivison");
    assert!(has_note(&d, "`ZeroDivisionError`"));
    one(
        "try:\n    pass\nexcept:\n    pass\nexcept IndexError:\n    pass\n",
        "a bare `except:` must be the last handler",
    );
}

#[test]
fn method_frame_results_are_typed() {
    one(
        "method-frame(result=r):\n    if True:\n        return 1\n    return (1,)\n",
        "mismatched types: expected `int`, found `tuple`",
    );
    one("x = 1\nhavoc y\n", "cannot find value `y` in this scope");
    one(
        "g = 1\ndef f() -> None:\n    havoc g\n",
        "cannot havoc module variable `g` inside function `f`",
    );
}

#[test]
fn reports_all_errors_sorted_by_position() {
    let src = "\
x: int
y = x + True
if x:
    pass
z = (1, (2,))
def f(a: int) -> int:
    return a < 1
break
";
    let m = messages(src);
    assert_eq!(
        m,
        [
            "mismatched types: expected `int`, found `bool`",
            "mismatched types: expected `bool`, found `int`",
            "nested tuples are not supported in minipy",
            "mismatched types: expected `int`, found `bool`",
            "`break` outside of a loop",
        ]
    );
}

#[test]
fn cannot_infer_cyclic_definitions() {
    let m = messages("b: bool\nwhile b:\n    x = y\n    y = x\n");
    assert_eq!(
        m,
        [
            "cannot infer the type of `x`",
            "cannot infer the type of `y`"
        ]
    );
}

#[test]
fn call_of_a_variable_is_rejected() {
    one(
        "def f(g: int) -> int:\n    return g(1)\n",
        "`g` is a variable of type `int`, not a function",
    );
}
