//! Expressions: pest pairs → [`Expr`], with "not supported" diagnostics for the Python
//! expressions minipy lacks.

use num_bigint::BigInt;
use pest::iterators::Pair;

use super::{unsupported, Ctx, PResult, Rule};
use crate::base::span::Span;
use crate::diagnostics::Diagnostic;
use crate::lang::ast::*;

pub(super) fn unsupported_operator(op: &str, span: Span) -> Diagnostic {
    match op {
        "/" => unsupported("true division `/` is", span)
            .with_label("minipy has only integer division")
            .with_note("help: use floor division `//`"),
        "**" => unsupported("the power operator `**` is", span)
            .with_note("help: multiply explicitly, e.g. `x * x`"),
        "@" => unsupported("matrix multiplication `@` is", span),
        "~" | "|" | "^" | "&" | "<<" | ">>" => {
            unsupported(&format!("the bitwise operator `{op}` is"), span)
        }
        "is" | "is not" => unsupported(&format!("`{op}` is"), span).with_note(format!(
            "help: compare values with `{}`",
            if op == "is" { "==" } else { "!=" }
        )),
        "<>" => Diagnostic::error("`<>` is not Python 3", span).with_note("help: use `!=`"),
        _ => unsupported(&format!("the operator `{op}` is"), span),
    }
}

/// `expr_list`: one expression, or a parenthesis-free tuple `a, b` / `a,`.
pub(super) fn expr_list(cx: Ctx, p: Pair<Rule>) -> PResult<Expr> {
    let span = cx.span(&p);
    let parts: Vec<Pair<Rule>> = p.into_inner().collect();
    let commas = parts.iter().filter(|q| q.as_rule() == Rule::comma).count();
    let sub = if commas == 0 { cx } else { cx.deeper(1, span)? };
    let mut items = Vec::new();
    for q in parts {
        if q.as_rule() != Rule::comma {
            items.push(expr(sub, q)?);
        }
    }
    if commas == 0 && items.len() == 1 {
        return Ok(items.pop().expect("one item"));
    }
    Ok(Expr {
        kind: ExprKind::Tuple(items),
        span,
    })
}

pub(super) fn expr(cx: Ctx, p: Pair<Rule>) -> PResult<Expr> {
    let span = cx.span(&p);
    match p.as_rule() {
        Rule::expr => {
            let mut inner = p.into_inner();
            let Some(tail) = inner.clone().nth(1) else {
                return expr(cx, inner.next().expect("or_test"));
            };
            // `then if cond else orelse`: one level around its three parts (an `orelse`
            // that is itself conditional nests one deeper, as in CPython).
            let cx = cx.deeper(1, span)?;
            let then = expr(cx, inner.next().expect("or_test"))?;
            let tail_span = cx.span(&tail);
            let mut parts = tail.into_inner();
            parts.next(); // if
            let cond = expr(cx, parts.next().expect("condition"))?;
            if parts.next().is_none() {
                return Err(
                    Diagnostic::error("expected `else` after `if` expression", tail_span)
                        .with_label("a conditional expression needs an `else`")
                        .with_note("help: write `a if c else b`"),
                );
            }
            let orelse = expr(cx, parts.next().expect("else branch"))?;
            Ok(Expr {
                span,
                kind: ExprKind::IfExp {
                    cond: Box::new(cond),
                    then: Box::new(then),
                    orelse: Box::new(orelse),
                },
            })
        }
        Rule::or_test | Rule::and_test => {
            let op = if p.as_rule() == Rule::or_test {
                BoolOp::Or
            } else {
                BoolOp::And
            };
            let mut operands: Vec<Pair<Rule>> = p
                .into_inner()
                .filter(|q| !matches!(q.as_rule(), Rule::or_op | Rule::and_op))
                .collect();
            if operands.len() == 1 {
                return expr(cx, operands.pop().expect("operand"));
            }
            // Nested as `chain` says: depth logarithmic in the length.
            let sub = cx.deeper(crate::lang::chain::depth(operands.len()), span)?;
            // An operator's span covers its operands' parentheses: `(a or b) and c`.
            let items = operands
                .into_iter()
                .map(|q| Ok((cx.span(&q), expr(sub, q)?)))
                .collect::<PResult<Vec<_>>>()?;
            Ok(crate::lang::chain::build(op, items))
        }
        Rule::not_test => {
            let mut inner = p.into_inner();
            let first = inner.next().expect("not_test content");
            match first.as_rule() {
                Rule::not_op => {
                    let operand = expr(cx.deeper(1, span)?, inner.next().expect("operand"))?;
                    Ok(Expr {
                        span,
                        kind: ExprKind::Unary {
                            op: UnaryOp::Not,
                            operand: Box::new(operand),
                        },
                    })
                }
                _ => expr(cx, first),
            }
        }
        Rule::walrus => Err(unsupported("assignment expressions (`:=`) are", span)),
        Rule::comparison => {
            let mut inner = p.into_inner();
            let cx = if inner.len() > 1 {
                cx.deeper(1, span)?
            } else {
                cx
            };
            let first = expr(cx, inner.next().expect("operand"))?;
            let mut rest = Vec::new();
            while let Some(op) = inner.next() {
                let op_span = cx.span(&op);
                let op = match op.as_str() {
                    "==" => CmpOp::Eq,
                    "!=" => CmpOp::Ne,
                    "<" => CmpOp::Lt,
                    "<=" => CmpOp::Le,
                    ">" => CmpOp::Gt,
                    ">=" => CmpOp::Ge,
                    "in" => CmpOp::In,
                    other if other.split_whitespace().collect::<Vec<_>>() == ["not", "in"] => {
                        CmpOp::NotIn
                    }
                    other => {
                        let norm = other.split_whitespace().collect::<Vec<_>>().join(" ");
                        return Err(unsupported_operator(&norm, op_span));
                    }
                };
                rest.push((op, expr(cx, inner.next().expect("rhs"))?));
            }
            if rest.is_empty() {
                return Ok(first);
            }
            Ok(Expr {
                span,
                kind: ExprKind::Compare {
                    first: Box::new(first),
                    rest,
                },
            })
        }
        Rule::bitwise | Rule::arith | Rule::term => {
            let mut inner = p.into_inner();
            // A chain of k operators nests k deep (to the left, as in CPython).
            let cx = cx.deeper(inner.len() / 2, span)?;
            // An operator's span covers its operands' parentheses: `10 // (x - 1)`.
            let first = inner.next().expect("operand");
            let mut outer = cx.span(&first);
            let mut lhs = expr(cx, first)?;
            while let Some(op) = inner.next() {
                let op_span = cx.span(&op);
                let op = match op.as_str() {
                    "+" => BinOp::Add,
                    "-" => BinOp::Sub,
                    "*" => BinOp::Mul,
                    "//" => BinOp::FloorDiv,
                    "%" => BinOp::Mod,
                    other => return Err(unsupported_operator(other, op_span)),
                };
                let rp = inner.next().expect("rhs");
                outer = outer.to(cx.span(&rp));
                let rhs = expr(cx, rp)?;
                lhs = Expr {
                    span: outer,
                    kind: ExprKind::Binary {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    },
                };
            }
            Ok(lhs)
        }
        Rule::factor => {
            let mut inner = p.into_inner();
            let first = inner.next().expect("factor content");
            if first.as_rule() != Rule::unary_op {
                return expr(cx, first);
            }
            let op = match first.as_str() {
                "-" => UnaryOp::Neg,
                "+" => UnaryOp::Pos,
                other => return Err(unsupported_operator(other, cx.span(&first))),
            };
            let operand = expr(cx.deeper(1, span)?, inner.next().expect("operand"))?;
            Ok(Expr {
                span,
                kind: ExprKind::Unary {
                    op,
                    operand: Box::new(operand),
                },
            })
        }
        Rule::power => {
            let mut inner = p.into_inner();
            let base = expr(cx, inner.next().expect("base"))?;
            if let Some(op) = inner.next() {
                return Err(unsupported_operator("**", cx.span(&op)));
            }
            Ok(base)
        }
        Rule::postfix => postfix(cx, p),
        _ => atom(cx, p),
    }
}

fn postfix(cx: Ctx, p: Pair<Rule>) -> PResult<Expr> {
    let span = cx.span(&p);
    let mut inner = p.into_inner();
    // Each trailer (`[i]`, `(args)`) is one level around the atom.
    let cx = cx.deeper(inner.len().saturating_sub(1), span)?;
    let first = inner.next().expect("atom");
    // `(t + u)[i]`: the subscript's span starts at the parenthesis.
    let mut outer = cx.span(&first);
    let mut e = atom(cx, first)?;
    for t in inner {
        let tspan = cx.span(&t);
        let span = outer.to(tspan);
        outer = span;
        match t.as_rule() {
            Rule::attribute => {
                return Err(unsupported(
                    "attribute access and methods (`.name`) are",
                    tspan,
                ))
            }
            Rule::subscript => {
                let idx = t
                    .into_inner()
                    .find(|q| !matches!(q.as_rule(), Rule::lbracket | Rule::rbracket))
                    .expect("index");
                if idx.as_rule() == Rule::slice {
                    e = slice(cx, e, idx, span)?;
                    continue;
                }
                e = Expr {
                    span,
                    kind: ExprKind::Index {
                        base: Box::new(e),
                        index: Box::new(expr(cx, idx)?),
                    },
                };
            }
            Rule::call_args => {
                let func = match e.kind {
                    ExprKind::Name(name) => Ident { name, span: e.span },
                    _ => {
                        return Err(
                            Diagnostic::error("only named functions can be called", e.span)
                                .with_label("this is not a function name"),
                        )
                    }
                };
                let args: Vec<Pair<Rule>> = t
                    .into_inner()
                    .filter(|q| q.as_rule() == Rule::arg)
                    .collect();
                e = call(cx, func, args, span)?;
            }
            r => unreachable!("not a trailer: {r:?}"),
        }
    }
    Ok(e)
}

/// `base[lo:hi:step]`: the parts are told apart by the colons before them.
fn slice(cx: Ctx, base: Expr, p: Pair<Rule>, span: Span) -> PResult<Expr> {
    let mut parts: [Option<Box<Expr>>; 3] = [None, None, None];
    let mut colons = 0;
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::colon => colons += 1,
            _ => parts[colons] = Some(Box::new(expr(cx, q)?)),
        }
    }
    let [lo, hi, step] = parts;
    Ok(Expr {
        span,
        kind: ExprKind::Slice {
            base: Box::new(base),
            lo,
            hi,
            step,
        },
    })
}

fn call(cx: Ctx, func: Ident, args: Vec<Pair<Rule>>, span: Span) -> PResult<Expr> {
    let mut plain = Vec::new();
    let mut generator = None;
    for a in &args {
        let aspan = cx.span(a);
        let mut inner = a.clone().into_inner();
        let first = inner.next().expect("arg content");
        match first.as_rule() {
            Rule::kw_arg if func.name == "print" => {
                return Err(
                    unsupported("keyword arguments to `print` are", aspan).with_note(
                        "note: minipy's `print` has the default `sep=' '` and `end='\\n'` only",
                    ),
                )
            }
            Rule::kw_arg => return Err(unsupported("keyword arguments are", aspan)),
            Rule::star_arg => return Err(unsupported("`*` and `**` arguments are", aspan)),
            _ => {}
        }
        match inner.next() {
            Some(tail) => generator = Some((first, tail, aspan)),
            None => plain.push(first),
        }
    }
    let is_quant = func.name == "all" || func.name == "any";
    if let Some((body, tail, gspan)) = generator {
        if !is_quant || args.len() != 1 {
            return Err(generator_error(gspan));
        }
        let kind = if func.name == "all" {
            Quantifier::All
        } else {
            Quantifier::Any
        };
        return quantifier(cx, kind, body, tail, span);
    }
    let args = plain;
    if is_quant {
        return Err(Diagnostic::error(
            format!("`{}` takes a generator over a range", func.name),
            span,
        )
        .with_label(format!("write `{}(e for k in range(a, b))`", func.name)));
    }
    if func.name == "range" {
        return Err(Diagnostic::error(
            "`range` is only supported as a `for` loop's iterable and inside `all(...)` and `any(...)`",
            span,
        )
        .with_note("help: write `for i in range(a, b):`"));
    }
    if func.name == "tuple" {
        if !args.is_empty() {
            return Err(
                unsupported("`tuple(...)` with an argument is", span).with_note(
                    "help: write the tuple out, e.g. `(a, b)`; `tuple()` is the empty tuple",
                ),
            );
        }
        return Ok(Expr {
            span,
            kind: ExprKind::Tuple(Vec::new()),
        });
    }
    let cx = cx.deeper(1, span)?;
    let args = args
        .into_iter()
        .map(|a| expr(cx, a))
        .collect::<PResult<Vec<_>>>()?;
    Ok(Expr {
        span,
        kind: ExprKind::Call { func, args },
    })
}

fn generator_error(span: Span) -> Diagnostic {
    unsupported("generator expressions and comprehensions are", span)
        .with_note("help: only `all(e for k in range(a, b))` and `any(...)` are supported")
}

fn quantifier(
    cx: Ctx,
    kind: Quantifier,
    body: Pair<Rule>,
    tail: Pair<Rule>,
    span: Span,
) -> PResult<Expr> {
    let cx = cx.deeper(1, span)?;
    let body = expr(cx, body)?;
    let mut inner = tail.into_inner();
    inner.next(); // for
    let var_pair = inner.next().expect("var");
    let var = Ident {
        name: super::name(var_pair.as_str()),
        span: cx.span(&var_pair),
    };
    inner.next(); // in
    let iter = inner.next().expect("iterable");
    let iter_span = cx.span(&iter);
    if let Some(extra) = inner.next() {
        return Err(
            unsupported("`if` filters in generators are", cx.span(&extra)).with_note(
                "help: move the condition into the body, e.g. `all(not c or e for ...)`",
            ),
        );
    }
    let range_err = || {
        Diagnostic::error(
            format!("`{}` must range over `range(a, b)`", kind.name()),
            iter_span,
        )
        .with_label("expected `range(b)` or `range(a, b)`")
    };
    let mut bounds = range_args(cx, iter).ok_or_else(range_err)??;
    if !(1..=2).contains(&bounds.len()) {
        return Err(range_err());
    }
    let hi = Box::new(bounds.pop().expect("hi"));
    let lo = bounds.pop().map(Box::new);
    Ok(Expr {
        span,
        kind: ExprKind::Quantifier {
            kind,
            var,
            lo,
            hi,
            body: Box::new(body),
        },
    })
}

/// If `p` is exactly `range(args...)`, its parsed arguments.
pub(super) fn range_args(cx: Ctx, p: Pair<Rule>) -> Option<PResult<Vec<Expr>>> {
    let mut p = p;
    // Descend through the single-child precedence levels down to the postfix expression.
    while p.as_rule() != Rule::postfix {
        let mut inner = p.into_inner();
        let only = inner.next()?;
        if inner.next().is_some() {
            return None;
        }
        p = only;
    }
    let mut inner = p.into_inner();
    let name = inner.next()?;
    let call = inner.next()?;
    if name.as_rule() != Rule::ident
        || super::name(name.as_str()) != "range"
        || call.as_rule() != Rule::call_args
        || inner.next().is_some()
    {
        return None;
    }
    let mut out = Vec::new();
    for a in call.into_inner().filter(|q| q.as_rule() == Rule::arg) {
        let mut parts = a.into_inner();
        let first = parts.next()?;
        if parts.next().is_some() || matches!(first.as_rule(), Rule::kw_arg | Rule::star_arg) {
            return None;
        }
        out.push(expr(cx, first));
    }
    Some(out.into_iter().collect())
}

fn atom(cx: Ctx, p: Pair<Rule>) -> PResult<Expr> {
    let span = cx.span(&p);
    let kind = match p.as_rule() {
        Rule::int_lit => ExprKind::Int(int_literal(p.as_str(), span)?),
        Rule::kw_true => ExprKind::Bool(true),
        Rule::kw_false => ExprKind::Bool(false),
        Rule::ident => ExprKind::Name(super::name(p.as_str())),
        Rule::paren => return paren(cx, p),
        Rule::float_lit => {
            return Err(unsupported("floating-point numbers are", span)
                .with_note("minipy numbers are unbounded integers"))
        }
        Rule::kw_none => return Err(unsupported("`None` is", span)),
        Rule::ellipsis => return Err(unsupported("`...` is", span)),
        Rule::list_display => {
            return Err(
                unsupported("lists are", span).with_note("help: use a tuple, e.g. `(1, 2, 3)`")
            )
        }
        Rule::brace_display => return Err(unsupported("dicts and sets are", span)),
        Rule::lambda_expr => return Err(unsupported("`lambda` is", span)),
        Rule::yield_expr => return Err(unsupported("`yield` and `await` are", span)),
        Rule::star_expr => return Err(unsupported("star expressions (`*t`) are", span)),
        Rule::expr
        | Rule::or_test
        | Rule::and_test
        | Rule::not_test
        | Rule::comparison
        | Rule::bitwise
        | Rule::arith
        | Rule::term
        | Rule::factor
        | Rule::power
        | Rule::postfix
        | Rule::walrus => return expr(cx, p),
        r => unreachable!("not an atom: {r:?}"),
    };
    Ok(Expr { kind, span })
}

fn paren(cx: Ctx, p: Pair<Rule>) -> PResult<Expr> {
    let span = cx.span(&p);
    // A tuple's items are one level down (a parenthesised expression is not a level;
    // brackets nest at most 200 deep anyway).
    let cx = cx.deeper(1, span)?;
    let mut items = Vec::new();
    let mut commas = 0;
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::lparen | Rule::rparen => {}
            Rule::comma => commas += 1,
            Rule::gen_tail => return Err(generator_error(span)),
            _ => items.push(expr(cx, q)?),
        }
    }
    if items.len() == 1 && commas == 0 {
        // A parenthesised expression: keep the inner node but widen its span? No: the span
        // of an expression is where its own text is; parentheses belong to the parent.
        return Ok(items.pop().expect("one item"));
    }
    Ok(Expr {
        span,
        kind: ExprKind::Tuple(items),
    })
}

/// CPython's limit on decimal integer literals (`sys.get_int_max_str_digits()`).
const MAX_DECIMAL_DIGITS: usize = 4300;

fn int_literal(text: &str, span: Span) -> PResult<BigInt> {
    let digits: String = text.chars().filter(|&c| c != '_').collect();
    let lower = digits.to_ascii_lowercase();
    let (radix, body) = if let Some(b) = lower.strip_prefix("0x") {
        (16, b.to_string())
    } else if let Some(b) = lower.strip_prefix("0o") {
        (8, b.to_string())
    } else if let Some(b) = lower.strip_prefix("0b") {
        (2, b.to_string())
    } else {
        if body_has_leading_zero(&lower) {
            return Err(Diagnostic::error(
                "leading zeros in decimal integer literals are not permitted",
                span,
            )
            .with_note("help: use an `0o` prefix for octal integers"));
        }
        if lower.len() > MAX_DECIMAL_DIGITS {
            return Err(Diagnostic::error(
                format!(
                    "this integer literal has {} digits, more than {MAX_DECIMAL_DIGITS}",
                    lower.len()
                ),
                span,
            )
            .with_note("CPython refuses it too (\"Exceeds the limit (4300 digits) for integer string conversion\")")
            .with_note("help: write huge integers in hexadecimal (`0x...`)"));
        }
        (10, lower)
    };
    BigInt::parse_bytes(body.as_bytes(), radix)
        .ok_or_else(|| Diagnostic::error("invalid integer literal", span))
}

fn body_has_leading_zero(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0') && s.chars().any(|c| c != '0')
}
