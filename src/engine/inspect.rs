//! Evaluating a user's expression at a node, for the debugger's prompt, watches and
//! breakpoint conditions (`session::eval`): the expression in one frame of the node's state,
//! satisfiability of the node's path condition with one more conjunct, and a model of the
//! node that also gives values to the symbols of some terms. None of it changes the tree.

use std::rc::Rc;
use std::sync::atomic::Ordering;

use super::{eval, Engine, NoModel, NodeId, NodeModel};
use crate::base::{ExcClass, Span};
use crate::lang::ast::Expr;
use crate::solver::SatResult;
use crate::term::{Model, Term};
use crate::transform::ir;

/// An expression's value at a node: the engine's conditioned alternatives (the conditions
/// are relative to the node's path condition, mutually exclusive, together exhaustive).
#[derive(Clone, Debug)]
pub struct Evaluated {
    /// The normal result: (condition, value); `None` if it always raises.
    pub ok: Option<(Term, Term)>,
    /// The exceptions it may raise: (condition, class, where in the expression).
    pub raises: Vec<(Term, ExcClass, Span)>,
}

impl Engine {
    /// Evaluate `e` (type-checked by the caller in the scope of that frame) in the state of
    /// node `at`, in its frame `up` frames out from the innermost (0: the innermost). Python's
    /// semantics: a predicate called in it runs as a function (its body may raise). `Err`:
    /// no such frame, or a term past the engine's limits.
    pub fn evaluate_at(&self, at: NodeId, up: usize, e: &Expr) -> Result<Evaluated, String> {
        let mut state = self.frames_state(at).clone();
        let n = state.frames.len();
        if up >= n {
            return Err(format!("no frame {up} up: the call stack has {n}"));
        }
        for _ in 0..up {
            state.frames.pop();
        }
        let cx = eval::Context::new(&self.ir, &self.locals, &self.input_names);
        let alts = cx.eval(&state, e);
        if let Some(reason) = cx.limit.take() {
            return Err(format!("too large to evaluate: {reason}"));
        }
        Ok(Evaluated {
            ok: alts.ok,
            raises: alts.errs,
        })
    }

    /// Is the path condition of `id` together with `extra` satisfiable? The node's own path
    /// condition is taken as satisfiable (the question is about `extra`). The engine's
    /// cancel flag interrupts it (`Unknown("interrupted")`); it is not cleared here.
    pub fn check_at(&mut self, id: NodeId, extra: Term) -> SatResult {
        if extra.is_false() {
            return SatResult::Unsat;
        }
        let pc = &self.tree.node(id).state.pc;
        let pc = if extra.is_true() {
            pc.clone()
        } else {
            pc.push(extra)
        };
        self.solver.check_pc(&pc)
    }

    /// Inputs that reach node `id` with `extra` also true (a model of its path condition
    /// and `extra`, over the inputs); `Err`: `Unsat`, or the solver's `Unknown`. Symbolic
    /// coverage asks it of a fold's exits with `κ ≥ 1` (issue 29). The engine's cancel
    /// flag interrupts it; it is not cleared here.
    pub fn inputs_with(
        &mut self,
        id: NodeId,
        extra: Term,
    ) -> Result<std::collections::BTreeMap<String, crate::concrete::Value>, SatResult> {
        let mut pc = self.path_condition(id);
        pc.push(extra);
        let syms: Vec<crate::term::Sym> = {
            let mut s: std::collections::BTreeSet<crate::term::Sym> =
                self.inputs.iter().cloned().collect();
            pc.iter().for_each(|t| t.vars(&mut s));
            s.into_iter().collect()
        };
        let cancel = self.cancel.clone();
        let m = crate::solver::interruptible(&cancel, || self.solver.try_model(&pc, &syms))?;
        Ok(self.input_values(&m))
    }

    /// A model of node `id` (as [`Engine::try_model`] finds it) that also values every
    /// symbol of `terms`; `Err`: the path is infeasible, or the solver's reason.
    pub fn model_at(&mut self, id: NodeId, terms: &[Term]) -> Result<Model, NoModel> {
        let mut wanted: Vec<Term> = self.store_entries(id).map(|(_, t)| t.clone()).collect();
        wanted.extend(self.tree.node(id).return_value().cloned());
        wanted.extend_from_slice(terms);
        self.node_model(id, wanted.iter())
    }

    /// The variables of node `at`'s innermost frame (its locals; in module code the
    /// module's variables), without IR temporaries: what a debugger's store pane shows.
    /// Unlike [`Engine::store`], a leaf is not special (a `halt` inside a call shows the
    /// call's variables, as its call stack does).
    pub fn frame_store(&self, at: NodeId) -> Vec<(String, Term)> {
        self.frame_entries(at)
            .into_iter()
            .map(|(k, t)| (k.to_string(), t))
            .collect()
    }

    fn frame_entries(&self, at: NodeId) -> Vec<(Rc<str>, Term)> {
        let state = self.frames_state(at);
        let env = match state.frames.last() {
            Some(f) if f.func.is_some() => &f.locals,
            _ => &state.globals,
        };
        env.iter()
            .filter(|(k, _)| !ir::is_temp(k))
            .map(|(k, t)| (k.clone(), t.clone()))
            .collect()
    }

    /// [`Engine::try_model`] of node `id`, with the variables of [`Engine::frame_store`]`(at)`
    /// as the store it evaluates. `at` is `id` or an ancestor of it (at an exception leaf
    /// raised inside calls: the node whose frames were active at the raise,
    /// [`Engine::raise_node`]), so its terms are over `id`'s symbols.
    pub fn try_model_in_frame(&mut self, id: NodeId, at: NodeId) -> Result<NodeModel, NoModel> {
        self.cancel.store(false, Ordering::Relaxed);
        let cancel = self.cancel.clone();
        let store = self.frame_entries(at);
        crate::solver::interruptible(&cancel, || self.model_with_store(id, store))
    }
}

impl Engine {
    /// A minimal model of `conds` (terms over this engine's inputs, or another engine's
    /// of the same inputs: `symdbg diff` conjoins two programs' path conditions) with the
    /// inputs' values; `Err`: unsatisfiable or undecided.
    pub fn inputs_satisfying(
        &mut self,
        conds: &[Term],
    ) -> Result<std::collections::BTreeMap<String, crate::concrete::Value>, NoModel> {
        let mut syms: std::collections::BTreeSet<crate::term::Sym> =
            self.inputs.iter().cloned().collect();
        conds.iter().for_each(|t| t.vars(&mut syms));
        let syms: Vec<crate::term::Sym> = syms.into_iter().collect();
        self.cancel.store(false, Ordering::Relaxed);
        let cancel = self.cancel.clone();
        let model = crate::solver::interruptible(&cancel, || {
            self.solver.try_model(conds, &syms).map_err(|r| match r {
                SatResult::Unknown(reason) => NoModel::from(reason),
                SatResult::Unsat | SatResult::Sat => NoModel::Infeasible,
            })
        })?;
        Ok(self.input_values(&model))
    }
}
