//! Replay: run a node's model (or given inputs) in the concrete interpreter and check the
//! run against the node. One implementation for `check`, `run --counterexamples` and the
//! TUI's replay pane.
//!
//! The run follows the node's path when every conjunct of the path condition evaluates to
//! `True` under the inputs ([`crate::term::Model::eval`], plain Rust); conjuncts that
//! mention values the inputs do not determine (`havoc`ed variables of a loop scope, opaque
//! results) are not evaluated and are counted as such. A fold's κ is determined: it is the
//! run's iteration count of the folded path ([`Engine::with_fold_params`], κ-search). At a
//! leaf the run must also end the way the leaf says: same outcome and exception class (a
//! `bound` or `unknown` leaf claims no ending, so any ending agrees).
//!
//! [`Engine::with_fold_params`]: crate::engine::Engine::with_fold_params

use std::collections::{BTreeMap, BTreeSet};

use super::Session;
use crate::concrete::{self, RunResult, Value};
use crate::diagnostics::Diagnostic;
use crate::engine::{NodeId, NodeModel, Outcome};
use crate::term::{display_name, Model, Sym, Term};

/// A concrete run of a node's inputs, compared with the node.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The inputs that were run.
    pub inputs: BTreeMap<String, Value>,
    /// The node's model, when the inputs came from it.
    pub model: Option<NodeModel>,
    pub run: RunResult,
    /// Conjuncts of the path condition evaluated under the inputs alone, and those not
    /// evaluated (they mention other symbols).
    pub checked: usize,
    pub undetermined: usize,
    /// The folds on the path: each κ (`κ1`) with this run's iteration count of the
    /// folded path (κ-search; `None`: not found), outermost first.
    pub kappas: Vec<(String, Option<Value>)>,
    /// κ-search found every κ (so no undetermined conjunct is about a κ).
    pub kappas_found: bool,
    pub verdict: Verdict,
}

/// Does the run follow the node?
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It follows the path (and, at a leaf, ends as the leaf says).
    Follows,
    /// Conjunct `index` (1-based) of the path condition is false under the inputs.
    LeavesPath { index: usize, conjunct: String },
    /// It follows the path but ends another way than the leaf says.
    EndsOtherwise(Outcome),
    /// Below a use of a contract (issue 28): with the results the calls really returned,
    /// the run takes another path or ends otherwise; these functions' contracts let
    /// results their bodies do not return ("may be too weak"), no disagreement.
    ContractTooWeak(Vec<String>),
}

/// Why there is no replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// No model: the path is infeasible, the solver could not decide, or the model is too
    /// large to run.
    NoModel(crate::engine::NoModel),
    /// The concrete interpreter refused the inputs.
    Run(String),
}

impl Replay {
    pub fn follows(&self) -> bool {
        self.verdict == Verdict::Follows
    }
}

/// A bound on the iterations of any loop in a finished run: every guard test is a trace
/// entry, so no loop iterated more often than the trace is long (unless the trace was
/// cut at [`concrete::TRACE_LIMIT`]). It keeps the κ-search of folds from running on
/// past what the run did (issue 15).
pub fn kappa_limit(r: &RunResult) -> u64 {
    if r.trace.len() < concrete::TRACE_LIMIT {
        r.trace.len() as u64
    } else {
        crate::engine::fold::KAPPA_SEARCH_LIMIT
    }
}

/// Does a concrete run end the way a leaf with outcome `leaf` says?
pub fn ends_as(leaf: Outcome, run: Outcome) -> bool {
    matches!(leaf, Outcome::Bound | Outcome::Unknown) || leaf == run
}

impl Session {
    /// Run the program concretely on `inputs` (with the session's entry function).
    pub fn run_concrete(
        &self,
        inputs: &BTreeMap<String, Value>,
        config: &concrete::Config,
    ) -> Result<RunResult, Diagnostic> {
        concrete::run(self.program(), self.types(), self.entry(), inputs, config)
    }

    /// The inputs as a [`Model`] of the engine's input symbols (for [`Model::eval`]).
    pub fn input_model(&self, inputs: &BTreeMap<String, Value>) -> Model {
        let values = self
            .engine
            .inputs()
            .iter()
            .filter_map(|s: &Sym| inputs.get(&*s.name).map(|v| (s.clone(), v.clone())))
            .collect();
        Model {
            values,
            ..Model::default()
        }
    }

    /// Replay node `id`: run `inputs` (default: the node's model's) concretely and check
    /// the run against the node.
    pub fn replay(
        &mut self,
        id: NodeId,
        inputs: Option<&BTreeMap<String, Value>>,
        config: &concrete::Config,
    ) -> Result<Replay, ReplayError> {
        let (inputs, model) = match inputs {
            Some(i) => (i.clone(), None),
            None => {
                let m = self.try_model(id).map_err(ReplayError::NoModel)?;
                (m.inputs.clone(), Some(m))
            }
        };
        let run = self
            .run_concrete(&inputs, config)
            .map_err(|d| ReplayError::Run(d.message))?;
        // Folds (issue 15): each κ on the path is the real iteration count of this run
        // (κ-search), so conjuncts about κ are checked too, not counted as undetermined.
        let mut under = self.input_model(&inputs);
        // Contracts (issue 28): each use's `f@n` is the result the run's call returned.
        let abstract_node = self.is_abstract(id);
        if abstract_node {
            if let Some(m) = self.with_contract_results(id, &under, &run.contract_calls) {
                under = m;
            }
        }
        let folds = self.engine.folds_on_path(id);
        let mut kappas_found = false;
        if !folds.is_empty() {
            if let Some(m) = self.engine.with_fold_params(id, &under, kappa_limit(&run)) {
                under = m;
                kappas_found = true;
            }
        }
        let symbols: BTreeSet<Sym> = under.values.keys().cloned().collect();
        let pc = self.engine.path_condition(id);
        let (mut checked, mut undetermined, mut failed) = (0, 0, None);
        for (k, t) in pc.iter().enumerate() {
            let mut vars = BTreeSet::new();
            t.vars(&mut vars);
            if !vars.is_subset(&symbols) {
                undetermined += 1;
                continue;
            }
            checked += 1;
            if under.eval(t) != Some(Value::Bool(true)) {
                failed = Some((k + 1, t));
                break;
            }
        }
        // Below a contract use, a run that leaves the path where a call's result matters
        // (not at a conjunct over the inputs alone), or ends otherwise, shows the
        // contract's weakness, not a disagreement.
        let weak = abstract_node
            && failed.is_none_or(|(_, t)| {
                let mut vars = BTreeSet::new();
                t.vars(&mut vars);
                !vars.iter().all(|v| self.engine.inputs().contains(v))
            });
        let leaf = self.tree().node(id).outcome();
        let verdict = match (failed, leaf) {
            (Some((index, t)), _) => Verdict::LeavesPath {
                index,
                conjunct: Term::to_string(t),
            },
            (None, Some(o)) if !ends_as(o, run.outcome) => Verdict::EndsOtherwise(o),
            (None, _) => Verdict::Follows,
        };
        let verdict = match verdict {
            Verdict::LeavesPath { .. } | Verdict::EndsOtherwise(_) if weak => {
                Verdict::ContractTooWeak(self.contracts_used(id))
            }
            v => v,
        };
        let kappas = folds
            .into_iter()
            .map(|(_, k)| {
                let v = under.values.get(&k).cloned();
                (display_name(&k.name).into_owned(), v)
            })
            .collect();
        Ok(Replay {
            inputs,
            model,
            run,
            checked,
            undetermined,
            kappas,
            kappas_found,
            verdict,
        })
    }

    /// Does the replay end exactly as the exception leaf `id` says: same class, raised on
    /// the same line, and an invariant's failure exactly when the leaf is one?
    pub fn reproduces(&self, id: NodeId, replay: &Replay) -> bool {
        let node = self.tree().node(id);
        let line = |s: crate::base::Span| self.source().line(s.start);
        let run = &replay.run;
        run.outcome.exception().map(Outcome::Exception) == node.outcome()
            && run.invariant_failure == node.invariant_failure()
            && run.exception_at.map(line) == node.exception_at().map(line)
    }
}
