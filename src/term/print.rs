//! `Display` for [`Term`]: minipy syntax with minimal parentheses.
//!
//! The precedence levels are those of the pretty printer (`src/lang/pretty.rs`), so a term
//! built from a source expression prints like the source: `x + 1 < len(t)`, `t[i]`,
//! `(1, x) + t`, `not (a and b)`, `abs(x)`, `all(t[k] >= 0 for k in range(0, i))`.
//! Comparisons never chain (an operand that is itself a comparison is parenthesised, as
//! `a < b < c` would mean something else in Python). The conditional `(a if c else b)` is
//! always parenthesised; `any(t[k] == x for k in range(0, len(t)))` as `Term::member`
//! builds it prints as `x in t` (and its negation as `x not in t`), a slice as Python's
//! `t[lo:hi:step]` with the missing parts left out.

use std::fmt::{self, Display, Formatter, Write};

use super::build::segments;
use super::{Term, TermKind as K};

use crate::lang::pretty::prec::*;

fn prec(t: &Term) -> u8 {
    match t.kind() {
        K::Or(_) => OR,
        K::And(_) => AND,
        K::Not(a) if a.as_member().is_some() => CMP,
        K::Not(_) => NOT,
        K::Cmp(..) => CMP,
        K::Exists(..) if t.as_member().is_some() => CMP,
        K::Add(..) | K::Sub(..) => ARITH,
        K::Concat(..) if segments(t).iter().any(|s| !is_unit(s)) => ARITH,
        K::Mul(..) | K::FloorDiv(..) | K::Mod(..) => TERM,
        K::Neg(_) => UNARY,
        K::Int(n) if n.sign() == num_bigint::Sign::Minus => UNARY,
        K::Abs(_) | K::Min(..) | K::Max(..) | K::Len(_) | K::Index(..) | K::Slice(..) => POSTFIX,
        K::Forall(..) | K::Exists(..) => POSTFIX,
        _ => ATOM,
    }
}

fn is_unit(t: &Term) -> bool {
    matches!(t.kind(), K::SeqUnit(_))
}

/// Write `t`, parenthesised if its precedence is below `min`.
fn write(f: &mut Formatter<'_>, t: &Term, min: u8) -> fmt::Result {
    if prec(t) < min {
        f.write_char('(')?;
        bare(f, t)?;
        f.write_char(')')
    } else {
        bare(f, t)
    }
}

fn binary(f: &mut Formatter<'_>, a: &Term, op: &str, b: &Term, p: u8) -> fmt::Result {
    write(f, a, p)?;
    write!(f, " {op} ")?;
    write(f, b, p + 1)
}

fn call(f: &mut Formatter<'_>, name: &str, args: &[&Term]) -> fmt::Result {
    write!(f, "{name}(")?;
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write(f, a, 0)?;
    }
    f.write_char(')')
}

fn joined(f: &mut Formatter<'_>, items: &[Term], sep: &str, p: u8) -> fmt::Result {
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        write(f, x, p)?;
    }
    Ok(())
}

fn tuple_display(f: &mut Formatter<'_>, units: &[&Term]) -> fmt::Result {
    f.write_char('(')?;
    for (i, u) in units.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        if let K::SeqUnit(x) = u.kind() {
            write(f, x, 0)?;
        }
    }
    if units.len() == 1 {
        f.write_char(',')?;
    }
    f.write_char(')')
}

/// `(1, x) + t + (2,)`: runs of units become tuple displays.
fn concat(f: &mut Formatter<'_>, t: &Term) -> fmt::Result {
    let segs = segments(t);
    let mut first = true;
    let mut i = 0;
    while i < segs.len() {
        if !first {
            f.write_str(" + ")?;
        }
        let run = segs[i..].iter().take_while(|s| is_unit(s)).count();
        if run > 0 {
            tuple_display(f, &segs[i..i + run])?;
            i += run;
        } else {
            write(f, segs[i], if first { ARITH } else { ARITH + 1 })?;
            i += 1;
        }
        first = false;
    }
    Ok(())
}

fn quantifier(
    f: &mut Formatter<'_>,
    name: &str,
    parts: (&super::Sym, &Term, &Term, &Term),
) -> fmt::Result {
    let (var, lo, hi, body) = parts;
    write!(f, "{name}(")?;
    write(f, body, 0)?;
    write!(f, " for {} in range(", display_name(&var.name))?;
    write(f, lo, 0)?;
    f.write_str(", ")?;
    write(f, hi, 0)?;
    f.write_str("))")
}

fn bare(f: &mut Formatter<'_>, t: &Term) -> fmt::Result {
    match t.kind() {
        K::Int(n) => write!(f, "{n}"),
        K::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
        K::Var(s) => f.write_str(&display_name(&s.name)),
        K::Neg(a) => {
            f.write_char('-')?;
            write(f, a, UNARY)
        }
        K::Add(a, b) => binary(f, a, "+", b, ARITH),
        K::Sub(a, b) => binary(f, a, "-", b, ARITH),
        K::Mul(a, b) => binary(f, a, "*", b, TERM),
        K::FloorDiv(a, b) => binary(f, a, "//", b, TERM),
        K::Mod(a, b) => binary(f, a, "%", b, TERM),
        K::Abs(a) => call(f, "abs", &[a]),
        K::Min(a, b) => call(f, "min", &[a, b]),
        K::Max(a, b) => call(f, "max", &[a, b]),
        K::Not(a) if a.as_member().is_some() => {
            let (x, s) = a.as_member().expect("checked");
            write(f, x, ARITH)?;
            f.write_str(" not in ")?;
            write(f, s, ARITH)
        }
        K::Exists(..) if t.as_member().is_some() => {
            let (x, s) = t.as_member().expect("checked");
            write(f, x, ARITH)?;
            f.write_str(" in ")?;
            write(f, s, ARITH)
        }
        K::Slice(a, lo, hi, step) => {
            write(f, a, POSTFIX)?;
            f.write_char('[')?;
            if let Some(lo) = lo {
                write(f, lo, 0)?;
            }
            f.write_char(':')?;
            if let Some(hi) = hi {
                write(f, hi, 0)?;
            }
            if step.as_int().is_none_or(|s| *s != 1.into()) {
                f.write_char(':')?;
                write(f, step, 0)?;
            }
            f.write_char(']')
        }
        K::Not(a) => {
            f.write_str("not ")?;
            write(f, a, NOT)
        }
        K::And(xs) => joined(f, xs, " and ", AND + 1),
        K::Or(xs) => joined(f, xs, " or ", OR + 1),
        K::Ite(c, a, b) => {
            f.write_char('(')?;
            write(f, a, OR)?;
            f.write_str(" if ")?;
            write(f, c, OR)?;
            f.write_str(" else ")?;
            write(f, b, OR)?;
            f.write_char(')')
        }
        K::Cmp(op, a, b) => {
            write(f, a, ARITH)?;
            write!(f, " {} ", op.symbol())?;
            write(f, b, ARITH)
        }
        K::SeqEmpty => f.write_str("()"),
        K::SeqUnit(_) => tuple_display(f, &[t]),
        K::Concat(..) => concat(f, t),
        K::Len(a) => call(f, "len", &[a]),
        K::Index(a, i) => {
            write(f, a, POSTFIX)?;
            f.write_char('[')?;
            write(f, i, 0)?;
            f.write_char(']')
        }
        K::Forall(v, lo, hi, body) => quantifier(f, "all", (v, lo, hi, body)),
        K::Exists(v, lo, hi, body) => quantifier(f, "any", (v, lo, hi, body)),
    }
}

impl Display for Term {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.tree_size() > super::MAX_PRINTED_NODES {
            return f.write_str(&super::too_large_to_print(self.tree_size()));
        }
        write(f, self, 0)
    }
}

/// How a symbol prints: a fold's parameter `k@1` as `κ1` and its iteration variable `j@1`
/// as `τ1` (compact symbolic execution, issue 15); every other name as it is.
pub fn display_name(name: &str) -> std::borrow::Cow<'_, str> {
    match name.split_once('@') {
        Some(("k", n)) if n.bytes().all(|b| b.is_ascii_digit()) => format!("κ{n}").into(),
        Some(("j", n)) if n.bytes().all(|b| b.is_ascii_digit()) => format!("τ{n}").into(),
        // A two-parameter fold's second parameter and prefix counts (issue 27).
        Some(("l", n)) if n.bytes().all(|b| b.is_ascii_digit()) => format!("λ{n}").into(),
        Some(("w", n)) if n.bytes().all(|b| b.is_ascii_digit()) => format!("ω{n}").into(),
        _ => name.into(),
    }
}
