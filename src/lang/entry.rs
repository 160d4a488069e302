//! What an `--entry f` run executes before calling `f`: the module's *prelude*.
//!
//! An entry run analyses `f` alone, with its parameters as the inputs, so the module's own
//! driver code (which reads the module's inputs) must not run. But functions may read module
//! constants (`LIMIT = 10`), so those must be set. The prelude is: every top-level `def`,
//! and every top-level assignment whose value reads only names the prelude has already
//! bound (earlier constants and functions) and builtins — in source order. Everything else
//! (input declarations, statements that read inputs, control flow, asserts) is skipped.
//! The concrete interpreter, the symbolic engine and the CPython oracle of the tests
//! (`tests/py/run_python.py`) all follow this one rule.

use std::collections::BTreeSet;

use super::ast::*;
use crate::diagnostics::Diagnostic;

/// The function `--entry name` analyses, or why there is none. `run`, `check`, `exec` and
/// the debugger all ask here, so they accept and refuse the same names: a `@predicate` is
/// refused (it is part of a specification, read as a formula where it is used, not code to
/// run on its own).
pub fn entry_function<'p>(program: &'p Program, name: &str) -> Result<&'p FunctionDef, Diagnostic> {
    let names: Vec<String> = program
        .functions()
        .filter(|f| !f.predicate)
        .map(|f| format!("`{}`", f.name.name))
        .collect();
    let note = if names.is_empty() {
        "the program defines no function that --entry can analyse".to_string()
    } else {
        format!("the functions --entry can analyse: {}", names.join(", "))
    };
    match program.function(name) {
        Some(f) if !f.predicate => Ok(f),
        Some(_) => Err(Diagnostic::global(format!(
            "`{name}` is a @predicate: --entry analyses a function, not a predicate"
        ))
        .with_note("a predicate is part of a specification: it is read as a formula where an assert, assume or invariant uses it")
        .with_note(note)),
        None => Err(Diagnostic::global(format!("there is no function `{name}` to analyse")).with_note(note)),
    }
}

/// The top-level statements an entry run executes, in order.
pub fn entry_prelude(program: &Program) -> Vec<&Stmt> {
    let mut bound: BTreeSet<&str> = BTreeSet::new();
    let mut out = Vec::new();
    for s in &program.body {
        let (target, value) = match &s.kind {
            StmtKind::FunctionDef(f) => {
                bound.insert(&f.name.name);
                out.push(s);
                continue;
            }
            StmtKind::Assign { target, value, .. } => (target, value),
            StmtKind::AugAssign { target, value, .. } => {
                if !bound.contains(target.name.as_str()) {
                    continue;
                }
                (target, value)
            }
            _ => continue,
        };
        let mut reads = BTreeSet::new();
        free_names(value, &mut Vec::new(), &mut reads);
        if reads
            .iter()
            .all(|n| bound.contains(n.as_str()) || BUILTINS.contains(&n.as_str()))
        {
            bound.insert(&target.name);
            out.push(s);
        }
    }
    out
}

/// The names an expression reads (variables and called functions), without quantifier
/// variables bound inside it.
pub fn free_names(e: &Expr, bound: &mut Vec<String>, out: &mut BTreeSet<String>) {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) => {}
        ExprKind::Name(n) => {
            if !bound.contains(n) {
                out.insert(n.clone());
            }
        }
        ExprKind::Tuple(items) => items.iter().for_each(|i| free_names(i, bound, out)),
        ExprKind::Unary { operand, .. } => free_names(operand, bound, out),
        ExprKind::Binary { lhs, rhs, .. } | ExprKind::BoolOp { lhs, rhs, .. } => {
            free_names(lhs, bound, out);
            free_names(rhs, bound, out);
        }
        ExprKind::Compare { first, rest } => {
            free_names(first, bound, out);
            rest.iter().for_each(|(_, e)| free_names(e, bound, out));
        }
        ExprKind::Index { base, index } => {
            free_names(base, bound, out);
            free_names(index, bound, out);
        }
        ExprKind::Call { func, args } => {
            out.insert(func.name.clone());
            args.iter().for_each(|a| free_names(a, bound, out));
        }
        ExprKind::Quantifier {
            var, lo, hi, body, ..
        } => {
            if let Some(lo) = lo {
                free_names(lo, bound, out);
            }
            free_names(hi, bound, out);
            bound.push(var.name.clone());
            free_names(body, bound, out);
            bound.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prelude_keeps_defs_and_constants_only() {
        let src = "\
LIMIT = 10
TWICE = 2 * LIMIT
x: int
def f(a: int) -> int:
    return min(a, LIMIT)
y = f(x)
Z = f(3)
LIMIT += 1
if x > 0:
    W = 1
";
        let p = crate::lang::parse(src).unwrap();
        let kept: Vec<String> = entry_prelude(&p)
            .iter()
            .map(|s| crate::lang::pretty::stmt_header(s))
            .collect();
        assert_eq!(
            kept,
            [
                "LIMIT = 10",
                "TWICE = 2 * LIMIT",
                "def f(a: int) -> int:",
                "Z = f(3)",
                "LIMIT += 1"
            ]
        );
    }
}
