//! Expressions and calls: evaluation order as in CPython (left to right, callee looked up
//! before its arguments, `and`/`or` and comparison chains short-circuit, each chain operand
//! evaluated once).

use std::collections::BTreeMap;

use num_bigint::BigInt;

use super::{Abrupt, Eval, Frame, Interp};
use crate::base::ExcClass;
use crate::base::Span;
use crate::concrete::Value;
use crate::lang::ast::*;
use crate::semantics;

/// How deeply evaluations may nest (expressions inside calls inside expressions...):
/// about 100 MiB of stack in a release build. CPython evaluates expressions without
/// recursion; this is where minipy's interpreter stops instead (outcome `step_limit`).
const MAX_NATIVE_DEPTH: u32 = 100_000;

/// When less stack than this is left, evaluation continues on a new segment...
const STACK_RED_ZONE: usize = 256 << 10;
/// ...of this size.
const STACK_SEGMENT: usize = 16 << 20;

impl<'p> Interp<'p> {
    // ---- expressions ---------------------------------------------------------------------

    pub(super) fn eval_bool(&mut self, e: &'p Expr) -> Result<bool, Abrupt> {
        match self.eval(e)? {
            Value::Bool(b) => Ok(b),
            _ => self.raise(ExcClass::TypeError),
        }
    }

    pub(super) fn eval_int(&mut self, e: &'p Expr) -> Result<BigInt, Abrupt> {
        match self.eval(e)? {
            Value::Int(i) => Ok(i),
            _ => self.raise(ExcClass::TypeError),
        }
    }

    /// Evaluate `e`. Deep expressions inside deep recursions nest Rust calls far beyond
    /// any fixed stack (CPython's evaluation of expressions does not recurse), so the
    /// stack grows on the heap when it runs low.
    /// Past [`MAX_NATIVE_DEPTH`] nested evaluations the run stops like the step limit.
    pub(super) fn eval(&mut self, e: &'p Expr) -> Eval {
        if self.native_depth >= MAX_NATIVE_DEPTH {
            return Err(Abrupt::StepLimit);
        }
        self.native_depth += 1;
        let r = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || self.eval_here(e));
        self.native_depth -= 1;
        r
    }

    fn eval_here(&mut self, e: &'p Expr) -> Eval {
        match &e.kind {
            // Chains (`not not x`, `a + b - c + ...`) are walked without recursion.
            ExprKind::Unary { .. } => {
                let mut ops = Vec::new();
                let mut inner = e;
                while let ExprKind::Unary { op, operand } = &inner.kind {
                    ops.push(*op);
                    inner = operand;
                }
                let mut v = self.eval(inner)?;
                for op in ops.into_iter().rev() {
                    v = match (op, v) {
                        (UnaryOp::Neg, Value::Int(i)) => Value::Int(-i),
                        (UnaryOp::Pos, Value::Int(i)) => Value::Int(i),
                        (UnaryOp::Not, Value::Bool(b)) => Value::Bool(!b),
                        _ => return self.raise(ExcClass::TypeError),
                    };
                }
                Ok(v)
            }
            ExprKind::Binary { .. } => {
                // The left spine, innermost (first evaluated) last.
                let mut spine = Vec::new();
                let mut inner = e;
                while let ExprKind::Binary { op, lhs, rhs } = &inner.kind {
                    // Each operation raises at its own expression.
                    spine.push((*op, &**rhs, inner.span));
                    inner = lhs;
                }
                let mut v = self.eval(inner)?;
                for (op, rhs, at) in spine.into_iter().rev() {
                    let r = self.eval(rhs)?;
                    v = self.binary(op, v, r, at)?;
                }
                Ok(v)
            }
            _ => self.eval_other(e),
        }
    }

    fn eval_other(&mut self, e: &'p Expr) -> Eval {
        match &e.kind {
            ExprKind::Int(i) => Ok(Value::Int(i.clone())),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Name(n) => self.lookup(n, e.span),
            ExprKind::Tuple(elems) => {
                let mut out = Vec::with_capacity(elems.len());
                for x in elems {
                    out.push(self.eval_int(x)?);
                }
                self.charge_tuple(out.len())?;
                Ok(Value::tuple(out))
            }
            ExprKind::Unary { .. } | ExprKind::Binary { .. } => self.eval_here(e),
            ExprKind::BoolOp { op, lhs, rhs } => {
                let l = self.eval_bool(lhs)?;
                match (op, l) {
                    (BoolOp::And, false) => Ok(Value::Bool(false)),
                    (BoolOp::Or, true) => Ok(Value::Bool(true)),
                    _ => self.eval_bool(rhs).map(Value::Bool),
                }
            }
            ExprKind::Compare { first, rest } => {
                let mut left = self.eval(first)?;
                for (op, e) in rest {
                    let right = self.eval(e)?;
                    if !self.compare(*op, &left, &right)? {
                        return Ok(Value::Bool(false));
                    }
                    left = right;
                }
                Ok(Value::Bool(true))
            }
            ExprKind::Index { base, index } => {
                let t = self.eval(base)?;
                let i = self.eval(index)?;
                match (t, i) {
                    (Value::Tuple(t), Value::Int(i)) => {
                        match semantics::normalize_index(&i, t.len()) {
                            Ok(k) => Ok(Value::Int(t[k].clone())),
                            Err(class) => self.raise_at(class, e.span),
                        }
                    }
                    _ => self.raise(ExcClass::TypeError),
                }
            }
            ExprKind::Slice { base, lo, hi, step } => {
                let t = self.eval(base)?;
                let mut parts = [None, None, None];
                for (slot, part) in parts.iter_mut().zip([lo, hi, step]) {
                    if let Some(p) = part {
                        *slot = Some(self.eval_int(p)?);
                    }
                }
                let Value::Tuple(t) = t else {
                    return self.raise(ExcClass::TypeError);
                };
                let [lo, hi, step] = &parts;
                match semantics::slice(&t, lo.as_ref(), hi.as_ref(), step.as_ref()) {
                    Ok(items) => {
                        self.charge_tuple(items.len())?;
                        Ok(Value::tuple(items))
                    }
                    Err(class) => self.raise_at(class, e.span),
                }
            }
            ExprKind::IfExp { cond, then, orelse } => {
                if self.eval_bool(cond)? {
                    self.eval(then)
                } else {
                    self.eval(orelse)
                }
            }
            ExprKind::Call { func, args } => match self.call(func, args, e.span)? {
                Some(v) => Ok(v),
                // Only a procedure returns nothing, and its calls are statements.
                None => self.raise(ExcClass::TypeError),
            },
            ExprKind::Quantifier {
                kind,
                var,
                lo,
                hi,
                body,
            } => self.quantifier(*kind, var, lo.as_deref(), hi, body),
        }
    }

    /// `l op r` for the expression at `at` (where its exception is raised).
    pub(super) fn binary(&mut self, op: BinOp, l: Value, r: Value, at: Span) -> Eval {
        match (l, r) {
            // Products and divisions of huge ints (from hexadecimal literals) cost more
            // than linear time: refuse them before computing, like a too large result.
            (Value::Int(a), Value::Int(b))
                if op != BinOp::Add
                    && op != BinOp::Sub
                    && a.bits().max(b.bits()) > super::MAX_INT_BITS =>
            {
                Err(Abrupt::StepLimit)
            }
            (Value::Int(a), Value::Int(b)) => match semantics::int_binop(op, &a, &b) {
                Ok(v) => {
                    self.charge_int(&v)?;
                    Ok(Value::Int(v))
                }
                Err(class) => self.raise_at(class, at),
            },
            (Value::Tuple(a), Value::Tuple(b)) if op == BinOp::Add => {
                let mut v = Vec::with_capacity(a.len() + b.len());
                v.extend(a.iter().cloned());
                v.extend(b.iter().cloned());
                self.charge_tuple(v.len())?;
                Ok(Value::tuple(v))
            }
            _ => self.raise(ExcClass::TypeError),
        }
    }

    pub(super) fn compare(&mut self, op: CmpOp, l: &Value, r: &Value) -> Result<bool, Abrupt> {
        match (l, r) {
            (Value::Int(x), Value::Tuple(t)) if op.is_membership() => {
                self.tick(t.len() as u64 / 16)?;
                Ok(semantics::member(x, t) == (op == CmpOp::In))
            }
            _ if op.is_membership() => self.raise(ExcClass::TypeError),
            (Value::Int(a), Value::Int(b)) => Ok(semantics::int_compare(op, a, b)),
            _ if l.ty() == r.ty() || matches!(op, CmpOp::Eq | CmpOp::Ne) => {
                let ord = match (l, r) {
                    (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
                    (Value::Tuple(a), Value::Tuple(b)) => a.cmp(b),
                    // Values of different types are never equal (bool/int mixes are
                    // ill-typed in minipy).
                    _ => return Ok(op == CmpOp::Ne),
                };
                Ok(match op {
                    CmpOp::Eq => ord.is_eq(),
                    CmpOp::Ne => ord.is_ne(),
                    CmpOp::Lt => ord.is_lt(),
                    CmpOp::Le => ord.is_le(),
                    CmpOp::Gt => ord.is_gt(),
                    CmpOp::Ge => ord.is_ge(),
                    CmpOp::In | CmpOp::NotIn => unreachable!("handled above"),
                })
            }
            _ => self.raise(ExcClass::TypeError),
        }
    }

    pub(super) fn quantifier(
        &mut self,
        kind: Quantifier,
        var: &'p Ident,
        lo: Option<&'p Expr>,
        hi: &'p Expr,
        body: &'p Expr,
    ) -> Eval {
        let mut k = match lo {
            Some(lo) => self.eval_int(lo)?,
            None => BigInt::from(0),
        };
        let hi = self.eval_int(hi)?;
        // all(): the first False decides; any(): the first True.
        let decisive = kind == Quantifier::Any;
        while k < hi {
            self.tick(1)?;
            self.frame_mut().quant.push((var.name.as_str(), k.clone()));
            let b = self.eval_bool(body);
            self.frame_mut().quant.pop();
            if b? == decisive {
                return Ok(Value::Bool(decisive));
            }
            k += 1;
        }
        Ok(Value::Bool(!decisive))
    }

    // ---- calls ---------------------------------------------------------------------------

    /// A call expression: user function (once its `def` ran) or builtin. `None` when a
    /// procedure returned nothing.
    pub(super) fn call(
        &mut self,
        func: &'p Ident,
        args: &'p [Expr],
        at: Span,
    ) -> Result<Option<Value>, Abrupt> {
        let name = func.name.as_str();
        // CPython looks the callee up before evaluating the arguments.
        let user = self.funcs.get(name).copied().or_else(|| {
            // In a formula a predicate is defined wherever its `def` is (see `formula`).
            let program = self.program;
            self.formula
                .then(|| program.function(name).filter(|f| f.predicate))
                .flatten()
        });
        if user.is_none() && !BUILTINS.contains(&name) {
            return self.raise_at(ExcClass::NameError, func.span);
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a)?);
        }
        match user {
            Some(f) => self.call_user(f, vals, at, &[]).0,
            None => self.builtin(name, vals).map(Some),
        }
    }

    pub(super) fn builtin(&mut self, name: &str, args: Vec<Value>) -> Eval {
        match (name, args.as_slice()) {
            ("len", [Value::Tuple(t)]) => Ok(Value::Int(BigInt::from(t.len()))),
            ("abs", [Value::Int(x)]) => Ok(Value::Int(semantics::abs(x))),
            ("min", [Value::Int(a), Value::Int(b)]) => Ok(Value::Int(semantics::min(a, b))),
            ("max", [Value::Int(a), Value::Int(b)]) => Ok(Value::Int(semantics::max(a, b))),
            _ => self.raise(ExcClass::TypeError),
        }
    }

    /// Run `f`'s body in a new frame. Returns the result (`None`: no value returned) and
    /// the frame's locals at the end.
    pub(super) fn call_user(
        &mut self,
        f: &'p FunctionDef,
        args: Vec<Value>,
        at: Span,
        prelude: &'p [Stmt],
    ) -> (Result<Option<Value>, Abrupt>, BTreeMap<String, Value>) {
        if args.len() != f.params.len() {
            return (self.raise(ExcClass::TypeError), BTreeMap::new());
        }
        // The module frame counts, as in CPython: limit 1000 allows 999 nested calls.
        if self.frames.len() + 1 > self.config.recursion_limit {
            return (self.raise_at(ExcClass::RecursionError, at), BTreeMap::new());
        }
        let locals = f
            .params
            .iter()
            .zip(args)
            .map(|(p, v)| (p.name.name.clone(), v))
            .collect();
        let local_names = self.locals_of(f);
        self.frames.push(Frame {
            func: Some(f),
            locals,
            local_names,
            quant: Vec::new(),
            pos: None,
        });
        let saved = self.cur;
        // `prelude`: the `--assume` preconditions of an entry call, run in its frame first;
        // then the function's `requires` lines, its body and, at a return, its `ensures`.
        let entry = std::mem::take(&mut self.entering);
        // A call a `--calls contract` tree uses the contract for: recorded (issue 28).
        let contracted = !entry && !f.contract.is_empty();
        let recorded = (contracted && self.contracted_frames == 0).then(|| {
            self.contract_calls.push(super::super::ContractCall {
                function: f.name.name.clone(),
                end: super::super::CallEnd::Other,
            });
            self.contract_calls.len() - 1
        });
        self.contracted_frames += u32::from(contracted);
        let pre = self
            .exec_block(prelude)
            .and_then(|()| self.check_contract(f, Clause::Requires, entry));
        let requires_held = pre.is_ok();
        let result = pre.and_then(|()| self.exec_block(&f.body));
        let result = match result {
            Ok(()) | Err(Abrupt::Return(..)) if !f.contract.ensures.is_empty() => {
                let value = match &result {
                    Err(Abrupt::Return(Some(v), _)) => Some(v.clone()),
                    _ => None,
                };
                if let Some(v) = value {
                    self.frame_mut().locals.insert(RESULT.to_string(), v);
                }
                self.check_contract(f, Clause::Ensures, false).and(result)
            }
            other => other,
        };
        self.contracted_frames -= u32::from(contracted);
        if let Some(k) = recorded {
            use super::super::CallEnd;
            self.contract_calls[k].end = match &result {
                _ if !requires_held => match &result {
                    Err(Abrupt::Invariant(..)) => CallEnd::PreconditionFailed,
                    _ => CallEnd::Other,
                },
                Ok(()) => CallEnd::Returned(None),
                Err(Abrupt::Return(v, _)) => CallEnd::Returned(v.clone()),
                Err(Abrupt::Exception(..) | Abrupt::Invariant(..)) => CallEnd::Raised,
                Err(_) => CallEnd::Other,
            };
        }
        self.cur = saved;
        let frame = self.frames.pop().expect("pushed above");
        if let Err(Abrupt::Exception(_, raised) | Abrupt::Invariant(_, raised)) = &result {
            self.unwound(&f.name.name, &frame.locals, *raised, at);
        }
        let result = match result {
            Ok(()) => Ok(None),
            Err(Abrupt::Return(v, _)) => Ok(v),
            Err(Abrupt::Break(at)) => Err(Abrupt::Stray("break", at)),
            Err(Abrupt::Continue(at)) => Err(Abrupt::Stray("continue", at)),
            Err(other) => Err(other),
        };
        (result, frame.locals)
    }
}
