use super::*;

fn ok(src: &str) -> Program {
    match parse_program(src) {
        Ok(p) => p,
        Err(d) => panic!("{src:?} failed: {d:?}"),
    }
}

fn err(src: &str) -> String {
    match parse_program(src) {
        Ok(p) => panic!("{src:?} parsed: {p:?}"),
        Err(d) => d[0].message.clone(),
    }
}

#[test]
fn book_find() {
    let p = ok("def find(needle: int, haystack: tuple) -> int:\n    i = 0\n    while i < len(haystack):\n        if haystack[i] == needle:\n            return i\n        i = i + 1\n    return -1\n\nx: int\nt: tuple\nr = find(x, t)\n");
    assert_eq!(p.body.len(), 4);
    assert_eq!(p.inputs().count(), 2);
}

fn roundtrip(src: &str) {
    let p = ok(src);
    let printed = crate::lang::pretty::program(&p);
    let q = match parse_program(&printed) {
        Ok(q) => q,
        Err(d) => panic!("pretty output does not parse: {d:?}\n{printed}"),
    };
    assert_eq!(p.without_spans(), q.without_spans(), "\n{printed}");
}

#[test]
fn python_habits() {
    let src = "\
# comment first

x: int   # an input
t: tuple
if x > 0:
  y = 1
elif x < -3:  # two-space indentation
  y = 2
else:
  y = (x +
       3)   # continuation inside brackets
y += 1; y -= 2
z = 0 <= x < len(t)
u = (x,)
v = ()
w = tuple()
s = (1, 2, 3,)
q = 1, 2
while y > 0:
    y -= 1
    if y == 5: break
    continue
else:
    pass
try:
    r = t[-1] // x
except ZeroDivisionError:
    r = 0
except LookupError:
    r = 1
except:
    r = 2
";
    let p = ok(src);
    assert_eq!(p.body.len(), 13, "{p:#?}");
    roundtrip(src);
}

#[test]
fn verification_statements() {
    let src = "\
@predicate
def Inv(i: int, t: tuple) -> bool:
    return 0 <= i <= len(t) and all(t[k] != 0 for k in range(0, i))

t: tuple
i: int
havoc i
assume Inv(i, t)
method-frame(result=r):
    return i + 1
loop-scope(inv=i >= 0 and i <= len(t)):
    if i < len(t):
        i = i + 1
        continue
    else:
        break
while i < len(t):
    invariant i >= 0
    invariant any(t[k] > 0 for k in range(i))
    i = i + 1
";
    let p = ok(src);
    match &p.body.last().unwrap().kind {
        StmtKind::While {
            invariants, body, ..
        } => {
            assert_eq!(invariants.len(), 2);
            assert_eq!(body.len(), 1);
        }
        k => panic!("{k:?}"),
    }
    assert!(p.function("Inv").unwrap().predicate);
    roundtrip(src);
}

#[test]
fn spans_are_exact() {
    let src = "x: int\nif x > 0:\n    y = x  +  1\n";
    let p = ok(src);
    let StmtKind::If { branches, .. } = &p.body[1].kind else {
        panic!()
    };
    let inner = &branches[0].1[0];
    assert_eq!(&src[inner.span.start..inner.span.end], "y = x  +  1");
    let StmtKind::Assign { value, .. } = &inner.kind else {
        panic!()
    };
    assert_eq!(&src[value.span.start..value.span.end], "x  +  1");
    assert_eq!(&src[p.body[1].span.start..p.body[1].span.end], "if x > 0:");
}

#[test]
fn precedence_and_associativity() {
    for src in [
        "x = 1 - 2 - 3\n",
        "x = 1 - (2 - 3)\n",
        "x = -x * -(y + 1) // 2 % 3\n",
        "b = not a and (c or d) or not (x < y == z)\n",
        "x = (a + b)[0] + f(a, (b,), ())[1]\n",
        "x = - - 3\n",
        "b = (a < b) == c\n",
    ] {
        roundtrip(src);
    }
    let p = ok("x = 1 - 2 - 3\n");
    let StmtKind::Assign { value, .. } = &p.body[0].kind else {
        panic!()
    };
    assert_eq!(crate::lang::pretty::expr(value), "1 - 2 - 3");
}

#[test]
fn unsupported_constructs() {
    let cases = [
        (
            "for i, j in t:\n    pass\n",
            "tuple unpacking in a `for` target is not supported in minipy",
        ),
        (
            "class A:\n    pass\n",
            "classes are not supported in minipy",
        ),
        ("x = 'a'\n", "strings are not supported in minipy"),
        (
            "x = 1.5\n",
            "floating-point numbers are not supported in minipy",
        ),
        ("x = [1, 2]\n", "lists are not supported in minipy"),
        (
            "t[1:2] = ()\n",
            "tuples are immutable: slice assignment is not supported",
        ),
        (
            "t[1:] += (1,)\n",
            "tuples are immutable: slice assignment is not supported",
        ),
        (
            "x = a / b\n",
            "true division `/` is not supported in minipy",
        ),
        (
            "x = a ** 2\n",
            "the power operator `**` is not supported in minipy",
        ),
        ("x = lambda y: y\n", "`lambda` is not supported in minipy"),
        (
            "global x\n",
            "`global` and `nonlocal` are not supported in minipy",
        ),
        ("import os\n", "imports are not supported in minipy"),
        (
            "a, b = 1, 2\n",
            "tuple unpacking (`a, b = ...`) is not supported in minipy",
        ),
        ("x = 1 if c\n", "expected `else` after `if` expression"),
        (
            "x = t.count(1)\n",
            "attribute access and methods (`.name`) are not supported in minipy",
        ),
        ("b = x is None\n", "`is` is not supported in minipy"),
        ("x = {}\n", "dicts and sets are not supported in minipy"),
        ("x = None\n", "`None` is not supported in minipy"),
        (
            "try:\n    x = 1\nexcept E as e:\n    pass\n",
            "`except ... as name` is not supported in minipy",
        ),
        (
            "try:\n    x = 1\nfinally:\n    pass\n",
            "`finally` is not supported in minipy",
        ),
        (
            "try:\n    x = 1\ny = 2\n",
            "expected `except` after the `try` block",
        ),
        (
            "def f(x: int = 1) -> int:\n    return x\n",
            "default parameter values are not supported in minipy",
        ),
        (
            "x = f(y=1)\n",
            "keyword arguments are not supported in minipy",
        ),
        (
            "x = sum(k for k in t)\n",
            "generator expressions and comprehensions are not supported in minipy",
        ),
        (
            "x = a & b\n",
            "the bitwise operator `&` is not supported in minipy",
        ),
        ("raise E\n", "`raise` is not supported in minipy"),
        (
            "x = y = 1\n",
            "chained assignment (`a = b = 1`) is not supported in minipy",
        ),
        (
            "t[0] = 1\n",
            "tuples are immutable: item assignment is not supported",
        ),
        (
            "assert x, 1\n",
            "assertion messages are not supported in minipy",
        ),
        ("x /= 2\n", "true division `/` is not supported in minipy"),
    ];
    for (src, msg) in cases {
        assert_eq!(err(src), msg, "for {src:?}");
    }
}

#[test]
fn syntax_errors() {
    let cases = [
        ("if x > 0\n    y = 1\n", "expected `:`, found end of line"),
        ("x = (1 + \n", "`(` was never closed"),
        ("if x:\ny = 1\n", "expected an indented block after `if`"),
        ("x = 1\n    y = 2\n", "unexpected indent"),
        (
            "else:\n    pass\n",
            "`else` without a matching `if`, `while`, `for` or `try`",
        ),
        (
            "def f(a) -> int:\n    return a\n",
            "parameter `a` needs a type annotation",
        ),
        ("x = 1 +\n", "expected an expression, found end of line"),
        ("x: str\n", "the type `str` is not supported in minipy"),
        (
            "x = 007\n",
            "leading zeros in decimal integer literals are not permitted",
        ),
        ("f(1 2)\n", "expected `,` or `)`, found `2`"),
    ];
    for (src, msg) in cases {
        assert_eq!(err(src), msg, "for {src:?}");
    }
}

#[test]
fn deep_inputs_do_not_crash() {
    let src = format!("x = {}1{}\n", "(".repeat(5000), ")".repeat(5000));
    assert_eq!(err(&src), "too many nested parentheses");
    // The CLI parses on a thread with a big stack; so does this test.
    let big = std::thread::Builder::new().stack_size(256 << 20);
    big.spawn(|| {
        let src = format!("x = {}1{}\n", "(".repeat(199), ")".repeat(199));
        ok(&src);
        let src = format!("x = {}1\n", "-".repeat(3000));
        ok(&src);
    })
    .unwrap()
    .join()
    .unwrap();
    // A long line is parsed on a stack of its own: pest's guard turns the overflow into
    // a diagnostic, whatever the caller's stack.
    let src = format!("x = {}1\n", "-".repeat(100_000));
    assert_eq!(err(&src), "this line is nested too deeply to parse");
}

/// Parse on a thread with the CLI's stack (deep but legal expressions recurse).
fn on_big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn expression_depth_is_bounded_like_cpython() {
    on_big_stack(|| {
        let deep = "this expression is nested too deeply";
        // CPython refuses a chain of 2,990 `+` (RecursionError during compilation).
        let chain = |op: &str, n: usize| format!("x = 1{}\n", format!(" {op} 1").repeat(n));
        ok(&chain("+", 2999));
        assert_eq!(err(&chain("+", 3001)), deep);
        assert_eq!(err(&chain("*", 10_000)), deep);
        assert_eq!(err(&chain("-", 30_000)), deep);
        assert_eq!(err(&format!("x = {}1\n", "-".repeat(3001))), deep);
        assert_eq!(err(&format!("x = {}True\n", "not ".repeat(3001))), deep);
        assert_eq!(err(&format!("t = ()\nx = t{}\n", "[0]".repeat(3001))), deep);
        // Nesting adds up across kinds of operators.
        let mixed = format!("x = {}1{}\n", "-".repeat(2000), " + 1".repeat(1001));
        assert_eq!(err(&mixed), deep);
        let d = parse_program(&mixed).unwrap_err();
        assert!(d[0].notes.iter().any(|n| n.contains("CPython")));
        // Comparison chains and tuples are flat.
        ok(&format!("b = 1{}\n", " < 1".repeat(10_000)));
        ok(&format!("t = (1{})\n", ", 1".repeat(10_000)));
    });
}

#[test]
fn long_and_or_chains_are_balanced_and_round_trip() {
    on_big_stack(|| {
        for (n, op) in [
            (3, "and"),
            (64, "or"),
            (65, "and"),
            (1000, "or"),
            (20_000, "and"),
        ] {
            let src = format!("b = True{}\n", format!(" {op} b").repeat(n - 1));
            let p = ok(&src);
            let StmtKind::Assign { value, .. } = &p.body[0].kind else {
                panic!("not an assignment");
            };
            let op = if op == "and" { BoolOp::And } else { BoolOp::Or };
            assert_eq!(crate::lang::chain::operands(op, value).len(), n);
            assert!(crate::lang::chain::is_canonical(op, value));
            // Printed flat, parsed back to the same tree.
            let printed = crate::lang::pretty::program(&p);
            assert!(
                !printed.contains('('),
                "{}",
                &printed[..80.min(printed.len())]
            );
            let q = ok(&printed);
            assert_eq!(p.without_spans(), q.without_spans());
        }
        // Explicit groupings survive printing.
        for src in [
            "b = x and (y and z)\n",
            "b = (x and y) and z\n",
            "b = x or (y or z) or w\n",
            "b = (x or y) and (z or w)\n",
        ] {
            roundtrip(src);
        }
    });
}

#[test]
fn huge_decimal_literals_are_refused_like_cpython() {
    ok(&format!("x = {}\n", "7".repeat(4300)));
    let e = err(&format!("x = {}\n", "7".repeat(4301)));
    assert_eq!(e, "this integer literal has 4301 digits, more than 4300");
    // Hexadecimal has no such limit in CPython.
    ok(&format!("x = 0x{}\n", "f".repeat(10_000)));
}

#[test]
fn empty_and_comment_only() {
    assert!(ok("").body.is_empty());
    assert!(ok("# nothing\n\n   \n").body.is_empty());
}

#[test]
fn expression_entry_point() {
    let e = parse_expression("(1, -2, 3)").unwrap();
    assert!(matches!(e.kind, ExprKind::Tuple(ref v) if v.len() == 3));
    assert!(parse_expression("1 +").is_err());
}

/// An operator's span covers the parentheses of its operands (the exception spans and
/// CPython's traceback carets show whole operands), the parenthesised operand itself not.
#[test]
fn operator_spans_keep_the_operands_parentheses() {
    for (src, want) in [
        ("10 // (x - 1)", "10 // (x - 1)"),
        ("(x - 1) % 3", "(x - 1) % 3"),
        ("((a)) + (b)", "((a)) + (b)"),
        ("(t + u)[i]", "(t + u)[i]"),
        ("(a or b) and (c)", "(a or b) and (c)"),
        ("f((x))", "f((x))"),
        ("1 + (2 * (3 - y))", "1 + (2 * (3 - y))"),
    ] {
        let e = parse_expression(src).unwrap();
        assert_eq!(&src[e.span.start..e.span.end], want, "{src}");
    }
    let e = parse_expression("10 // (x - 1)").unwrap();
    let ExprKind::Binary { rhs, .. } = &e.kind else {
        panic!("{e:?}")
    };
    assert_eq!(rhs.span, Span::new(7, 12), "the inner `x - 1`");
}

#[test]
fn contract_lines_start_a_def_body_and_round_trip() {
    let src = "\
def f(n: int, t: tuple) -> int:
    requires n >= 0
    requires all(t[k] > 0 for k in range(len(t)))
    ensures result >= n
    if n == 0: return 0
    return n
";
    let p = ok(src);
    let StmtKind::FunctionDef(f) = &p.body[0].kind else {
        panic!("a def");
    };
    assert_eq!(f.contract.requires.len(), 2);
    assert_eq!(f.contract.ensures.len(), 1);
    assert_eq!(f.body.len(), 2, "the contract lines are not statements");
    roundtrip(src);
    // `requires`/`ensures` stay ordinary names elsewhere.
    let q = ok("requires = 1\nensures = requires + 1\n");
    assert_eq!(q.body.len(), 2);
}

#[test]
fn contract_lines_elsewhere_are_refused_where_they_are() {
    for (src, at) in [
        ("x: int\nrequires x > 0\n", 7),
        (
            "def f(x: int) -> int:\n    x = 1\n    ensures x > 0\n    return x\n",
            36,
        ),
        ("def f(x: int) -> int: requires x > 0\n", 22),
        ("while True:\n    ensures True\n    break\n", 16),
    ] {
        let d = &parse_program(src).expect_err(src)[0];
        assert!(
            d.message.contains("must come first in a `def` body"),
            "{src}: {}",
            d.message
        );
        assert_eq!(d.span.map(|s| s.start), Some(at), "{src}");
    }
    let d = &parse_program("def f(x: int) -> int:\n    requires x > 0\n").expect_err("no body")[0];
    assert!(
        d.message
            .contains("expected a body after the contract of `f`"),
        "{}",
        d.message
    );
}
