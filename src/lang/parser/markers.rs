//! The verification lines (`invariant e`, `requires e`, `ensures e`) between the line
//! parser and the block builder: each travels as a call of a marker name no program can
//! write, and is taken out again where its block is assembled.

use crate::base::span::Span;
use crate::diagnostics::Diagnostic;
use crate::lang::ast::*;

/// `invariant e` lines travel from the line parser to `block` disguised as a call of this
/// name (which is not a valid identifier, so no program can write it).
pub(super) const INVARIANT_MARKER: &str = "invariant ";

/// The markers of `requires e` / `ensures e` lines (see [`INVARIANT_MARKER`]).
pub(super) const REQUIRES_MARKER: &str = "requires ";
pub(super) const ENSURES_MARKER: &str = "ensures ";

pub(super) fn marker_stmt(marker: &str, e: Expr, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Expr(Expr {
            kind: ExprKind::Call {
                func: Ident {
                    name: marker.to_string(),
                    span,
                },
                args: vec![e],
            },
            span,
        }),
        span,
    }
}

/// A contract line's marker (`"requires "` or `"ensures "`) and expression.
pub(super) fn take_contract(s: &Stmt) -> Option<(&'static str, &Expr)> {
    match &s.kind {
        StmtKind::Expr(Expr {
            kind: ExprKind::Call { func, args },
            ..
        }) => [REQUIRES_MARKER, ENSURES_MARKER]
            .into_iter()
            .find(|m| func.name == *m)
            .zip(args.first()),
        _ => None,
    }
}

/// A `requires`/`ensures` line outside the top of a `def` body.
pub(super) fn contract_misplaced(marker: &str, span: Span) -> Diagnostic {
    let kw = marker.trim_end();
    Diagnostic::error(
        format!("`{kw}` lines must come first in a `def` body"),
        span,
    )
    .with_label(format!("`{kw}` here is not at the top of a function body"))
    .with_note(format!(
        "note: `{kw} e` is a contract line: it may only start the body of a `def`, before \
         its first statement"
    ))
}

pub(super) fn take_invariant(s: &Stmt) -> Option<&Expr> {
    match &s.kind {
        StmtKind::Expr(Expr {
            kind: ExprKind::Call { func, args },
            ..
        }) if func.name == INVARIANT_MARKER => args.first(),
        _ => None,
    }
}
