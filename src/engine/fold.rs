//! Compact symbolic execution (seed 004, issue 15; design NEXT.md §1): a loop whose chosen
//! iteration path has a template is folded at its head into one node with a fresh
//! parameter κ ≥ 0, the number of times the path ran; each way of leaving the path is a
//! child. [`template`] computes templates, [`instance`] instantiates them; this file holds
//! the engine side (the cache, the side tables of fold nodes and exits, the feasibility
//! checks, κ-search).
//!
//! Successor identity: the fold replays its path with [`StepSig`], a local stand-in for the
//! successor tags planned in NEXT.md P0 (branch `why`): how a successor left its step
//! (abrupt completion, exception class and position, continuation shape).

mod basics;
mod calls;
mod enumerate;
mod fallback;
pub mod instance;
pub mod multi;
mod multi_assigned;
mod nested;
mod rec_info;
pub mod rec_multi;
pub mod recursion;
mod replay;
pub mod template;
mod view;

pub use view::InstanceView;

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::state::Abrupt;
use super::step::{self, Action, Settled, Stepper};
use super::{eval, Child, Engine, NodeId};
use crate::base::{ExcClass, Span};
use crate::solver::SatResult;
use crate::term::{Model, Sym, Term};
use crate::transform::ir::{Block, InstrKind};
pub use template::{Closed, NoTemplate, Template};
// The template builders recurse through nested loops: an outer loop's enumeration
// (`enumerate`) and its fold's exit replay (`replay`) sum an inner loop in one step
// (`nested`), which builds the inner loop's own template (`template`, which enumerates).
// They reach `nested` through this module, so the files import each other one way only.
use nested::{inner_loop, replay_step as replay_step_summing, summarize as summarize_inner};

/// Whether loops are folded (`--fold`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FoldMode {
    /// Loops are unrolled as always (the default).
    #[default]
    Off,
    /// Every loop head whose path has a template is folded.
    Auto,
}

/// How a successor left its step (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepSig {
    abrupt: u8,
    exc: Option<(ExcClass, Span)>,
    top: Option<(usize, usize, u8)>,
    depth: isize,
}

/// What an exit of a fold is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitKind {
    /// The loop's condition is false after κ iterations (the loop ends, `else` included).
    GuardFails,
    /// The iteration after the κ-th leaves the path at this statement (`then`/`else` for
    /// an `if`).
    Leaves(Span, &'static str),
    /// The iteration after the κ-th raises (an `assert` failing included).
    Raises(ExcClass, Span),
    /// The path repeats forever (a `bound` leaf).
    Forever,
}

/// A fold node: its parameter, the template, and the folded condition.
#[derive(Clone, Debug)]
pub struct FoldInfo {
    pub kappa: Sym,
    pub template: Rc<Template>,
    /// Φ(κ), one conjunct per entry.
    pub phi: Vec<Term>,
    /// The iteration condition over `tau` (iteration `tau` stays on the path).
    pub tau: Sym,
    pub body: Term,
    /// Each changed variable's value after κ iterations (over the head's values).
    pub after: Vec<(String, Term)>,
    /// A two-parameter fold (issue 27): λ, the prefix counts ω and the paths' conditions.
    pub multi: Option<Rc<multi::MultiParams>>,
}

/// A fold's exit child.
#[derive(Clone, Debug)]
pub struct FoldExit {
    pub fold: NodeId,
    pub kind: ExitKind,
    /// An exit that raises: the state at the raise, before the exception left its frames
    /// (the exception leaf's own state has left them, and its parent is the fold node, at
    /// the loop head before the folded iterations). [`Engine::frames_state`].
    pub raised: Option<Rc<State>>,
}

/// A template or why there is none.
type TemplateResult = Result<Rc<Template>, NoTemplate>;

/// Identity of a loop: its block, its index, its function.
type LoopKey = (usize, usize, Option<Rc<str>>);

/// An exit of the fold being built: its kind and, if it raises, the state at the raise.
type PendingExit = (ExitKind, Option<Rc<State>>);

/// The engine's fold state.
#[derive(Default)]
pub(super) struct Folds {
    templates: RefCell<HashMap<LoopKey, Result<Rc<Template>, NoTemplate>>>,
    /// Two-parameter templates by loop (issue 27).
    multi_templates: RefCell<HashMap<LoopKey, TemplateResult>>,
    /// Recursion templates by function (`None`: the function does not call itself).
    rec_templates: RefCell<HashMap<Rc<str>, Option<TemplateResult>>>,
    /// The one-parameter template of a function whose template has two parameters, for
    /// where that one does not apply.
    rec_single: RefCell<HashMap<Rc<str>, Rc<Template>>>,
    nodes: HashMap<NodeId, Rc<FoldInfo>>,
    exits: HashMap<NodeId, FoldExit>,
    pub(super) pending: Option<(Rc<FoldInfo>, Vec<PendingExit>)>,
    /// Loops where a fold's check was undecided once (a timeout): their heads are stepped
    /// classically from then on, so a hard loop costs one time limit, not one per visit.
    pub(super) undecided: std::collections::HashSet<LoopKey>,
    /// Issue 31: the fallbacks of folds with an undecided leaf (see [`fallback`]).
    pub(super) fallbacks: fallback::Fallbacks,
}

/// At most this many iterations in κ-search (beyond, the run is taken to repeat forever).
pub const KAPPA_SEARCH_LIMIT: u64 = 2_000_000;

impl Engine {
    fn replay_config(&self) -> super::Config {
        let mut c = self.config.clone();
        c.unroll = u32::MAX;
        c.fold = FoldMode::Off;
        c
    }

    /// The recursion template of `func` (cached): `None` when it does not call itself.
    pub(super) fn rec_template_cached(
        &self,
        stepper: &Stepper,
        func: &Rc<str>,
    ) -> Option<Result<Rc<Template>, NoTemplate>> {
        if let Some(t) = self.folds.rec_templates.borrow().get(func) {
            return t.clone();
        }
        let t = recursion::rec_template_for(stepper, func).map(|r| {
            r.map(|(t, single)| {
                if let Some(s) = single {
                    self.folds
                        .rec_single
                        .borrow_mut()
                        .insert(func.clone(), Rc::new(s));
                }
                Rc::new(t)
            })
        });
        self.folds
            .rec_templates
            .borrow_mut()
            .insert(func.clone(), t.clone());
        t
    }

    /// The fold transition at the entry of a self-recursive function (issue 27): the
    /// two-parameter template where the function has one that applies, else the
    /// one-parameter one.
    fn rec_fold_successors(&mut self, state: &State) -> Option<Vec<Child>> {
        let func = recursion::at_entry(state, &self.ir)?;
        let body = self.ir.functions[&*func].body.clone();
        let key: LoopKey = (body.as_ptr() as usize, usize::MAX, Some(func.clone()));
        // Its own key: an undecided two-parameter fold leaves the one-parameter one.
        let key2: LoopKey = (body.as_ptr() as usize, usize::MAX - 1, Some(func.clone()));
        let mut config = self.replay_config();
        config.recursion = u32::MAX;
        let (tpl, two) = {
            let stepper = Stepper {
                cx: eval::Context::new(&self.ir, &self.locals, &self.input_names),
                config: &config,
                types: &self.types,
            };
            let tpl = self.rec_template_cached(&stepper, &func)?.ok()?;
            let two = (tpl.multi.is_some() && !self.folds.undecided.contains(&key2))
                .then(|| rec_multi::instantiate(&stepper, &tpl, state).ok())
                .flatten();
            (tpl, two)
        };
        if let Some((inst, params)) = two {
            if let Some(children) = self.fold_children(state, key2, tpl.clone(), inst, Some(params))
            {
                return Some(children);
            }
        }
        let tpl = match &tpl.multi {
            Some(_) => self.folds.rec_single.borrow().get(&func).cloned()?,
            None => tpl,
        };
        if self.folds.undecided.contains(&key) {
            return None;
        }
        let inst = {
            let stepper = Stepper {
                cx: eval::Context::new(&self.ir, &self.locals, &self.input_names),
                config: &config,
                types: &self.types,
            };
            recursion::instantiate(&stepper, &tpl, state).ok()?
        };
        self.fold_children(state, key, tpl, inst, None)
    }

    fn template_cached(
        &self,
        stepper: &Stepper,
        block: &Block,
        index: usize,
        func: Option<&Rc<str>>,
    ) -> Result<Rc<Template>, NoTemplate> {
        let key = (block.as_ptr() as usize, index, func.cloned());
        if let Some(t) = self.folds.templates.borrow().get(&key) {
            return t.clone();
        }
        let t = template::template_for(stepper, block, index, func).map(Rc::new);
        self.folds.templates.borrow_mut().insert(key, t.clone());
        t
    }

    /// The fold transition at a loop head, checked: `None` when the head is stepped
    /// classically (fold off, no template, not applicable here, or an `unknown` check).
    pub(super) fn fold_successors(&mut self, state: &State) -> Option<Vec<Child>> {
        if self.config.fold != FoldMode::Auto {
            return None;
        }
        let Some(Action::Guard {
            block,
            index,
            iteration,
            ..
        }) = step::next_action(state)
        else {
            return self.rec_fold_successors(state);
        };
        let key: LoopKey = (block.as_ptr() as usize, index, state.func().cloned());
        if self.folds.undecided.contains(&key) {
            return None;
        }
        if let Some(children) = self.multi_fold_successors(state, &block, index, iteration) {
            return Some(children);
        }
        let config = self.replay_config();
        let inst = {
            let stepper = Stepper {
                cx: eval::Context::new(&self.ir, &self.locals, &self.input_names),
                config: &config,
                types: &self.types,
            };
            let tpl = self
                .template_cached(&stepper, &block, index, state.func())
                .ok()?;
            let inst = instance::instantiate(
                &stepper,
                &tpl,
                state,
                &block,
                index,
                iteration,
                self.config.unroll,
            )
            .ok()?;
            (tpl, inst)
        };
        let (tpl, inst) = inst;
        self.fold_children(state, key, tpl, inst, None)
    }

    /// The checked children of a fold (loop or recursion) and its pending record.
    fn fold_children(
        &mut self,
        state: &State,
        key: LoopKey,
        tpl: Rc<Template>,
        inst: instance::Instance,
        multi: Option<multi::MultiParams>,
    ) -> Option<Vec<Child>> {
        let mut children = Vec::new();
        let mut kinds = Vec::new();
        for (succ, kind) in inst.succs {
            let pc = if succ.cond.is_true() {
                state.pc.clone()
            } else {
                state.pc.push(succ.cond.clone())
            };
            let sat = self.solver.check_pc(&pc);
            match sat {
                SatResult::Unsat => continue,
                // Undecided: the fold is dropped, the head steps classically (here and,
                // unless the check was interrupted, at this loop's later heads).
                SatResult::Unknown(r) => {
                    if r != crate::solver::Unknown::Interrupted {
                        self.folds.undecided.insert(key);
                    }
                    return None;
                }
                SatResult::Sat => {}
            }
            let mut st = succ.state;
            st.pc = state.pc.and(succ.cond);
            let raised = (succ.forced.is_none()
                && matches!(st.abrupt.as_deref(), Some(Abrupt::Exception(..))))
            .then(|| Rc::new(st.clone()));
            let settled = if succ.forced.is_some() {
                Settled::Running
            } else {
                self.settle(&mut st)
            };
            children.push(Child {
                state: st,
                settled,
                forced: succ.forced,
                unknown_reason: None,
                tag: succ.tag,
            });
            kinds.push((kind, raised));
        }
        let info = Rc::new(FoldInfo {
            kappa: inst.kappa,
            template: tpl,
            phi: inst.phi,
            tau: inst.tau,
            body: inst.body,
            after: inst.after,
            multi: multi.map(Rc::new),
        });
        self.folds.pending = Some((info, kinds));
        Some(children)
    }

    /// Record the fold node `id` and its exits (after [`Engine::fold_successors`]).
    pub(super) fn fold_attach(&mut self, id: NodeId, children: &[NodeId], opaque: bool) {
        let Some((info, kinds)) = self.folds.pending.take() else {
            return;
        };
        if opaque || kinds.len() != children.len() {
            return;
        }
        self.folds.nodes.insert(id, info);
        for (c, (kind, raised)) in children.iter().zip(kinds) {
            self.folds.exits.insert(
                *c,
                FoldExit {
                    fold: id,
                    kind,
                    raised,
                },
            );
        }
    }

    /// The fold at node `id`, if `id` is a folded loop head.
    pub fn fold_at(&self, id: NodeId) -> Option<&FoldInfo> {
        self.folds.nodes.get(&id).map(|r| &**r)
    }

    /// The state whose frames node `at` shows: at an exception leaf that a fold's exit
    /// raised, the state at the raise ([`FoldExit::raised`]); elsewhere the node's own.
    pub fn frames_state(&self, at: NodeId) -> &State {
        match self.folds.exits.get(&at).and_then(|e| e.raised.as_deref()) {
            Some(s) => s,
            None => &self.tree.node(at).state,
        }
    }

    /// The fold exit that node `id` is, if it is one.
    pub fn fold_exit(&self, id: NodeId) -> Option<&FoldExit> {
        self.folds.exits.get(&id)
    }

    /// How many fold nodes the tree has.
    pub fn fold_count(&self) -> usize {
        self.folds.nodes.len()
    }

    /// The folds on the path from the root to `id` (outermost first): node, parameter.
    pub fn folds_on_path(&self, id: NodeId) -> Vec<(NodeId, Sym)> {
        let mut out = Vec::new();
        // (no fold in the tree: no walk up a path that may be 30,000 nodes deep, for each
        // row the debugger sends)
        if self.folds.nodes.is_empty() {
            return out;
        }
        let mut cur = self.tree.node(id).parent;
        let mut child = id;
        while let Some(p) = cur {
            // A fold's fallback (issue 31) runs the loop classically: no κ.
            let fallback = self.folds.fallbacks.fold_of(child).is_some();
            if let Some(f) = self.folds.nodes.get(&p).filter(|_| !fallback) {
                let forever = self
                    .folds
                    .exits
                    .get(&child)
                    .is_some_and(|e| e.kind == ExitKind::Forever);
                if !forever {
                    out.push((p, f.kappa.clone()));
                }
            }
            child = p;
            cur = self.tree.node(p).parent;
        }
        out.reverse();
        out
    }

    /// κ-search: `model` (over the inputs) extended with the real iteration count of every
    /// fold on the path to `id`, computed by evaluating the iteration conditions in Rust.
    /// `None` when a condition cannot be evaluated or a run stays on a path past `limit`
    /// (at most [`KAPPA_SEARCH_LIMIT`]) iterations: a caller that ran the inputs knows a
    /// bound (no loop iterates more often than the run has steps).
    pub fn with_fold_params(&self, id: NodeId, model: &Model, limit: u64) -> Option<Model> {
        self.with_fold_params_memo(id, model, limit, &mut HashMap::new())
    }

    /// [`Engine::with_fold_params`] with a memo of each fold's κ under these inputs
    /// (`None`: not found within `limit`), shared by the leaves of one input: a fold's κ
    /// depends only on the inputs (and the κs before it, which do too). Use one memo per
    /// input and limit.
    pub fn with_fold_params_memo(
        &self,
        id: NodeId,
        model: &Model,
        limit: u64,
        memo: &mut HashMap<NodeId, Option<crate::concrete::Value>>,
    ) -> Option<Model> {
        let limit = limit.min(KAPPA_SEARCH_LIMIT);
        let mut m = model.clone();
        for (node, kappa) in self.folds_on_path(id) {
            let value = match memo.get(&node) {
                Some(v) => v.clone(),
                None => {
                    let v = self.kappa_of(node, &mut m, limit);
                    memo.insert(node, v.clone());
                    v
                }
            };
            let value = value?;
            match &self.folds.nodes[&node].multi {
                Some(p) => {
                    let (k, l) = multi::kappa_lambda(&value)?;
                    m.values.insert(kappa, crate::concrete::Value::Int(k));
                    m.values
                        .insert(p.lambda.clone(), crate::concrete::Value::Int(l));
                    m.values.insert(p.omega.clone(), value);
                }
                None => {
                    m.values.insert(kappa, value);
                }
            }
        }
        Some(m)
    }

    /// The real iteration count of the fold at `node` under `m` (which holds the κs of the
    /// folds before it): 0 if the inputs do not reach it (any κ will do: the path
    /// condition is false anyway; no search, which might not end); `None` when its
    /// condition cannot be evaluated or holds past `limit` iterations.
    fn kappa_of(&self, node: NodeId, m: &mut Model, limit: u64) -> Option<crate::concrete::Value> {
        let f = &self.folds.nodes[&node];
        let reached = self
            .tree
            .node(node)
            .state
            .pc
            .to_vec()
            .iter()
            .all(|t| m.eval(t) != Some(crate::concrete::Value::Bool(false)));
        if let Some(p) = &f.multi {
            if !reached {
                return Some(crate::concrete::Value::Tuple(vec![0.into()].into()));
            }
            return multi::omega_of(p, &f.tau, m, limit);
        }
        if !reached {
            return Some(crate::concrete::Value::Int(0.into()));
        }
        let mut n = 0u64;
        let found = loop {
            if n > limit {
                break None;
            }
            m.values
                .insert(f.tau.clone(), crate::concrete::Value::Int(n.into()));
            match m.eval(&f.body) {
                Some(crate::concrete::Value::Bool(true)) => n += 1,
                Some(_) => break Some(crate::concrete::Value::Int(n.into())),
                None => break None,
            }
        };
        m.values.remove(&f.tau);
        found
    }

    /// Every `while` of the program with its template or why it has none (for
    /// `run --templates`), in source order.
    pub fn templates(&self) -> Vec<(Span, Result<Rc<Template>, NoTemplate>)> {
        let loops = all_loops(&self.ir);
        let config = self.replay_config();
        let stepper = Stepper {
            cx: eval::Context::new(&self.ir, &self.locals, &self.input_names),
            config: &config,
            types: &self.types,
        };
        let mut out: Vec<_> = loops
            .into_iter()
            .map(|(block, index, func)| {
                let t = self.template_cached(&stepper, &block, index, func.as_ref());
                (block[index].span, t)
            })
            .collect();
        out.sort_by_key(|(s, _)| s.start);
        out
    }
}

impl Engine {
    /// Every self-recursive function with its recursion template or why it has none (for
    /// `run --templates`), in source order, at its `def` line.
    pub fn rec_templates(&self) -> Vec<(Span, Result<Rc<Template>, NoTemplate>)> {
        let mut config = self.replay_config();
        config.recursion = u32::MAX;
        let stepper = Stepper {
            cx: eval::Context::new(&self.ir, &self.locals, &self.input_names),
            config: &config,
            types: &self.types,
        };
        let mut out: Vec<_> = self
            .ir
            .functions
            .iter()
            .filter_map(|(name, f)| {
                let t = self.rec_template_cached(&stepper, &Rc::from(name.as_str()))?;
                Some((f.span, t))
            })
            .collect();
        out.sort_by_key(|(s, _)| s.start);
        out
    }
}

/// Every `while` of the program: its block, index and function.
fn all_loops(ir: &crate::transform::ir::Program) -> Vec<(Block, usize, Option<Rc<str>>)> {
    let mut loops = Vec::new();
    collect_loops(&ir.body, None, &mut loops);
    for (name, f) in &ir.functions {
        collect_loops(&f.body, Some(Rc::from(name.as_str())), &mut loops);
    }
    loops
}

fn collect_loops(
    block: &Block,
    func: Option<Rc<str>>,
    out: &mut Vec<(Block, usize, Option<Rc<str>>)>,
) {
    for (i, instr) in block.iter().enumerate() {
        match &instr.kind {
            InstrKind::While {
                body,
                orelse,
                guard,
                ..
            } => {
                out.push((block.clone(), i, func.clone()));
                collect_loops(guard, func.clone(), out);
                collect_loops(body, func.clone(), out);
                if let Some(o) = orelse {
                    collect_loops(o, func.clone(), out);
                }
            }
            InstrKind::If { then, orelse, .. } => {
                collect_loops(then, func.clone(), out);
                collect_loops(orelse, func.clone(), out);
            }
            InstrKind::Try { body, handlers } => {
                collect_loops(body, func.clone(), out);
                for h in handlers {
                    collect_loops(&h.body, func.clone(), out);
                }
            }
            _ => {}
        }
    }
}

use super::state::State;

#[cfg(test)]
mod tests;
