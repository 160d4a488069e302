//! Models: concrete values for the inputs, decoded from Z3, and evaluation of any term
//! under a model in plain Rust (with `crate::semantics`, no Z3), so the engine can show the
//! store under a model and replay it.

use std::collections::{BTreeMap, HashMap};

use num_bigint::BigInt;
use num_traits::ToPrimitive;
use z3::ast::{Ast, Int};

use super::translate;
use super::ConcreteValue;
use crate::concrete::Value;
use crate::engine::term::{Sort, Sym, Term, TermKind as K};
use crate::semantics;

/// Quantifiers over more values than this are not evaluated (`eval` returns `None`).
pub const EVAL_RANGE_LIMIT: u64 = 1 << 20;

/// Concrete values for symbols; a symbol missing from `values` reads as its sort's default
/// (`0`, `False`, `()`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Model {
    pub values: BTreeMap<Sym, ConcreteValue>,
}

impl Model {
    /// The value of `sym` (its default if the model does not mention it).
    pub fn get(&self, sym: &Sym) -> ConcreteValue {
        self.values
            .get(sym)
            .cloned()
            .unwrap_or_else(|| Value::default_of(sym.sort.to_type()))
    }

    /// Evaluate `t` under the model. `None` where the term is meaningless (a division by
    /// zero, an index out of range), a quantifier's range exceeds [`EVAL_RANGE_LIMIT`] or
    /// an integer would exceed [`semantics::MAX_INT_BITS`] (`x * x` squared forty times).
    /// Each distinct subterm outside quantifiers is evaluated once (terms share subterms).
    pub fn eval(&self, t: &Term) -> Option<ConcreteValue> {
        Eval {
            model: self,
            env: Vec::new(),
            memo: HashMap::new(),
        }
        .value(t)
    }
}

struct Eval<'a> {
    model: &'a Model,
    env: Vec<(Sym, BigInt)>,
    /// Values of subterms evaluated outside quantifier bodies.
    memo: HashMap<Term, Option<Value>>,
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

    fn tuple(&mut self, t: &Term) -> Option<Vec<BigInt>> {
        match self.value(t)? {
            Value::Tuple(items) => Some(items.to_vec()),
            _ => None,
        }
    }

    fn value(&mut self, t: &Term) -> Option<Value> {
        if !self.env.is_empty() {
            return self.compute(t);
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
            K::Concat(a, b) => {
                let mut items = self.tuple(a)?;
                items.extend(self.tuple(b)?);
                Value::tuple(items)
            }
            K::Len(a) => int(BigInt::from(self.tuple(a)?.len())),
            K::Index(s, i) => {
                let items = self.tuple(s)?;
                let pos = semantics::normalize_index(&self.int(i)?, items.len()).ok()?;
                int(items[pos].clone())
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

/// Read the values of `syms` out of a Z3 model (completing it with defaults).
pub(super) fn decode(z3_model: &z3::Model, syms: &[Sym]) -> Model {
    let mut values = BTreeMap::new();
    for s in syms {
        let v = match s.sort {
            Sort::Int => z3_model
                .eval(&translate::int_const(s), true)
                .and_then(|v| numeral(&v))
                .map(Value::Int),
            Sort::Bool => z3_model
                .eval(&translate::bool_const(s), true)
                .and_then(|v| v.as_bool())
                .map(Value::Bool),
            Sort::Seq => tuple(z3_model, s).map(Value::tuple),
        };
        values.insert(
            s.clone(),
            v.unwrap_or_else(|| Value::default_of(s.sort.to_type())),
        );
    }
    Model { values }
}

/// An Int numeral, however large (Z3 prints negative ones as `(- 5)`).
fn numeral(i: &Int) -> Option<BigInt> {
    if let Some(v) = i.as_i128() {
        return Some(BigInt::from(v));
    }
    // Beyond i128 the crate offers only the printed form, `123...` or `(- 123...)`.
    let text = i.to_string();
    match text.strip_prefix("(- ").and_then(|r| r.strip_suffix(')')) {
        Some(digits) => digits.parse::<BigInt>().ok().map(|v| -v),
        None => text.parse().ok(),
    }
}

/// A tuple symbol's value: its length, then each element (see `translate.rs`).
///
/// The elements are read from the element function's table once (its entries, and its
/// `else` value where it is a numeral), not by one `Z3_model_eval` per element, each of
/// which walks the table: that is quadratic in the length. Positions the table does not
/// decide (an `else` that depends on the argument) fall back to `eval`.
fn tuple(z3_model: &z3::Model, s: &Sym) -> Option<Vec<BigInt>> {
    let (len, elems) = translate::tuple_consts(s);
    let n = z3_model.eval(&len, true)?.as_u64()?;
    let n_usize = usize::try_from(n).ok()?;
    let mut items: Vec<Option<BigInt>> = vec![None; n_usize];
    if let Some(table) = z3_model.get_func_interp(&elems) {
        for entry in table.get_entries() {
            let at = entry
                .get_args()
                .first()
                .and_then(|a| a.as_int())
                .and_then(|a| a.as_u64());
            let value = entry.get_value().as_int().and_then(|v| numeral(&v));
            if let (Some(k), Some(v)) = (at.and_then(|k| usize::try_from(k).ok()), value) {
                if k < n_usize && items[k].is_none() {
                    items[k] = Some(v);
                }
            }
        }
        if let Some(other) = table
            .get_else()
            .and_then(|e| e.as_int())
            .and_then(|e| numeral(&e))
        {
            for item in items.iter_mut().filter(|i| i.is_none()) {
                *item = Some(other.clone());
            }
        }
    }
    items
        .into_iter()
        .enumerate()
        .map(|(k, item)| match item {
            Some(v) => Some(v),
            None => {
                let at = elems
                    .apply(&[&Int::from_u64(k as u64) as &dyn Ast])
                    .as_int()?;
                numeral(&z3_model.eval(&at, true)?)
            }
        })
        .collect()
}
