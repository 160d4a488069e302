//! Programs the checker must reject, with the messages it gives.

use super::ast::{id, sp, st};
use super::*;

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
    // `print(...)` is a statement (issue 25); other Python builtins are not minipy's.
    one(
        "x = 1\ny = print(x)\n",
        "`print(...)` is only supported as a statement",
    );
    one(
        "x = 1\nprint(input(x))\n",
        "`input` is not supported in minipy",
    );
}

#[test]
fn predicates_are_restricted() {
    one(
        "@predicate\ndef p(x: int) -> int:\n    return x\n",
        "predicate `p` must return `bool`",
    );
    one(
        "@predicate\ndef p(x: int):\n    return x > 0\n",
        "predicate `p` must return `bool`",
    );
    one(
        "@predicate\ndef p(x: int) -> bool:\n    if x > 0:\n        return True\n    return False\n",
        "the body of predicate `p` must be a single `return` statement",
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
    // (The parser rejects duplicate parameters too; the checker does not rely on it.)
    let f = FunctionDef {
        name: id("f", 4),
        params: vec![
            Param {
                name: id("a", 6),
                ty: Type::Int,
            },
            Param {
                name: id("a", 14),
                ty: Type::Int,
            },
        ],
        ret: None,
        body: vec![st(StmtKind::Pass, 30)],
        predicate: false,
        contract: Default::default(),
    };
    let program = Program {
        preconditions: Vec::new(),
        body: vec![st(StmtKind::FunctionDef(f), 0)],
    };
    let d = check(&program).unwrap_err();
    assert_eq!(d.len(), 1);
    assert_eq!(
        d[0].message,
        "identifier `a` is bound more than once in the parameters of `f`"
    );
    assert_eq!(d[0].span, Some(sp(14, 15)));
}

#[test]
fn builtin_names_cannot_be_redefined() {
    // (a `def` of one is refused by the parser already, before any call of it is read)
    let e = crate::lang::parse("def len(t: tuple) -> int:\n    return 0\n").unwrap_err();
    assert_eq!(
        e[0].message,
        "`len` is a builtin name and cannot be redefined"
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

#[test]
fn help_quotes_the_offending_expression() {
    let d = one(
        "x: int\ny: int\nassert x - y\n",
        "mismatched types: expected `bool`, found `int`",
    );
    assert!(has_note(&d, "write `x - y != 0`"), "{:?}", d.notes);
    let d = one("t: tuple\nu = t + t[0]\n", "cannot add `int` to `tuple`");
    assert!(has_note(&d, "write `t + (t[0],)`"), "{:?}", d.notes);
}

#[test]
fn membership_needs_an_int_and_a_tuple() {
    let src = "t: tuple\nx: int\nb = x in x\n";
    let d = one(src, "`in` on an `int` is not supported in minipy");
    assert_eq!(at(src, &d), "x");
    let src = "t: tuple\nc: bool\nb = c not in t\n";
    let d = one(src, "mismatched types: expected `int`, found `bool`");
    assert_eq!(at(src, &d), "c");
    let m = messages("t: tuple\nb = t in t\n");
    assert_eq!(m, ["mismatched types: expected `int`, found `tuple`"]);
    // Accepted: an int in a tuple, chained with comparisons, on a slice.
    ok("t: tuple\nx: int\nb = 0 <= x in t[1:]\nc = x not in ()\n");
}

#[test]
fn slices_need_a_tuple_and_int_parts() {
    let src = "x: int\nu = x[1:]\n";
    let d = one(src, "cannot slice a value of type `int`");
    assert_eq!(at(src, &d), "x");
    let src = "t: tuple\nb: bool\nu = t[:b]\n";
    let d = one(src, "mismatched types: expected `int`, found `bool`");
    assert_eq!(at(src, &d), "b");
    let m = messages("t: tuple\nu = t[::t]\n");
    assert_eq!(m, ["mismatched types: expected `int`, found `tuple`"]);
    // A slice is a tuple.
    let m = messages("t: tuple\nx: int\nx = t[1:]\n");
    assert_eq!(m.len(), 1, "{m:?}");
}

#[test]
fn conditional_sides_have_one_type_and_a_bool_condition() {
    let src = "t: tuple\nx: int\ny = x if x > 0 else t\n";
    let d = one(
        src,
        "the two sides of a conditional expression have types `int` and `tuple`",
    );
    assert_eq!(at(src, &d), "x if x > 0 else t");
    let src = "x: int\ny = 1 if x else 2\n";
    let d = one(src, "mismatched types: expected `bool`, found `int`");
    assert!(has_note(&d, "write `x != 0`"));
    ok("t: tuple\nx: int\nu = t if x > 0 else t[1:] + (x,)\n");
}
