//! The worker's side of "why" (`w`): explanations on demand (cancellable with Esc through
//! the engine's cancel flag).

use super::super::protocol::WhyInfo;
use crate::base::span::line_tag;
use crate::session::{NodeId, Session, WhyTarget};

/// Explain a leaf or a pruned branch (`Err`: nothing to explain there).
pub(super) fn explain(
    session: &mut Session,
    id: NodeId,
    pruned: Option<usize>,
) -> Result<WhyInfo, String> {
    let target = match pruned {
        None if session.explainable_leaf(id) => WhyTarget::Leaf,
        None => {
            return Err(format!(
                "node {} is not an infeasible or unknown leaf",
                id.0
            ))
        }
        Some(k) => WhyTarget::Pruned(k),
    };
    let why = session.why(id, target).ok_or_else(|| {
        format!(
            "node {} has no pruned branch {k}",
            id.0,
            k = pruned.unwrap_or(0)
        )
    })?;
    let pc_len = session.path_len(id);
    let mut core: Vec<usize> = why
        .core
        .iter()
        .map(|c| c.conjunct)
        .filter(|&k| k < pc_len)
        .collect();
    core.dedup();
    Ok(WhyInfo {
        summary: why.summary(),
        core,
        goal_in_core: why.core.iter().any(|c| c.goal),
        features: why
            .features
            .iter()
            .map(|f| format!("{} {}: {}", line_tag(f.line), f.kind, f.term_shown))
            .collect(),
    })
}
