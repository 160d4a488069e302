//! Checking one expression typed by a user (the debugger's `:` prompt, its watches and
//! breakpoint conditions) in the scope of the module or of one function of a checked
//! program: the names it may read are those the code at that place could read.

use super::hints::similar;
use super::{scope, signatures, Checker, Cx};
use crate::diagnostics::Diagnostic;
use crate::lang::ast::{Expr, ExprKind, Program, Type};

/// The type of `e` read inside `function` (`None`: module code), or every error in it.
/// A call of a function that is not a `@predicate` is refused: evaluating it would run
/// code with effects (the prompt evaluates formulas, it does not run the program).
pub(in crate::lang::types) fn check_expr(
    program: &Program,
    function: Option<&str>,
    e: &Expr,
) -> Result<Type, Vec<Diagnostic>> {
    // (the program itself was checked when it was loaded: its own errors do not matter)
    let functions = signatures(program, &mut Vec::new());
    let mut module_sites = Vec::new();
    scope::collect(&program.body, &mut module_sites);
    let globals = scope::solve(&module_sites, None, &functions);
    let func =
        match function {
            Some(name) => Some(program.function(name).ok_or_else(|| {
                vec![Diagnostic::global(format!("there is no function `{name}`"))]
            })?),
            None => None,
        };
    let local;
    let scope = match func {
        Some(f) => {
            local = scope::solve(&scope::function_sites(f), Some(&globals), &functions);
            &local
        }
        None => &globals,
    };
    let mut ck = Checker {
        functions: &functions,
        globals: &globals,
        diags: Vec::new(),
    };
    let mut cx = Cx::new(func, scope);
    let ty = ck.expr(&mut cx, e, None);
    for (name, span, _) in &cx.undeclared {
        let mut candidates: Vec<&str> = scope.vars.keys().map(String::as_str).collect();
        if func.is_some() {
            candidates.extend(globals.vars.keys().map(String::as_str));
        }
        let mut d = Diagnostic::error(format!("cannot find value `{name}` in this scope"), *span)
            .with_label("not found in this scope");
        if let Some(s) = similar(name, candidates) {
            d = d.with_note(format!(
                "help: a variable with a similar name exists: `{s}`"
            ));
        }
        ck.err(d);
    }
    impure_calls(e, &functions, &mut ck.diags);
    if !ck.diags.is_empty() {
        ck.diags.sort_by_key(|d| d.span.map(|s| (s.start, s.end)));
        return Err(ck.diags);
    }
    ty.ok_or_else(|| vec![Diagnostic::error("this expression has no value", e.span)])
}

/// Report calls of user functions that are not predicates.
fn impure_calls(
    e: &Expr,
    functions: &std::collections::BTreeMap<String, super::Signature>,
    out: &mut Vec<Diagnostic>,
) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) => {}
            ExprKind::Tuple(items) => stack.extend(items),
            ExprKind::Unary { operand, .. } => stack.push(operand),
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::BoolOp { lhs, rhs, .. } => {
                stack.extend([&**lhs, &**rhs])
            }
            ExprKind::Compare { first, rest } => {
                stack.push(first);
                stack.extend(rest.iter().map(|(_, e)| e));
            }
            ExprKind::Index { base, index } => stack.extend([&**base, &**index]),
            ExprKind::Slice { .. } | ExprKind::IfExp { .. } => stack.extend(e.children()),
            ExprKind::Call { func, args } => {
                if functions.get(&func.name).is_some_and(|s| !s.predicate) {
                    out.push(
                        Diagnostic::error(
                            format!("`{}` is not evaluated here: only `@predicate` functions and len, abs, min, max can be called", func.name),
                            func.span,
                        )
                        .with_label("a function that may have effects"),
                    );
                }
                stack.extend(args);
            }
            ExprKind::Quantifier { lo, hi, body, .. } => {
                stack.extend(lo.as_deref());
                stack.extend([&**hi, &**body]);
            }
        }
    }
}
