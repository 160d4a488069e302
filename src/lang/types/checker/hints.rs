//! Small helpers for building diagnostics: type mismatches, articles, short source text,
//! "a similar name exists" suggestions.

use crate::diagnostics::Diagnostic;
use crate::lang::ast::{Expr, ExprKind, Type};
use crate::lang::Span;

pub(super) fn mismatch(span: Span, expected: Type, found: Type) -> Diagnostic {
    Diagnostic::error(
        format!("mismatched types: expected `{expected}`, found `{found}`"),
        span,
    )
    .with_label(format!("expected `{expected}`, found `{found}`"))
}

/// `int` → "an `int`".
pub(super) fn a(t: Type) -> String {
    match t {
        Type::Int => "an `int`".into(),
        _ => format!("a `{t}`"),
    }
}

pub(super) fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Short source text for simple expressions (names, literals), for help messages.
pub(super) fn show(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Name(n) => Some(n.clone()),
        ExprKind::Int(i) => Some(i.to_string()),
        ExprKind::Index { base, index } => Some(format!("{}[{}]", show(base)?, show(index)?)),
        ExprKind::Call { func, args } => {
            let args: Option<Vec<String>> = args.iter().map(show).collect();
            Some(format!("{}({})", func.name, args?.join(", ")))
        }
        _ => None,
    }
}

/// Edit distance, for "a similar name exists" suggestions.
pub(super) fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The candidate closest to `name`, if it is close enough to be a likely typo.
pub(super) fn similar<'s>(
    name: &str,
    candidates: impl IntoIterator<Item = &'s str>,
) -> Option<&'s str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c)
}
