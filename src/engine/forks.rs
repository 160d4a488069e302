//! Which loop iterations count against `--unroll` (issue 23 item 16).
//!
//! A body that starts after a guard decided without the solver (`i < 4` with `i`
//! concrete) is *exempt*: it does not count against `--unroll`, only against
//! [`super::CONCRETE_LOOP_LIMIT`]. It loses that exemption — it counts — when the path
//! forks inside it: when a step of the body (or of anything it calls, or of a loop nested
//! in it) had two or more ways of going on in the loop and took one of them on a condition
//! over the inputs. Both sides feasible (`if x > i: i += 1` with `x` unknown), or the
//! other side pruned by the path condition (the same test on the path `x <= i`, which
//! otherwise would spin to the limit) count alike. A way *out* of the loop is not a way of
//! going on: a step whose only alternatives leave the loop (`if t[i] == x: break`, a
//! `return`, an exception raised past the loop) narrows the path condition but does not
//! multiply the paths that run the next iteration, so the book's search over a concrete
//! tuple runs to its end at any `--unroll`. Each exempt iteration thus adds a bounded
//! number of leaves, and every multiplication of the loop's paths is bounded by
//! `--unroll`, as before.
//!
//! A loop is identified by the cell of its [`Kont::Loop`] item, which the states of one
//! body share until its guard runs again.

use super::state::{Cont, Kont, LoopCounts, State};
use crate::transform::ir::InstrKind;

/// The exempt bodies a step starts in, and how its successors go on in them.
pub(super) struct Tally {
    /// The cells of the [`Kont::Loop`] items whose current body is exempt.
    exempt: Vec<usize>,
    /// Per exempt loop: the feasible successors that go on in it.
    taken: Vec<u32>,
    /// Per exempt loop: the successors pruned by the path condition (not by a constant)
    /// that would have gone on in it.
    pruned: Vec<u32>,
}

impl Tally {
    /// `None` unless the step depends on the inputs (`conds`: its successors' conditions
    /// are not all constants) inside an exempt body.
    pub fn new<'t>(
        state: &State,
        mut conds: impl Iterator<Item = &'t crate::term::Term>,
    ) -> Option<Tally> {
        if !conds.any(|c| !c.is_true() && !c.is_false()) {
            return None;
        }
        let mut exempt = Vec::new();
        let mut cur = state.cont.clone();
        while let Some(k) = cur.top() {
            if matches!(k, Kont::Loop { counts, .. } if counts.exempt) {
                exempt.push(cur.top_id().expect("an item"));
            }
            cur = cur.pop();
        }
        (!exempt.is_empty()).then(|| Tally {
            taken: vec![0; exempt.len()],
            pruned: vec![0; exempt.len()],
            exempt,
        })
    }

    /// A feasible successor: `running` unless it ended (a leaf).
    pub fn feasible(&mut self, state: &State, running: bool) {
        if running {
            add(&mut self.taken, &goes_on(state, &self.exempt));
        }
    }

    /// A successor pruned by the path condition, settled.
    pub fn pruned(&mut self, state: &State, running: bool) {
        if running {
            add(&mut self.pruned, &goes_on(state, &self.exempt));
        }
    }

    /// Count the bodies in which the step forked, on the feasible successors (`running`
    /// ones) that go on in them.
    pub fn apply<'s>(self, children: impl Iterator<Item = (&'s mut State, bool)>) {
        let forked: Vec<usize> = (0..self.exempt.len())
            .filter(|&l| self.taken[l] >= 1 && self.taken[l] + self.pruned[l] >= 2)
            .map(|l| self.exempt[l])
            .collect();
        if forked.is_empty() {
            return;
        }
        for (state, running) in children {
            if running {
                count(state, &forked);
            }
        }
    }
}

/// At the guard after a body: an exempt body that narrowed the path condition (from
/// `pc_len` conjuncts when it started to `pc_len_now`) without forking is one of the
/// [`super::NARROWING_LIMIT`] such bodies a path may run free; past them it counts.
pub(super) fn body_ended(counts: &mut LoopCounts, pc_len_now: usize) {
    // (Within a body the path condition only grows: a different length is a longer one.)
    if counts.exempt && pc_len_now as u16 != counts.pc_len {
        if counts.narrowed < super::NARROWING_LIMIT {
            counts.narrowed += 1;
        } else {
            counts.iteration += 1;
        }
    }
    counts.exempt = false;
}

fn add(into: &mut [u32], on: &[bool]) {
    for (n, on) in into.iter_mut().zip(on) {
        *n += u32::from(*on);
    }
}

/// Per loop of `exempt`: does the settled, running `state` go on in it (is inside it and
/// not on its way out by a `break` or `return` that nothing can stop)?
fn goes_on(state: &State, exempt: &[usize]) -> Vec<bool> {
    // The loops the state is inside, innermost first, with where a `break` and a
    // `return` of the current frame stop.
    let mut inside = Vec::new();
    let (mut break_stop, mut return_stop) = (None, None);
    let mut cur = state.cont.clone();
    while let Some(k) = cur.top() {
        match k {
            Kont::Loop { .. } => {
                let id = cur.top_id().expect("an item");
                if break_stop.is_none() {
                    break_stop = Some(inside.len());
                }
                inside.push(id);
            }
            Kont::LoopScope { .. } if break_stop.is_none() => break_stop = Some(usize::MAX),
            Kont::Return { .. } | Kont::MethodFrame { .. } if return_stop.is_none() => {
                return_stop = Some(inside.len());
                break_stop.get_or_insert(usize::MAX);
            }
            _ => {}
        }
        cur = cur.pop();
    }
    // The loops this state leaves for sure: the innermost one at a `break`, the frame's
    // at a `return` (after straight-line instructions only; anything else may go on).
    let leaves: &[usize] = match leaving(&state.cont) {
        Some(Leave::Break) => match break_stop {
            Some(i) if i < inside.len() => &inside[i..=i],
            _ => &[],
        },
        Some(Leave::Return) => &inside[..return_stop.unwrap_or(inside.len())],
        None => &[],
    };
    exempt
        .iter()
        .map(|id| inside.contains(id) && !leaves.contains(id))
        .collect()
}

enum Leave {
    Break,
    Return,
}

/// Does the block on top of `cont` run straight into a `break` or a `return`?
fn leaving(cont: &Cont) -> Option<Leave> {
    let Some(Kont::Block { block, index }) = cont.top() else {
        return None;
    };
    for instr in block.get(*index..)? {
        match instr.kind {
            InstrKind::Break => return Some(Leave::Break),
            InstrKind::Return(_) => return Some(Leave::Return),
            InstrKind::Assign { .. }
            | InstrKind::Eval(_)
            | InstrKind::Print(_)
            | InstrKind::Pass
            | InstrKind::Lookup { .. }
            | InstrKind::Call { .. }
            | InstrKind::Assert { .. }
            | InstrKind::Assume(_) => {}
            _ => return None,
        }
    }
    None
}

/// Count the current bodies of the loops `ids` (cells of `state`'s continuation) against
/// `--unroll`: they are exempt no more.
fn count(state: &mut State, ids: &[usize]) {
    let mut above = Vec::new();
    let mut cur = state.cont.clone();
    let mut left = ids.iter().filter(|id| contains(&state.cont, **id)).count();
    while left > 0 {
        let id = cur.top_id().expect("the loops are in the continuation");
        let mut k = cur.top().expect("an item").clone();
        if ids.contains(&id) {
            if let Kont::Loop { counts, .. } = &mut k {
                counts.iteration += 1;
                counts.exempt = false;
            }
            left -= 1;
        }
        above.push(k);
        cur = cur.pop();
    }
    for k in above.into_iter().rev() {
        cur = cur.push(k);
    }
    state.cont = cur;
}

fn contains(cont: &Cont, id: usize) -> bool {
    let mut cur = cont.clone();
    while cur.top().is_some() {
        if cur.top_id() == Some(id) {
            return true;
        }
        cur = cur.pop();
    }
    false
}
