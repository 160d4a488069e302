//! The text a parent and its solver process exchange (`isolate.rs`): terms as a DAG of
//! numbered nodes (shared subterms once, written and read without recursion), symbols and
//! model values, one item per line.
//!
//! A request:
//! ```text
//! symdbg-solver 1
//! check | model | core <budget ms> <goal ids…>
//! timeout <ms> | timeout none
//! minimize 0 | 1
//! syms <k>               then k lines `<sort> <name>`
//! nodes <n>              then n lines, node i naming earlier nodes by number
//! roots <ids…>
//! end
//! ```
//! A node line is an operator and its operands: `i <decimal>`, `b 0|1`, `v <sort> <name>`,
//! `add <a> <b>`, `and <k> <ids…>`, `cmp <op> <a> <b>`, `forall <lo> <hi> <body> <sort>
//! <name>`, ... A name is the rest of its line (names hold no newline).
//!
//! An answer: `sat`, `unsat` or `unknown <reason>`; for a `model` request that is `sat`,
//! then one line per symbol of the request, in order: `i <decimal>`, `b 0|1` or
//! `t <len> <elements…>`; for a `core` request `core <minimal 0|1> <part ids…>` instead
//! of `unsat`; then `end`.

use std::collections::HashMap;
use std::fmt::Write as _;

use num_bigint::BigInt;

use crate::concrete::Value;
use crate::lang::ast::CmpOp;
use crate::term::{Model, Sort, Sym, Term, TermKind as K};

/// The first line of a request.
pub const MAGIC: &str = "symdbg-solver 1";

/// What the parent asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Is the conjunction of the roots satisfiable?
    Check,
    /// A model of the roots (minimised if asked), for the request's symbols.
    Model,
    /// An unsat core of the roots (`Solver::core`) within `budget_ms`.
    Core { budget_ms: u64, goal: Vec<usize> },
}

/// A decoded request.
pub struct Request {
    pub ask: Ask,
    pub timeout_ms: Option<u64>,
    pub minimize: bool,
    pub syms: Vec<Sym>,
    pub terms: Vec<Term>,
}

fn sort_name(s: Sort) -> &'static str {
    match s {
        Sort::Int => "int",
        Sort::Bool => "bool",
        Sort::Seq => "seq",
    }
}

fn sort_of(name: &str) -> Result<Sort, String> {
    match name {
        "int" => Ok(Sort::Int),
        "bool" => Ok(Sort::Bool),
        "seq" => Ok(Sort::Seq),
        _ => Err(format!("unknown sort `{name}`")),
    }
}

fn op_name(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "eq",
        CmpOp::Ne => "ne",
        CmpOp::Lt => "lt",
        CmpOp::Le => "le",
        CmpOp::Gt => "gt",
        CmpOp::Ge => "ge",
        CmpOp::In | CmpOp::NotIn => unreachable!("no term compares with `in`"),
    }
}

fn op_of(name: &str) -> Result<CmpOp, String> {
    Ok(match name {
        "eq" => CmpOp::Eq,
        "ne" => CmpOp::Ne,
        "lt" => CmpOp::Lt,
        "le" => CmpOp::Le,
        "gt" => CmpOp::Gt,
        "ge" => CmpOp::Ge,
        _ => return Err(format!("unknown comparison `{name}`")),
    })
}

/// The request text.
pub fn request(
    ask: &Ask,
    timeout_ms: Option<u64>,
    minimize: bool,
    syms: &[Sym],
    terms: &[Term],
) -> String {
    let mut out = format!("{MAGIC}\n");
    match ask {
        Ask::Check => out.push_str("check\n"),
        Ask::Model => out.push_str("model\n"),
        Ask::Core { budget_ms, goal } => {
            write!(out, "core {budget_ms}").expect("write to a String");
            for g in goal {
                write!(out, " {g}").expect("write to a String");
            }
            out.push('\n');
        }
    }
    match timeout_ms {
        Some(ms) => writeln!(out, "timeout {ms}"),
        None => writeln!(out, "timeout none"),
    }
    .expect("write to a String");
    writeln!(out, "minimize {}", u8::from(minimize)).expect("write to a String");
    writeln!(out, "syms {}", syms.len()).expect("write to a String");
    for s in syms {
        writeln!(out, "{} {}", sort_name(s.sort), s.name).expect("write to a String");
    }
    let (nodes, roots) = nodes(terms);
    writeln!(out, "nodes {}", nodes.len()).expect("write to a String");
    for n in nodes {
        out.push_str(&n);
        out.push('\n');
    }
    out.push_str("roots");
    for r in roots {
        write!(out, " {r}").expect("write to a String");
    }
    out.push('\n');
    out.push_str(super::END);
    out.push('\n');
    out
}

/// The node lines of `terms` (children before parents) and the numbers of the terms.
fn nodes(terms: &[Term]) -> (Vec<String>, Vec<usize>) {
    let mut ids: HashMap<Term, usize> = HashMap::new();
    let mut lines = Vec::new();
    // (term, children pushed already)
    let mut todo: Vec<(Term, bool)> = terms.iter().rev().map(|t| (t.clone(), false)).collect();
    while let Some((t, expanded)) = todo.pop() {
        if ids.contains_key(&t) {
            continue;
        }
        if !expanded {
            todo.push((t.clone(), true));
            let mut children = Vec::new();
            t.kind().for_each_child(|c| children.push(c.clone()));
            todo.extend(children.into_iter().rev().map(|c| (c, false)));
            continue;
        }
        let id = |c: &Term| ids[c];
        let line = match t.kind() {
            K::Int(i) => format!("i {i}"),
            K::Bool(b) => format!("b {}", u8::from(*b)),
            K::Var(s) => format!("v {} {}", sort_name(s.sort), s.name),
            K::Neg(a) => format!("neg {}", id(a)),
            K::Abs(a) => format!("abs {}", id(a)),
            K::Not(a) => format!("not {}", id(a)),
            K::SeqUnit(a) => format!("unit {}", id(a)),
            K::Len(a) => format!("len {}", id(a)),
            K::Add(a, b) => format!("add {} {}", id(a), id(b)),
            K::Sub(a, b) => format!("sub {} {}", id(a), id(b)),
            K::Mul(a, b) => format!("mul {} {}", id(a), id(b)),
            K::FloorDiv(a, b) => format!("div {} {}", id(a), id(b)),
            K::Mod(a, b) => format!("mod {} {}", id(a), id(b)),
            K::Min(a, b) => format!("min {} {}", id(a), id(b)),
            K::Max(a, b) => format!("max {} {}", id(a), id(b)),
            K::Concat(a, b) => format!("concat {} {}", id(a), id(b)),
            K::Index(a, b) => format!("index {} {}", id(a), id(b)),
            K::Slice(a, lo, hi, step) => {
                let part =
                    |p: &Option<Term>| p.as_ref().map_or("-".to_string(), |p| id(p).to_string());
                format!("slice {} {} {} {}", id(a), part(lo), part(hi), id(step))
            }
            K::Cmp(op, a, b) => format!("cmp {} {} {}", op_name(*op), id(a), id(b)),
            K::Ite(a, b, c) => format!("ite {} {} {}", id(a), id(b), id(c)),
            K::And(xs) | K::Or(xs) => {
                let mut l = String::from(if matches!(t.kind(), K::And(_)) {
                    "and"
                } else {
                    "or"
                });
                write!(l, " {}", xs.len()).expect("write to a String");
                for x in xs {
                    write!(l, " {}", id(x)).expect("write to a String");
                }
                l
            }
            K::SeqEmpty => "empty".to_string(),
            K::Forall(v, lo, hi, body) | K::Exists(v, lo, hi, body) => {
                let q = if matches!(t.kind(), K::Forall(..)) {
                    "forall"
                } else {
                    "exists"
                };
                format!(
                    "{q} {} {} {} {} {}",
                    id(lo),
                    id(hi),
                    id(body),
                    sort_name(v.sort),
                    v.name
                )
            }
        };
        ids.insert(t, lines.len());
        lines.push(line);
    }
    let roots = terms.iter().map(|t| ids[t]).collect();
    (lines, roots)
}

/// Reads a request line by line.
struct Lines<'a> {
    lines: std::str::Lines<'a>,
}

impl<'a> Lines<'a> {
    fn next(&mut self) -> Result<&'a str, String> {
        self.lines
            .next()
            .ok_or_else(|| "the request ends early".to_string())
    }

    /// The line `<word> <rest>`; its rest.
    fn field(&mut self, word: &str) -> Result<&'a str, String> {
        let line = self.next()?;
        line.strip_prefix(word)
            .and_then(|r| r.strip_prefix(' ').or((r.is_empty()).then_some(r)))
            .ok_or_else(|| format!("expected `{word}`, got `{line}`"))
    }
}

fn number<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("not a number: `{s}`"))
}

/// `<sort> <name>`.
fn sym(text: &str) -> Result<Sym, String> {
    let (sort, name) = text
        .split_once(' ')
        .ok_or_else(|| format!("not a symbol: `{text}`"))?;
    Ok(Sym::new(name, sort_of(sort)?))
}

/// Decode a request.
pub fn parse_request(text: &str) -> Result<Request, String> {
    let mut lines = Lines {
        lines: text.lines(),
    };
    if lines.next()? != MAGIC {
        return Err("not a symdbg solver request".into());
    }
    let ask = match lines.next()? {
        "check" => Ask::Check,
        "model" => Ask::Model,
        other => match other.strip_prefix("core ") {
            Some(rest) => {
                let mut words = rest.split(' ');
                let budget_ms = number(words.next().unwrap_or_default())?;
                let goal = words.map(number).collect::<Result<Vec<usize>, _>>()?;
                Ask::Core { budget_ms, goal }
            }
            None => return Err(format!("unknown question `{other}`")),
        },
    };
    let timeout_ms = match lines.field("timeout")? {
        "none" => None,
        ms => Some(number(ms)?),
    };
    let minimize = lines.field("minimize")? == "1";
    let n: usize = number(lines.field("syms")?)?;
    let syms = (0..n)
        .map(|_| sym(lines.next()?))
        .collect::<Result<Vec<_>, _>>()?;
    let n: usize = number(lines.field("nodes")?)?;
    let mut built: Vec<Term> = Vec::with_capacity(n.min(1 << 20));
    for _ in 0..n {
        let line = lines.next()?;
        let t = node(line, &built).map_err(|e| format!("{e} in `{line}`"))?;
        built.push(t);
    }
    let terms = lines
        .field("roots")?
        .split_whitespace()
        .map(|r| {
            built
                .get(number::<usize>(r)?)
                .cloned()
                .ok_or_else(|| format!("no node {r}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if terms.iter().any(|t| t.sort() != Sort::Bool) {
        return Err("a root is not a Bool term".into());
    }
    Ok(Request {
        ask,
        timeout_ms,
        minimize,
        syms,
        terms,
    })
}

/// One node, its operands among `built`.
fn node(line: &str, built: &[Term]) -> Result<Term, String> {
    let (op, rest) = line.split_once(' ').unwrap_or((line, ""));
    let words: Vec<&str> = rest.split(' ').collect();
    let arg = |i: usize, sort: Option<Sort>| -> Result<Term, String> {
        let w = words.get(i).ok_or("too few operands")?;
        let t = built
            .get(number::<usize>(w)?)
            .cloned()
            .ok_or_else(|| format!("no node {w}"))?;
        match sort {
            Some(s) if t.sort() != s => Err(format!("operand {w} has the wrong sort")),
            _ => Ok(t),
        }
    };
    let int = Some(Sort::Int);
    let boolean = Some(Sort::Bool);
    let seq = Some(Sort::Seq);
    Ok(match op {
        "i" => Term::int(number::<BigInt>(rest)?),
        "b" => Term::bool(rest == "1"),
        "v" => Term::var(sym(rest)?),
        "neg" => Term::neg(arg(0, int)?),
        "abs" => Term::abs(arg(0, int)?),
        "not" => Term::not(arg(0, boolean)?),
        "unit" => Term::seq_unit(arg(0, int)?),
        "len" => Term::len(arg(0, seq)?),
        "add" => Term::add(arg(0, int)?, arg(1, int)?),
        "sub" => Term::sub(arg(0, int)?, arg(1, int)?),
        "mul" => Term::mul(arg(0, int)?, arg(1, int)?),
        "div" => Term::floor_div(arg(0, int)?, arg(1, int)?),
        "mod" => Term::modulo(arg(0, int)?, arg(1, int)?),
        "min" => Term::min(arg(0, int)?, arg(1, int)?),
        "max" => Term::max(arg(0, int)?, arg(1, int)?),
        "concat" => Term::concat(arg(0, seq)?, arg(1, seq)?),
        "index" => Term::index(arg(0, seq)?, arg(1, int)?),
        "slice" => {
            let part = |i: usize| -> Result<Option<Term>, String> {
                match words.get(i) {
                    Some(&"-") => Ok(None),
                    _ => arg(i, int).map(Some),
                }
            };
            Term::slice(arg(0, seq)?, part(1)?, part(2)?, arg(3, int)?)
        }
        "cmp" => {
            let op = op_of(words[0])?;
            let (a, b) = (arg(1, None)?, arg(2, None)?);
            let ordering = !matches!(op, CmpOp::Eq | CmpOp::Ne);
            if a.sort() != b.sort() || (ordering && a.sort() != Sort::Int) {
                return Err("operands of the wrong sorts".into());
            }
            Term::cmp(op, a, b)
        }
        "ite" => {
            let (c, a, b) = (arg(0, boolean)?, arg(1, None)?, arg(2, None)?);
            if a.sort() != b.sort() {
                return Err("branches of different sorts".into());
            }
            Term::ite(c, a, b)
        }
        "and" | "or" => {
            let n: usize = number(words[0])?;
            let xs = (1..=n)
                .map(|i| arg(i, boolean))
                .collect::<Result<Vec<_>, _>>()?;
            if op == "and" {
                Term::and_all(xs)
            } else {
                Term::or_all(xs)
            }
        }
        "empty" => Term::seq_empty(),
        "forall" | "exists" => {
            let (lo, hi, body) = (arg(0, int)?, arg(1, int)?, arg(2, boolean)?);
            let var = sym(words
                .get(3..)
                .map(|w| w.join(" "))
                .unwrap_or_default()
                .as_str())?;
            if op == "forall" {
                Term::forall(var, lo, hi, body)
            } else {
                Term::exists(var, lo, hi, body)
            }
        }
        _ => return Err(format!("unknown operator `{op}`")),
    })
}

/// The answer text: `sat`, `unsat` or `unknown <reason>`, then a model's values.
pub fn answer(result: &Result<Option<Model>, crate::solver::SatResult>, syms: &[Sym]) -> String {
    use crate::solver::SatResult;
    let mut out = String::new();
    match result {
        Ok(None) | Err(SatResult::Sat) => out.push_str("sat\n"),
        Ok(Some(m)) => {
            out.push_str("sat\n");
            for s in syms {
                // A tuple too long to materialise crosses as its length, the elements the
                // model names and the value of the others: `L len more other k:v ...`.
                if let Some(l) = m.long.get(s) {
                    let other = l.other.as_ref().map_or("-".to_string(), |o| o.to_string());
                    write!(out, "L {} {} {other}", l.len, u8::from(l.more))
                        .expect("write to a String");
                    for (k, v) in &l.elems {
                        write!(out, " {k}:{v}").expect("write to a String");
                    }
                    writeln!(out).expect("write to a String");
                    continue;
                }
                let v = m
                    .values
                    .get(s)
                    .cloned()
                    .unwrap_or_else(|| Value::default_of(s.sort.to_type()));
                match v {
                    Value::Int(i) => writeln!(out, "i {i}"),
                    Value::Bool(b) => writeln!(out, "b {}", u8::from(b)),
                    Value::Tuple(t) => {
                        write!(out, "t {}", t.len()).expect("write to a String");
                        for e in t.iter() {
                            write!(out, " {e}").expect("write to a String");
                        }
                        writeln!(out)
                    }
                }
                .expect("write to a String");
            }
        }
        Err(SatResult::Unsat) => out.push_str("unsat\n"),
        Err(SatResult::Unknown(r)) => {
            let r = r.text().replace(['\n', '\r'], " ");
            writeln!(out, "unknown {r}").expect("write to a String");
        }
    }
    out
}

/// Decode an answer (its lines): the result and, for a `model` request, the model.
pub fn parse_answer(
    lines: &[String],
    syms: &[Sym],
) -> Result<(crate::solver::SatResult, Option<Model>), String> {
    use crate::solver::SatResult;
    let first = lines.first().ok_or("an empty answer")?;
    let r = match first.as_str() {
        "sat" => SatResult::Sat,
        "unsat" => SatResult::Unsat,
        other => match other.strip_prefix("unknown ") {
            Some(reason) => SatResult::Unknown(reason.into()),
            None => return Err(format!("not an answer: `{other}`")),
        },
    };
    if lines.len() == 1 {
        return Ok((r, None));
    }
    let mut values = std::collections::BTreeMap::new();
    let mut long = std::collections::BTreeMap::new();
    for (s, line) in syms.iter().zip(&lines[1..]) {
        let (kind, rest) = line
            .split_once(' ')
            .ok_or_else(|| format!("not a value: `{line}`"))?;
        if (kind, s.sort) == ("L", Sort::Seq) {
            let mut words = rest.split(' ');
            let mut next = || words.next().ok_or("a long tuple cut short");
            let len: BigInt = number(next()?)?;
            let more = next()? == "1";
            let other = match next()? {
                "-" => None,
                o => Some(number::<BigInt>(o)?),
            };
            let elems = words
                .map(|kv| {
                    let (k, v) = kv.split_once(':').ok_or("not an element")?;
                    Ok((number::<BigInt>(k)?, number::<BigInt>(v)?))
                })
                .collect::<Result<Vec<_>, String>>()?;
            let mut t = crate::term::model::LongTuple::new(len, elems, other);
            t.more |= more;
            long.insert(s.clone(), t);
            continue;
        }
        let v = match (kind, s.sort) {
            ("i", Sort::Int) => Value::Int(number(rest)?),
            ("b", Sort::Bool) => Value::Bool(rest == "1"),
            ("t", Sort::Seq) => {
                let mut words = rest.split(' ');
                let n: usize = number(words.next().unwrap_or_default())?;
                let elems = words.map(number::<BigInt>).collect::<Result<Vec<_>, _>>()?;
                if elems.len() != n {
                    return Err("a tuple of the wrong length".into());
                }
                Value::tuple(elems)
            }
            _ => return Err(format!("a value of the wrong sort for {}", s.name)),
        };
        values.insert(s.clone(), v);
    }
    Ok((r, Some(Model { values, long })))
}

/// The answer text of a `core` request.
pub fn core_answer(answer: &crate::solver::CoreAnswer) -> String {
    use crate::solver::CoreAnswer;
    match answer {
        CoreAnswer::Sat => "sat\n".to_string(),
        CoreAnswer::Unknown(r) => format!("unknown {}\n", r.text().replace(['\n', '\r'], " ")),
        CoreAnswer::Unsat { core, minimal } => {
            let mut out = format!("core {}", u8::from(*minimal));
            for c in core {
                write!(out, " {c}").expect("write to a String");
            }
            out.push('\n');
            out
        }
    }
}

/// Decode the answer to a `core` request about `parts` parts.
pub fn parse_core_answer(
    lines: &[String],
    parts: usize,
) -> Result<crate::solver::CoreAnswer, String> {
    use crate::solver::CoreAnswer;
    let first = lines.first().ok_or("an empty answer")?;
    if first == "sat" {
        return Ok(CoreAnswer::Sat);
    }
    if let Some(reason) = first.strip_prefix("unknown ") {
        return Ok(CoreAnswer::Unknown(reason.into()));
    }
    let rest = first
        .strip_prefix("core ")
        .ok_or_else(|| format!("not an answer: `{first}`"))?;
    let mut words = rest.split(' ');
    let minimal = words.next() == Some("1");
    let core = words.map(number).collect::<Result<Vec<usize>, _>>()?;
    if core.is_empty() || core.iter().any(|&c| c >= parts) {
        return Err(format!("not a core of {parts} parts: `{first}`"));
    }
    Ok(CoreAnswer::Unsat { core, minimal })
}
