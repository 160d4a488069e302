//! One logical line parsed on its own ([`parse_line`]): simple statements, a decorator,
//! or the header of a compound statement ([`Header`], with its inline body); the
//! statements minipy lacks, refused at their keyword; a `for` loop's target and iterable.

use pest::iterators::Pair;
use pest::Parser as _;

use super::simple::{params, simple_stmts, type_ann};
use super::{errors, expr, ident, unsupported, Ctx, Grammar, PResult, Rule};
use super::{LONG_LINE, PARSE_STACK};
use crate::base::span::Span;
use crate::diagnostics::Diagnostic;
use crate::lang::ast::*;
use crate::lang::lines::LineNode;

/// A compound header line: the header, its span and its inline body.
pub(super) type HeaderLine = (Header, Span, Option<Vec<Stmt>>);

/// A parsed logical line, before blocks are attached.
pub(super) enum Line {
    Simple(Vec<Stmt>),
    /// A compound header with its inline body (`if x: y = 1`), if any.
    Header(Header, Span, Option<Vec<Stmt>>),
    Decorator(Ident),
}

pub(super) enum Header {
    If(Expr),
    Elif(Expr),
    Else,
    While(Expr),
    For(Ident, Expr),
    Try,
    Except(Option<Ident>),
    Def {
        name: Ident,
        params: Vec<Param>,
        ret: Option<Type>,
    },
    MethodFrame(Ident),
    LoopScope(Expr),
}

impl Header {
    pub(super) fn keyword(&self) -> &'static str {
        match self {
            Header::If(_) => "if",
            Header::Elif(_) => "elif",
            Header::Else => "else",
            Header::While(_) => "while",
            Header::For(..) => "for",
            Header::Try => "try",
            Header::Except(_) => "except",
            Header::Def { .. } => "def",
            Header::MethodFrame(_) => "method-frame",
            Header::LoopScope(_) => "loop-scope",
        }
    }
}

/// Parse one logical line.
pub(super) fn parse_line(src: &str, node: &LineNode) -> PResult<Line> {
    let span = node.line.span;
    if span.end - span.start > LONG_LINE {
        return stacker::grow(PARSE_STACK, || parse_line_here(src, node));
    }
    parse_line_here(src, node)
}

fn parse_line_here(src: &str, node: &LineNode) -> PResult<Line> {
    let span = node.line.span;
    let text = &src[span.start..span.end];
    let pairs =
        Grammar::parse(Rule::line, text).map_err(|e| errors::from_pest(src, span.start, e))?;
    let cx = Ctx::new(span.start);
    let line = pairs.into_iter().next().expect("line matched");
    let item = line.into_inner().next().expect("line has content");
    match item.as_rule() {
        Rule::unsupported_stmt => Err(unsupported_statement(cx, item)),
        Rule::simple_stmts => Ok(Line::Simple(simple_stmts(cx, item)?)),
        Rule::decorator => {
            let e = expr::expr(cx, item.into_inner().next().expect("decorator expr"))?;
            match e.kind {
                ExprKind::Name(name) if name == "predicate" => {
                    Ok(Line::Decorator(Ident { name, span: e.span }))
                }
                _ => Err(Diagnostic::error(
                    "only the `@predicate` decorator is supported in minipy",
                    e.span,
                )),
            }
        }
        _ => header(cx, item, span),
    }
}

fn unsupported_statement(cx: Ctx, item: Pair<Rule>) -> Diagnostic {
    let kw = item.into_inner().next().expect("keyword");
    let span = cx.span(&kw);
    let (what, note) = match kw.as_str() {
        "class" => ("classes are", None),
        "import" | "from" => ("imports are", None),
        "global" | "nonlocal" => (
            "`global` and `nonlocal` are",
            Some("functions may read module variables, but not assign them"),
        ),
        "with" => ("`with` statements are", None),
        "raise" => ("`raise` is", Some("use `assert` to signal an error")),
        "del" => ("`del` is", None),
        "yield" => ("generators (`yield`) are", None),
        "async" | "await" => ("async code is", None),
        "lambda" => ("`lambda` is", None),
        "match" | "case" => ("`match` statements are", None),
        "type" => ("type aliases are", None),
        _ => (
            "`print` without parentheses (Python 2) is",
            Some("call it: `print(x, y)`"),
        ),
    };
    let mut d = unsupported(what, span);
    if let Some(n) = note {
        d = d.with_note(format!("help: {n}"));
    }
    d
}

fn header(cx: Ctx, item: Pair<Rule>, line: Span) -> PResult<Line> {
    let rule = item.as_rule();
    let mut inner = item.into_inner().peekable();
    // Skip the keyword token(s).
    let mut parts = Vec::new();
    let mut inline = None;
    for p in inner.by_ref() {
        match p.as_rule() {
            Rule::simple_stmts => inline = Some(simple_stmts(cx, p)?),
            Rule::kw_if
            | Rule::kw_elif
            | Rule::kw_else
            | Rule::kw_while
            | Rule::kw_for
            | Rule::kw_in
            | Rule::kw_try
            | Rule::kw_except
            | Rule::kw_def
            | Rule::colon
            | Rule::lparen
            | Rule::rparen
            | Rule::arrow
            | Rule::assign_op => {}
            _ => parts.push(p),
        }
    }
    let mut parts = parts.into_iter();
    let mut next = || parts.next().expect("header part");
    let h = match rule {
        Rule::if_header => Header::If(expr::expr(cx, next())?),
        Rule::elif_header => Header::Elif(expr::expr(cx, next())?),
        Rule::else_header => Header::Else,
        Rule::while_header => Header::While(expr::expr(cx, next())?),
        Rule::for_header => {
            let target = for_target(cx, next())?;
            Header::For(target, for_iter(cx, next())?)
        }
        Rule::try_header => Header::Try,
        Rule::finally_header => {
            return Err(unsupported(
                "`finally` is",
                Span::new(line.start, line.start + 7),
            ))
        }
        Rule::except_header => {
            let mut class = None;
            for p in parts.by_ref() {
                match p.as_rule() {
                    Rule::except_as => {
                        return Err(unsupported("`except ... as name` is", cx.span(&p)))
                    }
                    _ => {
                        let e = expr::expr(cx, p.into_inner().next().expect("class"))?;
                        match e.kind {
                            ExprKind::Name(name) => class = Some(Ident { name, span: e.span }),
                            _ => {
                                return Err(Diagnostic::error(
                                    "expected the name of one exception class",
                                    e.span,
                                )
                                .with_label(
                                    "write `except ZeroDivisionError:`, or a bare `except:`",
                                ))
                            }
                        }
                    }
                }
            }
            Header::Except(class)
        }
        Rule::def_header => {
            let name = ident(cx, &next());
            // Refused here, before any call of it is parsed: the same message as the type
            // checker's for every builtin name.
            if is_builtin_name(&name.name) {
                return Err(Diagnostic::error(
                    format!("`{}` is a builtin name and cannot be redefined", name.name),
                    name.span,
                )
                .with_label("redefines a builtin")
                .with_note("help: choose another name for the function"));
            }
            let mut params = Vec::new();
            let mut ret = None;
            for p in parts.by_ref() {
                match p.as_rule() {
                    Rule::params => params = self::params(cx, p)?,
                    Rule::type_ann => {
                        ret = type_ann(cx, p, true)?;
                    }
                    _ => {}
                }
            }
            Header::Def { name, params, ret }
        }
        Rule::method_frame_header => Header::MethodFrame(ident(cx, &next())),
        Rule::loop_scope_header => Header::LoopScope(expr::expr(cx, next())?),
        _ => unreachable!("compound rules are listed in the grammar"),
    };
    // The statement's span covers the header up to and including the colon.
    Ok(Line::Header(h, line, inline))
}

/// A `for` loop's target: one name (tuple unpacking and other targets are refused).
fn for_target(cx: Ctx, p: Pair<Rule>) -> PResult<Ident> {
    let span = cx.span(&p);
    let items: Vec<Pair<Rule>> = p.into_inner().collect();
    if items.len() > 1 {
        return Err(unsupported("tuple unpacking in a `for` target is", span)
            .with_label("expected one variable name")
            .with_note("help: write `for x in t:` and index inside the body"));
    }
    let target = expr::expr(cx, items.into_iter().next().expect("a target"))?;
    match target.kind {
        ExprKind::Name(name) => Ok(Ident {
            name,
            span: target.span,
        }),
        ExprKind::Tuple(_) => Err(
            unsupported("tuple unpacking in a `for` target is", target.span)
                .with_label("expected one variable name"),
        ),
        _ => Err(
            Diagnostic::error("cannot use this expression as a `for` target", target.span)
                .with_label("expected a variable name"),
        ),
    }
}

/// A `for` loop's iterable: `range(...)` with one to three arguments, or an expression
/// (the type checker wants a tuple).
fn for_iter(cx: Ctx, p: Pair<Rule>) -> PResult<Expr> {
    let span = cx.span(&p);
    let mut items = p.clone().into_inner();
    if let (Some(only), None) = (items.next(), items.next()) {
        if let Some(args) = expr::range_args(cx, only.clone()) {
            let args = args?;
            if !(1..=3).contains(&args.len()) {
                let got = args.len();
                return Err(Diagnostic::error(
                    format!("`range` takes 1 to 3 arguments, not {got}"),
                    span,
                )
                .with_label(
                    "expected `range(stop)`, `range(start, stop)` or `range(start, stop, step)`",
                ));
            }
            let func_start = cx.offset + only.as_span().start();
            let name_end = func_start + "range".len();
            // The call `range(...)`, without whitespace the rule may have taken after it.
            let span = Span::new(func_start, func_start + only.as_str().trim_end().len());
            return Ok(Expr {
                kind: ExprKind::Call {
                    func: Ident {
                        name: "range".to_string(),
                        span: Span::new(func_start, name_end),
                    },
                    args,
                },
                span,
            });
        }
    }
    expr::expr_list(cx, p)
}
