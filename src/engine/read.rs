//! What a node shows, read from its state without the solver: the path condition, the
//! visible store, the printed lines, the call stack with each frame's locals; the tree's
//! counters ([`Engine::stats`]); where a node runs or raised.

use std::rc::Rc;

use super::{fold, Engine, NodeId, NodeKind, Outcome, Stats};
use crate::base::Span;
use crate::term::Term;
use crate::transform::ir;

impl Engine {
    /// The path condition at a node, oldest conjunct first.
    pub fn path_condition(&self, id: NodeId) -> Vec<Term> {
        self.tree.node(id).state.pc.to_vec()
    }

    /// The visible store at a node: the innermost frame's variables (module variables in
    /// module code), without IR temporaries. At a leaf that ended its path: the module's
    /// variables, wherever the path ended (DESIGN §3; a `halt` inside a function leaves its
    /// frame on the stack). A leaf that cut its path inside a call (`bound`, `unknown`) is
    /// still in that call, like an open node there: the call's locals.
    pub fn store(&self, id: NodeId) -> Vec<(String, Term)> {
        self.store_entries(id)
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    /// [`Engine::store`] without copies: names in order, values.
    pub fn store_entries(&self, id: NodeId) -> impl Iterator<Item = (&Rc<str>, &Term)> {
        let node = self.tree.node(id);
        let state = &node.state;
        let cut = matches!(node.kind, NodeKind::Leaf(Outcome::Bound | Outcome::Unknown));
        let env = match state.frames.last() {
            Some(f) if f.func.is_some() && (cut || !node.is_leaf()) => &f.locals,
            _ => &state.globals,
        };
        env.iter().filter(|(k, _)| !ir::is_temp(k))
    }

    /// What the path printed before node `id`, line by line (each line its items).
    pub fn output(&self, id: NodeId) -> Vec<Rc<[Term]>> {
        self.tree.node(id).state.output.lines()
    }

    /// The call stack at a node, outermost first: `<module>`, then function names.
    pub fn frames(&self, id: NodeId) -> Vec<String> {
        let state = self.frames_state(id);
        state
            .frames
            .iter()
            .map(|f| f.func.as_deref().unwrap_or("<module>").to_string())
            .collect()
    }

    /// Every frame with its visible locals (for the call-stack view).
    pub fn frame_locals(&self, id: NodeId) -> Vec<(String, Vec<(String, Term)>)> {
        let state = self.frames_state(id);
        // A recursion fold's frame stands for κ + 1 frames (`f ×κ1`, issue 27).
        let folded = fold::recursion::folded_frames(state);
        state
            .frames
            .iter()
            .zip(folded)
            .map(|(f, folded)| {
                let env = if f.func.is_some() {
                    &f.locals
                } else {
                    &state.globals
                };
                let vars = env
                    .iter()
                    .filter(|(k, _)| !ir::is_temp(k))
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect();
                let name = f.func.as_deref().unwrap_or("<module>");
                let name = match folded {
                    Some(k) => format!("{name} ×{k}"),
                    None => name.to_string(),
                };
                (name, vars)
            })
            .collect()
    }

    /// Node and solver counters.
    pub fn stats(&self) -> Stats {
        let mut s = Stats {
            nodes: self.tree.len(),
            solver: self.solver.stats(),
            folds: self.fold_count(),
            ..Stats::default()
        };
        for n in self.tree.nodes() {
            match n.kind {
                NodeKind::Open => s.open += 1,
                NodeKind::Leaf(o) => {
                    s.leaves += 1;
                    match o {
                        Outcome::Exception(_) => s.exceptions += 1,
                        Outcome::Bound => s.bounds += 1,
                        _ => {}
                    }
                }
                NodeKind::Inner => {}
            }
        }
        s
    }

    /// The node whose call stack was active when `id`'s exception was raised: an exception
    /// leaf has left the frames it was raised in, its parent (whose step raised it) has not.
    /// Any other node, or an exception leaf a fold's exit raised (it keeps the state at
    /// the raise: [`Engine::frames_state`]): itself.
    pub fn raise_node(&self, id: NodeId) -> NodeId {
        let n = self.tree.node(id);
        if self.fold_exit(id).is_some_and(|e| e.raised.is_some()) {
            return id;
        }
        match (n.kind, n.parent) {
            (NodeKind::Leaf(Outcome::Exception(_)), Some(p)) => p,
            _ => id,
        }
    }

    /// The source span a node is about to run, or where its exception was raised.
    pub fn node_span(&self, id: NodeId) -> Option<Span> {
        let n = self.tree.node(id);
        n.at().or(n.exception_at())
    }
}
