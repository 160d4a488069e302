//! What CPython's compiler refuses in a program that parses: an assignment to `__debug__`
//! ("cannot assign to __debug__") and more than [`MAX_BLOCKS`] statically nested blocks
//! ("too many statically nested blocks"). Both are `SyntaxError`s of `python3` (3.11)
//! that its parser does not raise: the compiler does, at the first offence in the order it
//! compiles the program, which [`check`] follows (a `def`'s parameters before its body, its
//! name after it; an assignment's value before its target).
//!
//! CPython's blocks (`fblock`s, `CO_MAXBLOCKS = 20`): a `while` or `for` body is one; a `try`'s
//! body is one and each `except` body two (the handler and its cleanup); `if` and `else`
//! bodies are none. A function body starts again from none. minipy's verification blocks
//! (`method-frame`, `loop-scope`) are not Python and count as none.
//!
//! One more refusal is minipy's own: a module variable (an input, an assignment or a `def`
//! at the top level) named `__builtins__` or `__annotations__`. CPython looks builtins
//! (`abs`, even the `int` of an annotation) up through the first and stores every
//! top-level annotation in the second, so a program that binds either stops with a
//! `TypeError` in CPython where minipy would go on (a function's local of that name is
//! fine).

use super::ast::*;
use crate::base::span::Span;
use crate::diagnostics::Diagnostic;

/// CPython's `CO_MAXBLOCKS`.
pub const MAX_BLOCKS: usize = 20;

/// The first thing CPython's compiler would refuse in `program`.
pub fn check(program: &Program) -> Result<(), Diagnostic> {
    block(&program.body, Scope::Module, 0)
}

/// Where a statement binds its names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    Module,
    Function,
}

fn block(body: &[Stmt], scope: Scope, depth: usize) -> Result<(), Diagnostic> {
    body.iter().try_for_each(|s| stmt(s, scope, depth))
}

/// Enter a block at `at` (the statement that opens it) when `depth` blocks are open.
fn push(depth: usize, by: usize, at: Span) -> Result<usize, Diagnostic> {
    let inner = depth + by;
    if inner > MAX_BLOCKS {
        return Err(Diagnostic::error(
            "too many statically nested blocks",
            Span::new(at.start, at.start),
        )
        .with_label(format!(
            "more than {MAX_BLOCKS} nested `while`, `for`, `try` and `except` blocks"
        ))
        .with_note("CPython's compiler refuses it too (SyntaxError)")
        .with_note("help: move the inner blocks into a function"));
    }
    Ok(inner)
}

/// Store to `name` in `scope`, reported at `at`.
fn store(name: &str, scope: Scope, at: Span) -> Result<(), Diagnostic> {
    if name == "__debug__" {
        return Err(Diagnostic::error("cannot assign to __debug__", at)
            .with_note("`__debug__` is a constant in Python (CPython refuses this too)"));
    }
    if scope == Scope::Module && matches!(name, "__builtins__" | "__annotations__") {
        let what = if name == "__builtins__" {
            "CPython looks builtins up through it (`abs`, `len`, the `int` of an annotation)"
        } else {
            "CPython stores the module's annotations (`x: int`) in it"
        };
        return Err(Diagnostic::error(
            format!("`{name}` cannot be a module variable in minipy"),
            at,
        )
        .with_label("a module variable named like Python's own")
        .with_note(format!(
            "{what}: with another value there, the program stops with a TypeError in CPython"
        ))
        .with_note("help: rename it (a function's parameter or local of that name is fine)"));
    }
    Ok(())
}

fn stmt(s: &Stmt, scope: Scope, depth: usize) -> Result<(), Diagnostic> {
    let store = |name: &str, at: Span| store(name, scope, at);
    let block = |body: &[Stmt], depth: usize| block(body, scope, depth);
    match &s.kind {
        StmtKind::Declare { name, .. } => store(&name.name, s.span),
        StmtKind::Assign { target, value, .. } | StmtKind::AugAssign { target, value, .. } => {
            expr(value)?;
            store(&target.name, target.span)
        }
        StmtKind::Expr(e) | StmtKind::Assert(e) | StmtKind::Assume(e) => expr(e),
        StmtKind::Print(args) => args.iter().try_for_each(expr),
        StmtKind::Return(e) => e.as_ref().map_or(Ok(()), expr),
        StmtKind::Pass | StmtKind::Break | StmtKind::Continue => Ok(()),
        StmtKind::Havoc(name) => store(&name.name, name.span),
        StmtKind::If { branches, orelse } => {
            for (cond, body) in branches {
                expr(cond)?;
                block(body, depth)?;
            }
            orelse.as_deref().map_or(Ok(()), |b| block(b, depth))
        }
        StmtKind::While {
            cond, body, orelse, ..
        } => {
            let inner = push(depth, 1, s.span)?;
            expr(cond)?;
            block(body, inner)?;
            orelse.as_deref().map_or(Ok(()), |b| block(b, depth))
        }
        StmtKind::For {
            target,
            iter,
            body,
            orelse,
            ..
        } => {
            let inner = push(depth, 1, s.span)?;
            expr(iter)?;
            store(&target.name, target.span)?;
            block(body, inner)?;
            orelse.as_deref().map_or(Ok(()), |b| block(b, depth))
        }
        StmtKind::Try { body, handlers } => {
            block(body, push(depth, 1, s.span)?)?;
            for h in handlers {
                block(&h.body, push(depth, 2, h.span)?)?;
            }
            Ok(())
        }
        StmtKind::FunctionDef(f) => {
            if f.params.iter().any(|p| p.name.name == "__debug__") {
                store("__debug__", s.span)?;
            }
            self::block(&f.body, Scope::Function, 0)?;
            store(&f.name.name, s.span)
        }
        StmtKind::MethodFrame { result, body } => {
            block(body, depth)?;
            store(&result.name, result.span)
        }
        StmtKind::LoopScope { inv, body } => {
            expr(inv)?;
            block(body, depth)
        }
    }
}

/// The quantifier variables in `e` (`all(... for __debug__ in range(n))`), in CPython's
/// order: the range first, then the variable, then the body. Iterative: an expression may
/// be thousands of levels deep.
fn expr(e: &Expr) -> Result<(), Diagnostic> {
    enum Work<'a> {
        Expr(&'a Expr),
        Var(&'a Ident),
    }
    let mut work = vec![Work::Expr(e)];
    while let Some(w) = work.pop() {
        let e = match w {
            Work::Var(v) => {
                store(&v.name, Scope::Function, v.span)?;
                continue;
            }
            Work::Expr(e) => e,
        };
        // Children pushed last-first, so that they are visited in source order.
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) => {}
            ExprKind::Tuple(items) | ExprKind::Call { args: items, .. } => {
                work.extend(items.iter().rev().map(Work::Expr));
            }
            ExprKind::Unary { operand, .. } => work.push(Work::Expr(operand)),
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::BoolOp { lhs, rhs, .. } => {
                work.extend([Work::Expr(rhs), Work::Expr(lhs)]);
            }
            ExprKind::Compare { first, rest } => {
                work.extend(rest.iter().rev().map(|(_, e)| Work::Expr(e)));
                work.push(Work::Expr(first));
            }
            ExprKind::Index { base, index } => {
                work.extend([Work::Expr(index), Work::Expr(base)]);
            }
            ExprKind::Slice { .. } | ExprKind::IfExp { .. } => {
                work.extend(e.children().into_iter().rev().map(Work::Expr));
            }
            ExprKind::Quantifier {
                var, lo, hi, body, ..
            } => {
                work.extend([Work::Expr(body), Work::Var(var), Work::Expr(hi)]);
                if let Some(lo) = lo {
                    work.push(Work::Expr(lo));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
