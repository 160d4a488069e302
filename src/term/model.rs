//! Models: concrete values for the inputs, and evaluation of any term under a model in
//! plain Rust (with `crate::semantics`, no Z3), so the engine can show the store under a
//! model, clients can replay it and tests can check a solver's answer outside the solver.
//! The solver decodes Z3's models into this type (`solver/model.rs`).

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_traits::ToPrimitive;

use super::{Sym, Term, TermKind as K, TermMap};
use crate::concrete::Value;
use crate::semantics;

/// Quantifiers over more values than this are not evaluated (`eval` returns `None`).
pub const EVAL_RANGE_LIMIT: u64 = 1 << 20;

/// Tuples longer than this are not materialised in a model (a `Value::Tuple` of 2^32
/// elements would need 128 GiB): they are [`LongTuple`]s, shown by their length and the
/// elements the solver names. (The interpreter's own limit is 4 Mi elements, so no run
/// could use one anyway.)
pub const MODEL_TUPLE_LIMIT: u64 = 1 << 20;

/// The most elements of a [`LongTuple`] kept and shown.
const LONG_SHOWN: usize = 8;

/// Concrete values for symbols; a symbol missing from `values` (and from `long`) reads as
/// its sort's default (`0`, `False`, `()`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Model {
    pub values: BTreeMap<Sym, Value>,
    /// Tuple symbols whose value is too long to materialise. [`Model::eval`] of a term that
    /// reads one is `None`; a client that needs the value says the model is too large
    /// ([`Model::too_large`]), never uses a default in its place.
    pub long: BTreeMap<Sym, LongTuple>,
}

/// A tuple too long to materialise: its length, the elements the model names (at most
/// [`LONG_SHOWN`], by position) and the value of the others where the model gives one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LongTuple {
    pub len: BigInt,
    pub elems: Vec<(BigInt, BigInt)>,
    /// More elements were named than `elems` keeps.
    pub more: bool,
    pub other: Option<BigInt>,
}

impl LongTuple {
    /// From a model's element table: `elems` (position, value) in any order, positions
    /// outside `0..len` and repeats (the first counts) dropped.
    pub fn new(len: BigInt, mut elems: Vec<(BigInt, BigInt)>, other: Option<BigInt>) -> Self {
        elems.retain(|(k, _)| k.sign() != num_bigint::Sign::Minus && *k < len);
        elems.sort_by(|a, b| a.0.cmp(&b.0));
        elems.dedup_by(|later, earlier| later.0 == earlier.0);
        let more = elems.len() > LONG_SHOWN;
        elems.truncate(LONG_SHOWN);
        LongTuple {
            len,
            elems,
            more,
            other,
        }
    }
}

/// `(0, …, 0, 5) (len 4294967297)`: runs of the other elements shortened to `x, …, x`.
impl std::fmt::Display for LongTuple {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        let gap = |parts: &mut Vec<String>, n: BigInt| {
            let n = n.to_u64().unwrap_or(u64::MAX);
            match &self.other {
                _ if n == 0 => {}
                None => parts.push("…".to_string()),
                Some(x) if n <= 2 => (0..n).for_each(|_| parts.push(x.to_string())),
                Some(x) => parts.extend([x.to_string(), "…".to_string(), x.to_string()]),
            }
        };
        let mut at = BigInt::from(0);
        for (k, v) in &self.elems {
            gap(&mut parts, k - &at);
            parts.push(v.to_string());
            at = k + 1;
        }
        if self.more {
            parts.push("…".to_string());
        } else {
            gap(&mut parts, &self.len - &at);
        }
        write!(f, "({}) (len {})", parts.join(", "), self.len)
    }
}

impl LongTuple {
    /// `t = (0, …, 0, 5) (len 4294967297)` where the model gives every element; else only
    /// the elements it names, never a guess for the others:
    /// `t: len 4294967297, t[3] = 5, other elements not shown`.
    pub fn describe(&self, name: &str) -> String {
        if self.other.is_some() {
            return format!("{name} = {self}");
        }
        let mut parts = vec![format!("{name}: len {}", self.len)];
        parts.extend(self.elems.iter().map(|(k, v)| format!("{name}[{k}] = {v}")));
        parts.push(if self.elems.is_empty() {
            "elements not shown".to_string()
        } else {
            "other elements not shown".to_string()
        });
        parts.join(", ")
    }
}

/// Tuples longer than this are shown in a "too large" text by their length and first elements.
const SHOWN_TUPLE: usize = 16;

/// A value for a "too large" text: in full, but a long tuple by its length and first elements.
fn shown_value(v: &Value, name: &str) -> String {
    match v {
        Value::Tuple(items) if items.len() > SHOWN_TUPLE => {
            let first: Vec<String> = items[..LONG_SHOWN].iter().map(|i| i.to_string()).collect();
            format!(
                "{name}: len {}, first elements {}, other elements not shown",
                items.len(),
                first.join(", ")
            )
        }
        v => crate::base::bindings::binding(name, v),
    }
}

impl Model {
    /// Why this model cannot be used for `syms`: some of them too long to materialise.
    /// The text names the value of each of `syms` a reader knows (the inputs and each
    /// fold's κ, not the solver's auxiliary symbols): `model too large: t: len
    /// 18446744073709551617, elements not shown, x = 0, κ1 = 5`.
    pub fn too_large<'a>(&self, syms: impl IntoIterator<Item = &'a Sym>) -> Option<String> {
        let syms: Vec<&Sym> = syms.into_iter().collect();
        if !syms.iter().any(|s| self.long.contains_key(*s)) {
            return None;
        }
        // Inputs (identifiers) first, then each fold's κ (`k@N`, shown `κN`); the solver's
        // auxiliary symbols (`x!1`) are left out.
        let input = |s: &Sym| s.name.chars().all(|c| c == '_' || c.is_alphanumeric());
        let kappa =
            |s: &Sym| s.name.starts_with("k@") && super::print::display_name(&s.name) != *s.name;
        let describe = |s: &&Sym| {
            let name = super::print::display_name(&s.name);
            match self.long.get(*s) {
                Some(t) => t.describe(&name),
                None => shown_value(&self.get(s), &name),
            }
        };
        let parts: Vec<String> = (syms.iter().filter(|s| input(s)))
            .chain(syms.iter().filter(|s| !input(s) && kappa(s)))
            .map(describe)
            .collect();
        Some(format!("{TOO_LARGE}: {}", parts.join(", ")))
    }

    /// The value of `sym` (its default if the model does not mention it).
    pub fn get(&self, sym: &Sym) -> Value {
        self.values
            .get(sym)
            .cloned()
            .unwrap_or_else(|| Value::default_of(sym.sort.to_type()))
    }

    /// Evaluate `t` under the model. `None` where the term is meaningless (a division by
    /// zero, an index out of range), a quantifier's range exceeds [`EVAL_RANGE_LIMIT`] or
    /// an integer would exceed [`semantics::MAX_INT_BITS`] (`x * x` squared forty times).
    /// Each distinct subterm outside quantifiers is evaluated once (terms share subterms).
    pub fn eval(&self, t: &Term) -> Option<Value> {
        Eval {
            model: self,
            env: Vec::new(),
            memo: TermMap::default(),
            reads: None,
        }
        .value(t)
    }

    /// Like [`Model::eval`], but `reads` decides first, for any subterm outside a
    /// quantifier: `Some(v)` is that subterm's value (`Some(None)`: meaningless), `None`
    /// leaves it to the model. The solver's probes read `len(t)` and `t[k]` this way
    /// without building tuples.
    pub fn eval_with(
        &self,
        t: &Term,
        reads: &dyn Fn(&Term) -> Option<Option<Value>>,
    ) -> Option<Value> {
        Eval {
            model: self,
            env: Vec::new(),
            memo: TermMap::default(),
            reads: Some(reads),
        }
        .value(t)
    }
}

/// How every "the model is too large" reason starts.
pub const TOO_LARGE: &str = "model too large";

/// A term's value decided before the model is asked (see [`Model::eval_with`]).
pub type Reads<'a> = dyn Fn(&Term) -> Option<Option<Value>> + 'a;

struct Eval<'a> {
    model: &'a Model,
    env: Vec<(Sym, BigInt)>,
    /// Values of subterms evaluated outside quantifier bodies.
    memo: TermMap<Option<Value>>,
    reads: Option<&'a Reads<'a>>,
}

/// `i`, unless it is longer than minipy computes with.
fn fit(i: BigInt) -> Option<Value> {
    (i.bits() <= semantics::MAX_INT_BITS).then_some(Value::Int(i))
}

impl Eval<'_> {
    fn int(&mut self, t: &Term) -> Option<BigInt> {
        match self.value(t)? {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    fn bool(&mut self, t: &Term) -> Option<bool> {
        match self.value(t)? {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// A tuple's items, shared (no copy: `len` and indexing inside a quantifier's body
    /// would otherwise copy the tuple once per iteration).
    fn tuple(&mut self, t: &Term) -> Option<std::sync::Arc<[BigInt]>> {
        match self.value(t)? {
            Value::Tuple(items) => Some(items),
            _ => None,
        }
    }

    fn value(&mut self, t: &Term) -> Option<Value> {
        if !self.env.is_empty() {
            return self.compute(t);
        }
        if let Some(v) = self.reads.and_then(|r| r(t)) {
            return v;
        }
        if let Some(v) = self.memo.get(t) {
            return v.clone();
        }
        let v = self.compute(t);
        self.memo.insert(t.clone(), v.clone());
        v
    }

    fn compute(&mut self, t: &Term) -> Option<Value> {
        let int = Value::Int;
        Some(match t.kind() {
            K::Int(i) => int(i.clone()),
            K::Bool(b) => Value::Bool(*b),
            K::Var(s) => match self.env.iter().rev().find(|(v, _)| v == s) {
                Some((_, k)) => int(k.clone()),
                // Never a default in place of a value too long to materialise.
                None if self.model.long.contains_key(s) => return None,
                None => self.model.get(s),
            },
            K::Neg(a) => int(-self.int(a)?),
            K::Add(a, b) => fit(self.int(a)? + self.int(b)?)?,
            K::Sub(a, b) => fit(self.int(a)? - self.int(b)?)?,
            K::Mul(a, b) => fit(self.int(a)? * self.int(b)?)?,
            K::FloorDiv(a, b) => int(semantics::floor_div(&self.int(a)?, &self.int(b)?).ok()?),
            K::Mod(a, b) => int(semantics::floor_mod(&self.int(a)?, &self.int(b)?).ok()?),
            K::Abs(a) => int(semantics::abs(&self.int(a)?)),
            K::Min(a, b) => int(semantics::min(&self.int(a)?, &self.int(b)?)),
            K::Max(a, b) => int(semantics::max(&self.int(a)?, &self.int(b)?)),
            K::Not(a) => Value::Bool(!self.bool(a)?),
            // Like the solver's `and`: a false conjunct decides even if another is meaningless.
            K::And(xs) => self.junction(xs, true)?,
            K::Or(xs) => self.junction(xs, false)?,
            K::Ite(c, a, b) => {
                if self.bool(c)? {
                    self.value(a)?
                } else {
                    self.value(b)?
                }
            }
            K::Cmp(op, a, b) => {
                let (a, b) = (self.value(a)?, self.value(b)?);
                Value::Bool(match (a, b) {
                    (Value::Int(a), Value::Int(b)) => semantics::int_compare(*op, &a, &b),
                    (a, b) => match op {
                        crate::lang::ast::CmpOp::Eq => a == b,
                        crate::lang::ast::CmpOp::Ne => a != b,
                        _ => return None,
                    },
                })
            }
            K::SeqEmpty => Value::tuple(Vec::new()),
            K::SeqUnit(a) => Value::tuple(vec![self.int(a)?]),
            // The parts at once: evaluating (and keeping) every prefix of a long chain of
            // appends would take memory quadratic in its length.
            K::Concat(..) => {
                let mut items = Vec::new();
                for part in super::segments(t) {
                    items.extend(self.tuple(part)?.iter().cloned());
                    if items.len() as u64 > MODEL_TUPLE_LIMIT {
                        return None;
                    }
                }
                Value::tuple(items)
            }
            K::Len(a) => int(BigInt::from(self.tuple(a)?.len())),
            K::Index(s, i) => {
                let items = self.tuple(s)?;
                let pos = semantics::normalize_index(&self.int(i)?, items.len()).ok()?;
                int(items[pos].clone())
            }
            K::Slice(s, lo, hi, step) => {
                let items = self.tuple(s)?;
                let lo = match lo {
                    Some(x) => Some(self.int(x)?),
                    None => None,
                };
                let hi = match hi {
                    Some(x) => Some(self.int(x)?),
                    None => None,
                };
                let step = self.int(step)?;
                Value::tuple(semantics::slice(&items, lo.as_ref(), hi.as_ref(), Some(&step)).ok()?)
            }
            K::Forall(v, lo, hi, body) => self.quantifier(true, v, lo, hi, body)?,
            K::Exists(v, lo, hi, body) => self.quantifier(false, v, lo, hi, body)?,
        })
    }

    fn junction(&mut self, xs: &[Term], conj: bool) -> Option<Value> {
        let mut unknown = false;
        for x in xs {
            match self.bool(x) {
                Some(b) if b != conj => return Some(Value::Bool(b)),
                Some(_) => {}
                None => unknown = true,
            }
        }
        (!unknown).then_some(Value::Bool(conj))
    }

    fn quantifier(
        &mut self,
        forall: bool,
        v: &Sym,
        lo: &Term,
        hi: &Term,
        body: &Term,
    ) -> Option<Value> {
        let (lo, hi) = (self.int(lo)?, self.int(hi)?);
        let n = (&hi - &lo).to_u64().unwrap_or(0);
        if hi > lo && n > EVAL_RANGE_LIMIT {
            return None;
        }
        let mut k = lo;
        while k < hi {
            self.env.push((v.clone(), k.clone()));
            let b = self.bool(body);
            self.env.pop();
            if b? != forall {
                return Some(Value::Bool(!forall));
            }
            k += 1;
        }
        Some(Value::Bool(forall))
    }
}
