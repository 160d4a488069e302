use super::*;
use crate::base::Span;
use crate::lang::ast::{FunctionDef, Ident, Param, Stmt, StmtKind};

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

mod ast;
mod rejected;

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

#[test]
fn deep_and_long_expressions() {
    // The CLI checks on a thread with a big stack (as the parser's tests do).
    let big = std::thread::Builder::new().stack_size(256 << 20);
    big.spawn(|| {
        let src = format!("x = {}1\n", "-".repeat(3000));
        ok(&src);
        let start = std::time::Instant::now();
        // Up to the depth limit (CPython's compiler stops near it too).
        let src = format!("t: tuple\ny = t[0]{}\nb = y > 0\n", " + t[0]".repeat(2_999));
        ok(&src);
        // `and` chains have no such limit (CPython keeps them flat).
        let src = format!("y = 0\nb = y == 0{}\n", " and y == 0".repeat(50_000));
        ok(&src);
        // A hang guard (quadratic checking of the 50,000-term chain takes many minutes),
        // not a speed limit: a loaded machine must not fail it.
        assert!(start.elapsed().as_secs() < 120, "checking is not linear");
    })
    .unwrap()
    .join()
    .unwrap();
}
