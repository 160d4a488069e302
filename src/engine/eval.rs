//! Symbolic evaluation of call-free expressions (the IR has hoisted user calls).
//!
//! As in chapter 003, an expression evaluates to *conditioned alternatives*: at most one
//! normal result (its condition and value) and any number of exceptions (each with its
//! condition). The conditions are relative to the current path condition, mutually exclusive
//! and together exhaustive. Normal results are not split further: `a and b` is one value
//! `a ∧ b`, not two paths; only exceptions branch. Python's evaluation order decides which
//! exception wins (`1 // x + t[i]` raises ZeroDivisionError before looking at `i`).

use std::cell::Cell;
use std::collections::BTreeSet;
use std::rc::Rc;

use super::state::State;
use crate::base::ExcClass;
use crate::base::Span;
use crate::lang::ast::*;
use crate::term::{Sort, Sym, Term};
use crate::transform::ir;

mod alts;
mod call;
mod forms;

pub use alts::Alts;
use alts::{join, join_more, map, refused, Joined};

/// What evaluation needs besides the state: the program and the names that are local in
/// each function (Python's rule, computed once).
///
/// Two modes: ordinary code runs as Python ([`Context::eval`]): a `@predicate` called
/// there runs like the function it is, so an out-of-range index in its body raises
/// `IndexError` as in CPython. Invariants and `assume` are formulas ([`Context::formula`]):
/// a predicate is its body's value, never an exception; predicates called inside a
/// predicate follow the mode of the outermost call.
pub struct Context<'a> {
    pub program: &'a ir::Program,
    /// Per function: its parameters and every name it assigns.
    pub locals: &'a std::collections::BTreeMap<String, BTreeSet<String>>,
    /// Names of the inputs (quantifier variables are renamed if they clash).
    pub inputs: &'a BTreeSet<String>,
    /// Evaluating a formula (invariant, `assume`): predicates do not raise.
    formula: Cell<bool>,
    /// Set when an evaluation went past one of the engine's limits (a term too large or
    /// too deep, predicates nested too deeply): the step must not happen; the engine makes
    /// it an `unknown` leaf with this reason instead.
    pub limit: Cell<Option<String>>,
    /// Evaluations in progress, and predicate bodies among them.
    nesting: Cell<u32>,
    predicates: Cell<u32>,
}

/// How deeply predicate calls may nest while unfolding (a recursive predicate unfolds
/// until its argument is a constant that ends the recursion, or until this bound).
pub const MAX_PREDICATE_DEPTH: u32 = 100;

/// How deeply evaluations may nest (the parser bounds one expression to 3,000 levels;
/// predicate bodies unfold inside each other).
const MAX_EVAL_DEPTH: u32 = 100_000;

/// Read `name` from `env`: its value, or `class` if it is unbound. A variable that a loop's
/// havoc left possibly unbound (it has a definedness flag) gives both, under the flag.
fn read(state: &State, env: &super::state::Env, name: &str, class: ExcClass, at: Span) -> Alts {
    let Some(t) = env.get(name) else {
        return Alts::raise(class, at);
    };
    // Flags exist only on paths that have havocked something.
    let flag = match state.fresh {
        0 => None,
        _ => env.get(ir::bound_flag_key(name).as_str()),
    };
    match flag {
        None => Alts::value(t.clone()),
        Some(bound) => Alts {
            ok: Some((bound.clone(), t.clone())),
            errs: vec![(Term::not(bound.clone()), class, at)],
        },
    }
}

/// A bound quantifier variable in scope.
type Bound = Vec<(String, Term)>;

impl<'a> Context<'a> {
    pub fn new(
        program: &'a ir::Program,
        locals: &'a std::collections::BTreeMap<String, BTreeSet<String>>,
        inputs: &'a BTreeSet<String>,
    ) -> Context<'a> {
        Context {
            program,
            locals,
            inputs,
            formula: Cell::new(false),
            limit: Cell::new(None),
            nesting: Cell::new(0),
            predicates: Cell::new(0),
        }
    }

    /// Record that a limit was hit (the first reason wins).
    fn exceeded(&self, reason: String) {
        let old = self.limit.take();
        self.limit.set(old.or(Some(reason)));
    }

    /// Evaluate `e` in `state`. If a resulting term is past the engine's limits
    /// ([`Term::limit_exceeded`]), [`Context::limit`] says so.
    pub fn eval(&self, state: &State, e: &Expr) -> Alts {
        let alts = self.eval_in(state, e, &mut Vec::new());
        let terms = alts
            .ok
            .iter()
            .flat_map(|(c, v)| [c, v])
            .chain(alts.errs.iter().map(|(c, _, _)| c));
        if let Some(reason) = terms.filter_map(Term::limit_exceeded).next() {
            self.exceeded(reason);
        }
        alts
    }

    /// Evaluate `e` as a formula (an invariant or an `assume`): see [`Context`].
    pub fn formula(&self, state: &State, e: &Expr) -> Alts {
        let outer = self.formula.replace(true);
        let alts = self.eval(state, e);
        self.formula.set(outer);
        alts
    }

    fn lookup(&self, state: &State, name: &str, bound: &Bound, at: Span) -> Alts {
        if let Some((_, t)) = bound.iter().rev().find(|(n, _)| n == name) {
            return Alts::value(t.clone());
        }
        let frame = state.frame();
        let is_local = match &frame.func {
            Some(f) => self.locals.get(&**f).is_some_and(|l| l.contains(name)),
            None => true,
        };
        if frame.func.is_some() && is_local {
            // Inside a quantifier body (a generator expression in Python) the local is a
            // free variable: CPython raises NameError there.
            let class = if bound.is_empty() {
                ExcClass::UnboundLocalError
            } else {
                ExcClass::NameError
            };
            return read(state, &frame.locals, name, class, at);
        }
        // Module code, or a function reading a module variable: the globals.
        read(state, &state.globals, name, ExcClass::NameError, at)
    }

    /// Evaluate with a guard on nesting (predicate bodies unfold inside expressions, so
    /// the stack grows on the heap when it runs low, up to [`MAX_EVAL_DEPTH`]).
    fn eval_in(&self, state: &State, e: &Expr, bound: &mut Bound) -> Alts {
        let n = self.nesting.get();
        if n >= MAX_EVAL_DEPTH {
            self.exceeded(format!(
                "expression too deep (more than {MAX_EVAL_DEPTH} nested evaluations)"
            ));
            return refused();
        }
        self.nesting.set(n + 1);
        let r = stacker::maybe_grow(256 << 10, 16 << 20, || self.eval_here(state, e, bound));
        self.nesting.set(n);
        r
    }

    fn eval_here(&self, state: &State, e: &Expr, bound: &mut Bound) -> Alts {
        match &e.kind {
            ExprKind::Int(i) => Alts::value(Term::int(i.clone())),
            ExprKind::Bool(b) => Alts::value(Term::bool(*b)),
            ExprKind::Name(n) => self.lookup(state, n, bound, e.span),
            ExprKind::Tuple(items) => self.all(state, items, bound, Term::tuple),
            ExprKind::Unary { op, operand } => {
                let a = self.eval_in(state, operand, bound);
                map(a, |v| match op {
                    UnaryOp::Neg => Term::neg(v),
                    UnaryOp::Pos => v,
                    UnaryOp::Not => Term::not(v),
                })
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(state, *op, lhs, rhs, bound, e.span),
            ExprKind::BoolOp { op, lhs, rhs } => {
                let a = self.eval_in(state, lhs, bound);
                let Some((ac, av)) = a.ok.clone() else {
                    return a;
                };
                // A constant left operand that decides: Python does not evaluate the right
                // one (this also ends the unfolding of a recursive predicate at its base
                // case).
                if av.as_bool() == Some(*op == BoolOp::Or) {
                    return a;
                }
                let b = self.eval_in(state, rhs, bound);
                // The right operand runs only when the left one does not decide.
                let runs_rhs = match op {
                    BoolOp::And => av.clone(),
                    BoolOp::Or => Term::not(av.clone()),
                };
                let mut errs = a.errs;
                for (bc, class, at) in b.errs {
                    let c = Term::and_all([ac.clone(), runs_rhs.clone(), bc]);
                    if !c.is_false() {
                        errs.push((c, class, at));
                    }
                }
                let ok = b.ok.map(|(bc, bv)| {
                    let cond = Term::and(ac.clone(), Term::or(Term::not(runs_rhs.clone()), bc));
                    let value = match op {
                        BoolOp::And => Term::and(av.clone(), bv),
                        BoolOp::Or => Term::or(av.clone(), bv),
                    };
                    (cond, value)
                });
                let ok = match ok {
                    Some(x) => Some(x),
                    // The right operand always raises: only the short-circuit result is normal.
                    None => Some((
                        Term::and(ac, Term::not(runs_rhs)),
                        match op {
                            BoolOp::And => Term::bool(false),
                            BoolOp::Or => Term::bool(true),
                        },
                    )),
                };
                Alts {
                    ok: ok.filter(|(c, _)| !c.is_false()),
                    errs,
                }
            }
            ExprKind::Compare { first, rest } => {
                // Each operand once, left to right; stop at the first false comparison.
                let a = self.eval_in(state, first, bound);
                let Some((mut cond, mut prev)) = a.ok else {
                    return a;
                };
                let mut errs = a.errs;
                let mut result = Term::bool(true);
                for (op, operand) in rest {
                    let b = self.eval_in(state, operand, bound);
                    for (bc, class, at) in b.errs {
                        let c = Term::and_all([cond.clone(), result.clone(), bc]);
                        if !c.is_false() {
                            errs.push((c, class, at));
                        }
                    }
                    let Some((bc, bv)) = b.ok else {
                        // Only the paths where an earlier comparison failed stay normal.
                        let c = Term::and(cond, Term::not(result.clone()));
                        return Alts {
                            ok: (!c.is_false()).then(|| (c, Term::bool(false))),
                            errs,
                        };
                    };
                    cond = Term::and(cond, Term::or(Term::not(result.clone()), bc));
                    result = Term::and(result, Term::cmp(*op, prev, bv.clone()));
                    prev = bv;
                }
                Alts {
                    ok: (!cond.is_false()).then_some((cond, result)),
                    errs,
                }
            }
            ExprKind::Index { base, index } => {
                let b = self.eval_in(state, base, bound);
                let i = self.eval_in(state, index, bound);
                let joined = join(b, i);
                let Some((c, mut vs)) = joined.ok else {
                    return Alts {
                        ok: None,
                        errs: joined.errs,
                    };
                };
                let iv = vs.pop().expect("index");
                let tv = vs.pop().expect("base");
                Alts {
                    ok: Some((c, Term::index(tv.clone(), iv.clone()))),
                    errs: joined.errs,
                }
                .fail_if(
                    Term::not(Term::in_bounds(tv, iv)),
                    ExcClass::IndexError,
                    e.span,
                )
            }
            ExprKind::Slice { .. } => self.slice(state, e, bound),
            ExprKind::IfExp { cond, then, orelse } => {
                self.if_exp(state, (cond, then, orelse), bound)
            }
            ExprKind::Call { func, args } => self.call(state, &func.name, args, bound, e.span),
            ExprKind::Quantifier {
                kind,
                var,
                lo,
                hi,
                body,
            } => {
                let lo_alts = match lo {
                    Some(lo) => self.eval_in(state, lo, bound),
                    None => Alts::value(Term::int(0)),
                };
                let hi_alts = self.eval_in(state, hi, bound);
                let joined = join(lo_alts, hi_alts);
                let Some((c, mut vs)) = joined.ok else {
                    return Alts {
                        ok: None,
                        errs: joined.errs,
                    };
                };
                let h = vs.pop().expect("hi");
                let l = vs.pop().expect("lo");
                let mut name = if self.inputs.contains(&var.name) {
                    format!("{}!q", var.name)
                } else {
                    var.name.clone()
                };
                // The binder must not capture a variable of the values in scope: a
                // predicate's parameter bound to the caller's quantifier variable of the
                // same name (`any(p(u, k) for k in ...)` where `p` quantifies over its own
                // `k`) would become the inner variable.
                let mut free = std::collections::BTreeSet::new();
                for (_, t) in bound.iter() {
                    t.vars(&mut free);
                }
                let base = name.clone();
                let mut n = 1;
                while free
                    .iter()
                    .any(|s| *s.name == *name || *s.name == format!("{name}!p"))
                {
                    n += 1;
                    name = format!("{base}!{n}");
                }
                let sym = Sym {
                    name: Rc::from(name.as_str()),
                    sort: Sort::Int,
                };
                bound.push((var.name.clone(), Term::var(sym.clone())));
                let b = self.eval_in(state, body, bound);
                bound.pop();
                let v_k = b.ok.as_ref().map_or(Term::bool(false), |(_, v)| v.clone());
                let q = match kind {
                    Quantifier::All => Term::forall(sym.clone(), l.clone(), h.clone(), v_k),
                    Quantifier::Any => Term::exists(sym.clone(), l.clone(), h.clone(), v_k),
                };
                if b.errs.is_empty() {
                    return Alts {
                        ok: Some((c, q)),
                        errs: joined.errs,
                    };
                }
                // Python evaluates the body for k = lo, lo + 1, ... and stops at the first
                // value that decides the result: the body raises at k exactly when every
                // earlier iteration j ran normally without deciding.
                let jsym = Sym {
                    name: Rc::from(format!("{name}!p").as_str()),
                    sort: Sort::Int,
                };
                bound.push((var.name.clone(), Term::var(jsym.clone())));
                let bj = self.eval_in(state, body, bound);
                bound.pop();
                let (ok_j, v_j) = bj.ok.unwrap_or((Term::bool(false), Term::bool(false)));
                let goes_on = match kind {
                    Quantifier::All => v_j,
                    Quantifier::Any => Term::not(v_j),
                };
                let prefix = Term::forall(
                    jsym,
                    l.clone(),
                    Term::var(sym.clone()),
                    Term::and(ok_j, goes_on),
                );
                let mut errs = joined.errs;
                let mut raised = Term::bool(false);
                for (ce, class, at) in b.errs {
                    let mut vars = std::collections::BTreeSet::new();
                    ce.vars(&mut vars);
                    let cond = if vars.contains(&sym) {
                        Term::exists(
                            sym.clone(),
                            l.clone(),
                            h.clone(),
                            Term::and(prefix.clone(), ce),
                        )
                    } else {
                        // Not about k: raised by the first iteration, if there is one.
                        Term::and(Term::lt(l.clone(), h.clone()), ce)
                    };
                    let cond = Term::and(c.clone(), cond);
                    raised = Term::or(raised, cond.clone());
                    if !cond.is_false() {
                        errs.push((cond, class, at));
                    }
                }
                Alts {
                    ok: Some((Term::and(c, Term::not(raised)), q)),
                    errs,
                }
            }
        }
    }

    fn binary(
        &self,
        state: &State,
        op: BinOp,
        lhs: &Expr,
        rhs: &Expr,
        bound: &mut Bound,
        at: Span,
    ) -> Alts {
        let a = self.eval_in(state, lhs, bound);
        let b = self.eval_in(state, rhs, bound);
        let joined = join(a, b);
        let Some((c, mut vs)) = joined.ok else {
            return Alts {
                ok: None,
                errs: joined.errs,
            };
        };
        let y = vs.pop().expect("rhs");
        let x = vs.pop().expect("lhs");
        let value = match op {
            BinOp::Add if x.sort() == Sort::Seq => Term::concat(x, y.clone()),
            BinOp::Add => Term::add(x, y.clone()),
            BinOp::Sub => Term::sub(x, y.clone()),
            BinOp::Mul => Term::mul(x, y.clone()),
            BinOp::FloorDiv => Term::floor_div(x, y.clone()),
            BinOp::Mod => Term::modulo(x, y.clone()),
        };
        let r = Alts {
            ok: Some((c, value)),
            errs: joined.errs,
        };
        match op {
            BinOp::FloorDiv | BinOp::Mod => {
                r.fail_if(Term::eq(y, Term::int(0)), ExcClass::ZeroDivisionError, at)
            }
            _ => r,
        }
    }
}
