//! What python3 runs of a minipy program: programs with verification statements python3
//! cannot run are refused; `invariant` lines are left out (the pytest loader blanks them).

use crate::diagnostics::Diagnostic;
use crate::lang::ast::{Program, Stmt, StmtKind};

/// Refuse a program that python3 cannot run: one with verification statements other than
/// `invariant`, `requires` and `ensures` lines (`assume`, `havoc`, `loop-scope`,
/// `method-frame`). `invariant` lines are annotations of a loop: the tests run the program
/// without them ([`without_invariants`]; the pytest loader blanks them); contract lines
/// are checked by the loader as `exec` checks them ([`contracts`]).
pub fn refuse_non_python(program: &Program) -> Result<(), Diagnostic> {
    fn find(body: &[Stmt]) -> Option<(&'static str, &Stmt)> {
        for s in body {
            let kind = match &s.kind {
                StmtKind::Havoc(_) => Some("havoc"),
                StmtKind::Assume(_) => Some("assume"),
                StmtKind::LoopScope { .. } => Some("loop-scope"),
                StmtKind::MethodFrame { .. } => Some("method-frame"),
                // (`requires`/`ensures` lines are checked by the tests' loader, issue 28)
                _ => None,
            };
            if let Some(k) = kind {
                return Some((k, s));
            }
            let nested = match &s.kind {
                StmtKind::FunctionDef(f) => find(&f.body),
                _ => s.nested_blocks().into_iter().find_map(find),
            };
            if nested.is_some() {
                return nested;
            }
        }
        None
    }
    match find(&program.body) {
        None => Ok(()),
        Some((kind, stmt)) => Err(Diagnostic::error(
            format!("`{kind}` is not Python: the generated tests run the program under python3"),
            stmt.span,
        )
        .with_label("a verification statement")
        .with_note("testgen writes tests for minipy programs that are Python once their `invariant` lines are removed (`@predicate` and `requires`/`ensures` lines are fine); remove the other verification statements, or explore with `symdbg run`")),
    }
}

/// Does the program have `invariant` lines?
pub fn has_invariants(program: &Program) -> bool {
    fn any(body: &[Stmt]) -> bool {
        body.iter().any(|s| match &s.kind {
            StmtKind::While { invariants, .. } | StmtKind::For { invariants, .. }
                if !invariants.is_empty() =>
            {
                true
            }
            StmtKind::FunctionDef(f) => any(&f.body),
            _ => s.nested_blocks().into_iter().any(any),
        })
    }
    any(&program.body)
}

/// The program without its `invariant` lines: what CPython runs (spans unchanged).
pub fn without_invariants(program: &Program) -> Program {
    fn strip(body: &mut [Stmt]) {
        for s in body {
            match &mut s.kind {
                StmtKind::While {
                    invariants,
                    body,
                    orelse,
                    ..
                }
                | StmtKind::For {
                    invariants,
                    body,
                    orelse,
                    ..
                } => {
                    invariants.clear();
                    strip(body);
                    if let Some(b) = orelse {
                        strip(b);
                    }
                }
                StmtKind::If { branches, orelse } => {
                    branches.iter_mut().for_each(|(_, b)| strip(b));
                    if let Some(b) = orelse {
                        strip(b);
                    }
                }
                StmtKind::Try { body, handlers } => {
                    strip(body);
                    handlers.iter_mut().for_each(|h| strip(&mut h.body));
                }
                StmtKind::FunctionDef(f) => strip(&mut f.body),
                StmtKind::MethodFrame { body, .. } | StmtKind::LoopScope { body, .. } => {
                    strip(body)
                }
                _ => {}
            }
        }
    }
    let mut p = program.clone();
    strip(&mut p.body);
    p
}
