//! Decoding Z3's models into [`Model`]s (plain data, `crate::term::model`). A tuple's
//! element function table is read once.

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_traits::ToPrimitive;
use z3::ast::{Ast, Int};

use super::translate;
use crate::concrete::Value;
use crate::term::{LongTuple, Model, Sort, Sym, MODEL_TUPLE_LIMIT};

/// Read the values of `syms` out of a Z3 model (completing it with defaults). A tuple
/// longer than [`MODEL_TUPLE_LIMIT`] is not materialised: it goes to `Model::long`.
pub(super) fn decode(z3_model: &z3::Model, syms: &[Sym]) -> Model {
    let mut values = BTreeMap::new();
    let mut long = BTreeMap::new();
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
            Sort::Seq => match tuple(z3_model, s) {
                Some(Ok(items)) => Some(Value::tuple(items)),
                Some(Err(t)) => {
                    long.insert(s.clone(), t);
                    continue;
                }
                None => None,
            },
        };
        values.insert(
            s.clone(),
            v.unwrap_or_else(|| Value::default_of(s.sort.to_type())),
        );
    }
    Model { values, long }
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

/// A tuple symbol's length alone (cheap, where decoding a long tuple is not).
pub(super) fn length(z3_model: &z3::Model, s: &Sym) -> Option<BigInt> {
    let (len, _) = translate::tuple_consts(s);
    numeral(&z3_model.eval(&len, true)?)
}

/// A tuple symbol's value: its length, then each element (see `translate.rs`); a
/// [`LongTuple`] past [`MODEL_TUPLE_LIMIT`] (a length that does not fit any machine
/// integer included: never the default `()` in its place).
///
/// The elements are read from the element function's table once (its entries, and its
/// `else` value where it is a numeral), not by one `Z3_model_eval` per element, each of
/// which walks the table: that is quadratic in the length. Positions the table does not
/// decide (an `else` that depends on the argument) fall back to `eval`.
fn tuple(z3_model: &z3::Model, s: &Sym) -> Option<Result<Vec<BigInt>, LongTuple>> {
    let (len, elems) = translate::tuple_consts(s);
    let n = numeral(&z3_model.eval(&len, true)?)?;
    match n.to_u64() {
        Some(n) if n <= MODEL_TUPLE_LIMIT => items(z3_model, &elems, n).map(Ok),
        _ if n.sign() == num_bigint::Sign::Minus => None,
        _ => Some(Err(long(z3_model, &elems, n))),
    }
}

/// A long tuple's length, the entries of its element table and the table's `else`.
fn long(z3_model: &z3::Model, elems: &z3::FuncDecl, n: BigInt) -> LongTuple {
    let mut named = Vec::new();
    let mut other = None;
    if let Some(table) = z3_model.get_func_interp(elems) {
        // (an entry not read as numerals leaves its position unknown: then the `else`
        // is not every other element's value and is not given)
        let mut exact = true;
        for entry in table.get_entries() {
            let at = entry
                .get_args()
                .first()
                .and_then(|a| a.as_int())
                .and_then(|a| numeral(&a));
            let value = entry.get_value().as_int().and_then(|v| numeral(&v));
            match (at, value) {
                (Some(k), Some(v)) => named.push((k, v)),
                _ => exact = false,
            }
        }
        other = table
            .get_else()
            .and_then(|e| e.as_int())
            .and_then(|e| numeral(&e))
            .filter(|_| exact);
    }
    LongTuple::new(n, named, other)
}

/// The `n` elements of a tuple (`n` at most [`MODEL_TUPLE_LIMIT`]).
fn items(z3_model: &z3::Model, elems: &z3::FuncDecl, n: u64) -> Option<Vec<BigInt>> {
    let n_usize = usize::try_from(n).ok()?;
    let mut items: Vec<Option<BigInt>> = vec![None; n_usize];
    if let Some(table) = z3_model.get_func_interp(elems) {
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
