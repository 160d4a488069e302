//! The worker's side of "why" (`w`, `p`): origins and pruned branches for the details,
//! explanations on demand (cancellable with Esc through the engine's cancel flag).

use super::super::protocol::{PrunedInfo, WhyInfo};
use crate::base::escape::escape_text;
use crate::base::span::line_tag;
use crate::engine::{NodeId, Tag};
use crate::session::{PrunedBranch, Session, WhyTarget};

/// The line of each path-condition conjunct, and the pruned alternatives of the step.
pub(super) fn origins_and_pruned(session: &Session, id: NodeId) -> (Vec<usize>, Vec<PrunedInfo>) {
    let origins = session.origins(id).into_iter().map(|o| o.line).collect();
    (origins, pruned(session, id))
}

/// The pruned alternatives of a stepped node's step (no solver call).
pub(super) fn pruned(session: &Session, id: NodeId) -> Vec<PrunedInfo> {
    session
        .pruned_branches(id)
        .into_iter()
        .map(|p| {
            let (line, transition) = raised_at(session, &p);
            PrunedInfo {
                branch: p.branch,
                line,
                transition,
            }
        })
        .collect()
}

/// A branch that would raise or fail (an exception, an assert, an invariant line — which
/// may be another line than the node's) is placed at its line and quotes it: "invariant
/// broken at column 19 of `invariant p(i)`", not "invariant broken at 31:19".
fn raised_at(session: &Session, p: &PrunedBranch) -> (usize, String) {
    let span = match &p.tag {
        Tag::Raise(_, s) | Tag::AssertFails(s) | Tag::InvariantFails(_, _, s) => *s,
        _ => return (p.line, p.transition.clone()),
    };
    let src = session.source();
    let (line, column) = src.line_col(span.start);
    let Some(what) = p.transition.strip_suffix(&format!(" at {line}:{column}")) else {
        return (p.line, p.transition.clone());
    };
    let text = escape_text(src.line_text(line).trim()).into_owned();
    (line, format!("{what} at column {column} of `{text}`"))
}

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
    let pc_len = session.engine().path_condition(id).len();
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
            .map(|f| format!("{} {}: {}", line_tag(f.line), f.kind, f.term))
            .collect(),
    })
}
