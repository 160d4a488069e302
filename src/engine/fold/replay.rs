//! The exits of a folded path, found by replaying it with the engine's own stepper from
//! the state after the folded iterations (or calls): every successor that leaves the path
//! is an exit. One mechanism for the one-path loop folds ([`super::instance`]), the
//! two-parameter folds ([`super::multi`]) and the recursion folds ([`super::recursion`],
//! [`super::rec_multi`]).

use super::super::state::{Abrupt, State};
use super::super::step::{action_span, next_action, settle, Action, Settled, Stepper, Succ};
use super::super::tree::Outcome;
use super::basics::sig_of;
use super::{ExitKind, StepSig};
use crate::base::Span;
use crate::term::Term;
use crate::transform::ir::InstrKind;

/// How a path is replayed.
pub(super) struct Replay<'a> {
    /// The fold's statement (where an exit without a position of its own is).
    pub span: Span,
    /// The path: one signature per step, and each step's statement and way (for display).
    pub path: &'a [StepSig],
    pub steps: &'a [(Span, &'static str)],
    /// Exits are collected from this step on (a second path replayed from its split).
    pub from: usize,
    /// A successor that is not an exit: the other path at its split (step, signature).
    pub also: Option<(usize, &'a StepSig)>,
    /// Step 0 is a loop's guard (leaving there: the condition fails); a recursion's path
    /// starts at the function's first statement.
    pub guard: bool,
    /// Classic iterations done at the head and `--unroll`: an exit inside the body of a
    /// loop past the bound is a `bound` leaf. (`(0, u32::MAX)`: no bound.)
    pub bound: (u32, u32),
}

/// Step along `r.path` from `post` under `phi`; push every successor off the path (at a
/// step `>= r.from`, other than `r.also`) with its condition to `out`. `Err`: the path is
/// impossible or ends early from `post` (the head is stepped classically instead).
pub(super) fn replay_exits(
    replay: &Stepper,
    r: &Replay,
    post: &State,
    phi: &[Term],
    out: &mut Vec<(Succ, ExitKind)>,
) -> Result<(), String> {
    let (iteration, unroll) = r.bound;
    let mut prefix = phi.to_vec();
    let mut cur = post.clone();
    for (step, sig) in r.path.iter().enumerate() {
        // A loop's path may hold an inner loop summed in one step (`super::nested`).
        let result = if r.guard {
            super::replay_step_summing(replay, &cur, r.span)?
        } else {
            replay.step(&cur)
        };
        if let Some(reason) = replay.cx.limit.take() {
            return Err(reason);
        }
        let at = action_span(&cur);
        let is_if = matches!(next_action(&cur),
            Some(Action::Instr(i)) if matches!(i.kind, InstrKind::If { .. }));
        let mut next = None;
        for succ in result.succs {
            if succ.cond.is_false() {
                continue;
            }
            let s = sig_of(&cur, &succ.state);
            if next.is_none() && s == *sig {
                next = Some(succ);
                continue;
            }
            if step < r.from || r.also.is_some_and(|(k, o)| k == step && s == *o) {
                continue;
            }
            let kind = match (succ.state.abrupt.as_deref(), step) {
                (Some(Abrupt::Exception(c, at)), _) => ExitKind::Raises(*c, *at),
                (_, 0) if r.guard => ExitKind::GuardFails,
                _ if is_if => ExitKind::Leaves(
                    at.unwrap_or(r.span),
                    if r.steps[step].1 == "else" {
                        "then"
                    } else {
                        "else"
                    },
                ),
                _ => ExitKind::Leaves(at.unwrap_or(r.span), ""),
            };
            let forced = if step > 0 && iteration >= unroll {
                Some(Outcome::Bound)
            } else {
                succ.forced
            };
            let mut conds = prefix.clone();
            conds.push(succ.cond);
            out.push((
                Succ {
                    cond: Term::and_all(conds),
                    state: succ.state,
                    forced,
                    // The exit's own step (leave the loop, the other branch, a raise).
                    tag: succ.tag,
                },
                kind,
            ));
        }
        let Some(next) = next else {
            return Err("a folded path is impossible here".to_string());
        };
        prefix.push(next.cond);
        cur = next.state;
        if step + 1 < r.path.len()
            && !matches!(settle(&mut cur, replay.cx.program), Settled::Running)
        {
            return Err("a folded path ends early here".to_string());
        }
    }
    Ok(())
}
