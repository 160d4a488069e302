//! Engine data → the protocol's plain data (strings in minipy syntax, Python literals).

use super::super::protocol::{Details, Kind, LeafKind, ModelInfo, NodeInfo, StatsInfo};
use crate::base::SourceMap;
use crate::engine::{Engine, LoopMode, Node, NodeId, NodeKind, NodeModel, Outcome};

/// Leaf summaries list at most this many variables.
const SUMMARY_VARS: usize = 4;

pub(super) fn kind(node: &Node) -> Kind {
    match node.kind {
        NodeKind::Open => Kind::Open,
        NodeKind::Inner => Kind::Inner,
        NodeKind::Leaf(o) => Kind::Leaf(LeafKind::of(o)),
    }
}

/// 1-based line of the statement a node is about to run (`None` at leaves).
pub(super) fn statement_line(engine: &Engine, source: &SourceMap, id: NodeId) -> Option<usize> {
    engine.tree().node(id).at.map(|s| source.line(s.start))
}

/// Does the node sit at an annotated loop where the user picks the transition?
pub(super) fn loop_choice(engine: &Engine, id: NodeId) -> bool {
    engine.loop_choice(id)
}

/// Step with a chosen loop transition.
pub(super) fn step_with(engine: &mut Engine, id: NodeId, mode: LoopMode) -> Vec<NodeId> {
    engine.step_with(id, mode)
}

pub(super) fn node_info(engine: &Engine, source: &SourceMap, id: NodeId) -> NodeInfo {
    let node = engine.tree().node(id);
    let line = engine.node_span(id).map(|s| source.line(s.start));
    let func = node.state.frames.last().and_then(|f| f.func.as_deref());
    NodeInfo {
        id: id.0,
        parent: node.parent.map(|p| p.0),
        kind: kind(node),
        branch: node.branch.as_ref().map(|b| b.to_string()),
        label: node.label.map(str::to_string),
        line,
        frames: node.state.frames.len(),
        func: func.map(str::to_string),
        summary: summary(engine, node, line),
        loop_choice: node.is_open() && loop_choice(engine, id),
    }
}

/// What a leaf says in the tree (empty for other nodes).
fn summary(engine: &Engine, node: &Node, line: Option<usize>) -> String {
    let Some(outcome) = node.outcome() else {
        return String::new();
    };
    match outcome {
        Outcome::Exception(class) => {
            let what = if node.invariant_failure {
                " (invariant)"
            } else {
                ""
            };
            match line {
                Some(l) => format!("{class} at line {l}{what}"),
                None => format!("{class}{what}"),
            }
        }
        Outcome::Unknown => format!(
            "unknown ({})",
            node.unknown_reason.as_deref().unwrap_or("solver")
        ),
        Outcome::Return => match &node.return_value {
            Some(rv) => format!("return {rv}"),
            None => "return".to_string(),
        },
        Outcome::Normal => {
            let store = engine.store(node.id);
            let mut parts: Vec<String> = store
                .iter()
                .take(SUMMARY_VARS)
                .map(|(k, v)| format!("{k} = {v}"))
                .collect();
            if store.len() > SUMMARY_VARS {
                parts.push("…".to_string());
            }
            if parts.is_empty() {
                "normal".to_string()
            } else {
                format!("normal  {}", parts.join(", "))
            }
        }
        o => o.name().to_string(),
    }
}

pub(super) fn stats(engine: &Engine) -> StatsInfo {
    let s = engine.stats();
    StatsInfo {
        nodes: s.nodes,
        open: s.open,
        leaves: s.leaves,
        exceptions: s.exceptions,
        bounds: s.bounds,
        solver_checks: s.solver.checks,
        solver_ms: s.solver.z3_time.as_millis() as u64,
    }
}

pub(super) fn details(engine: &Engine, source: &SourceMap, id: NodeId) -> Details {
    let node = engine.tree().node(id);
    let pairs = |v: Vec<(String, crate::term::Term)>| {
        v.into_iter()
            .map(|(k, t)| (k, t.to_string()))
            .collect::<Vec<_>>()
    };
    let note = match node.kind {
        NodeKind::Leaf(Outcome::Exception(class)) => Some(match node.exception_at {
            Some(s) if node.invariant_failure => {
                let (l, c) = source.line_col(s.start);
                format!(
                    "the invariant fails at line {l}, column {c}: {} ({class}; no `except` \
                     catches a broken invariant)",
                    source.snippet(s)
                )
            }
            Some(s) => {
                let (l, c) = source.line_col(s.start);
                format!(
                    "{class} raised at line {l}, column {c}: {}",
                    source.snippet(s)
                )
            }
            None => format!("{class} raised"),
        }),
        NodeKind::Leaf(Outcome::Unknown) => Some(format!(
            "the solver could not decide: {}",
            node.unknown_reason.as_deref().unwrap_or("unknown")
        )),
        NodeKind::Leaf(Outcome::Bound) => {
            Some("cut by --unroll or --recursion (a bound leaf)".to_string())
        }
        NodeKind::Leaf(Outcome::Return) => {
            node.return_value.as_ref().map(|rv| format!("returns {rv}"))
        }
        _ => None,
    };
    // The engine's label, whole (the tree row may cut it).
    let note = match (note, node.label) {
        (Some(n), Some(l)) => Some(format!("{l}\n{n}")),
        (None, Some(l)) => Some(l.to_string()),
        (n, None) => n,
    };
    // An exception leaf has left the calls it was raised in; its call stack pane shows
    // them as they were at the raise (the parent node's frames), like a traceback.
    let raised_in = Some(engine.raise_node(id))
        .filter(|&p| p != id && engine.tree().node(p).state.frames.len() > node.state.frames.len());
    let frames: Vec<(String, Vec<(String, String)>)> = engine
        .frame_locals(raised_in.unwrap_or(id))
        .into_iter()
        .map(|(f, vars)| (f, pairs(vars)))
        .collect();
    let note = match (note, raised_in) {
        (Some(n), Some(p)) => Some(format!(
            "{n}\ninside {}; the call stack shows the frames at the raise (node {})",
            frames.last().map_or("?", |(f, _)| f.as_str()),
            p.0
        )),
        (n, _) => n,
    };
    // A leaf cut inside a call (bound, unknown) still has its frames: the store pane shows
    // the innermost one, as the call stack does (other leaves have left every call).
    // So does a broken invariant (the path ends where it failed, nothing unwinds).
    let cut_in_call = (matches!(node.kind, NodeKind::Leaf(Outcome::Bound | Outcome::Unknown))
        || node.invariant_failure)
        && node.state.frames.last().is_some_and(|f| f.func.is_some());
    let store = match frames.last() {
        Some((_, vars)) if cut_in_call => vars.clone(),
        _ => pairs(engine.store(id)),
    };
    Details {
        id: id.0,
        pc: engine
            .path_condition(id)
            .iter()
            .map(|t| t.to_string())
            .collect(),
        store,
        frames,
        note,
    }
}

pub(super) fn model(m: NodeModel) -> ModelInfo {
    let lit = |v: &crate::concrete::Value| v.to_string();
    ModelInfo {
        inputs: m.inputs.iter().map(|(k, v)| (k.clone(), lit(v))).collect(),
        havoc: m.havoc.iter().map(|(k, v)| (k.clone(), lit(v))).collect(),
        store: m.store.iter().map(|(k, v)| (k.clone(), lit(v))).collect(),
        return_value: m.return_value.as_ref().map(lit),
    }
}
