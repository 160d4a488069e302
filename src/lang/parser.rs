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
use super::lines::{self, LineNode};
use crate::base::span::Span;
use crate::diagnostics::Diagnostic;

mod errors;
mod expr;

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

/// A compound header line: the header, its span and its inline body.
type HeaderLine = (Header, Span, Option<Vec<Stmt>>);

/// A parsed logical line, before blocks are attached.
enum Line {
    Simple(Vec<Stmt>),
    /// A compound header with its inline body (`if x: y = 1`), if any.
    Header(Header, Span, Option<Vec<Stmt>>),
    Decorator(Ident),
}

enum Header {
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
    fn keyword(&self) -> &'static str {
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
fn parse_line(src: &str, node: &LineNode) -> PResult<Line> {
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

/// A type annotation. `None` is allowed (and returned as `Ok(None)`) only for return types.
fn type_ann(cx: Ctx, p: Pair<Rule>, allow_none: bool) -> PResult<Option<Type>> {
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

fn params(cx: Ctx, p: Pair<Rule>) -> PResult<Vec<Param>> {
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

fn simple_stmts(cx: Ctx, p: Pair<Rule>) -> PResult<Vec<Stmt>> {
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

/// `invariant e` lines travel from the line parser to `block` disguised as a call of this
/// name (which is not a valid identifier, so no program can write it).
const INVARIANT_MARKER: &str = "invariant ";

/// The markers of `requires e` / `ensures e` lines (see [`INVARIANT_MARKER`]).
const REQUIRES_MARKER: &str = "requires ";
const ENSURES_MARKER: &str = "ensures ";

/// Whose body a block is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Body {
    Plain,
    /// A `while` or `for` body: may start with `invariant` lines.
    Loop,
    /// A `def` body: may start with `requires`/`ensures` lines.
    Def,
}

fn marker_stmt(marker: &str, e: Expr, span: Span) -> Stmt {
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
fn take_contract(s: &Stmt) -> Option<(&'static str, &Expr)> {
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
fn contract_misplaced(marker: &str, span: Span) -> Diagnostic {
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

fn take_invariant(s: &Stmt) -> Option<&Expr> {
    match &s.kind {
        StmtKind::Expr(Expr {
            kind: ExprKind::Call { func, args },
            ..
        }) if func.name == INVARIANT_MARKER => args.first(),
        _ => None,
    }
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

/// Build the statements of one block (a list of sibling lines with their children).
/// `body` says whose body `lines` is (a loop's may start with `invariant` lines, a
/// `def`'s with `requires`/`ensures` lines).
fn block(src: &str, nodes: &[LineNode], body: Body) -> PResult<Vec<Stmt>> {
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

#[cfg(test)]
mod tests;
