//! Engine data → the protocol's plain data (strings in minipy syntax, Python literals).

use super::super::protocol::{Details, FoldMark, Kind, ModelInfo, NodeInfo, StatsInfo};
use crate::engine::{NodeId, NodeKind, NodeModel, Outcome};
use crate::session::{Form, Session};
use crate::term::display_name;

pub(super) fn kind(kind: NodeKind) -> Kind {
    match kind {
        NodeKind::Open => Kind::Open,
        NodeKind::Inner => Kind::Inner,
        NodeKind::Leaf(o) => Kind::Leaf(o),
    }
}

pub(super) fn node_info(session: &Session, id: NodeId) -> NodeInfo {
    let view = session.view(id);
    let branch = session.branch_shown_as(id);
    NodeInfo {
        id: id.0,
        parent: view.parent.map(|p| p.0),
        kind: kind(view.kind),
        branch_implied: branch.as_ref().is_some_and(|b| b.implied),
        branch: branch.map(|b| b.text),
        label: session
            .fold_label(id)
            .or_else(|| view.note().map(str::to_string)),
        line: view.place,
        frames: view.frames,
        summary: view.text(Form::Row),
        func: view.func,
        // Whether the node was sent open or stepped (a replayed session steps before it
        // sends): the same info either way.
        loop_choice: session.engine().at_annotated_loop(id),
        fold: FoldMark {
            loop_head: session.at_loop_head(id),
            fold_node: session.engine().fold_at(id).is_some(),
            kappa: session.fold_param_name(id),
        },
    }
}

pub(super) fn stats(session: &Session) -> StatsInfo {
    let s = session.engine().stats();
    let cuts = session.cuts();
    StatsInfo {
        cut_unroll: cuts.unroll,
        cut_recursion: cuts.recursion,
        cut_recursion_error: cuts.recursion_error,
        nodes: s.nodes,
        open: s.open,
        leaves: s.leaves,
        exceptions: s.exceptions,
        bounds: s.bounds,
        solver_checks: s.solver.checks,
        solver_ms: s.solver.z3_time.as_millis() as u64,
    }
}

pub(super) fn details(session: &Session, id: NodeId) -> Details {
    let (engine, source) = (session.engine(), session.source());
    let node = engine.tree().node(id);
    // (names in natural order: a2 before a10)
    let pairs = |v: Vec<(String, crate::term::Term)>| {
        let mut v: Vec<_> = v.into_iter().map(|(k, t)| (k, t.to_string())).collect();
        crate::tui::natural::sort(&mut v);
        v
    };
    let note = match node.kind {
        NodeKind::Leaf(Outcome::Exception(class)) => Some(match node.exception_at() {
            Some(s) if node.invariant_failure() => {
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
                    "{class} raised at {}, column {c}: {}",
                    crate::base::span::line_name(l),
                    source.snippet(s)
                )
            }
            None => format!("{class} raised"),
        }),
        NodeKind::Leaf(Outcome::Unknown) => Some(format!(
            "the solver could not decide: {}",
            node.unknown_reason().unwrap_or("unknown")
        )),
        NodeKind::Leaf(Outcome::Bound) => {
            Some("cut by --unroll or --recursion (a bound leaf)".to_string())
        }
        NodeKind::Leaf(Outcome::Return) => node.return_value().map(|rv| format!("returns {rv}")),
        _ => session.caught_text(id),
    };
    // The engine's label, whole (the tree row may cut it).
    let note = match (note, node.label()) {
        (Some(n), Some(l)) => Some(format!("{l}\n{n}")),
        (None, Some(l)) => Some(l.to_string()),
        (n, None) => n,
    };
    // An exception leaf has left the calls it was raised in; its call stack pane shows
    // them as they were at the raise (the parent node's frames), like a traceback.
    let raised_in = Some(session.frames_node(id)).filter(|&p| p != id);
    let frames: Vec<(String, Vec<(String, String)>)> = engine
        .frame_locals(raised_in.unwrap_or(id))
        .into_iter()
        .map(|(f, vars)| (f, pairs(vars)))
        .collect();
    // Where each frame is: the innermost at the node's line, a caller at the call of the
    // frame above it.
    let at = raised_in.unwrap_or(id);
    let stack: Vec<_> = engine
        .tree()
        .node(at)
        .state
        .frames
        .iter()
        .cloned()
        .collect();
    let mut frame_lines: Vec<Option<usize>> = (0..stack.len())
        .map(|k| {
            stack
                .get(k + 1)
                .and_then(|f| f.call_site)
                .map(|s| source.line(s.start))
        })
        .collect();
    if let Some(last) = frame_lines.last_mut() {
        *last = session.node_line(at);
    }
    let note = match (note, raised_in) {
        (Some(n), Some(p)) => Some(format!(
            "{n}\ninside {}; the call stack and the store show the frames at the raise \
             (node {})",
            frames.last().map_or("?", |(f, _)| f.as_str()),
            p.0
        )),
        (n, _) => n,
    };
    // The store pane shows the innermost frame the call stack shows (at an exception leaf
    // raised inside calls: the raising frame, as it was at the raise).
    let store = frames
        .last()
        .map(|(_, vars)| vars.clone())
        .unwrap_or_default();
    let (origins, pruned) = super::why::origins_and_pruned(session, id);
    let shown = session.path_shown(id);
    Details {
        id: id.0,
        pc_implied: shown.iter().map(|s| s.implied).collect(),
        pc: shown.into_iter().map(|s| s.text).collect(),
        store,
        frames,
        frame_lines,
        note,
        origins,
        pruned,
    }
}

/// The model as text; each fold's κ on the path to `id` apart from the havoc'd values,
/// named as people read it (`κ1`) with its loop's line.
pub(super) fn model(session: &Session, id: NodeId, m: NodeModel) -> ModelInfo {
    let lit = |v: &crate::concrete::Value| v.to_string();
    let engine = session.engine();
    let mut kappas = Vec::new();
    let mut fold_syms = std::collections::BTreeSet::new();
    for (node, kappa) in engine.folds_on_path(id) {
        fold_syms.insert(kappa.name.to_string());
        let (Some(v), Some(f)) = (m.havoc.get(&*kappa.name), engine.fold_at(node)) else {
            continue;
        };
        let line = session.source().line(f.template.span.start);
        kappas.push((display_name(&kappa.name).into_owned(), lit(v), line));
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
    }
}
