//! The steps of verification for loops with invariants: checking invariant lines (a
//! failure is an uncatchable [`Abrupt::Invariant`]), the form's `havoc` that keeps
//! "unbound" possible, and its `assume` that drops states where the invariant raises.

use std::rc::Rc;

use super::{bind, Outcome, StepResult, Stepper, Succ};
use crate::base::ExcClass;
use crate::base::Span;
use crate::engine::state::{Abrupt, State};
use crate::engine::tag::{Check, Tag};
use crate::term::{Sort, Sym, Term};

impl Stepper<'_> {
    /// Check invariant lines in order: `ok` (a forced leaf if `ok_forced`) where every line
    /// holds, and for each line an invariant failure (uncatchable, at that line) where it
    /// is the first that is false, or raises while being evaluated.
    pub(super) fn check_invariants(
        &self,
        state: &State,
        invs: &[crate::lang::Expr],
        ok: State,
        ok_forced: Option<Outcome>,
        check: Check,
    ) -> StepResult {
        let mut failures = Vec::new();
        let mut holds = Some(Term::bool(true));
        for inv in invs {
            let Some(before) = holds.take() else { break };
            let alts = self.cx.formula(state, inv);
            for (c, class, at) in &alts.errs {
                failures.push(broken(
                    state,
                    check,
                    Term::and(before.clone(), c.clone()),
                    *class,
                    *at,
                ));
            }
            if let Some((c, v)) = alts.ok {
                failures.push(broken(
                    state,
                    check,
                    Term::and(before.clone(), Term::and(c.clone(), Term::not(v.clone()))),
                    ExcClass::AssertionError,
                    inv.span,
                ));
                holds = Some(Term::and(before, Term::and(c, v)));
            }
        }
        let mut succs = Vec::with_capacity(failures.len() + 1);
        if let Some(cond) = holds {
            succs.push(Succ {
                cond,
                state: ok,
                forced: ok_forced,
                tag: Tag::InvariantHolds(check),
            });
        }
        succs.extend(failures);
        StepResult {
            succs,
            exhaustive: true,
        }
    }

    /// `havoc name`: a fresh value; with `keep_unbound` (a loop's havoc), a variable that
    /// may be unbound here stays possibly unbound (its definedness flag).
    pub(super) fn havoc(&self, state: &State, name: &str, keep_unbound: bool, span: Span) -> Succ {
        let mut s = Self::advanced(state);
        s.fresh += 1;
        let current = self.cx.eval(
            state,
            &crate::lang::Expr {
                kind: crate::lang::ExprKind::Name(name.to_string()),
                span,
            },
        );
        let sort = match &current.ok {
            Some((_, v)) => v.sort(),
            None => self.var_sort(state, name),
        };
        let fresh = format!("{name}!{}", s.fresh);
        let sym = Sym {
            name: Rc::from(fresh.as_str()),
            sort,
        };
        bind(&mut s, name, Term::var(sym));
        // Where `x` may be unbound (a read raises), a loop's havoc keeps that possible:
        // bound afterwards iff bound before or bound by some iteration.
        if keep_unbound && !current.errs.is_empty() {
            let before = current.ok.map_or(Term::bool(false), |(c, _)| c);
            let flag = Sym {
                name: Rc::from(format!("{fresh}.bound").as_str()),
                sort: Sort::Bool,
            };
            set_bound_flag(&mut s, name, Term::or(before, Term::var(flag)));
        }
        Succ {
            cond: Term::bool(true),
            state: s,
            forced: None,
            tag: Tag::Havoc,
        }
    }

    /// The form's `assume Inv`: no exceptions, a state where the invariant raises is no
    /// loop head (the checks report those as invariant failures).
    pub(super) fn assume_invariant(&self, state: &State, e: &crate::lang::Expr) -> StepResult {
        let cond = match self.cx.formula(state, e).ok {
            Some((c, v)) => Term::and(c, v),
            None => Term::bool(false),
        };
        StepResult {
            succs: vec![Succ {
                cond,
                state: Self::advanced(state),
                forced: None,
                tag: Tag::AssumeInvariant,
            }],
            // Not exhaustive: the paths where the assumption fails are dropped.
            exhaustive: false,
        }
    }
}

/// A use of a contract: name the fresh result `f@n` (f: the contracted function whose
/// frame the use runs in; n: the path's count of fresh symbols), not `result!n`.
pub(super) fn name_result(state: &State, succ: &mut Succ) {
    let Some(func) = state.func() else { return };
    let name = crate::lang::RESULT;
    let Some(sort) = succ.state.frame().locals.get(name).map(Term::sort) else {
        return;
    };
    let sym = Sym {
        name: Rc::from(format!("{func}@{}", succ.state.fresh).as_str()),
        sort,
    };
    bind(&mut succ.state, name, Term::var(sym));
}

/// Set the definedness flag of a possibly unbound variable (see [`super::state::Env`]).
fn set_bound_flag(state: &mut State, name: &str, bound: Term) {
    let key: Rc<str> = Rc::from(crate::transform::ir::bound_flag_key(name));
    let frame = state.frame_mut();
    if frame.func.is_some() {
        frame.locals = frame.locals.insert(key, bound);
    } else {
        state.globals = state.globals.insert(key, bound);
    }
}

/// A successor whose path ends in an invariant failure (`class` at `at`; see
/// [`Abrupt::Invariant`]).
fn broken(state: &State, check: Check, cond: Term, class: ExcClass, at: Span) -> Succ {
    let mut s = state.clone();
    s.abrupt = Some(Box::new(Abrupt::Invariant(class, at)));
    Succ {
        cond,
        state: s,
        forced: None,
        tag: Tag::InvariantFails(check, class, at),
    }
}
