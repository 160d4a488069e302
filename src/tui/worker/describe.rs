//! A node's model → the protocol's plain data (Python literals).

use super::super::protocol::ModelInfo;
use crate::session::{NodeId, NodeModel, Session, Value};

/// The model as text; each fold's κ on the path to `id` apart from the havoc'd values,
/// named as people read it (`κ1`) with its loop's line.
pub(super) fn model(session: &Session, id: NodeId, m: NodeModel) -> ModelInfo {
    let lit = |v: &Value| v.to_string();
    let mut kappas = Vec::new();
    let mut fold_syms = std::collections::BTreeSet::new();
    for f in session.path_folds(id) {
        if let Some(v) = m.havoc.get(&f.symbol) {
            kappas.push((f.kappa, lit(v), f.loop_line));
        }
        fold_syms.insert(f.symbol);
        fold_syms.extend(f.counts);
    }
    ModelInfo {
        inputs: m.inputs.iter().map(|(k, v)| (k.clone(), lit(v))).collect(),
        havoc: m
            .havoc
            .iter()
            .filter(|(k, _)| !fold_syms.contains(*k))
            .map(|(k, v)| (k.clone(), lit(v)))
            .collect(),
        kappas,
        store: m.store.iter().map(|(k, v)| (k.clone(), lit(v))).collect(),
        return_value: m.return_value.as_ref().map(lit),
        stdout: m
            .stdout
            .as_deref()
            .map(|text| text.lines().map(str::to_string).collect())
            .unwrap_or_default(),
    }
}
