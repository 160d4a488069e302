//! One step of an open node ([`Engine::step`], [`Engine::step_with`]): the transition's
//! successors, checked against the path condition, settled, and added as children; an
//! opaque call's whole callee in one step; the loop-mode choice at an annotated loop.

use std::rc::Rc;
use std::sync::atomic::Ordering;

use super::state::State;
use super::step::{self, Settled, Stepper};
use super::{eval, forks, label, why, Child, Engine, LoopMode};
use super::{Details, Node, NodeId, NodeKind, Outcome, Tag};
use crate::solver::{SatResult, Unknown};
use crate::term::Term;
use crate::transform::ir::InstrKind;

impl Engine {
    pub(super) fn add_node(
        &mut self,
        parent: Option<NodeId>,
        branch: Option<Term>,
        tag: Option<Tag>,
        state: State,
        settled: Settled,
        forced: Option<Outcome>,
    ) -> NodeId {
        let depth = parent.map_or(0, |p| self.tree.node(p).depth + 1);
        let label = match (forced, &settled) {
            (None, Settled::Running) if self.contract_call(&state) => Some(label::CALL_CHOICE),
            (None, Settled::Running) => label::open(&state),
            (Some(o), _) | (None, &Settled::Done { outcome: o, .. }) => parent
                .zip(tag.as_ref())
                .and_then(|(p, t)| label::leaf(t, &self.tree.node(p).state, o)),
        };
        let (kind, return_value, exception_at, invariant_failure) = match (forced, settled) {
            (Some(o), _) => (NodeKind::Leaf(o), None, None, false),
            (None, Settled::Running) => (NodeKind::Open, None, None, false),
            (
                None,
                Settled::Done {
                    outcome,
                    return_value,
                    exception_at,
                    invariant,
                },
            ) => (
                NodeKind::Leaf(outcome),
                return_value,
                exception_at,
                invariant,
            ),
        };
        if matches!(kind, NodeKind::Leaf(_)) {
            self.live.leaf_added();
        }
        self.tree.add(Node {
            id: NodeId(0),
            parent,
            children: Box::default(),
            depth,
            kind,
            branch,
            tag,
            state: Rc::new(state),
            details: Details {
                return_value,
                exception_at,
                unknown_reason: None,
                label,
                invariant_failure,
            }
            .boxed(),
        })
    }

    /// Step an open node: apply one transition, add its feasible successors as children.
    /// Returns the children (empty for a node that is not open, or when the step was
    /// cancelled through [`Engine::cancel_handle`]: the node then stays open).
    pub fn step(&mut self, id: NodeId) -> Vec<NodeId> {
        self.cancel.store(false, Ordering::Relaxed);
        let cancel = self.cancel.clone();
        crate::solver::interruptible(&cancel, || self.step_inner(id))
    }

    pub(super) fn step_inner(&mut self, id: NodeId) -> Vec<NodeId> {
        if !self.tree.node(id).is_open() {
            return Vec::new();
        }
        let state = self.tree.node(id).state.clone();
        self.tree.node_mut(id).kind = NodeKind::Inner;
        let opaque_call = !self.config.frames
            && matches!(
                step::next_action(&state),
                Some(step::Action::Instr(i)) if matches!(i.kind, InstrKind::Call { .. })
            );
        let mut dropped = Vec::new();
        let children = if opaque_call {
            self.successors_opaque(&state, &mut dropped)
        } else {
            #[cfg(test)]
            let record = self.recorded.is_some().then_some(&mut dropped);
            #[cfg(not(test))]
            let record = None;
            self.successors(&state, record)
        };
        if children
            .iter()
            .any(|c| c.unknown_reason == Some(Unknown::Interrupted))
        {
            // Cancelled in the middle of a Z3 check: the step did not happen.
            self.tree.node_mut(id).kind = NodeKind::Open;
            return Vec::new();
        }
        #[cfg(test)]
        if !opaque_call {
            if let Some(r) = self.recorded.as_mut() {
                r.insert(id, std::mem::take(&mut dropped));
            }
        }
        if !dropped.is_empty() {
            self.opaque_pruned.insert(id, dropped);
        }
        let base = state.pc.len();
        let ids: Vec<NodeId> = children
            .into_iter()
            .map(|c| {
                // The edge condition: what the step added to the path condition.
                let added = c.state.pc.newest(c.state.pc.len().saturating_sub(base));
                let branch = (!added.is_empty()).then(|| Term::and_all(added));
                let reason = c.unknown_reason;
                let leaf =
                    self.add_node(Some(id), branch, Some(c.tag), c.state, c.settled, c.forced);
                if let Some(r) = reason {
                    self.tree.node_mut(leaf).details_mut().unknown_reason = Some(r.to_string());
                }
                leaf
            })
            .collect();
        self.fold_attach(id, &ids, opaque_call); // fold (issue 15): record the fold's exits
        self.fold_fallbacks(&ids); // issue 31: an undecided leaf below a fold: unroll instead
        ids
    }

    /// Does the open node `id` sit at a `while` with invariants, where both transitions
    /// exist (apply the invariant, or unroll once; see [`Engine::step_with`])?
    pub fn loop_choice(&self, id: NodeId) -> bool {
        self.tree.node(id).is_open() && self.at_annotated_loop(id)
    }

    /// Does node `id` (stepped or not) sit at a `while` with invariants, where a step
    /// depends on the [`LoopMode`]? (A saved session records the mode of such steps.)
    pub fn at_annotated_loop(&self, id: NodeId) -> bool {
        matches!(
            step::next_action(&self.tree.node(id).state),
            Some(step::Action::Instr(i))
                if matches!(i.kind, InstrKind::While { abstraction: Some(_), .. })
        )
    }

    /// Step like [`Engine::step`], but apply `mode` at a loop with invariants, whatever
    /// [`Config::loops`](super::Config::loops) says (the default for [`Engine::step`] and
    /// the runs).
    pub fn step_with(&mut self, id: NodeId, mode: LoopMode) -> Vec<NodeId> {
        let saved = std::mem::replace(&mut self.config.loops, mode);
        let children = self.step(id);
        self.config.loops = saved;
        children
    }

    /// The feasible successors of a settled state (one transition), settled. With
    /// `dropped`: the alternatives found infeasible are recorded there.
    pub(super) fn successors(
        &mut self,
        state: &State,
        mut dropped: Option<&mut Vec<why::Dropped>>,
    ) -> Vec<Child> {
        // fold (issue 15): a loop head whose path has a template steps to the fold's exits.
        if let Some(children) = self.fold_successors(state) {
            return children;
        }
        let result = {
            let stepper = Stepper {
                cx: eval::Context::new(&self.ir, &self.locals, &self.input_names),
                config: &self.config,
                types: &self.types,
            };
            let result = stepper.step(state);
            if let Some(reason) = stepper.cx.limit.take() {
                // The step would build a term past the engine's limits: it does not
                // happen; the path ends here, undecided.
                return vec![Child {
                    tag: Tag::Limit,
                    state: state.clone(),
                    settled: Settled::Running,
                    forced: Some(Outcome::Unknown),
                    unknown_reason: Some(Unknown::Other(reason)),
                }];
            }
            result
        };
        self.pc_index.align(&state.pc);
        let mut tally = forks::Tally::new(state, result.succs.iter().map(|s| &s.cond));
        let n = result.succs.len();
        let mut all_unsat = true;
        let mut children = Vec::new();
        for (k, succ) in result.succs.into_iter().enumerate() {
            // The child's path condition (as `state.pc.and(cond)`, without its walk).
            let present = succ.cond.is_true() || self.pc_index.contains(&succ.cond);
            let pc = if present {
                state.pc.clone()
            } else {
                state.pc.push(succ.cond.clone())
            };
            let sat = if present {
                SatResult::Sat
            } else if succ.cond.is_false() || self.pc_index.contains(&Term::not(succ.cond.clone()))
            {
                SatResult::Unsat
            } else if result.exhaustive && k + 1 == n && all_unsat {
                // The parent is feasible and the successors partition it.
                SatResult::Sat
            } else {
                self.solver.check_pc(&pc)
            };
            let mut st = succ.state;
            st.pc = pc;
            let tag = succ.tag;
            let child = |st, settled, forced, unknown_reason| Child {
                tag: tag.clone(),
                state: st,
                settled,
                forced,
                unknown_reason,
            };
            match sat {
                SatResult::Unsat => {
                    if let Some(t) = tally.as_mut().filter(|_| !succ.cond.is_false()) {
                        let mut st = st.clone();
                        let running = succ.forced.is_none()
                            && matches!(self.settle(&mut st), Settled::Running);
                        t.pruned(&st, running);
                    }
                    // An assumption that closes the path leaves one visible leaf.
                    if !result.exhaustive && succ.forced.is_none() && st.abrupt.is_none() {
                        children.push(child(st, Settled::Running, Some(Outcome::Infeasible), None));
                    } else if let Some(d) = dropped.as_deref_mut() {
                        d.push(why::Dropped {
                            tag,
                            cond: succ.cond,
                            pc: state.pc.clone(),
                            at: step::action_span(state),
                        });
                    }
                }
                SatResult::Unknown(reason) => {
                    all_unsat = false;
                    children.push(child(
                        st,
                        Settled::Running,
                        Some(Outcome::Unknown),
                        Some(reason),
                    ));
                }
                SatResult::Sat => {
                    all_unsat = false;
                    let settled = if succ.forced.is_some() {
                        Settled::Running
                    } else {
                        self.settle(&mut st)
                    };
                    children.push(child(st, settled, succ.forced, None));
                }
            }
        }
        if let Some(mut t) = tally {
            let running = |c: &Child| c.forced.is_none() && matches!(c.settled, Settled::Running);
            for c in &children {
                t.feasible(&c.state, running(c));
            }
            t.apply(
                children
                    .iter_mut()
                    .map(|c| (running(c), &mut c.state))
                    .map(|(r, s)| (s, r)),
            );
        }
        children
    }

    /// Settle a new node's state ([`step::settle_in`]: also past the temporaries that
    /// change nothing visible).
    pub(super) fn settle(&self, state: &mut State) -> Settled {
        let cx = eval::Context::new(&self.ir, &self.locals, &self.input_names);
        step::settle_in(&cx, state)
    }

    /// The book's opaque call: the whole callee runs inside one step; the children are the
    /// states in which the paths are back in the caller (or ended).
    /// The children keep the call step's tag; what was dropped inside goes to `dropped`.
    fn successors_opaque(&mut self, state: &State, dropped: &mut Vec<why::Dropped>) -> Vec<Child> {
        let depth = state.frames.len();
        let mut done = Vec::new();
        let mut work = self.successors(state, Some(dropped));
        work.reverse();
        while let Some(c) = work.pop() {
            let inside = c.forced.is_none()
                && matches!(c.settled, Settled::Running)
                && c.state.frames.len() > depth;
            if !inside {
                done.push(c);
                continue;
            }
            if self.cancel.load(Ordering::Relaxed) {
                // Leave the rest visible as open paths inside the callee.
                done.push(c);
                continue;
            }
            let mut next = self.successors(&c.state, Some(dropped));
            for n in &mut next {
                n.tag = c.tag.clone();
            }
            next.reverse();
            work.extend(next);
        }
        done
    }
}
