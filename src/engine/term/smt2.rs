//! SMT-LIB 2 text for terms (`run --json`'s `smt2` fields, `--smt2` exports).
//!
//! The encodings of Python's operators follow `crate::semantics` (SMT-LIB's `div`/`mod`
//! are Euclidean, Python's flooring):
//! - `a // b` is `(ite (> b 0) (div a b) (div (- a) (- b)))`, just `(div a b)` for a
//!   positive constant `b` and `(div (- a) c)` for a negative constant `-c`;
//! - `a % b` is `(ite (> b 0) (mod a b) (- (mod (- a) (- b))))`, likewise for constants
//!   (equal to `a - b * (a // b)` whenever `b != 0`);
//! - `t[i]` is `(seq.nth t (ite (< i 0) (+ i (seq.len t)) i))`, simplified for constant `i`;
//! - `min`/`max` are `ite`s, `abs` is SMT-LIB's `abs`;
//! - `all(body for k in range(lo, hi))` is `(forall ((k Int)) (=> (and (<= lo k) (< k hi)) body))`,
//!   `any` the `exists` with a conjunction.
//!
//! Symbols that are not plain SMT-LIB simple symbols, or that are reserved words or names of
//! theory functions (`div`, `mod`, `abs`, `ite`, `true`, ...), are written `|quoted|`.

use std::collections::BTreeSet;
use std::fmt::Write;

use num_bigint::BigInt;
use num_traits::Signed;

use super::build::segments;
use super::{Sort, Sym, Term, TermKind as K};
use crate::lang::ast::CmpOp;

/// `(declare-const y Int)` lines, one per symbol, in the set's order.
pub fn smt2_declarations(syms: &BTreeSet<Sym>) -> String {
    let lines: Vec<String> = syms
        .iter()
        .map(|s| format!("(declare-const {} {})", symbol(&s.name), sort_smt2(s.sort)))
        .collect();
    lines.join("\n")
}

/// The SMT-LIB name of a sort.
pub fn sort_smt2(s: Sort) -> &'static str {
    match s {
        Sort::Int => "Int",
        Sort::Bool => "Bool",
        Sort::Seq => "(Seq Int)",
    }
}

/// Words a minipy identifier may be but an SMT-LIB simple symbol must not.
const RESERVED: &[&str] = &[
    "abs",
    "as",
    "assert",
    "check",
    "declare",
    "define",
    "distinct",
    "div",
    "exists",
    "false",
    "forall",
    "ite",
    "let",
    "match",
    "mod",
    "par",
    "rem",
    "select",
    "store",
    "to_int",
    "to_real",
    "is_int",
    "true",
    "xor",
    "and",
    "or",
    "not",
    "BINARY",
    "DECIMAL",
    "HEXADECIMAL",
    "NUMERAL",
    "STRING",
];

/// A symbol as SMT-LIB text: `x`, `x!1`, or `|div|`.
pub fn symbol(name: &str) -> String {
    let simple = |c: char| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c);
    let ok = !name.is_empty()
        && name.chars().all(simple)
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && !RESERVED.contains(&name);
    if ok {
        name.to_string()
    } else {
        format!("|{}|", name.replace(['|', '\\'], "_"))
    }
}

fn int_lit(out: &mut String, i: &BigInt) {
    if i.is_negative() {
        let _ = write!(out, "(- {})", -i);
    } else {
        let _ = write!(out, "{i}");
    }
}

impl Term {
    /// The term as an SMT-LIB expression, e.g. `(< (* 2 y) 0)`.
    pub fn to_smt2(&self) -> String {
        let mut out = String::new();
        write_term(&mut out, self);
        out
    }
}

fn app(out: &mut String, f: &str, args: &[&Term]) {
    out.push('(');
    out.push_str(f);
    for a in args {
        out.push(' ');
        write_term(out, a);
    }
    out.push(')');
}

/// `(div a b)` / `(mod a b)` with Python's flooring semantics.
fn division(out: &mut String, a: &Term, b: &Term, modulo: bool) {
    let op = if modulo { "mod" } else { "div" };
    match b.as_int() {
        Some(c) if c.is_positive() => app(out, op, &[a, b]),
        Some(c) if c.is_negative() => {
            // b < 0: (-a) div (-b), and -((-a) mod (-b)).
            let na = Term::neg(a.clone());
            let nb = Term::int(-c);
            if modulo {
                out.push_str("(- ");
            }
            app(out, op, &[&na, &nb]);
            if modulo {
                out.push(')');
            }
        }
        _ => {
            out.push_str("(ite (> ");
            write_term(out, b);
            out.push_str(" 0) ");
            app(out, op, &[a, b]);
            out.push(' ');
            if modulo {
                out.push_str("(- ");
            }
            let (na, nb) = (Term::neg(a.clone()), Term::neg(b.clone()));
            app(out, op, &[&na, &nb]);
            if modulo {
                out.push(')');
            }
            out.push(')');
        }
    }
}

fn index(out: &mut String, t: &Term, i: &Term) {
    out.push_str("(seq.nth ");
    write_term(out, t);
    out.push(' ');
    match i.as_int() {
        Some(k) if !k.is_negative() => int_lit(out, k),
        Some(k) => {
            out.push_str("(- (seq.len ");
            write_term(out, t);
            let _ = write!(out, ") {})", -k);
        }
        None => {
            out.push_str("(ite (< ");
            write_term(out, i);
            out.push_str(" 0) (+ ");
            write_term(out, i);
            out.push_str(" (seq.len ");
            write_term(out, t);
            out.push_str(")) ");
            write_term(out, i);
            out.push(')');
        }
    }
    out.push(')');
}

fn quantifier(out: &mut String, forall: bool, parts: (&Sym, &Term, &Term, &Term)) {
    let (v, lo, hi, body) = parts;
    let k = symbol(&v.name);
    let q = if forall { "forall" } else { "exists" };
    let _ = write!(
        out,
        "({q} (({k} Int)) ({} (and (<= ",
        if forall { "=>" } else { "and" }
    );
    write_term(out, lo);
    let _ = write!(out, " {k}) (< {k} ");
    write_term(out, hi);
    out.push_str(")) ");
    write_term(out, body);
    out.push_str("))");
}

fn write_term(out: &mut String, t: &Term) {
    match t.kind() {
        K::Int(i) => int_lit(out, i),
        K::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        K::Var(s) => out.push_str(&symbol(&s.name)),
        K::Neg(a) => app(out, "-", &[a]),
        K::Add(a, b) => app(out, "+", &[a, b]),
        K::Sub(a, b) => app(out, "-", &[a, b]),
        K::Mul(a, b) => app(out, "*", &[a, b]),
        K::FloorDiv(a, b) => division(out, a, b, false),
        K::Mod(a, b) => division(out, a, b, true),
        K::Abs(a) => app(out, "abs", &[a]),
        K::Min(a, b) | K::Max(a, b) => {
            let op = if matches!(t.kind(), K::Min(..)) {
                "<="
            } else {
                ">="
            };
            let _ = write!(out, "(ite ({op} ");
            write_term(out, a);
            out.push(' ');
            write_term(out, b);
            out.push_str(") ");
            write_term(out, a);
            out.push(' ');
            write_term(out, b);
            out.push(')');
        }
        K::Not(a) => app(out, "not", &[a]),
        K::And(xs) => app(out, "and", &xs.iter().collect::<Vec<_>>()),
        K::Or(xs) => app(out, "or", &xs.iter().collect::<Vec<_>>()),
        K::Ite(c, a, b) => app(out, "ite", &[c, a, b]),
        K::Cmp(CmpOp::Ne, a, b) => {
            out.push_str("(not ");
            app(out, "=", &[a, b]);
            out.push(')');
        }
        K::Cmp(op, a, b) => {
            let f = match op {
                CmpOp::Eq | CmpOp::Ne => "=",
                CmpOp::Lt => "<",
                CmpOp::Le => "<=",
                CmpOp::Gt => ">",
                CmpOp::Ge => ">=",
            };
            app(out, f, &[a, b]);
        }
        K::SeqEmpty => out.push_str("(as seq.empty (Seq Int))"),
        K::SeqUnit(a) => app(out, "seq.unit", &[a]),
        K::Concat(..) => app(out, "seq.++", &segments(t)),
        K::Len(a) => app(out, "seq.len", &[a]),
        K::Index(a, i) => index(out, a, i),
        K::Forall(v, lo, hi, body) => quantifier(out, true, (v, lo, hi, body)),
        K::Exists(v, lo, hi, body) => quantifier(out, false, (v, lo, hi, body)),
    }
}
