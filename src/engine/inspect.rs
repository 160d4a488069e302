//! Evaluating a user's expression at a node, for the debugger's prompt, watches and
//! breakpoint conditions (`session::eval`): the expression in one frame of the node's state,
//! satisfiability of the node's path condition with one more conjunct, and a model of the
//! node that also gives values to the symbols of some terms. None of it changes the tree.

use super::{eval, Engine, NodeId};
use crate::base::{ExcClass, Span};
use crate::lang::ast::Expr;
use crate::solver::SatResult;
use crate::term::{Model, Term};

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
        let mut state = (*self.tree.node(at).state).clone();
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

    /// A model of node `id` (as [`Engine::try_model`] finds it) that also values every
    /// symbol of `terms`; `Err`: the path is infeasible, or the solver's reason.
    pub fn model_at(&mut self, id: NodeId, terms: &[Term]) -> Result<Model, String> {
        let mut wanted: Vec<Term> = self.store_entries(id).map(|(_, t)| t.clone()).collect();
        wanted.extend(self.tree.node(id).return_value().cloned());
        wanted.extend_from_slice(terms);
        self.node_model(id, wanted.iter())
    }
}
