//! The parser: logical lines (from [`super::lines`]) → pest parse trees → AST.
//!
//! Each logical line is parsed on its own with the `line` rule of `grammar.pest`; pest's
//! positions are relative to the line, so every span is shifted by the line's offset and is
//! exact in the whole file. Block structure (if/elif/else, while/else, try/except, def and
//! the verification blocks) is assembled from the line tree. The first error stops parsing
//! and comes back as a located [`Diagnostic`]; Python constructs that minipy lacks get
//! "... is not supported in minipy" at their position.

use pest::iterators::Pair;
use pest::Parser as _;
use pest_derive::Parser;

use super::ast::*;
use super::lines;
use crate::base::span::Span;
use crate::diagnostics::Diagnostic;

mod blocks;
mod errors;
mod expr;
mod line;
mod markers;
mod simple;

use blocks::{block, Body};

#[derive(Parser)]
#[grammar = "lang/grammar.pest"]
struct Grammar;

type PResult<T> = Result<T, Diagnostic>;

/// The deepest expression minipy accepts: levels of operators, calls, indexing and tuples
/// from a statement down to a leaf. CPython's compiler refuses about the same (a chain of
/// 2,989 `+` or unary minuses is its limit: "RecursionError: maximum recursion depth
/// exceeded during compilation"); `and`/`or` chains, which CPython keeps flat, are not
/// bounded by it (the parser nests long chains as a balanced tree).
pub const MAX_EXPR_DEPTH: usize = 3000;

/// Logical lines longer than this are parsed on a stack of their own of
/// [`PARSE_STACK`] bytes, so pest's stack guard bounds the nesting it accepts whatever
/// the caller's stack (shorter lines cannot nest deeply enough to matter).
const LONG_LINE: usize = 1000;
const PARSE_STACK: usize = 64 << 20;

/// Positions of pest pairs (relative to one logical line) shifted into the file, and the
/// depth of the expression being built (see [`MAX_EXPR_DEPTH`]).
#[derive(Clone, Copy)]
struct Ctx {
    offset: usize,
    depth: usize,
}

impl Ctx {
    fn new(offset: usize) -> Ctx {
        Ctx { offset, depth: 0 }
    }

    fn span(&self, p: &Pair<'_, Rule>) -> Span {
        let s = p.as_span();
        Span::new(self.offset + s.start(), self.offset + s.end())
    }

    /// The context of subexpressions `by` levels below the expression at `at`; an error
    /// past [`MAX_EXPR_DEPTH`].
    fn deeper(self, by: usize, at: Span) -> PResult<Ctx> {
        let depth = self.depth.saturating_add(by);
        if depth > MAX_EXPR_DEPTH {
            return Err(Diagnostic::error(
                "this expression is nested too deeply",
                Span::new(at.start, at.start),
            )
            .with_label(format!(
                "more than {MAX_EXPR_DEPTH} levels of operators, calls or indexing"
            ))
            .with_note("CPython refuses such expressions too (RecursionError during compilation)")
            .with_note("help: split the expression into several assignments"));
        }
        Ok(Ctx { depth, ..self })
    }
}

fn unsupported(what: &str, span: Span) -> Diagnostic {
    Diagnostic::error(format!("{what} not supported in minipy"), span)
}

/// Parse a whole module.
pub fn parse_program(src: &str) -> Result<Program, Vec<Diagnostic>> {
    let tree = lines::scan(src)
        .and_then(lines::blocks)
        .map_err(|d| vec![d])?;
    let body = block(src, &tree, Body::Plain).map_err(|d| vec![d])?;
    Ok(Program {
        body,
        preconditions: Vec::new(),
    })
}

/// Parse one expression (the whole of `src`).
pub fn parse_expression(src: &str) -> Result<Expr, Vec<Diagnostic>> {
    if src.len() > LONG_LINE {
        return stacker::grow(PARSE_STACK, || parse_expression_here(src));
    }
    parse_expression_here(src)
}

fn parse_expression_here(src: &str) -> Result<Expr, Vec<Diagnostic>> {
    let one = |d| vec![d];
    let pairs =
        Grammar::parse(Rule::expr_only, src).map_err(|e| one(errors::from_pest(src, 0, e)))?;
    let cx = Ctx::new(0);
    let top = pairs.into_iter().next().expect("expr_only matched");
    let e = top.into_inner().next().expect("expr_only has an expr");
    expr::expr(cx, e).map_err(one)
}

fn ident(cx: Ctx, p: &Pair<Rule>) -> Ident {
    Ident {
        name: name(p.as_str()),
        span: cx.span(p),
    }
}

/// An identifier as CPython reads it: NFKC-normalised (PEP 3131), so `𝐱` and `ﬁ` name the
/// variables `x` and `fi`. ASCII is its own normal form.
pub(crate) fn name(text: &str) -> String {
    if text.is_ascii() {
        text.to_string()
    } else {
        use unicode_normalization::UnicodeNormalization;
        text.nfkc().collect()
    }
}

#[cfg(test)]
mod tests;
