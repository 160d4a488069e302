//! Models at nodes: [`NodeModel`] (inputs, havoc symbols, store, return value and printed
//! text under one model), the one model query ([`Engine::node_model`]) behind
//! [`Engine::try_model`], and the values of a model ([`Engine::evaluate`]).

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::atomic::Ordering;

use super::{Engine, NoModel, NodeId, NodeKind, Outcome};
use crate::concrete::Value;
use crate::solver::{SatResult, Unknown};
use crate::term::{Model, Sym, Term};

/// A model at a node: concrete inputs, and the visible store evaluated under them.
#[derive(Clone, Debug)]
pub struct NodeModel {
    pub inputs: BTreeMap<String, Value>,
    /// The values of the other symbols the path mentions: those `havoc` made (`i!1`, the
    /// state of a loop's arbitrary iteration) and their definedness flags (`x!2.bound`).
    /// The inputs alone need not reproduce a leaf that depends on them.
    pub havoc: BTreeMap<String, Value>,
    pub store: BTreeMap<String, Value>,
    pub return_value: Option<Value>,
    /// What the path printed, under the model: byte for byte what CPython prints on these
    /// inputs (`None` if an item could not be evaluated).
    pub stdout: Option<String>,
}

/// The text `output` (a path's printed lines, see [`Engine::output`]) prints under `model`.
pub fn stdout_under(model: &Model, output: &[Rc<[Term]>]) -> Option<String> {
    let mut text = String::new();
    for line in output {
        let items = line
            .iter()
            .map(|t| model.eval(t).map(|v| v.to_string()))
            .collect::<Option<Vec<_>>>()?;
        text.push_str(&crate::semantics::print_line(items));
    }
    Some(text)
}

impl Engine {
    /// Concrete inputs that reach exactly this node (any node, not only leaves), with the
    /// store evaluated under them. `None` if the path is infeasible or undecided.
    pub fn model(&mut self, id: NodeId) -> Option<NodeModel> {
        self.try_model(id).ok()
    }

    /// Like [`Engine::model`], with the reason when there is none.
    pub fn try_model(&mut self, id: NodeId) -> Result<NodeModel, NoModel> {
        self.cancel.store(false, Ordering::Relaxed);
        let cancel = self.cancel.clone();
        crate::solver::interruptible(&cancel, || self.model_inner(id))
    }

    fn model_inner(&mut self, id: NodeId) -> Result<NodeModel, NoModel> {
        let store: Vec<(Rc<str>, Term)> = self
            .store_entries(id)
            .map(|(k, t)| (k.clone(), t.clone()))
            .collect();
        self.model_with_store(id, store)
    }

    /// A model of `id` with `store` (name, term; its symbols those of `id`'s path) evaluated.
    pub(super) fn model_with_store(
        &mut self,
        id: NodeId,
        store: Vec<(Rc<str>, Term)>,
    ) -> Result<NodeModel, NoModel> {
        let rv = self.tree.node(id).return_value().cloned();
        let output = self.output(id);
        let printed = output.iter().flat_map(|l| l.iter());
        let model = self.node_model(
            id,
            store.iter().map(|(_, t)| t).chain(rv.iter()).chain(printed),
        )?;
        Ok(self.evaluate(&model, &store, rv.as_ref(), &output))
    }

    /// A model of node `id`'s path condition that values the inputs and every symbol of the
    /// path condition and of `terms`; `Err`: why there is none (infeasible, the solver's or the leaf's
    /// `unknown` reason). (The one model query behind [`Engine::try_model`], `:` and `=`.)
    pub(crate) fn node_model<'a>(
        &mut self,
        id: NodeId,
        terms: impl Iterator<Item = &'a Term>,
    ) -> Result<Model, NoModel> {
        let node = self.tree.node(id);
        match node.kind {
            NodeKind::Leaf(Outcome::Infeasible) => return Err(NoModel::Infeasible),
            NodeKind::Leaf(Outcome::Unknown) => {
                let reason = node.unknown_reason().unwrap_or("unknown");
                return Err(NoModel::Unknown(Unknown::from(reason)));
            }
            _ => {}
        }
        let pc = self.path_condition(id);
        let mut syms: BTreeSet<Sym> = self.inputs.iter().cloned().collect();
        pc.iter().for_each(|t| t.vars(&mut syms));
        terms.for_each(|t| t.vars(&mut syms));
        let syms: Vec<Sym> = syms.into_iter().collect();
        self.solver.try_model(&pc, &syms).map_err(|r| match r {
            SatResult::Unknown(reason) => NoModel::from(reason),
            SatResult::Unsat | SatResult::Sat => NoModel::Infeasible,
        })
    }

    /// The inputs' values in `model` (an input it leaves free: its type's default).
    pub(crate) fn input_values(&self, model: &Model) -> BTreeMap<String, Value> {
        self.inputs
            .iter()
            .map(|s| {
                let v = model
                    .values
                    .get(s)
                    .cloned()
                    .unwrap_or_else(|| Value::default_of(s.sort.to_type()));
                (s.name.to_string(), v)
            })
            .collect()
    }

    pub(crate) fn evaluate(
        &self,
        model: &Model,
        store: &[(Rc<str>, Term)],
        rv: Option<&Term>,
        output: &[Rc<[Term]>],
    ) -> NodeModel {
        let inputs = self.input_values(model);
        let store = store
            .iter()
            .filter_map(|(k, t)| model.eval(t).map(|v| (k.to_string(), v)))
            .collect();
        let havoc = model
            .values
            .iter()
            .filter(|(s, _)| !self.input_names.contains(&*s.name))
            .map(|(s, v)| (s.name.to_string(), v.clone()))
            .collect();
        NodeModel {
            inputs,
            havoc,
            store,
            return_value: rv.and_then(|t| model.eval(t)),
            stdout: stdout_under(model, output),
        }
    }
}
