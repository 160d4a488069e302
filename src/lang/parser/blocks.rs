//! Block structure: sibling lines (from [`crate::lang::lines`]) assembled into statements;
//! a header's suite, its continuation clauses (`elif`, `else`, `except`), a loop's
//! invariants and a `def`'s contract taken from the top of their bodies.

use super::line::{parse_line, Header, HeaderLine, Line};
use super::markers::{contract_misplaced, take_contract, take_invariant, REQUIRES_MARKER};
use super::{unsupported, PResult};
use crate::base::span::Span;
use crate::diagnostics::Diagnostic;
use crate::lang::ast::*;
use crate::lang::lines::LineNode;

/// Whose body a block is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Body {
    Plain,
    /// A `while` or `for` body: may start with `invariant` lines.
    Loop,
    /// A `def` body: may start with `requires`/`ensures` lines.
    Def,
}

/// Build the statements of one block (a list of sibling lines with their children).
/// `body` says whose body `lines` is (a loop's may start with `invariant` lines, a
/// `def`'s with `requires`/`ensures` lines).
pub(super) fn block(src: &str, nodes: &[LineNode], body: Body) -> PResult<Vec<Stmt>> {
    let mut out: Vec<Stmt> = Vec::new();
    let mut i = 0;
    let mut pending_decorator: Option<Ident> = None;
    let mut invariants_allowed = body == Body::Loop;
    let mut contract_allowed = body == Body::Def;
    while i < nodes.len() {
        let node = &nodes[i];
        i += 1;
        let line = parse_line(src, node)?;
        if let Some(dec) = &pending_decorator {
            if !matches!(line, Line::Header(Header::Def { .. }, ..)) {
                return Err(Diagnostic::error(
                    "`@predicate` must be followed by a `def`",
                    dec.span,
                ));
            }
        }
        match line {
            Line::Simple(stmts) => {
                if let Some(child) = node.children.first() {
                    return Err(indent_error(child));
                }
                for s in stmts {
                    if let Some((kw, _)) = take_contract(&s) {
                        if !contract_allowed {
                            return Err(contract_misplaced(kw, s.span));
                        }
                        out.push(s);
                        continue;
                    }
                    contract_allowed = false;
                    if take_invariant(&s).is_some() && !invariants_allowed {
                        return Err(Diagnostic::error(
                            "`invariant` lines must come first in a `while` or `for` body",
                            s.span,
                        ));
                    }
                    if take_invariant(&s).is_none() {
                        invariants_allowed = false;
                    }
                    out.push(s);
                }
            }
            Line::Decorator(id) => {
                contract_allowed = false;
                if !node.children.is_empty() {
                    return Err(indent_error(&node.children[0]));
                }
                pending_decorator = Some(id);
            }
            Line::Header(h, span, inline) => {
                invariants_allowed = false;
                contract_allowed = false;
                let stmt = compound(
                    src,
                    nodes,
                    &mut i,
                    node,
                    h,
                    span,
                    inline,
                    &mut pending_decorator,
                )?;
                out.push(stmt);
            }
        }
    }
    if let Some(dec) = pending_decorator {
        return Err(Diagnostic::error(
            "`@predicate` must be followed by a `def`",
            dec.span,
        ));
    }
    Ok(out)
}

fn indent_error(child: &LineNode) -> Diagnostic {
    Diagnostic::error(
        "unexpected indent",
        Span::new(child.line.line_start, child.line.span.start),
    )
    .with_label("only a line ending in `:` opens an indented block")
}

/// The body of a header: its inline statements or its indented block.
fn suite(
    src: &str,
    node: &LineNode,
    kw: &str,
    span: Span,
    inline: Option<Vec<Stmt>>,
    body: Body,
) -> PResult<Vec<Stmt>> {
    match inline {
        Some(stmts) => {
            if let Some(child) = node.children.first() {
                return Err(indent_error(child));
            }
            if let Some((kw, s)) = stmts
                .iter()
                .find_map(|s| take_contract(s).map(|(kw, _)| (kw, s)))
            {
                return Err(contract_misplaced(kw, s.span).with_note(
                    "help: write each contract line on its own line, first in the body",
                ));
            }
            if let Some(s) = stmts.iter().find(|s| take_invariant(s).is_some()) {
                return Err(Diagnostic::error(
                    "`invariant` lines must come first in a `while` or `for` body, each on its own line",
                    s.span,
                ));
            }
            Ok(stmts)
        }
        None if node.children.is_empty() => Err(Diagnostic::error(
            format!("expected an indented block after `{kw}`"),
            Span::new(span.end, span.end),
        )
        .with_label(format!("the `{kw}` line needs a body indented below it"))),
        None => block(src, &node.children, body),
    }
}

/// Peek the next sibling's header, if it is one.
fn peek_header(src: &str, nodes: &[LineNode], i: usize) -> PResult<Option<HeaderLine>> {
    let Some(node) = nodes.get(i) else {
        return Ok(None);
    };
    // Only lines starting with a continuation keyword matter here; avoid reparsing others.
    let text = &src[node.line.span.start..node.line.span.end];
    let starts = |kw: &str| {
        text.starts_with(kw)
            && !text[kw.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
    };
    if !(starts("elif") || starts("else") || starts("except") || starts("finally")) {
        return Ok(None);
    }
    match parse_line(src, node)? {
        Line::Header(h, span, inline) => Ok(Some((h, span, inline))),
        _ => Ok(None),
    }
}

#[allow(clippy::too_many_arguments)]
fn compound(
    src: &str,
    nodes: &[LineNode],
    i: &mut usize,
    node: &LineNode,
    h: Header,
    span: Span,
    inline: Option<Vec<Stmt>>,
    decorator: &mut Option<Ident>,
) -> PResult<Stmt> {
    let kw = h.keyword();
    let kind = match h {
        Header::If(cond) => {
            let mut branches = vec![(cond, suite(src, node, kw, span, inline, Body::Plain)?)];
            let mut orelse = None;
            while let Some((h2, span2, inline2)) = peek_header(src, nodes, *i)? {
                let n2 = &nodes[*i];
                match h2 {
                    Header::Elif(c) => {
                        *i += 1;
                        branches.push((c, suite(src, n2, "elif", span2, inline2, Body::Plain)?));
                    }
                    Header::Else => {
                        *i += 1;
                        orelse = Some(suite(src, n2, "else", span2, inline2, Body::Plain)?);
                        break;
                    }
                    _ => break,
                }
            }
            StmtKind::If { branches, orelse }
        }
        Header::While(cond) => {
            let (invariants, body, orelse) = loop_parts(src, nodes, i, node, kw, span, inline)?;
            StmtKind::While {
                cond,
                invariants,
                body,
                orelse,
            }
        }
        Header::For(target, iter) => {
            let (invariants, body, orelse) = loop_parts(src, nodes, i, node, kw, span, inline)?;
            StmtKind::For {
                target,
                iter,
                invariants,
                body,
                orelse,
            }
        }
        Header::Try => {
            let body = suite(src, node, kw, span, inline, Body::Plain)?;
            let mut handlers = Vec::new();
            while let Some((h2, span2, inline2)) = peek_header(src, nodes, *i)? {
                let n2 = &nodes[*i];
                match h2 {
                    Header::Except(class) => {
                        *i += 1;
                        if let Some(prev) = handlers.last() {
                            let prev: &Handler = prev;
                            if prev.class.is_none() {
                                return Err(Diagnostic::error(
                                    "a bare `except:` must be the last handler",
                                    prev.span,
                                ));
                            }
                        }
                        let body = suite(src, n2, "except", span2, inline2, Body::Plain)?;
                        handlers.push(Handler {
                            class,
                            body,
                            span: span2,
                        });
                    }
                    Header::Else if !handlers.is_empty() => {
                        return Err(unsupported(
                            "`else` after `try` is",
                            Span::new(span2.start, span2.start + 4),
                        ))
                    }
                    _ => break,
                }
            }
            if handlers.is_empty() {
                return Err(Diagnostic::error(
                    "expected `except` after the `try` block",
                    Span::new(span.start, span.start + 3),
                )
                .with_label("this `try` has no `except` clause"));
            }
            StmtKind::Try { body, handlers }
        }
        Header::Def { name, params, ret } => {
            let mut contract = Contract::default();
            let mut body = Vec::new();
            for s in suite(src, node, kw, span, inline, Body::Def)? {
                match take_contract(&s) {
                    Some((REQUIRES_MARKER, e)) => contract.requires.push(e.clone()),
                    Some((_, e)) => contract.ensures.push(e.clone()),
                    None => body.push(s),
                }
            }
            if body.is_empty() {
                return Err(Diagnostic::error(
                    format!("expected a body after the contract of `{}`", name.name),
                    Span::new(span.start, header_end(src, span)),
                )
                .with_label("the `def` has only `requires`/`ensures` lines")
                .with_note("help: the statements of the function follow its contract lines"));
            }
            StmtKind::FunctionDef(FunctionDef {
                name,
                params,
                ret,
                body,
                predicate: decorator.take().is_some(),
                contract,
            })
        }
        Header::MethodFrame(result) => StmtKind::MethodFrame {
            result,
            body: suite(src, node, kw, span, inline, Body::Plain)?,
        },
        Header::LoopScope(inv) => StmtKind::LoopScope {
            inv,
            body: suite(src, node, kw, span, inline, Body::Plain)?,
        },
        Header::Elif(_) | Header::Else | Header::Except(_) => {
            let what = match kw {
                "except" => "`except` without a matching `try`",
                "elif" => "`elif` without a matching `if`",
                _ => "`else` without a matching `if`, `while`, `for` or `try`",
            };
            return Err(
                Diagnostic::error(what, Span::new(span.start, span.start + kw.len()))
                    .with_label("check the indentation of this line"),
            );
        }
    };
    let header_end = header_end(src, span);
    Ok(Stmt {
        kind,
        span: Span::new(span.start, header_end),
    })
}

/// A loop's leading `invariant` lines, its body and its `else:` block.
type LoopParts = (Vec<Expr>, Vec<Stmt>, Option<Vec<Stmt>>);

fn loop_parts(
    src: &str,
    nodes: &[LineNode],
    i: &mut usize,
    node: &LineNode,
    kw: &str,
    span: Span,
    inline: Option<Vec<Stmt>>,
) -> PResult<LoopParts> {
    let all = suite(src, node, kw, span, inline, Body::Loop)?;
    let mut invariants = Vec::new();
    let mut body = Vec::new();
    for s in all {
        match take_invariant(&s) {
            Some(e) if body.is_empty() => invariants.push(e.clone()),
            _ => body.push(s),
        }
    }
    let mut orelse = None;
    if let Some((Header::Else, span2, inline2)) = peek_header(src, nodes, *i)? {
        let n2 = &nodes[*i];
        *i += 1;
        orelse = Some(suite(src, n2, "else", span2, inline2, Body::Plain)?);
    }
    Ok((invariants, body, orelse))
}

/// The end of a compound statement's header: the end of its first physical line.
fn header_end(src: &str, span: Span) -> usize {
    src[span.start..span.end]
        .find('\n')
        .map_or(span.end, |k| span.start + k)
}
