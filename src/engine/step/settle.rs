//! Settling a state: deterministically, without branching or the solver, from a step's
//! successor to its next visible action (or the end of its path): finished blocks pop,
//! `break`/`continue`/`return`/exceptions propagate to their targets, `try`, `while` and
//! frames are entered. A caught exception stops at its handler (a visible step).

use std::rc::Rc;

use super::{bind, sort_of, Settled};
use crate::base::ExcClass;
use crate::engine::eval::Context;
use crate::engine::state::{Abrupt, Caught, Cont, Frame, Kont, LoopCounts, State};
use crate::engine::tree::Outcome;
use crate::term::{Sym, Term};
use crate::transform::ir::{Block, InstrKind};

/// [`settle`], then on past the bindings of temporaries that change nothing a person
/// sees: the lowering binds an operand evaluated before a call to a temporary (`a = x +
/// f(x)` runs `$1 = x` first, keeping CPython's order), which would otherwise be a step of
/// its own whose node shows the same statement, store and path condition as the next
/// one. Such a binding runs here, in the same order, when its evaluation has exactly one
/// outcome: no condition, no possible exception, no limit (a name that may be unbound
/// stays a visible step, with its `NameError` branch).
pub fn settle_in(cx: &Context, state: &mut State) -> Settled {
    loop {
        let settled = settle(state, cx.program);
        if !matches!(settled, Settled::Running) || !bind_silent_temp(cx, state) {
            return settled;
        }
    }
}

/// Run the next action if it binds a temporary, or binds a `for` loop's variable to its
/// next element, and cannot branch or raise; `false`: it is not one (nothing changed).
fn bind_silent_temp(cx: &Context, state: &mut State) -> bool {
    let Some(Kont::Block { block, index }) = state.cont.top().cloned() else {
        return false;
    };
    let Some(InstrKind::Assign { target, value }) = block.get(index).map(|i| &i.kind) else {
        return false;
    };
    if !is_silent_assign(target, value) {
        return false;
    }
    let outer = cx.limit.take();
    let alts = cx.eval(state, value);
    let over = cx.limit.replace(outer).is_some();
    let value = match alts.ok {
        Some((cond, v)) if cond.is_true() && alts.errs.is_empty() && !over => v,
        _ => return false,
    };
    let target = target.clone();
    state.cont = state.cont.pop().push(Kont::Block {
        block: block.clone(),
        index: index + 1,
    });
    bind(state, &target, value);
    true
}

/// An assignment the settling runs without a node of its own when it cannot branch or
/// raise (a temporary's, a `for` loop's variable's; see [`bind_silent_temp`]).
pub fn is_silent_assign(target: &str, value: &crate::lang::Expr) -> bool {
    crate::transform::ir::is_temp(target) || reads_for_vars(value)
}

/// `i = $for1.pos` or `x = $item($for1.items, $for1.pos)`: a `for` loop's binding of its
/// variable (the loop head's step shows it; no node of its own).
fn reads_for_vars(value: &crate::lang::Expr) -> bool {
    use crate::lang::ExprKind;
    use crate::transform::ir::{is_for_var, ITEM};
    let hidden = |e: &crate::lang::Expr| matches!(&e.kind, ExprKind::Name(n) if is_for_var(n));
    match &value.kind {
        ExprKind::Name(_) => hidden(value),
        ExprKind::Call { func, args } => func.name == ITEM && args.iter().all(hidden),
        _ => false,
    }
}

/// Advance `state` to its next visible action, or to the end of its path.
pub fn settle(state: &mut State, ir: &crate::transform::ir::Program) -> Settled {
    loop {
        if let Some(abrupt) = state.abrupt.take().map(|a| *a) {
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
                        state.defined = Rc::new(state.defined.insert(Rc::from(name.as_str()), ()));
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
                            index: loop_index(index),
                            counts: LoopCounts::default(),
                        });
                        enter_guard(state, block, index, &guard);
                    }
                    _ => return Settled::Running,
                }
            }
            Kont::Loop {
                block,
                index,
                counts,
            } => {
                let index = index as usize;
                if counts.once {
                    // Back to the loop head: the choice again.
                    state.cont = again_at_head(&state.cont, block, index);
                    continue;
                }
                // The body completed normally: back to the guard.
                let guard = match &block[index].kind {
                    InstrKind::While { guard, .. } => guard.clone(),
                    _ => unreachable!("Loop points at a while"),
                };
                enter_guard(state, block, index, &guard);
            }
            Kont::Guard { .. } | Kont::ScopeCheck { .. } | Kont::Caught(_) => {
                return Settled::Running
            }
            Kont::Try { .. } | Kont::MethodFrame { .. } | Kont::Folded(_) => {
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
                let mut locals = crate::engine::state::Env::new();
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
                        // A contracted entry function: prove its contract.
                        block: f.contract.as_ref().map_or(&f.body, |c| &c.proof).clone(),
                        index: 0,
                    });
                // `--assume`: the first statements of the entry call (not of other calls).
                if !ir.preconditions.is_empty() {
                    state.cont = state.cont.push(Kont::Block {
                        block: ir.preconditions.clone(),
                        index: 0,
                    });
                }
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
pub(super) fn enter_guard(state: &mut State, block: Block, index: usize, guard: &Block) {
    let check = match &block[index].kind {
        InstrKind::While { check, .. } => check.clone(),
        _ => None,
    };
    state.cont = state.cont.push(Kont::Guard { block, index });
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
fn propagate(state: &mut State, mut abrupt: Abrupt) -> Option<Settled> {
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
                let caught = handlers.iter().position(|h| match &h.class {
                    None => true,
                    Some(name) => {
                        ExcClass::from_name(name).is_some_and(|h| class.is_subclass_of(h))
                    }
                });
                state.cont = rest;
                if let (Some(handler), Abrupt::Exception(class, at)) = (caught, &abrupt) {
                    // A visible step: the exception is caught here (its own node), then
                    // the handler runs.
                    state.cont = state.cont.push(Kont::Caught(Box::new(Caught {
                        block,
                        index,
                        handler,
                        class: *class,
                        at: *at,
                    })));
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
            // A recursion fold's record: the κ folded frames return the value in turn.
            (Abrupt::Return(Some(v)), Kont::Folded(f)) if f.add.is_some() => {
                state.cont = rest;
                let add = f.add.clone().expect("checked");
                abrupt = Abrupt::Return(Some(Term::add(v.clone(), add)));
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
                    counts,
                },
            ) if counts.once => {
                state.cont = again_at_head(&state.cont, block, index as usize);
                return None;
            }
            (Abrupt::Continue, Kont::Loop { block, index, .. }) => {
                let index = index as usize;
                let guard = match &block[index].kind {
                    InstrKind::While { guard, .. } => guard.clone(),
                    _ => unreachable!("Loop points at a while"),
                };
                // The Loop stays; the guard runs again.
                enter_guard(state, block, index, &guard);
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

/// A `while`'s index in its block, as [`Kont::Loop`] keeps it.
pub(crate) fn loop_index(index: usize) -> u32 {
    u32::try_from(index).expect("a block of fewer than 2^32 instructions")
}
