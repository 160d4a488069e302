//! Small helpers for building diagnostics: type mismatches, articles, short source text,
//! "a similar name exists" suggestions.

use crate::base::Span;
use crate::diagnostics::Diagnostic;
use crate::lang::ast::{Expr, Type};
use crate::lang::pretty;

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

/// The source text of an expression for help messages, if it is short enough to quote.
pub(super) fn show(e: &Expr) -> Option<String> {
    Some(pretty::expr(e)).filter(|s| s.chars().count() <= 40)
}

/// Edit distance, for "a similar name exists" suggestions.
pub(super) fn distance(a: &str, b: &str) -> usize {
    // Optimal string alignment distance: Levenshtein plus adjacent transpositions.
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The candidate closest to `name`, if it is close enough to be a likely typo.
pub(super) fn similar<'s>(
    name: &str,
    candidates: impl IntoIterator<Item = &'s str>,
) -> Option<&'s str> {
    let len = name.chars().count();
    if len < 3 {
        return None; // every short name is "close" to every other
    }
    let limit = (len / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c)
}
