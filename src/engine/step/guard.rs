//! The loop test ([`Stepper::guard`]): enter the body, or cut the path at the unrolling
//! bound or the limit of constant-guard iterations, or leave the loop through its `else`.

use super::{settle, StepResult, Stepper, Succ};
use crate::engine::state::{Kont, State};
use crate::engine::tag::{Cut, Tag};
use crate::engine::tree::Outcome;
use crate::term::Term;
use crate::transform::ir::{Block, InstrKind};

impl Stepper<'_> {
    /// The loop test. The [`Kont::Loop`] under the guard holds the loop's counts.
    pub(super) fn guard(&self, state: &State, block: Block, index: usize) -> StepResult {
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
}
