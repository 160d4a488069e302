//! The transition of one instruction ([`Stepper::instr`]): assignments, expressions,
//! `print`, raises, `pass`, `break`/`continue`, `return`, `assert`, `assume`, the invariant
//! forms, `havoc`, `if`, and the entry of a `while` (its guard is [`Stepper::guard`]'s);
//! calls are [`Stepper::call`]'s.

use super::settle::{self, enter_guard};
use super::{bind, raise, verify, StepResult, Stepper, Succ};
use crate::base::ExcClass;
use crate::engine::state::{Abrupt, Kont, LoopCounts, State};
use crate::engine::tag::{Check, Tag};
use crate::engine::LoopMode;
use crate::term::Term;
use crate::transform::ir::{FormStep, InstrKind};

impl Stepper<'_> {
    pub(super) fn instr(&self, state: &State, instr: &crate::transform::ir::Instr) -> StepResult {
        let span = instr.span;
        let single = |succs| StepResult {
            succs,
            exhaustive: true,
        };
        match &instr.kind {
            InstrKind::Assign { target, value } => {
                let alts = self.cx.eval(state, value);
                let mut out = self.exceptions(state, &alts);
                if let Some((c, v)) = alts.ok {
                    let mut s = Self::advanced(state);
                    bind(&mut s, target, v);
                    out.push(Succ {
                        cond: c,
                        state: s,
                        forced: None,
                        tag: Tag::Next,
                    });
                }
                single(out)
            }
            InstrKind::Eval(e) => {
                let alts = self.cx.eval(state, e);
                let mut out = self.exceptions(state, &alts);
                if let Some((c, _)) = alts.ok {
                    out.push(Succ {
                        cond: c,
                        state: Self::advanced(state),
                        forced: None,
                        tag: Tag::Next,
                    });
                }
                single(out)
            }
            InstrKind::Print(args) => self.print(state, args),
            InstrKind::RaiseIf { cond, class, at } => {
                let alts = self.cx.eval(state, cond);
                let mut out = self.exceptions(state, &alts);
                if let Some((c, v)) = alts.ok {
                    let go_on = Term::and(c.clone(), Term::not(v.clone()));
                    if !go_on.is_false() {
                        out.push(Succ {
                            cond: go_on,
                            state: Self::advanced(state),
                            forced: None,
                            tag: Tag::Next,
                        });
                    }
                    let raises = Term::and(c, v);
                    if !raises.is_false() {
                        out.push(raise(state, raises, *class, *at));
                    }
                }
                single(out)
            }
            InstrKind::Pass => single(vec![Succ {
                cond: Term::bool(true),
                state: Self::advanced(state),
                forced: None,
                tag: Tag::Next,
            }]),
            InstrKind::Break | InstrKind::Continue => {
                let mut s = Self::advanced(state);
                s.abrupt = Some(Box::new(if matches!(instr.kind, InstrKind::Break) {
                    Abrupt::Break
                } else {
                    Abrupt::Continue
                }));
                single(vec![Succ {
                    cond: Term::bool(true),
                    state: s,
                    forced: None,
                    tag: Tag::Next,
                }])
            }
            InstrKind::Return(value) => {
                let (mut out, ok) = match value {
                    None => (Vec::new(), Some((Term::bool(true), None))),
                    Some(e) => {
                        let alts = self.cx.eval(state, e);
                        (
                            self.exceptions(state, &alts),
                            alts.ok.map(|(c, v)| (c, Some(v))),
                        )
                    }
                };
                if let Some((c, v)) = ok {
                    let mut s = Self::advanced(state);
                    s.abrupt = Some(Box::new(Abrupt::Return(v)));
                    out.push(Succ {
                        cond: c,
                        state: s,
                        forced: None,
                        tag: Tag::Return,
                    });
                }
                single(out)
            }
            InstrKind::Assert { cond: e, at } => {
                // Always the user's `assert` (the loop-scope form checks with
                // `CheckInvariant`): it runs as Python.
                let alts = self.cx.eval(state, e);
                let mut out = self.exceptions(state, &alts);
                if let Some((c, v)) = alts.ok {
                    out.push(Succ {
                        cond: Term::and(c.clone(), v.clone()),
                        state: Self::advanced(state),
                        forced: None,
                        tag: Tag::AssertHolds,
                    });
                    // Raised where CPython 3.11's traceback marks it.
                    let at = *at;
                    let mut fails = raise(
                        state,
                        Term::and(c, Term::not(v)),
                        ExcClass::AssertionError,
                        at,
                    );
                    fails.tag = Tag::AssertFails(at);
                    out.push(fails);
                }
                single(out)
            }
            InstrKind::Assume(e) => {
                let alts = self.cx.formula(state, e);
                let mut out = self.exceptions(state, &alts);
                if let Some((c, v)) = alts.ok {
                    out.push(Succ {
                        cond: Term::and(c, v),
                        state: Self::advanced(state),
                        forced: None,
                        tag: Tag::Assume,
                    });
                }
                // Not exhaustive: the paths where the assumption fails are dropped.
                StepResult {
                    succs: out,
                    exhaustive: false,
                }
            }
            InstrKind::AssumeInvariant(e) => {
                let mut r = self.assume_invariant(state, e);
                // A contract's clause assumed (issue 28): named as such in explanations.
                let clause = match instr.form {
                    Some(FormStep::AssumeEnsures) => Some(crate::lang::Clause::Ensures),
                    Some(FormStep::AssumeRequires) => Some(crate::lang::Clause::Requires),
                    _ => None,
                };
                if let Some(c) = clause {
                    for s in &mut r.succs {
                        s.tag = Tag::AssumeClause(c);
                    }
                }
                r
            }
            InstrKind::CheckInvariant(invs) => {
                let check = match instr.form {
                    Some(FormStep::InitialCheck) => Check::Initially,
                    Some(FormStep::Requires) => Check::Requires,
                    Some(FormStep::UseRequires) => Check::UseRequires,
                    Some(FormStep::Ensures) => Check::Ensures,
                    _ => Check::BeforeTest,
                };
                self.check_invariants(state, invs, Self::advanced(state), None, check)
            }
            InstrKind::Havoc { name, keep_unbound } => {
                let mut succ = self.havoc(state, name, *keep_unbound, span);
                if instr.form == Some(FormStep::UseResult) {
                    // A use of a contract: the result is a fresh symbol `f@n`.
                    verify::name_result(state, &mut succ);
                }
                single(vec![succ])
            }
            InstrKind::If { cond, then, orelse } => {
                // The loop-scope form's `if guard:` tests the loop's guard.
                let guard = instr.form == Some(FormStep::Guard);
                let alts = self.cx.eval(state, cond);
                let mut out = self.exceptions(state, &alts);
                if let Some((c, v)) = alts.ok {
                    let mut t = Self::advanced(state);
                    t.cont = t.cont.push(Kont::Block {
                        block: then.clone(),
                        index: 0,
                    });
                    out.push(Succ {
                        cond: Term::and(c.clone(), v.clone()),
                        state: t,
                        forced: None,
                        tag: if guard { Tag::Enter } else { Tag::Then },
                    });
                    let mut e = Self::advanced(state);
                    if !orelse.is_empty() {
                        e.cont = e.cont.push(Kont::Block {
                            block: orelse.clone(),
                            index: 0,
                        });
                    }
                    out.push(Succ {
                        cond: Term::and(c, Term::not(v)),
                        state: e,
                        forced: None,
                        tag: if guard { Tag::Leave } else { Tag::Else },
                    });
                }
                single(out)
            }
            InstrKind::Call {
                target,
                func,
                args,
                at,
            } => self.call(state, target.as_deref(), func, args, *at),
            InstrKind::While {
                guard,
                abstraction: Some(form),
                ..
            } => {
                let mut s = Self::advanced(state);
                match self.config.loops {
                    // The invariant transition: one abstract iteration (chapter 002).
                    LoopMode::Invariant => {
                        s.cont = s.cont.push(Kont::Block {
                            block: form.clone(),
                            index: 0,
                        });
                    }
                    mode @ (LoopMode::Unroll | LoopMode::UnrollOnce) => {
                        let Some(Kont::Block { block, index }) = state.cont.top().cloned() else {
                            unreachable!("an instruction runs from a block");
                        };
                        s.cont = s.cont.push(Kont::Loop {
                            block: block.clone(),
                            index: settle::loop_index(index),
                            counts: LoopCounts {
                                once: mode == LoopMode::UnrollOnce,
                                ..LoopCounts::default()
                            },
                        });
                        enter_guard(&mut s, block, index, guard);
                    }
                }
                single(vec![Succ {
                    cond: Term::bool(true),
                    state: s,
                    forced: None,
                    tag: Tag::Loop(self.config.loops),
                }])
            }
            // Settling handles these; a settled state never stops at them.
            InstrKind::Lookup { func, at } => {
                if state.defined.contains_key(func.as_str()) {
                    return single(vec![Succ {
                        cond: Term::bool(true),
                        state: Self::advanced(state),
                        forced: None,
                        tag: Tag::Next,
                    }]);
                }
                single(vec![raise(
                    state,
                    Term::bool(true),
                    ExcClass::NameError,
                    *at,
                )])
            }
            InstrKind::Def(_)
            | InstrKind::Declare { .. }
            | InstrKind::Try { .. }
            | InstrKind::While { .. }
            | InstrKind::MethodFrame { .. }
            | InstrKind::LoopScope { .. } => single(vec![Succ {
                cond: Term::bool(true),
                state: Self::advanced(state),
                forced: None,
                tag: Tag::Next,
            }]),
        }
    }

    /// `print(args)`: the arguments left to right (each may raise), then one line of
    /// output. No fork: the line's items are terms over the inputs.
    fn print(&self, state: &State, args: &[crate::lang::Expr]) -> StepResult {
        let mut items = Vec::with_capacity(args.len());
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
            let Some((c, v)) = alts.ok else {
                return StepResult {
                    succs: out,
                    exhaustive: true,
                };
            };
            cond = Term::and(cond, c);
            items.push(v);
        }
        let mut s = Self::advanced(state);
        s.output = s.output.push(items);
        out.push(Succ {
            cond,
            state: s,
            forced: None,
            tag: Tag::Next,
        });
        StepResult {
            succs: out,
            exhaustive: true,
        }
    }
}
