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
use super::state::{Abrupt, Kont, State};
use super::tag::{Check, Tag};
use super::tree::Outcome;
use super::Config;
use crate::base::ExcClass;
use crate::base::Span;
use crate::lang::Type;
use crate::term::{Sort, Term};
use crate::transform::ir::{Block, InstrKind};

mod call;
mod guard;
mod instr;
/// Settling: from a step's successor to the next visible action (no branching).
mod settle;
/// Assignments that write the same value into the same store share the result.
mod stores;
/// The steps of loop invariants: checks, havoc, assume.
mod verify;

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

    fn var_sort(&self, state: &State, name: &str) -> Sort {
        let ty = state
            .func()
            .and_then(|f| self.types.locals.get(&**f).and_then(|l| l.get(name)))
            .or_else(|| self.types.globals.get(name));
        ty.map_or(Sort::Int, |t| sort_of(*t))
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
