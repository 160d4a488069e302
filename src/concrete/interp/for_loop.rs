//! `for` loops, as CPython runs them: the iterable is evaluated once (`range(...)` checks
//! its step, a tuple is kept as it was), each iteration binds the loop variable to the
//! next element, assignments to the variable inside the body do not change the iteration,
//! and after the loop the variable keeps its last value (unbound after zero iterations
//! if nothing bound it before). The loop's `invariant` lines are checked before each
//! `next()`, with the loop's position bound (see [`crate::lang::ast::for_index_name`]).

use num_bigint::BigInt;
use num_traits::{Signed, Zero};

use super::{Abrupt, Exec, Interp};
use crate::base::{ExcClass, Span};
use crate::concrete::Value;
use crate::lang::ast::{for_index_name, range_args, Expr, Ident, Stmt};

/// What a `for` loop iterates over, evaluated.
enum Items {
    Range {
        start: BigInt,
        stop: BigInt,
        step: BigInt,
    },
    Tuple(std::sync::Arc<[BigInt]>),
}

impl Items {
    /// The element of iteration `k` (0-based), or `None` when the loop is exhausted.
    fn get(&self, k: &BigInt) -> Option<BigInt> {
        match self {
            Items::Range { start, stop, step } => {
                let v = start + step * k;
                let inside = if step.is_positive() {
                    v < *stop
                } else {
                    v > *stop
                };
                inside.then_some(v)
            }
            Items::Tuple(t) => usize::try_from(k).ok().and_then(|i| t.get(i).cloned()),
        }
    }

    /// The position the invariants name after `k` iterations: the value the next
    /// iteration takes (`start + k·step`) for a range, the index `k` for a tuple.
    fn position(&self, k: &BigInt) -> BigInt {
        match self {
            Items::Range { start, step, .. } => start + step * k,
            Items::Tuple(_) => k.clone(),
        }
    }
}

impl<'p> Interp<'p> {
    pub(super) fn exec_for(
        &mut self,
        span: Span,
        target: &'p Ident,
        iter: &'p Expr,
        invariants: &'p [Expr],
        body: &'p [Stmt],
        orelse: Option<&'p [Stmt]>,
    ) -> Exec {
        self.at(span)?;
        let items = match range_args(iter) {
            Some(args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval_int(a)?);
                }
                let one = BigInt::from(1);
                let (start, stop, step) = match vals.len() {
                    1 => (BigInt::zero(), vals.pop().expect("stop"), one),
                    2 => {
                        let stop = vals.pop().expect("stop");
                        (vals.pop().expect("start"), stop, one)
                    }
                    _ => {
                        let step = vals.pop().expect("step");
                        let stop = vals.pop().expect("stop");
                        (vals.pop().expect("start"), stop, step)
                    }
                };
                if step.is_zero() {
                    // `ValueError: range() arg 3 must not be zero`, at the call.
                    return self.raise_at(ExcClass::ValueError, iter.span);
                }
                Items::Range { start, stop, step }
            }
            None => match self.eval(iter)? {
                Value::Tuple(t) => Items::Tuple(t),
                _ => return self.raise_at(ExcClass::TypeError, iter.span),
            },
        };
        // The name the invariants use for the position: the loop variable itself for a
        // range, `x_index` for a tuple.
        let pos_name = match &items {
            Items::Range { .. } => target.name.clone(),
            Items::Tuple(_) => for_index_name(&target.name),
        };
        let mut k = BigInt::zero();
        let mut first = true;
        loop {
            if !invariants.is_empty() {
                let pos = items.position(&k);
                for inv in invariants {
                    self.at(inv.span)?;
                    let outer = self
                        .frame_mut()
                        .pos
                        .replace((pos_name.clone(), pos.clone()));
                    let r = self.check_invariant(inv);
                    self.frame_mut().pos = outer;
                    r?;
                }
            }
            // CPython's line event for the `for` line comes with each `next()` (the first
            // one together with the iterable's evaluation).
            if !first || !invariants.is_empty() {
                self.at(span)?;
            }
            first = false;
            let Some(v) = items.get(&k) else {
                return match orelse {
                    Some(b) => self.exec_block(b),
                    None => Ok(()),
                };
            };
            self.charge_int(&v)?;
            self.assign(&target.name, Value::Int(v));
            match self.exec_block(body) {
                Ok(()) | Err(Abrupt::Continue(_)) => {}
                Err(Abrupt::Break(_)) => return Ok(()),
                Err(other) => return Err(other),
            }
            k += 1;
        }
    }
}
