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
//! - `t[lo:hi]` is `(seq.extract t start count)` with Python's clamping written out
//!   (`term::slice_bounds`); a slice with another step has no SMT-LIB form and is written
//!   `(py.slice t start count step)` (element `k` is `t[start + k * step]`), a recursive
//!   function [`PY_SLICE_DEFINITION`] defines (a text that uses it must start with that
//!   definition: see [`uses_py_slice`]);
//! - `all(body for k in range(lo, hi))` is `(forall ((k Int)) (=> (and (<= lo k) (< k hi)) body))`,
//!   `any` the `exists` with a conjunction.
//!
//! Symbols that are not plain SMT-LIB simple symbols, or that are reserved words or names of
//! theory functions (`div`, `mod`, `abs`, `ite`, `true`, ...), are written `|quoted|`.

use std::collections::{BTreeSet, HashMap, HashSet};
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

/// The definition of `py.slice`, the slices with a step other than 1 (see the module
/// docs): `(py.slice t start count step)` is the sequence of `t[start + k * step]` for
/// `0 <= k < count` (Python's clamping is in `start` and `count`, so every index read is in
/// range). Z3 reads it (`define-fun-rec`, SMT-LIB 2.6).
pub const PY_SLICE_DEFINITION: &str = "(define-fun-rec py.slice ((t (Seq Int)) (start Int) \
(count Int) (step Int)) (Seq Int) (ite (<= count 0) (as seq.empty (Seq Int)) (seq.++ \
(seq.unit (seq.nth t start)) (py.slice t (+ start step) (- count 1) step))))";

/// Does the SMT-LIB text of `t` use `py.slice` (a slice whose step is not the constant 1)?
/// Each distinct subterm is visited once.
pub fn uses_py_slice(t: &Term) -> bool {
    let mut seen: HashSet<Term> = HashSet::new();
    let mut todo = vec![t.clone()];
    while let Some(t) = todo.pop() {
        if !seen.insert(t.clone()) {
            continue;
        }
        if let K::Slice(_, _, _, step) = t.kind() {
            if !is_one(step) {
                return true;
            }
        }
        t.kind().for_each_child(|c| todo.push(c.clone()));
    }
    false
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
    /// The term as an SMT-LIB expression, e.g. `(< (* 2 y) 0)`. A compound subterm that
    /// would be written more than once is written once, named by a `let`
    /// (`(let ((?t1 (+ x 1))) (ite (> y 0) (div ?t1 y) (div (- ?t1) (- y))))`), so the
    /// text grows with the number of distinct subterms, not with the tree they stand for.
    /// A term of more than [`super::MAX_PRINTED_NODES`] distinct subterms prints as
    /// [`super::too_large_to_print`].
    pub fn to_smt2(&self) -> String {
        let plan = match Plan::new(self) {
            Ok(p) => p,
            Err(n) => return super::too_large_to_print(n),
        };
        let mut w = Writer {
            out: String::new(),
            names: HashMap::new(),
        };
        let mut lets = 0;
        for level in &plan.levels {
            w.out.push_str("(let (");
            for (k, t) in level.iter().enumerate() {
                if k > 0 {
                    w.out.push(' ');
                }
                let name = format!("?t{}", w.names.len() + 1);
                let _ = write!(w.out, "({name} ");
                write_term(&mut w, t);
                w.out.push(')');
                w.names.insert(t.clone(), name);
            }
            w.out.push_str(") ");
            lets += 1;
        }
        w.term(self);
        for _ in 0..lets {
            w.out.push(')');
        }
        w.out
    }
}

/// Which subterms get a `let`, grouped by level: a binding refers only to names of lower
/// levels, so one `let` per level (bindings in parallel) is valid SMT-LIB.
struct Plan {
    levels: Vec<Vec<Term>>,
}

impl Plan {
    /// `Err(n)`: the term has `n` > MAX_PRINTED_NODES distinct subterms.
    fn new(root: &Term) -> Result<Plan, u64> {
        // The distinct subterms in post-order (children first), without recursion.
        let mut post: Vec<Term> = Vec::new();
        let mut seen: HashSet<Term> = HashSet::new();
        let mut bound_syms: HashSet<Sym> = HashSet::new();
        let mut stack = vec![(root.clone(), false)];
        while let Some((t, expanded)) = stack.pop() {
            if expanded {
                post.push(t);
                continue;
            }
            if seen.contains(&t) {
                continue;
            }
            if seen.len() as u64 >= super::MAX_PRINTED_NODES {
                return Err(seen.len() as u64 + 1);
            }
            seen.insert(t.clone());
            if let K::Forall(v, ..) | K::Exists(v, ..) = t.kind() {
                bound_syms.insert(v.clone());
            }
            let children = encoded_children(&t);
            stack.push((t, true));
            stack.extend(children.into_iter().rev().map(|c| (c, false)));
        }
        // Whether a subterm mentions a quantifier's variable: it cannot be named outside
        // the quantifier.
        let mut mentions: HashMap<&Term, bool> = HashMap::new();
        for t in &post {
            let m = matches!(t.kind(), K::Var(s) if bound_syms.contains(s))
                || encoded_children(t).iter().any(|c| mentions[c]);
            mentions.insert(t, m);
        }
        // How many times each subterm would be written (parents first): a named subterm's
        // structure is written once, in its binding.
        let mut writes: HashMap<&Term, u64> = HashMap::new();
        writes.insert(root, 1);
        let mut named: HashSet<&Term> = HashSet::new();
        for t in post.iter().rev() {
            let n = writes.get(t).copied().unwrap_or(0);
            let leaf = matches!(t.kind(), K::Int(_) | K::Bool(_) | K::Var(_) | K::SeqEmpty);
            let w = if !leaf && !mentions[t] && n >= 2 && t != root {
                named.insert(t);
                1
            } else {
                n
            };
            for c in encoded_children(t) {
                let (c, _) = mentions.get_key_value(&c).expect("a visited subterm");
                let e = writes.entry(*c).or_insert(0);
                *e = e.saturating_add(w);
            }
        }
        // Levels (children first): a binding's level is above those it refers to.
        let mut level: HashMap<&Term, usize> = HashMap::new();
        let mut levels: Vec<Vec<Term>> = Vec::new();
        for t in &post {
            let below = encoded_children(t)
                .iter()
                .map(|c| level[c])
                .max()
                .unwrap_or(0);
            let l = if named.contains(t) {
                if levels.len() <= below {
                    levels.push(Vec::new());
                }
                levels[below].push(t.clone());
                below + 1
            } else {
                below
            };
            level.insert(t, l);
        }
        Ok(Plan { levels })
    }
}

/// The subterms `write_term` writes for `t`, in order, duplicates included.
fn encoded_children(t: &Term) -> Vec<Term> {
    let c = |x: &Term| x.clone();
    match t.kind() {
        K::Int(_) | K::Bool(_) | K::Var(_) | K::SeqEmpty => Vec::new(),
        K::Neg(a) | K::Abs(a) | K::Not(a) | K::SeqUnit(a) | K::Len(a) => vec![c(a)],
        K::Add(a, b) | K::Sub(a, b) | K::Mul(a, b) | K::Cmp(_, a, b) => vec![c(a), c(b)],
        K::FloorDiv(a, b) | K::Mod(a, b) => match b.as_int() {
            Some(k) if k.is_positive() => vec![c(a), c(b)],
            Some(k) if k.is_negative() => vec![Term::neg(c(a))],
            _ => vec![c(b), c(a), c(b), Term::neg(c(a)), Term::neg(c(b))],
        },
        K::Min(a, b) | K::Max(a, b) => vec![c(a), c(b), c(a), c(b)],
        K::And(xs) | K::Or(xs) => xs.clone(),
        K::Ite(x, a, b) => vec![c(x), c(a), c(b)],
        K::Concat(..) => segments(t).into_iter().cloned().collect(),
        K::Index(s, i) => match i.as_int() {
            Some(k) if !k.is_negative() => vec![c(s)],
            Some(_) => vec![c(s), c(s)],
            None => vec![c(s), c(i), c(i), c(s), c(i)],
        },
        K::Forall(_, lo, hi, body) | K::Exists(_, lo, hi, body) => vec![c(lo), c(hi), c(body)],
        K::Slice(s, lo, hi, step) => {
            let (start, count) = super::slice_bounds(s, lo.as_ref(), hi.as_ref(), step);
            if is_one(step) {
                vec![c(s), start, count]
            } else {
                vec![c(s), start, count, c(step)]
            }
        }
    }
}

fn is_one(t: &Term) -> bool {
    t.as_int().is_some_and(|k| *k == BigInt::from(1))
}

/// The text being written and the names of the subterms bound so far.
struct Writer {
    out: String,
    names: HashMap<Term, String>,
}

impl Writer {
    /// Write `t`: its name if it has one, else its structure.
    fn term(&mut self, t: &Term) {
        match self.names.get(t) {
            Some(name) => self.out.push_str(name),
            None => write_term(self, t),
        }
    }
}

fn app(w: &mut Writer, f: &str, args: &[&Term]) {
    w.out.push('(');
    w.out.push_str(f);
    for a in args {
        w.out.push(' ');
        w.term(a);
    }
    w.out.push(')');
}

/// `(div a b)` / `(mod a b)` with Python's flooring semantics.
fn division(w: &mut Writer, a: &Term, b: &Term, modulo: bool) {
    let op = if modulo { "mod" } else { "div" };
    match b.as_int() {
        Some(c) if c.is_positive() => app(w, op, &[a, b]),
        Some(c) if c.is_negative() => {
            // b < 0: (-a) div (-b), and -((-a) mod (-b)).
            let na = Term::neg(a.clone());
            if modulo {
                w.out.push_str("(- ");
            }
            let _ = write!(w.out, "({op} ");
            w.term(&na);
            let _ = write!(w.out, " {})", -c);
            if modulo {
                w.out.push(')');
            }
        }
        _ => {
            w.out.push_str("(ite (> ");
            w.term(b);
            w.out.push_str(" 0) ");
            app(w, op, &[a, b]);
            w.out.push(' ');
            if modulo {
                w.out.push_str("(- ");
            }
            let (na, nb) = (Term::neg(a.clone()), Term::neg(b.clone()));
            app(w, op, &[&na, &nb]);
            if modulo {
                w.out.push(')');
            }
            w.out.push(')');
        }
    }
}

fn index(w: &mut Writer, t: &Term, i: &Term) {
    w.out.push_str("(seq.nth ");
    w.term(t);
    w.out.push(' ');
    match i.as_int() {
        Some(k) if !k.is_negative() => int_lit(&mut w.out, k),
        Some(k) => {
            w.out.push_str("(- (seq.len ");
            w.term(t);
            let _ = write!(w.out, ") {})", -k);
        }
        None => {
            w.out.push_str("(ite (< ");
            w.term(i);
            w.out.push_str(" 0) (+ ");
            w.term(i);
            w.out.push_str(" (seq.len ");
            w.term(t);
            w.out.push_str(")) ");
            w.term(i);
            w.out.push(')');
        }
    }
    w.out.push(')');
}

fn quantifier(w: &mut Writer, forall: bool, parts: (&Sym, &Term, &Term, &Term)) {
    let (v, lo, hi, body) = parts;
    let k = symbol(&v.name);
    let q = if forall { "forall" } else { "exists" };
    let _ = write!(
        w.out,
        "({q} (({k} Int)) ({} (and (<= ",
        if forall { "=>" } else { "and" }
    );
    w.term(lo);
    let _ = write!(w.out, " {k}) (< {k} ");
    w.term(hi);
    w.out.push_str(")) ");
    w.term(body);
    w.out.push_str("))");
}

/// Write the structure of `t` (its subterms by name where they have one).
fn write_term(w: &mut Writer, t: &Term) {
    match t.kind() {
        K::Int(i) => int_lit(&mut w.out, i),
        K::Bool(b) => w.out.push_str(if *b { "true" } else { "false" }),
        K::Var(s) => w.out.push_str(&symbol(&s.name)),
        K::Neg(a) => app(w, "-", &[a]),
        K::Add(a, b) => app(w, "+", &[a, b]),
        K::Sub(a, b) => app(w, "-", &[a, b]),
        K::Mul(a, b) => app(w, "*", &[a, b]),
        K::FloorDiv(a, b) => division(w, a, b, false),
        K::Mod(a, b) => division(w, a, b, true),
        K::Abs(a) => app(w, "abs", &[a]),
        K::Min(a, b) | K::Max(a, b) => {
            let op = if matches!(t.kind(), K::Min(..)) {
                "<="
            } else {
                ">="
            };
            let _ = write!(w.out, "(ite ({op} ");
            w.term(a);
            w.out.push(' ');
            w.term(b);
            w.out.push_str(") ");
            w.term(a);
            w.out.push(' ');
            w.term(b);
            w.out.push(')');
        }
        K::Not(a) => app(w, "not", &[a]),
        K::And(xs) => app(w, "and", &xs.iter().collect::<Vec<_>>()),
        K::Or(xs) => app(w, "or", &xs.iter().collect::<Vec<_>>()),
        K::Ite(c, a, b) => app(w, "ite", &[c, a, b]),
        K::Cmp(CmpOp::Ne, a, b) => {
            w.out.push_str("(not ");
            app(w, "=", &[a, b]);
            w.out.push(')');
        }
        K::Cmp(op, a, b) => {
            let f = match op {
                CmpOp::Eq | CmpOp::Ne => "=",
                CmpOp::Lt => "<",
                CmpOp::Le => "<=",
                CmpOp::Gt => ">",
                CmpOp::Ge => ">=",
                CmpOp::In | CmpOp::NotIn => unreachable!("no term compares with `in`"),
            };
            app(w, f, &[a, b]);
        }
        K::SeqEmpty => w.out.push_str("(as seq.empty (Seq Int))"),
        K::SeqUnit(a) => app(w, "seq.unit", &[a]),
        K::Concat(..) => app(w, "seq.++", &segments(t)),
        K::Len(a) => app(w, "seq.len", &[a]),
        K::Index(a, i) => index(w, a, i),
        K::Slice(s, lo, hi, step) => {
            let (start, count) = super::slice_bounds(s, lo.as_ref(), hi.as_ref(), step);
            if is_one(step) {
                app(w, "seq.extract", &[s, &start, &count]);
            } else {
                app(w, "py.slice", &[s, &start, &count, step]);
            }
        }
        K::Forall(v, lo, hi, body) => quantifier(w, true, (v, lo, hi, body)),
        K::Exists(v, lo, hi, body) => quantifier(w, false, (v, lo, hi, body)),
    }
}
