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
use super::state::{Abrupt, Frame, Kont, LoopCounts, State};
use super::tag::{Check, Cut, Tag};
use super::tree::Outcome;
use super::{Config, LoopMode};
use crate::base::ExcClass;
use crate::base::Span;
use crate::lang::Type;
use crate::term::{Sort, Term};
use crate::transform::ir::{Block, FormStep, InstrKind};

/// Settling: from a step's successor to the next visible action (no branching).
mod settle;
/// Assignments that write the same value into the same store share the result.
mod stores;
/// The steps of loop invariants: checks, havoc, assume.
mod verify;

use settle::enter_guard;
pub use settle::{is_silent_assign, settle, settle_in};

/// What a settled state does next.
#[derive(Clone, Debug)]
pub enum Action<'b> {
    /// Run this instruction.
    Instr(&'b crate::transform::ir::Instr),
    /// Evaluate the condition of the `while` at `block[index]`.
    Guard {
        block: Block,
        index: usize,
        /// The iterations of the loop that counted against `--unroll` so far.
        iteration: u32,
    },
    /// A `continue` reached the `loop-scope` at `block[index]`: check its invariant.
    ScopeCheck { block: Block, index: usize },
    /// An exception was caught by `handler` of the `try` at `block[index]`: run it.
    Caught {
        block: Block,
        index: usize,
        handler: usize,
        class: ExcClass,
        /// Where it was raised.
        at: Span,
    },
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
    /// Which way the step went.
    pub tag: Tag,
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
        Kont::Guard { block, index } => {
            let Some(Kont::Loop { counts, .. }) = state.cont.second() else {
                unreachable!("a Loop is under its Guard");
            };
            Some(Action::Guard {
                block: block.clone(),
                index: *index,
                iteration: counts.iteration,
            })
        }
        Kont::ScopeCheck { block, index } => Some(Action::ScopeCheck {
            block: block.clone(),
            index: *index,
        }),
        Kont::Caught(c) => Some(Action::Caught {
            block: c.block.clone(),
            index: c.index,
            handler: c.handler,
            class: c.class,
            at: c.at,
        }),
        _ => None,
    }
}

impl super::tree::Node {
    /// The statement about to run (`None` at leaves). Computed from the state, not stored:
    /// 24 bytes of every node (issue 30, round 4). (Here, not in `tree.rs`: the tree does
    /// not import the stepper.)
    pub fn at(&self) -> Option<Span> {
        match self.kind {
            super::tree::NodeKind::Leaf(_) => None,
            super::tree::NodeKind::Open | super::tree::NodeKind::Inner => action_span(&self.state),
        }
    }
}

/// The source span of a settled state's next action.
pub fn action_span(state: &State) -> Option<Span> {
    match next_action(state)? {
        Action::Instr(i) => Some(i.span),
        Action::Guard { block, index, .. } | Action::ScopeCheck { block, index } => {
            Some(block[index].span)
        }
        Action::Caught {
            block,
            index,
            handler,
            ..
        } => Some(handler_of(&block, index, handler).span),
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
    *env = stores::insert(env, key, value);
    if let Some(flag) = flag {
        *env = env.remove(flag.as_str());
    }
}

/// The `handler`-th handler of the `try` at `block[index]`.
fn handler_of(block: &Block, index: usize, handler: usize) -> &crate::transform::ir::Handler {
    match &block[index].kind {
        InstrKind::Try { handlers, .. } => &handlers[handler],
        _ => unreachable!("Caught points at a try"),
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
            Action::Guard { block, index, .. } => self.guard(state, block, index),
            Action::ScopeCheck { block, index } => {
                let InstrKind::LoopScope { invs, .. } = &block[index].kind else {
                    unreachable!("ScopeCheck points at a loop scope");
                };
                let mut halted = state.clone();
                halted.cont = halted.cont.pop();
                self.check_invariants(state, invs, halted, Some(Outcome::Halt), Check::Preserved)
            }
            Action::Caught {
                block,
                index,
                handler,
                ..
            } => {
                let mut s = state.clone();
                s.cont = s.cont.pop().push(Kont::Block {
                    block: handler_of(&block, index, handler).body.clone(),
                    index: 0,
                });
                StepResult {
                    succs: vec![Succ {
                        cond: Term::bool(true),
                        state: s,
                        forced: None,
                        tag: Tag::Handler,
                    }],
                    exhaustive: true,
                }
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

    fn var_sort(&self, state: &State, name: &str) -> Sort {
        let ty = state
            .func()
            .and_then(|f| self.types.locals.get(&**f).and_then(|l| l.get(name)))
            .or_else(|| self.types.globals.get(name));
        ty.map_or(Sort::Int, |t| sort_of(*t))
    }

    /// The loop test. The [`Kont::Loop`] under the guard holds the loop's counts.
    fn guard(&self, state: &State, block: Block, index: usize) -> StepResult {
        let instr = &block[index];
        let InstrKind::While {
            cond, body, orelse, ..
        } = &instr.kind
        else {
            unreachable!("Guard points at a while");
        };
        let Some(Kont::Loop { mut counts, .. }) = state.cont.second().cloned() else {
            unreachable!("a Loop is under its Guard");
        };
        crate::engine::forks::body_ended(&mut counts, state.pc.len());
        let alts = self.cx.eval(state, cond);
        let mut out = self.exceptions(state, &alts);
        if let Some((c, v)) = alts.ok {
            // Enter the body (or hit the unrolling bound).
            let mut enter = state.clone();
            enter.cont = enter.cont.pop(); // the Guard
                                           // A guard decided without the solver (true as a constant: `i < 4` with `i`
                                           // concrete) starts an *exempt* body: it counts against `--unroll` only if the
                                           // path forks inside it ([`crate::engine::forks`]), and only
                                           // [`crate::engine::CONCRETE_LOOP_LIMIT`] such bodies start on one path (issue 23
                                           // item 16). A literal `while True:` is not such a loop: it ends by a `break`
                                           // whose condition is usually symbolic, so its iterations count against
                                           // `--unroll` (otherwise every `while True:` over inputs would run 10,000
                                           // iterations deep).
            let literal = matches!(cond.kind, crate::lang::ExprKind::Bool(true));
            let decided = !literal && Term::and(c.clone(), v.clone()).is_true();
            let cut = if decided && counts.concrete >= crate::engine::CONCRETE_LOOP_LIMIT {
                Some(Cut::Concrete)
            } else {
                // After a constant guard too: the bodies that forked have used the bound.
                (counts.iteration >= self.config.unroll).then_some(Cut::Unroll)
            };
            let forced = if cut.is_some() {
                Some(Outcome::Bound)
            } else {
                if decided {
                    counts.concrete += 1;
                } else {
                    counts.iteration += 1;
                }
                counts.exempt = decided;
                counts.pc_len = state.pc.len() as u16; // (modulo 2^16: LoopCounts::pc_len)
                enter.cont = enter.cont.pop().push(Kont::Loop {
                    block: block.clone(),
                    index: settle::loop_index(index),
                    counts,
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
                tag: match cut {
                    Some(cut) => Tag::Bound(cut),
                    None => Tag::Enter,
                },
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
                tag: Tag::Leave,
            });
        }
        StepResult {
            succs: out,
            exhaustive: true,
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
        // A contracted function whose contract is used: no frame of the body, so no
        // recursion bound (the contract covers every depth).
        let use_ = f
            .contract
            .as_ref()
            .filter(|c| !c.prints && self.config.calls == Some(super::CallMode::Contract));
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
        if state.frames.len() >= super::PYTHON_RECURSION_LIMIT && use_.is_none() {
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

/// A successor that raises `class` at `at`.
fn raise(state: &State, cond: Term, class: ExcClass, at: Span) -> Succ {
    let mut s = state.clone();
    s.abrupt = Some(Box::new(Abrupt::Exception(class, at)));
    Succ {
        cond,
        state: s,
        forced: None,
        tag: Tag::Raise(class, at),
    }
}
