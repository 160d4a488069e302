//! What `check` asks of the tree when it compares leaves with concrete runs: which nodes'
//! path conditions hold under an input's values, and a leaf's values under a model. The
//! terms stay here; `check` sees node ids, [`Model`]s and concrete values.

use std::collections::{BTreeMap, HashMap};

use super::Session;
use crate::concrete::{CallEnd, ContractCall, Value};
use crate::engine::NodeId;
use crate::term::{display_name, Model, Term};

/// A node a concrete run may end at, with its path condition.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub id: NodeId,
    pc: Vec<Term>,
    /// The uses of contracts on its path ([`crate::engine::Engine::contract_uses`]).
    uses: Vec<Use>,
}

/// A use of a contract on a path: the function, and its fresh result (if it has one).
type Use = (std::rc::Rc<str>, Option<crate::term::Sym>);

/// `model` with each of `uses` given the result of the run's matching call (the i-th use
/// is the run's i-th recorded call); `None` when the run did not make those calls.
fn bind_uses<'m>(
    uses: &[Use],
    model: &'m Model,
    calls: &[ContractCall],
) -> Option<std::borrow::Cow<'m, Model>> {
    if uses.is_empty() {
        return Some(std::borrow::Cow::Borrowed(model));
    }
    let mut out = model.clone();
    for (k, (f, sym)) in uses.iter().enumerate() {
        let call = calls.get(k)?;
        if *call.function != **f {
            return None;
        }
        if let Some(sym) = sym {
            match &call.end {
                CallEnd::Returned(Some(v)) => {
                    out.values.insert(sym.clone(), v.clone());
                }
                _ => return None,
            }
        }
    }
    Some(std::borrow::Cow::Owned(out))
}

/// The candidates whose path condition holds under one input's model.
pub struct Hits {
    /// In the candidates' order, each with its model (the folds' κs added, issue 15).
    pub all: Vec<(NodeId, Model)>,
    /// Some candidate's path condition (or κ) cannot be evaluated under the model.
    pub any_undecided: bool,
}

/// A leaf's values under a model: the visible store (module runs; terms over symbols the
/// model lacks, such as havoc and opaque results, left out) and the return value.
pub struct LeafValues {
    pub store: BTreeMap<String, Value>,
    pub return_value: Option<Value>,
    /// What the path printed, under the model (`None`: a printed item's symbols are not
    /// all in the model).
    pub stdout: Option<String>,
}

/// Whether the path condition holds under `model`, as a three-valued conjunction: false if
/// a conjunct is false, `None` if none is but one cannot be evaluated (`Model::eval` does
/// not evaluate quantifiers over more than [`crate::term::EVAL_RANGE_LIMIT`] values).
fn holds(model: &Model, pc: &[Term]) -> Option<bool> {
    let mut result = Some(true);
    for t in pc {
        match model.eval(t) {
            Some(Value::Bool(true)) => {}
            Some(_) => return Some(false),
            None => result = None,
        }
    }
    result
}

impl Session {
    /// Node `id` with its path condition, for [`Session::holding`].
    pub fn candidate(&self, id: NodeId) -> Candidate {
        Candidate {
            id,
            pc: self.engine.path_condition(id),
            uses: self.engine.contract_uses(id),
        }
    }

    /// Which of `candidates` hold under `model` (`limit`: the run's
    /// [`super::kappa_limit`]).
    pub fn holding(&self, candidates: &[Candidate], model: &Model, limit: u64) -> Hits {
        self.holding_run(candidates, model, limit, None)
    }

    /// [`Session::holding`]; `calls`: the run's [`RunResult::contract_calls`], which give
    /// the contract uses' fresh results on each candidate's path (a candidate whose calls
    /// the run did not make does not hold). `None`: those symbols stay unbound.
    ///
    /// [`RunResult::contract_calls`]: crate::concrete::RunResult::contract_calls
    pub fn holding_run(
        &self,
        candidates: &[Candidate],
        model: &Model,
        limit: u64,
        calls: Option<&[ContractCall]>,
    ) -> Hits {
        // Folds (issue 15): each candidate's κs by κ-search under these inputs.
        let mut kappas = HashMap::new();
        let mut hits = Hits {
            all: Vec::new(),
            any_undecided: false,
        };
        for c in candidates {
            let bound = match calls {
                Some(calls) => match bind_uses(&c.uses, model, calls) {
                    Some(m) => m,
                    None => continue,
                },
                None => std::borrow::Cow::Borrowed(model),
            };
            let model = &*bound;
            let m = self
                .engine
                .with_fold_params_memo(c.id, model, limit, &mut kappas);
            match m.as_ref().and_then(|m| holds(m, &c.pc)) {
                Some(true) => hits.all.extend(m.map(|m| (c.id, m))),
                Some(false) => {}
                None => hits.any_undecided = true,
            }
        }
        hits
    }

    /// `model` with each use of a contract on the path to `id` given the result of the
    /// run's matching call (the i-th use is the run's i-th recorded call, see
    /// [`RunResult::contract_calls`]); `None` when the run did not make the path's calls
    /// (another function, or a call that raised where the path has a result): the run
    /// is not on that path.
    ///
    /// [`RunResult::contract_calls`]: crate::concrete::RunResult::contract_calls
    pub fn with_contract_results(
        &self,
        id: NodeId,
        model: &Model,
        calls: &[ContractCall],
    ) -> Option<Model> {
        bind_uses(&self.engine.contract_uses(id), model, calls).map(|m| m.into_owned())
    }

    /// The uses of contracts on the path to `id` whose fresh result has another value in
    /// `claimed` (a leaf's model, by symbol name) than in `real` (bound from a run by
    /// [`Session::with_contract_results`]): the functions, each once.
    pub fn contract_results_differ(
        &self,
        id: NodeId,
        claimed: &BTreeMap<String, Value>,
        real: &Model,
    ) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (f, sym) in self.engine.contract_uses(id) {
            let Some(sym) = sym else { continue };
            if claimed.get(&*sym.name) != real.values.get(&sym) && !out.iter().any(|g| **g == *f) {
                out.push(f.to_string());
            }
        }
        out
    }

    /// `model` with the κ of every fold on the path to `id`, found by κ-search up to
    /// `limit` iterations (`None`: not found).
    pub fn with_fold_params(&self, id: NodeId, model: &Model, limit: u64) -> Option<Model> {
        self.engine.with_fold_params(id, model, limit)
    }

    /// The first fold on the path to `leaf` whose κ in the leaf's model (`claimed`, by
    /// symbol name) is not the real iteration count in `real` (a model from
    /// [`Session::with_fold_params`]), in words.
    pub fn wrong_kappa(
        &self,
        leaf: NodeId,
        claimed: Option<&BTreeMap<String, Value>>,
        real: &Model,
    ) -> Option<String> {
        self.engine
            .folds_on_path(leaf)
            .into_iter()
            .find_map(|(_, k)| {
                let claimed = claimed?.get(&*k.name)?;
                let real = real.values.get(&k)?;
                (claimed != real).then(|| {
                    format!(
                        "{} = {claimed} in the model, but the run iterates {real} times",
                        display_name(&k.name)
                    )
                })
            })
    }

    /// The leaf's values under `model` (`entry`: the return value, else the store); `None`
    /// if a value cannot be evaluated although the model covers its symbols (a quantifier
    /// past [`crate::term::EVAL_RANGE_LIMIT`]).
    pub fn leaf_values(&self, leaf: NodeId, model: &Model, entry: bool) -> Option<LeafValues> {
        let eval = |t: &Term| -> Result<Option<Value>, ()> {
            match model.eval(t) {
                Some(v) => Ok(Some(v)),
                None => {
                    let mut vars = std::collections::BTreeSet::new();
                    t.vars(&mut vars);
                    if vars.iter().all(|s| model.values.contains_key(s)) {
                        Err(())
                    } else {
                        Ok(None)
                    }
                }
            }
        };
        let node = self.tree().node(leaf);
        let mut store = BTreeMap::new();
        if !entry {
            for (k, t) in self.engine.store(leaf).iter() {
                if let Some(v) = eval(t).ok()? {
                    store.insert(k.clone(), v);
                }
            }
        }
        let return_value = match (node.return_value(), entry) {
            (Some(t), true) => eval(t).ok()?,
            _ => None,
        };
        let mut stdout = Some(String::new());
        for line in self.engine.output(leaf) {
            let mut items = Vec::with_capacity(line.len());
            for t in line.iter() {
                match eval(t).ok()? {
                    Some(v) => items.push(v.to_string()),
                    None => stdout = None,
                }
            }
            if let Some(text) = &mut stdout {
                text.push_str(&crate::semantics::print_line(items));
            }
        }
        Some(LeafValues {
            store,
            return_value,
            stdout,
        })
    }
}
