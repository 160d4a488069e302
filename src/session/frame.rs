//! The frame a debugger's store pane shows at a node (at an exception leaf raised inside
//! calls: the raising frame, as it was at the raise; [`Session::frames_node`]): its
//! variables, a model that evaluates them, and the folds on the node's path.

use super::Session;
use crate::engine::{NoModel, NodeId, NodeModel};
use crate::term::display_name;

/// A fold's parameter on the path to a node (issue 15): κ (or a two-parameter fold's λ)
/// and its loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathFold {
    /// The fold node.
    pub fold: NodeId,
    /// The parameter's symbol, as a model's `havoc` names it.
    pub symbol: String,
    /// The parameter as people read it (`κ1`).
    pub kappa: String,
    /// The line of the folded loop.
    pub loop_line: usize,
    /// The fold's symbols that are no parameter (a two-parameter fold's prefix counts ω,
    /// as a model's `havoc` names them): not havoc'd values either.
    pub counts: Vec<String>,
}

impl Session {
    /// A model (concrete inputs) that reaches node `id`, with the store of the frame its
    /// store pane shows evaluated under it (`Err`: why there is none — the path is
    /// infeasible, or the solver's reason such as `timeout`). Esc interrupts it.
    pub fn model_in_frame(&mut self, id: NodeId) -> Result<NodeModel, NoModel> {
        let at = self.frames_node(id);
        self.engine.try_model_in_frame(id, at)
    }

    /// The variables of the frame the store pane shows at `id`: name, symbolic value.
    pub fn frame_store_shown(&self, id: NodeId) -> Vec<(String, String)> {
        self.engine
            .frame_store(self.frames_node(id))
            .into_iter()
            .map(|(name, t)| (name, super::term_shown(&t)))
            .collect()
    }

    /// Does the store pane at `id` show module code (no function frame)?
    pub fn frame_is_module(&self, id: NodeId) -> bool {
        self.engine.frames(self.frames_node(id)).len() <= 1
    }

    /// The folds on the path from the root to `id`, outermost first: one entry per
    /// parameter (a two-parameter fold's κ, then its λ; issue 27).
    pub fn path_folds(&self, id: NodeId) -> Vec<PathFold> {
        let engine = &self.engine;
        engine
            .folds_on_path(id)
            .into_iter()
            .filter_map(|(node, kappa)| {
                let f = engine.fold_at(node)?;
                let loop_line = self.source().line(f.template.span.start);
                let counts: Vec<String> =
                    f.multi.iter().map(|p| p.omega.name.to_string()).collect();
                let lambda = f.multi.as_ref().map(|p| p.lambda.clone());
                Some(std::iter::once(kappa).chain(lambda).map(move |k| PathFold {
                    fold: node,
                    symbol: k.name.to_string(),
                    kappa: display_name(&k.name).into_owned(),
                    loop_line,
                    counts: counts.clone(),
                }))
            })
            .flatten()
            .collect()
    }
}
