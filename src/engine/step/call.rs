//! A call's transition ([`Stepper::call`]): the callee looked up, the arguments evaluated
//! left to right, then the recursion bounds, and a method frame entered on the body or
//! on the contract's use (issue 28).

use std::rc::Rc;

use super::{raise, StepResult, Stepper, Succ};
use crate::base::{ExcClass, Span};
use crate::engine::state::{Frame, Kont, State};
use crate::engine::tag::{Cut, Tag};
use crate::engine::tree::Outcome;
use crate::term::Term;

impl Stepper<'_> {
    pub(super) fn call(
        &self,
        state: &State,
        target: Option<&str>,
        func: &str,
        args: &[crate::lang::Expr],
        span: Span,
    ) -> StepResult {
        // CPython looks the callee up before it evaluates the arguments.
        if !state.defined.contains_key(func) {
            let name = Span::new(span.start, span.start + func.len());
            return StepResult {
                succs: vec![raise(state, Term::bool(true), ExcClass::NameError, name)],
                exhaustive: true,
            };
        }
        let mut vals = Vec::new();
        let mut cond = Term::bool(true);
        let mut out = Vec::new();
        for a in args {
            let alts = self.cx.eval(state, a);
            for (c, class, at) in &alts.errs {
                out.push(raise(
                    state,
                    Term::and(cond.clone(), c.clone()),
                    *class,
                    *at,
                ));
            }
            match alts.ok {
                Some((c, v)) => {
                    cond = Term::and(cond, c);
                    vals.push(v);
                }
                None => {
                    return StepResult {
                        succs: out,
                        exhaustive: true,
                    }
                }
            }
        }
        let f = &self.cx.program.functions[func];
        // A contracted function whose contract is used: no frame of the body, so no
        // recursion bound (the contract covers every depth).
        let use_ = f
            .contract
            .as_ref()
            .filter(|c| !c.prints && self.config.calls == Some(crate::engine::CallMode::Contract));
        let same = state
            .frames
            .iter()
            .filter(|fr| fr.func.as_deref() == Some(func))
            .count() as u32;
        if same >= self.config.recursion && use_.is_none() {
            out.push(Succ {
                cond,
                state: state.clone(),
                forced: Some(Outcome::Bound),
                tag: Tag::Bound(Cut::Recursion),
            });
            return StepResult {
                succs: out,
                exhaustive: true,
            };
        }
        if state.frames.len() >= crate::engine::PYTHON_RECURSION_LIMIT && use_.is_none() {
            out.push(raise(state, cond, ExcClass::RecursionError, span));
            return StepResult {
                succs: out,
                exhaustive: true,
            };
        }
        let mut s = Self::advanced(state);
        let mut locals = crate::engine::state::Env::new();
        for ((name, _), v) in f.params.iter().zip(vals) {
            locals = locals.insert(Rc::from(name.as_str()), v);
        }
        s.frames.push(Frame {
            func: Some(Rc::from(func)),
            locals,
            call_site: Some(span),
        });
        s.cont = s
            .cont
            .push(Kont::Return {
                target: target.map(Rc::from),
                entry: false,
            })
            .push(Kont::Block {
                block: use_.map_or(&f.body, |c| &c.use_).clone(),
                index: 0,
            });
        out.push(Succ {
            cond,
            state: s,
            forced: None,
            tag: if use_.is_some() {
                Tag::UseContract(Rc::from(func))
            } else {
                Tag::Call(Rc::from(func))
            },
        });
        StepResult {
            succs: out,
            exhaustive: true,
        }
    }
}
