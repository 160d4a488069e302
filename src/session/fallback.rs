//! Fold leaves that fell back to unrolling (issue 31), for every client: the fallback
//! node's label ("fold leaf [3] undecided: unrolled κ1 = 0..3 instead"), the undecided
//! leaf's pointer to it, and `run`'s summary line.

use super::Session;
use crate::engine::fold::FoldInfo;
use crate::engine::NodeId;
use crate::term::display_name;

/// The iterations a fallback unrolls, as the fold counts them: `κ1`, or `κ1 + λ1` for a
/// two-parameter fold (both paths' iterations).
fn iterations(fold: Option<&FoldInfo>) -> String {
    let Some(f) = fold else {
        return "κ".into();
    };
    let kappa = display_name(&f.kappa.name);
    match &f.multi {
        Some(m) => format!("{kappa} + {}", display_name(&m.lambda.name)),
        None => kappa.to_string(),
    }
}

impl Session {
    /// At a fold's fallback node: "fold leaf [3] undecided: unrolled κ1 = 0..3 instead";
    /// at an undecided leaf below a fold: "fold leaf undecided: unrolled instead at [4]".
    pub fn fallback_label(&self, id: NodeId) -> Option<String> {
        let e = &self.engine;
        if let Some(fold) = e.fallback_of(id) {
            let leaves = e
                .fallback_covers(id)
                .iter()
                .map(|l| format!("[{}]", l.0))
                .collect::<Vec<_>>()
                .join(", ");
            let kappa = iterations(e.fold_at(fold));
            let unroll = e.config().unroll;
            let leaf = if e.fallback_covers(id).len() == 1 {
                "leaf"
            } else {
                "leaves"
            };
            return Some(format!(
                "fold {leaf} {leaves} undecided: unrolled {kappa} = 0..{unroll} instead"
            ));
        }
        let fallback = e.fallback_for(id)?;
        Some(format!(
            "fold leaf undecided: unrolled instead at [{}]",
            fallback.0
        ))
    }

    /// `run --json`'s `fallback`: "unrolled" at a fold's fallback node, else `None`.
    pub fn fallback_json(&self, id: NodeId) -> Option<&'static str> {
        self.engine.fallback_of(id).map(|_| "unrolled")
    }

    /// `run --json`'s `fallback_node`: at an undecided leaf below a fold, the fallback
    /// node that unrolls the loop instead.
    pub fn fallback_node(&self, id: NodeId) -> Option<NodeId> {
        self.engine.fallback_for(id)
    }

    /// Is `id` an undecided leaf whose paths a fallback explores (its inputs end at the
    /// fallback's leaves instead)?
    pub fn fell_back(&self, id: NodeId) -> bool {
        self.engine.fallback_for(id).is_some()
    }

    /// `run`'s summary line: "1 fold leaf undecided: loop at line 8 unrolled instead
    /// (κ1 = 0..3, node [4])", or `None` when no fold fell back.
    pub fn fallback_warning(&self) -> Option<String> {
        let e = &self.engine;
        let nodes: Vec<NodeId> = self
            .tree()
            .nodes()
            .filter(|n| e.fallback_of(n.id).is_some())
            .map(|n| n.id)
            .collect();
        if nodes.is_empty() {
            return None;
        }
        let leaves: usize = nodes.iter().map(|&n| e.fallback_covers(n).len()).sum();
        let parts: Vec<String> = nodes
            .iter()
            .map(|&n| {
                let line = self
                    .tree()
                    .node(n)
                    .at()
                    .map_or(0, |s| self.source().line(s.start));
                let fold = e.fallback_of(n).and_then(|f| e.fold_at(f));
                let kappa = iterations(fold);
                format!(
                    "the fold at line {line} unrolled instead ({kappa} = 0..{}, node [{}])",
                    e.config().unroll,
                    n.0
                )
            })
            .collect();
        let what = if leaves == 1 { "leaf" } else { "leaves" };
        Some(format!(
            "{leaves} fold {what} undecided: {}",
            parts.join("; ")
        ))
    }
}
