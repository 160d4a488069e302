use super::ir::{Instr, InstrKind};
use super::*;
use crate::lang::pretty;

/// A compact text form of a block for assertions.
fn show(block: &[Instr], indent: usize, out: &mut String) {
    for i in block {
        let pad = "  ".repeat(indent);
        match &i.kind {
            InstrKind::Assign { target, value } => {
                out.push_str(&format!("{pad}{target} = {}\n", pretty::expr(value)))
            }
            InstrKind::Call {
                target, func, args, ..
            } => {
                let args: Vec<String> = args.iter().map(pretty::expr).collect();
                let t = target.as_ref().map_or(String::new(), |t| format!("{t} = "));
                out.push_str(&format!("{pad}{t}call {func}({})\n", args.join(", ")));
            }
            InstrKind::If { cond, then, orelse } => {
                out.push_str(&format!("{pad}if {}:\n", pretty::expr(cond)));
                show(then, indent + 1, out);
                if !orelse.is_empty() {
                    out.push_str(&format!("{pad}else:\n"));
                    show(orelse, indent + 1, out);
                }
            }
            InstrKind::While {
                guard, cond, body, ..
            } => {
                out.push_str(&format!("{pad}while [guard]:\n"));
                show(guard, indent + 2, out);
                out.push_str(&format!("{pad}  [cond] {}\n", pretty::expr(cond)));
                show(body, indent + 1, out);
            }
            InstrKind::Return(Some(e)) => {
                out.push_str(&format!("{pad}return {}\n", pretty::expr(e)))
            }
            InstrKind::Eval(e) => out.push_str(&format!("{pad}eval {}\n", pretty::expr(e))),
            InstrKind::Def(f) => out.push_str(&format!("{pad}def {f}\n")),
            InstrKind::Lookup { func, .. } => out.push_str(&format!("{pad}lookup {func}\n")),
            InstrKind::Declare { name, ty } => out.push_str(&format!("{pad}{name}: {ty}\n")),
            k => out.push_str(&format!("{pad}{k:?}\n")),
        }
    }
}

fn lowered(src: &str) -> String {
    let (p, _) = crate::lang::load(src).unwrap_or_else(|d| panic!("{d:?}"));
    let ir = lower(&p).unwrap();
    let mut out = String::new();
    show(&ir.body, 0, &mut out);
    out
}

const F: &str = "def f(a: int) -> int:\n    return a + 1\n\n";

#[test]
fn calls_without_nesting_lower_one_to_one() {
    let out = lowered(&format!("{F}x: int\ny = f(x)\nf(y)\nz = x + 1\n"));
    assert_eq!(out, "def f\nx: int\ny = call f(x)\ncall f(y)\nz = x + 1\n");
}

#[test]
fn evaluation_order_is_left_to_right() {
    // `1 // x` must raise before `f` runs, so it is computed first.
    let out = lowered(&format!("{F}x: int\ny = 1 // x + f(x) + x * 2\n"));
    assert_eq!(
        out,
        "def f\nx: int\n$1 = 1 // x\n$2 = call f(x)\ny = $1 + $2 + x * 2\n"
    );
}

#[test]
fn short_circuit_keeps_calls_conditional() {
    let out = lowered(&format!("{F}x: int\nb = x > 0 and f(x) > 1\n"));
    assert_eq!(
        out,
        "def f\nx: int\n$1 = x > 0\nif $1:\n  $2 = call f(x)\n  $1 = $2 > 1\nb = $1\n"
    );
    let out = lowered(&format!("{F}x: int\nb = x > 0 or f(x) > 1\n"));
    assert!(out.contains("if not $1:\n"), "{out}");
}

#[test]
fn comparison_chains_evaluate_each_operand_once() {
    let out = lowered(&format!("{F}x: int\nb = 0 < f(x) < 10\n"));
    assert_eq!(
        out,
        "def f\nx: int\n$2 = call f(x)\n$1 = 0 < $2\nif $1:\n  $1 = $2 < 10\nb = $1\n"
    );
}

#[test]
fn while_guards_with_calls_get_a_guard_block() {
    let out = lowered(&format!("{F}x: int\nwhile f(x) < 5:\n    x += 1\n"));
    assert_eq!(
        out,
        "def f\nx: int\nwhile [guard]:\n    $1 = call f(x)\n  [cond] $1 < 5\n  x = x + 1\n"
    );
}

#[test]
fn elif_conditions_with_calls_run_only_when_reached() {
    let out = lowered(&format!(
        "{F}x: int\nif x > 0:\n    y = 1\nelif f(x) > 0:\n    y = 2\nelse:\n    y = 3\n"
    ));
    assert_eq!(
        out,
        "def f\nx: int\nif x > 0:\n  y = 1\nelse:\n  $1 = call f(x)\n  if $1 > 0:\n    y = 2\n  else:\n    y = 3\n"
    );
}

#[test]
fn nested_calls() {
    let out = lowered(&format!("{F}x: int\ny = f(f(x) + 1)\n"));
    // The outer callee is looked up before its arguments' calls run, as CPython does.
    assert_eq!(
        out,
        "def f\nx: int\nlookup f\n$1 = call f(x)\ny = call f($1 + 1)\n"
    );
}

#[test]
fn invariants_may_not_call_functions() {
    let (p, _) = crate::lang::load(&format!(
        "{F}x: int\nwhile x > 0:\n    invariant f(x) > 0\n    x -= 1\n"
    ))
    .unwrap();
    let errs = lower(&p).unwrap_err();
    assert_eq!(errs[0].message, "a loop invariant cannot call a function");
}

/// The loop-scope form: every invariant line checked (in order, each at its own span),
/// havocs that keep "unbound" possible, the loop's `else` as the scope's `orelse` (outside
/// it, so its `break` reaches the enclosing loop), and the unrolled loop's check block.
#[test]
fn loop_scope_form_checks_lines_and_runs_else_outside_the_scope() {
    let src = "n: int\nwhile True:\n    while n > 0:\n        invariant n >= 0\n        invariant n < 100\n        n = n - 1\n    else:\n        break\n";
    let (p, _) = crate::lang::load(src).unwrap_or_else(|d| panic!("{d:?}"));
    let ir = lower(&p).unwrap();
    let InstrKind::While { body, .. } = &ir.body[1].kind else {
        panic!("outer while: {:?}", ir.body[1].kind)
    };
    let InstrKind::While {
        abstraction: Some(form),
        check: Some(check),
        ..
    } = &body[0].kind
    else {
        panic!("annotated while: {:?}", body[0].kind)
    };
    let InstrKind::CheckInvariant(lines) = &form[0].kind else {
        panic!("{:?}", form[0].kind)
    };
    assert_eq!(lines.len(), 2);
    assert_eq!(form[0].span, lines[0].span);
    assert_eq!(check[0].kind, form[0].kind);
    assert!(matches!(
        &form[1].kind,
        InstrKind::Havoc { name, keep_unbound: true } if name == "n"
    ));
    assert!(matches!(form[2].kind, InstrKind::AssumeInvariant(_)));
    let InstrKind::LoopScope { invs, body, orelse } = &form[3].kind else {
        panic!("{:?}", form[3].kind)
    };
    assert_eq!(invs, lines);
    let orelse = orelse.as_ref().expect("the else block");
    assert!(matches!(orelse[0].kind, InstrKind::Break));
    // Inside the scope, the guard-false branch only completes the scope.
    let InstrKind::If { orelse: inside, .. } = &body[0].kind else {
        panic!("{:?}", body[0].kind)
    };
    assert!(matches!(
        &inside[..],
        [Instr {
            kind: InstrKind::Pass,
            ..
        }]
    ));
}
