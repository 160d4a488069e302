//! Simple statements (assignments, `return`, `assert`, `print`, the verification lines
//! as markers, ...), their assignment targets, type annotations and a `def`'s parameters.

use pest::iterators::Pair;

use super::markers::{marker_stmt, ENSURES_MARKER, INVARIANT_MARKER, REQUIRES_MARKER};
use super::{expr, ident, name, unsupported, Ctx, PResult, Rule};
use crate::diagnostics::Diagnostic;
use crate::lang::ast::*;

/// A type annotation. `None` is allowed (and returned as `Ok(None)`) only for return types.
pub(super) fn type_ann(cx: Ctx, p: Pair<Rule>, allow_none: bool) -> PResult<Option<Type>> {
    // The name's own text: the rule's span may run on over what follows the name inside
    // the brackets (a comment, a `\` continuation) when no `[...]` comes.
    let mut inner = p.clone().into_inner();
    let name = inner.next();
    let generic = inner.next().is_some();
    let (span, text) = match name {
        Some(n) if !generic => (cx.span(&n), self::name(n.as_str())),
        _ => (cx.span(&p), self::name(p.as_str().trim())),
    };
    let text = text.as_str();
    if text == "None" {
        if allow_none {
            return Ok(None);
        }
        return Err(
            Diagnostic::error("a parameter cannot have type `None`", span)
                .with_label("expected `int`, `bool` or `tuple`"),
        );
    }
    match text {
        "int" => Ok(Some(Type::Int)),
        "bool" => Ok(Some(Type::Bool)),
        "tuple" => Ok(Some(Type::Tuple)),
        _ if text.contains('[') => Err(Diagnostic::error(
            "generic type annotations are not supported in minipy",
            span,
        )
        .with_label("write plain `tuple` (a flat tuple of ints)")),
        "float" | "str" | "list" | "dict" | "set" | "bytes" | "complex" => {
            Err(unsupported(&format!("the type `{text}` is"), span)
                .with_note("minipy types are `int`, `bool` and `tuple`"))
        }
        _ => Err(Diagnostic::error(format!("unknown type `{text}`"), span)
            .with_label("expected `int`, `bool` or `tuple`")),
    }
}

pub(super) fn params(cx: Ctx, p: Pair<Rule>) -> PResult<Vec<Param>> {
    let mut out = Vec::new();
    for param in p.into_inner().filter(|q| q.as_rule() == Rule::param) {
        let span = cx.span(&param);
        let mut inner = param.into_inner();
        let first = inner.next().expect("param content");
        if first.as_rule() == Rule::star_param {
            return Err(unsupported(
                "`*args`, `**kwargs` and `/` parameters are",
                span,
            ));
        }
        let name = ident(cx, &first);
        let mut ty = None;
        for q in inner {
            match q.as_rule() {
                Rule::type_ann => ty = type_ann(cx, q, false)?,
                Rule::assign_op | Rule::colon => {}
                _ => return Err(unsupported("default parameter values are", cx.span(&q))),
            }
        }
        let Some(ty) = ty else {
            return Err(Diagnostic::error(
                format!("parameter `{}` needs a type annotation", name.name),
                name.span,
            )
            .with_label(format!("write `{}: int` (or `bool`, `tuple`)", name.name)));
        };
        if out.iter().any(|q: &Param| q.name.name == name.name) {
            return Err(Diagnostic::error(
                format!("duplicate parameter `{}`", name.name),
                name.span,
            ));
        }
        out.push(Param { name, ty });
    }
    Ok(out)
}

pub(super) fn simple_stmts(cx: Ctx, p: Pair<Rule>) -> PResult<Vec<Stmt>> {
    p.into_inner()
        .filter(|q| q.as_rule() != Rule::semicolon)
        .map(|q| simple_stmt(cx, q))
        .collect()
}

fn simple_stmt(cx: Ctx, p: Pair<Rule>) -> PResult<Stmt> {
    let span = cx.span(&p);
    let rule = p.as_rule();
    let mut inner = p.into_inner();
    let kind = match rule {
        Rule::pass_stmt => StmtKind::Pass,
        Rule::break_stmt => StmtKind::Break,
        Rule::continue_stmt => StmtKind::Continue,
        Rule::return_stmt => {
            inner.next(); // `return`
            match inner.next() {
                Some(e) => StmtKind::Return(Some(expr::expr_list(cx, e)?)),
                None => StmtKind::Return(None),
            }
        }
        Rule::assert_stmt => {
            inner.next(); // `assert`
            let cond = expr::expr(cx, inner.next().expect("assert expr"))?;
            if let Some(comma) = inner.next() {
                return Err(unsupported(
                    "assertion messages are",
                    cx.span(&comma).to(span),
                ));
            }
            StmtKind::Assert(cond)
        }
        Rule::annotated => {
            let name = ident(cx, &inner.next().expect("name"));
            inner.next(); // colon
            let ty = type_ann(cx, inner.next().expect("type"), false)?.expect("not None");
            match inner.nth(1) {
                Some(value) => StmtKind::Assign {
                    target: name,
                    ann: Some(ty),
                    value: expr::expr_list(cx, value)?,
                },
                None => StmtKind::Declare { name, ty },
            }
        }
        Rule::aug_assign => {
            let target = expr::expr(cx, inner.next().expect("target"))?;
            let op_pair = inner.next().expect("aug op");
            let op_span = cx.span(&op_pair);
            let op = match op_pair.as_str() {
                "+=" => BinOp::Add,
                "-=" => BinOp::Sub,
                "*=" => BinOp::Mul,
                "//=" => BinOp::FloorDiv,
                "%=" => BinOp::Mod,
                s => return Err(expr::unsupported_operator(&s[..s.len() - 1], op_span)),
            };
            let target = assign_target(target)?;
            StmtKind::AugAssign {
                target,
                op,
                value: expr::expr_list(cx, inner.next().expect("value"))?,
            }
        }
        Rule::assign => {
            let parts: Vec<Pair<Rule>> = inner.filter(|q| q.as_rule() == Rule::expr_list).collect();
            if parts.len() > 2 {
                return Err(unsupported("chained assignment (`a = b = 1`) is", span));
            }
            let mut parts = parts.into_iter();
            let target_pair = parts.next().expect("target");
            let target_span = cx.span(&target_pair);
            if target_pair.clone().into_inner().count() > 1 {
                return Err(unsupported(
                    "tuple unpacking (`a, b = ...`) is",
                    target_span,
                ));
            }
            let target = assign_target(expr::expr_list(cx, target_pair)?)?;
            StmtKind::Assign {
                target,
                ann: None,
                value: expr::expr_list(cx, parts.next().expect("value"))?,
            }
        }
        Rule::havoc_stmt => StmtKind::Havoc(ident(cx, &inner.nth(1).expect("havoc name"))),
        Rule::assume_stmt => StmtKind::Assume(expr::expr(cx, inner.nth(1).expect("assume"))?),
        Rule::invariant_stmt => {
            // Kept as an Assume-shaped marker; `block` moves it into the loop's invariants.
            let e = expr::expr(cx, inner.nth(1).expect("invariant"))?;
            return Ok(Stmt {
                kind: StmtKind::Expr(Expr {
                    kind: ExprKind::Call {
                        func: Ident {
                            name: INVARIANT_MARKER.to_string(),
                            span,
                        },
                        args: vec![e],
                    },
                    span,
                }),
                span,
            });
        }
        Rule::requires_stmt | Rule::ensures_stmt => {
            // Markers like `invariant` lines; `compound` moves them into the `def`'s contract.
            let marker = if inner.peek().map(|p| p.as_rule()) == Some(Rule::kw_requires) {
                REQUIRES_MARKER
            } else {
                ENSURES_MARKER
            };
            let e = expr::expr(cx, inner.nth(1).expect("contract line"))?;
            return Ok(marker_stmt(marker, e, span));
        }
        Rule::expr_stmt => match expr::expr_list(cx, inner.next().expect("expr"))? {
            Expr {
                kind: ExprKind::Call { func, args },
                ..
            } if func.name == "print" => StmtKind::Print(args),
            e => StmtKind::Expr(e),
        },
        r => unreachable!("not a simple statement: {r:?}"),
    };
    Ok(Stmt { kind, span })
}

fn assign_target(e: Expr) -> PResult<Ident> {
    match e.kind {
        ExprKind::Name(name) => Ok(Ident { name, span: e.span }),
        ExprKind::Index { .. } => Err(Diagnostic::error(
            "tuples are immutable: item assignment is not supported",
            e.span,
        )
        .with_label("cannot assign to an element")
        .with_note("help: build a new tuple, e.g. `t = t[:i] + (v,) + t[i + 1:]`")),
        ExprKind::Slice { .. } => Err(Diagnostic::error(
            "tuples are immutable: slice assignment is not supported",
            e.span,
        )
        .with_label("cannot assign to a slice")
        .with_note("help: build a new tuple, e.g. `t = t[:a] + u + t[b:]`")),
        ExprKind::Tuple(_) => Err(unsupported("tuple unpacking (`a, b = ...`) is", e.span)),
        _ => Err(
            Diagnostic::error("cannot assign to this expression", e.span)
                .with_label("expected a variable name"),
        ),
    }
}
