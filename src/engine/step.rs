//! One transition: a settled state's next action → successor states.
//!
//! A state is *settled* when no abrupt completion is pending and its continuation's top is
//! something to show the user: an instruction, a loop guard, or a loop-scope check.
//! [`settle`] gets there deterministically (it pops finished blocks, propagates `break`,
//! `continue`, `return` and exceptions to where they are caught, enters `try`/`while`/frames,
//! runs `def` and input declarations) — no branching, no solver. [`Stepper::step`] applies
//! one action and returns successors, each with the condition it adds to the path
//! condition; the engine checks feasibility and settles them.

use std::rc::Rc;

use super::eval::{Alts, Context};
use super::state::{Abrupt, Cont, Frame, Kont, State};
use super::tree::Outcome;
use super::{Config, LoopMode};
use crate::base::ExcClass;
use crate::base::Span;
use crate::lang::Type;
use crate::term::{Sort, Sym, Term};
use crate::transform::ir::{Block, InstrKind};

/// The steps of loop invariants: checks, havoc, assume.
mod verify;
pub(crate) use verify::{in_form, is_form};

/// What a settled state does next.
#[derive(Clone, Debug)]
pub enum Action<'b> {
    /// Run this instruction.
    Instr(&'b crate::transform::ir::Instr),
    /// Evaluate the condition of the `while` at `block[index]`.
    Guard {
        block: Block,
        index: usize,
        iteration: u32,
    },
    /// A `continue` reached the `loop-scope` at `block[index]`: check its invariant.
    ScopeCheck { block: Block, index: usize },
}

/// How a settled path ended, if it did.
#[derive(Clone, Debug)]
pub enum Settled {
    Running,
    Done {
        outcome: Outcome,
        return_value: Option<Term>,
        exception_at: Option<Span>,
        /// The path ended because a loop invariant failed (an uncatchable verdict).
        invariant: bool,
    },
}

/// A successor of a step, before the feasibility check.
#[derive(Clone, Debug)]
pub struct Succ {
    /// Added to the path condition (`true`: nothing added, no check needed).
    pub cond: Term,
    pub state: State,
    /// A forced leaf (a bound was hit, an assumption closed the path, ...).
    pub forced: Option<Outcome>,
}

/// The result of one step.
pub struct StepResult {
    pub succs: Vec<Succ>,
    /// The successors' conditions partition `true` (so if all but one are infeasible, the
    /// last is feasible without asking the solver).
    pub exhaustive: bool,
}

pub fn next_action(state: &State) -> Option<Action<'_>> {
    match state.cont.top()? {
        Kont::Block { block, index } => block.get(*index).map(Action::Instr),
        Kont::Guard {
            block,
            index,
            iteration,
        } => Some(Action::Guard {
            block: block.clone(),
            index: *index,
            iteration: *iteration,
        }),
        Kont::ScopeCheck { block, index } => Some(Action::ScopeCheck {
            block: block.clone(),
            index: *index,
        }),
        _ => None,
    }
}

/// The source span of a settled state's next action.
pub fn action_span(state: &State) -> Option<Span> {
    match next_action(state)? {
        Action::Instr(i) => Some(i.span),
        Action::Guard { block, index, .. } | Action::ScopeCheck { block, index } => {
            Some(block[index].span)
        }
    }
}

fn bind(state: &mut State, name: &str, value: Term) {
    // Only paths that have havocked something can have definedness flags to drop.
    let flag = (state.fresh > 0).then(|| crate::transform::ir::bound_flag_key(name));
    // Memory: ask for the frame mutably only for a local (`frame_mut` copies the frame
    // that the parent state shares), and reuse the key of an existing binding instead of
    // allocating the name again (about 130 bytes per assignment in module code).
    let env = if state.frame().func.is_some() {
        &mut state.frame_mut().locals
    } else {
        &mut state.globals
    };
    let key = env
        .get_key_value(name)
        .map_or_else(|| Rc::from(name), |(k, _)| k.clone());
    *env = env.insert(key, value);
    if let Some(flag) = flag {
        *env = env.remove(flag.as_str());
    }
}

/// Advance `state` to its next visible action, or to the end of its path.
pub fn settle(state: &mut State, ir: &crate::transform::ir::Program) -> Settled {
    loop {
        if let Some(abrupt) = state.abrupt.take() {
            // An invariant failure is no exception of the program: no handler, no unwinding.
            if let Abrupt::Invariant(class, at) = abrupt {
                return Settled::Done {
                    outcome: Outcome::Exception(class),
                    return_value: None,
                    exception_at: Some(at),
                    invariant: true,
                };
            }
            match propagate(state, abrupt) {
                Some(done) => return done,
                None => continue,
            }
        }
        let Some(top) = state.cont.top().cloned() else {
            return Settled::Done {
                outcome: Outcome::Normal,
                return_value: None,
                exception_at: None,
                invariant: false,
            };
        };
        match top {
            Kont::Block { block, index } => {
                if index >= block.len() {
                    state.cont = state.cont.pop();
                    continue;
                }
                let shared = block.clone();
                let instr = &shared[index];
                let after = state.cont.pop().push(Kont::Block {
                    block: block.clone(),
                    index: index + 1,
                });
                match &instr.kind {
                    InstrKind::Def(name) => {
                        state.defined = state.defined.insert(Rc::from(name.as_str()), ());
                        state.cont = after;
                    }
                    // A defined callee: nothing to do (an undefined one is a step: NameError).
                    InstrKind::Lookup { func, .. } if state.defined.contains_key(func.as_str()) => {
                        state.cont = after;
                    }
                    // Inputs are bound before the module starts (as the harness binds them in
                    // Python); an annotation without a value binds nothing.
                    InstrKind::Declare { .. } => state.cont = after,
                    InstrKind::Try { body, .. } => {
                        state.cont = after.push(Kont::Try { block, index }).push(Kont::Block {
                            block: body.clone(),
                            index: 0,
                        });
                    }
                    InstrKind::MethodFrame { result, body } => {
                        state.cont = after
                            .push(Kont::MethodFrame {
                                result: Rc::from(result.as_str()),
                            })
                            .push(Kont::Block {
                                block: body.clone(),
                                index: 0,
                            });
                    }
                    InstrKind::LoopScope { body, .. } => {
                        state.cont =
                            after
                                .push(Kont::LoopScope { block, index })
                                .push(Kont::Block {
                                    block: body.clone(),
                                    index: 0,
                                });
                    }
                    // A loop with invariants is a visible choice: apply the invariant or
                    // unroll once ([`Stepper::step`] applies `Config::loops`).
                    InstrKind::While {
                        abstraction: Some(_),
                        ..
                    } => return Settled::Running,
                    InstrKind::While { guard, .. } => {
                        let guard = guard.clone();
                        state.cont = after.push(Kont::Loop {
                            block: block.clone(),
                            index,
                            iteration: 0,
                            once: false,
                        });
                        enter_guard(state, block, index, 0, &guard);
                    }
                    _ => return Settled::Running,
                }
            }
            Kont::Loop {
                block,
                index,
                iteration,
                once,
            } => {
                if once {
                    // Back to the loop head: the choice again.
                    state.cont = again_at_head(&state.cont, block, index);
                    continue;
                }
                // The body completed normally: back to the guard.
                let guard = match &block[index].kind {
                    InstrKind::While { guard, .. } => guard.clone(),
                    _ => unreachable!("Loop points at a while"),
                };
                enter_guard(state, block, index, iteration, &guard);
            }
            Kont::Guard { .. } | Kont::ScopeCheck { .. } => return Settled::Running,
            Kont::Try { .. } | Kont::MethodFrame { .. } => {
                state.cont = state.cont.pop();
            }
            Kont::LoopScope { block, index } => {
                // The body completed normally (the loop's guard was false): the loop's
                // `else` block runs, outside the scope.
                state.cont = state.cont.pop();
                if let InstrKind::LoopScope {
                    orelse: Some(orelse),
                    ..
                } = &block[index].kind
                {
                    state.cont = state.cont.push(Kont::Block {
                        block: orelse.clone(),
                        index: 0,
                    });
                }
            }
            Kont::Return { target: _, entry } => {
                // The body ended without `return`: a procedure returns nothing.
                state.cont = state.cont.pop();
                state.frames.pop();
                if entry {
                    return Settled::Done {
                        outcome: Outcome::Return,
                        return_value: None,
                        exception_at: None,
                        invariant: false,
                    };
                }
            }
            Kont::EnterEntry { func } => {
                state.cont = state.cont.pop();
                let f = &ir.functions[&*func];
                let mut locals = super::state::Env::new();
                for (name, ty) in &f.params {
                    let sym = Sym {
                        name: Rc::from(name.as_str()),
                        sort: sort_of(*ty),
                    };
                    locals = locals.insert(Rc::from(name.as_str()), Term::var(sym));
                }
                state.frames.push(Frame {
                    func: Some(func.clone()),
                    locals,
                    call_site: None,
                });
                state.cont = state
                    .cont
                    .push(Kont::Return {
                        target: None,
                        entry: true,
                    })
                    .push(Kont::Block {
                        block: f.body.clone(),
                        index: 0,
                    });
            }
        }
    }
}

/// Leave a one-iteration `Loop` (on `cont`'s top, above the block resumed after the
/// `while`) so that the `while` at `block[index]` runs again.
fn again_at_head(cont: &Cont, block: Block, index: usize) -> Cont {
    cont.pop().pop().push(Kont::Block { block, index })
}

/// Evaluate the guard of the `while` at `block[index]` next: its invariants first (an
/// unrolled loop with invariants checks them before every test, as the concrete
/// interpreter does), then its guard block, then the condition.
fn enter_guard(state: &mut State, block: Block, index: usize, iteration: u32, guard: &Block) {
    let check = match &block[index].kind {
        InstrKind::While { check, .. } => check.clone(),
        _ => None,
    };
    state.cont = state.cont.push(Kont::Guard {
        block,
        index,
        iteration,
    });
    if !guard.is_empty() {
        state.cont = state.cont.push(Kont::Block {
            block: guard.clone(),
            index: 0,
        });
    }
    if let Some(check) = check {
        state.cont = state.cont.push(Kont::Block {
            block: check,
            index: 0,
        });
    }
}

/// Propagate an abrupt completion one continuation item at a time. `Some` when the path ends.
fn propagate(state: &mut State, abrupt: Abrupt) -> Option<Settled> {
    loop {
        let Some(top) = state.cont.top().cloned() else {
            return Some(match abrupt {
                Abrupt::Exception(class, at) => Settled::Done {
                    outcome: Outcome::Exception(class),
                    return_value: None,
                    exception_at: Some(at),
                    invariant: false,
                },
                // Typeck rules these out; end the path normally if they happen anyway.
                Abrupt::Return(v) => Settled::Done {
                    outcome: Outcome::Return,
                    return_value: v,
                    exception_at: None,
                    invariant: false,
                },
                // Settling ends the path before propagating these.
                Abrupt::Invariant(class, at) => Settled::Done {
                    outcome: Outcome::Exception(class),
                    return_value: None,
                    exception_at: Some(at),
                    invariant: true,
                },
                Abrupt::Break | Abrupt::Continue => Settled::Done {
                    outcome: Outcome::Normal,
                    return_value: None,
                    exception_at: None,
                    invariant: false,
                },
            });
        };
        let rest = state.cont.pop();
        match (&abrupt, top) {
            (Abrupt::Exception(class, _), Kont::Try { block, index }) => {
                let InstrKind::Try { handlers, .. } = &block[index].kind else {
                    unreachable!("Try points at a try");
                };
                let caught = handlers.iter().find(|h| match &h.class {
                    None => true,
                    Some(name) => {
                        ExcClass::from_name(name).is_some_and(|h| class.is_subclass_of(h))
                    }
                });
                state.cont = rest;
                if let Some(h) = caught {
                    state.cont = state.cont.push(Kont::Block {
                        block: h.body.clone(),
                        index: 0,
                    });
                    return None;
                }
            }
            (Abrupt::Exception(..), Kont::Return { entry, .. }) => {
                state.cont = rest;
                if !entry || state.frames.len() > 1 {
                    state.frames.pop();
                }
            }
            (Abrupt::Return(v), Kont::Return { target, entry }) => {
                state.cont = rest;
                state.frames.pop();
                if entry {
                    return Some(Settled::Done {
                        outcome: Outcome::Return,
                        return_value: v.clone(),
                        exception_at: None,
                        invariant: false,
                    });
                }
                if let (Some(t), Some(v)) = (target, v) {
                    bind(state, &t, v.clone());
                }
                return None;
            }
            (Abrupt::Return(v), Kont::MethodFrame { result }) => {
                state.cont = rest;
                if let Some(v) = v {
                    bind(state, &result, v.clone());
                }
                return None;
            }
            (Abrupt::Break, Kont::Loop { .. }) | (Abrupt::Break, Kont::LoopScope { .. }) => {
                state.cont = rest;
                return None;
            }
            (
                Abrupt::Continue,
                Kont::Loop {
                    block,
                    index,
                    once: true,
                    ..
                },
            ) => {
                state.cont = again_at_head(&state.cont, block, index);
                return None;
            }
            (
                Abrupt::Continue,
                Kont::Loop {
                    block,
                    index,
                    iteration,
                    once: false,
                },
            ) => {
                let guard = match &block[index].kind {
                    InstrKind::While { guard, .. } => guard.clone(),
                    _ => unreachable!("Loop points at a while"),
                };
                // The Loop stays; the guard runs again.
                enter_guard(state, block, index, iteration, &guard);
                return None;
            }
            (Abrupt::Continue, Kont::LoopScope { block, index }) => {
                state.cont = rest.push(Kont::ScopeCheck { block, index });
                return None;
            }
            _ => state.cont = rest,
        }
    }
}

pub fn sort_of(ty: Type) -> Sort {
    match ty {
        Type::Int => Sort::Int,
        Type::Bool => Sort::Bool,
        Type::Tuple => Sort::Seq,
    }
}

/// Applies actions; holds what evaluation needs.
pub struct Stepper<'a> {
    pub cx: Context<'a>,
    pub config: &'a Config,
    pub types: &'a crate::lang::TypeInfo,
}

impl Stepper<'_> {
    /// Successors of a settled, running state.
    pub fn step(&self, state: &State) -> StepResult {
        let Some(action) = next_action(state) else {
            return StepResult {
                succs: Vec::new(),
                exhaustive: true,
            };
        };
        match action {
            Action::Instr(instr) => self.instr(state, instr),
            Action::Guard {
                block,
                index,
                iteration,
            } => self.guard(state, block, index, iteration),
            Action::ScopeCheck { block, index } => {
                let InstrKind::LoopScope { invs, .. } = &block[index].kind else {
                    unreachable!("ScopeCheck points at a loop scope");
                };
                let mut halted = state.clone();
                halted.cont = halted.cont.pop();
                self.check_invariants(state, invs, halted, Some(Outcome::Halt))
            }
        }
    }

    /// One successor per possible exception of `alts`, raised where its expression is.
    fn exceptions(&self, state: &State, alts: &Alts) -> Vec<Succ> {
        alts.errs
            .iter()
            .map(|(c, class, at)| raise(state, c.clone(), *class, *at))
            .collect()
    }

    /// The state after the current instruction (continue with the next one).
    fn advanced(state: &State) -> State {
        let mut s = state.clone();
        if let Some(Kont::Block { block, index }) = s.cont.top().cloned() {
            s.cont = s.cont.pop().push(Kont::Block {
                block,
                index: index + 1,
            });
        }
        s
    }

    fn instr(&self, state: &State, instr: &crate::transform::ir::Instr) -> StepResult {
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
                    });
                }
                single(out)
            }
            InstrKind::Pass => single(vec![Succ {
                cond: Term::bool(true),
                state: Self::advanced(state),
                forced: None,
            }]),
            InstrKind::Break | InstrKind::Continue => {
                let mut s = Self::advanced(state);
                s.abrupt = Some(if matches!(instr.kind, InstrKind::Break) {
                    Abrupt::Break
                } else {
                    Abrupt::Continue
                });
                single(vec![Succ {
                    cond: Term::bool(true),
                    state: s,
                    forced: None,
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
                    s.abrupt = Some(Abrupt::Return(v));
                    out.push(Succ {
                        cond: c,
                        state: s,
                        forced: None,
                    });
                }
                single(out)
            }
            InstrKind::Assert { cond: e, at } => {
                // A loop-scope form's `assert Inv` checks a formula; a user's `assert` runs
                // as Python.
                let form = in_form(state);
                let alts = if form {
                    self.cx.formula(state, e)
                } else {
                    self.cx.eval(state, e)
                };
                let mut out = self.exceptions(state, &alts);
                if let Some((c, v)) = alts.ok {
                    out.push(Succ {
                        cond: Term::and(c.clone(), v.clone()),
                        state: Self::advanced(state),
                        forced: None,
                    });
                    // Raised where CPython 3.11's traceback marks it.
                    out.push(raise(
                        state,
                        Term::and(c, Term::not(v)),
                        ExcClass::AssertionError,
                        if form { span } else { *at },
                    ));
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
                    });
                }
                // Not exhaustive: the paths where the assumption fails are dropped.
                StepResult {
                    succs: out,
                    exhaustive: false,
                }
            }
            InstrKind::AssumeInvariant(e) => self.assume_invariant(state, e),
            InstrKind::CheckInvariant(invs) => {
                self.check_invariants(state, invs, Self::advanced(state), None)
            }
            InstrKind::Havoc { name, keep_unbound } => {
                single(vec![self.havoc(state, name, *keep_unbound, span)])
            }
            InstrKind::If { cond, then, orelse } => {
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
                            index,
                            iteration: 0,
                            once: mode == LoopMode::UnrollOnce,
                        });
                        enter_guard(&mut s, block, index, 0, guard);
                    }
                }
                single(vec![Succ {
                    cond: Term::bool(true),
                    state: s,
                    forced: None,
                }])
            }
            // Settling handles these; a settled state never stops at them.
            InstrKind::Lookup { func, at } => {
                if state.defined.contains_key(func.as_str()) {
                    return single(vec![Succ {
                        cond: Term::bool(true),
                        state: Self::advanced(state),
                        forced: None,
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
            }]),
        }
    }

    fn var_sort(&self, state: &State, name: &str) -> Sort {
        let ty = state
            .func()
            .and_then(|f| self.types.locals.get(&**f).and_then(|l| l.get(name)))
            .or_else(|| self.types.globals.get(name));
        ty.map_or(Sort::Int, |t| sort_of(*t))
    }

    fn guard(&self, state: &State, block: Block, index: usize, iteration: u32) -> StepResult {
        let instr = &block[index];
        let InstrKind::While {
            cond, body, orelse, ..
        } = &instr.kind
        else {
            unreachable!("Guard points at a while");
        };
        let alts = self.cx.eval(state, cond);
        let mut out = self.exceptions(state, &alts);
        if let Some((c, v)) = alts.ok {
            // Enter the body (or hit the unrolling bound).
            let mut enter = state.clone();
            enter.cont = enter.cont.pop(); // the Guard
            let once = matches!(enter.cont.top(), Some(Kont::Loop { once: true, .. }));
            let forced = if iteration >= self.config.unroll {
                Some(Outcome::Bound)
            } else {
                enter.cont = enter.cont.pop().push(Kont::Loop {
                    block: block.clone(),
                    index,
                    iteration: iteration + 1,
                    once,
                });
                enter.cont = enter.cont.push(Kont::Block {
                    block: body.clone(),
                    index: 0,
                });
                None
            };
            out.push(Succ {
                cond: Term::and(c.clone(), v.clone()),
                state: enter,
                forced,
            });
            // Leave the loop: run the else block, if any.
            let mut leave = state.clone();
            leave.cont = leave.cont.pop().pop(); // Guard and Loop
            if let Some(orelse) = orelse {
                leave.cont = leave.cont.push(Kont::Block {
                    block: orelse.clone(),
                    index: 0,
                });
            }
            out.push(Succ {
                cond: Term::and(c, Term::not(v)),
                state: leave,
                forced: None,
            });
        }
        StepResult {
            succs: out,
            exhaustive: true,
        }
    }

    fn call(
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
        let same = state
            .frames
            .iter()
            .filter(|fr| fr.func.as_deref() == Some(func))
            .count() as u32;
        if same >= self.config.recursion {
            out.push(Succ {
                cond,
                state: state.clone(),
                forced: Some(Outcome::Bound),
            });
            return StepResult {
                succs: out,
                exhaustive: true,
            };
        }
        if state.frames.len() >= super::PYTHON_RECURSION_LIMIT {
            out.push(raise(state, cond, ExcClass::RecursionError, span));
            return StepResult {
                succs: out,
                exhaustive: true,
            };
        }
        let mut s = Self::advanced(state);
        let mut locals = super::state::Env::new();
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
                block: f.body.clone(),
                index: 0,
            });
        out.push(Succ {
            cond,
            state: s,
            forced: None,
        });
        StepResult {
            succs: out,
            exhaustive: true,
        }
    }
}

/// A successor that raises `class` at `at`.
fn raise(state: &State, cond: Term, class: ExcClass, at: Span) -> Succ {
    let mut s = state.clone();
    s.abrupt = Some(Abrupt::Exception(class, at));
    Succ {
        cond,
        state: s,
        forced: None,
    }
}
