//! The workers' exploration (see [`super`]): the top breadth-first, a frontier node's
//! subtree depth-first.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::{Halt, Redo, Shared, FRONTIER_PER_WORKER};
use crate::check::merge::TopShape;
use crate::session::{Ended, Limits, NodeId, Outcome, Policy, Session, Stepped};

/// A solver `unknown` leaf among the ids `range` (an engine limit's is deterministic).
pub(super) fn has_solver_unknown(session: &Session, range: std::ops::Range<u32>) -> bool {
    range.map(NodeId).any(|id| {
        let n = session.tree().node(id);
        n.outcome() == Some(Outcome::Unknown) && !session.engine_limit(id)
    })
}

/// Explore breadth-first from the root until the frontier is wide enough or the tree
/// ends; the top's shape.
pub(super) fn explore_top(
    session: &mut Session,
    shared: &Shared,
    workers: usize,
    max_nodes: usize,
) -> Result<TopShape, Halt> {
    let target = FRONTIER_PER_WORKER * workers;
    let mut queue = std::collections::VecDeque::from([session.tree().root()]);
    while queue.len() < target {
        let Some(id) = queue.pop_front() else { break };
        if shared.stopped() {
            return Err(if shared.cancel.load(Ordering::Relaxed) {
                Halt::Cancelled
            } else {
                Halt::Stopped
            });
        }
        if session.tree().len() >= max_nodes {
            shared.abort.store(true, Ordering::Relaxed);
            return Err(Halt::Redo(Redo::NodeLimit));
        }
        match session.step(id, None) {
            Stepped::Children(children) => queue.extend(
                children
                    .into_iter()
                    .filter(|&c| session.tree().node(c).is_open()),
            ),
            Stepped::Cancelled => return Err(stopped(shared)),
            Stepped::NoSuccessors | Stepped::Leaf | Stepped::AlreadyStepped => {}
        }
    }
    let len = session.tree().len() as u32;
    if has_solver_unknown(session, 0..len) {
        shared.abort.store(true, Ordering::Relaxed);
        return Err(Halt::Redo(Redo::Unknown));
    }
    let tree = session.tree();
    Ok(TopShape {
        children: tree
            .nodes()
            .map(|n| n.children.iter().map(|c| c.0).collect())
            .collect(),
        frontier: queue.into_iter().map(|id| id.0).collect(),
    })
}

pub(super) fn stopped(shared: &Shared) -> Halt {
    if shared.cancel.load(Ordering::Relaxed) {
        Halt::Cancelled
    } else {
        Halt::Stopped
    }
}

/// Explore a frontier node's subtree depth-first, as the sequential run does, counting
/// its nodes against `--max-nodes` with the other workers'.
pub(super) fn explore_subtree(
    session: &mut Session,
    f: NodeId,
    shared: &Shared,
    max_nodes: usize,
    engine_cancel: &Arc<AtomicBool>,
) -> Result<(), Halt> {
    let top = session.tree().len();
    let last = Cell::new(top);
    let progress = |len: usize| {
        let delta = len - last.replace(len);
        let below = shared.below.fetch_add(delta, Ordering::Relaxed) + delta;
        if below + top >= max_nodes {
            shared.abort.store(true, Ordering::Relaxed);
        }
        if shared.stopped() {
            engine_cancel.store(true, Ordering::Relaxed);
        }
    };
    let limits = Limits {
        max_nodes: Some(max_nodes),
        ..Limits::default()
    };
    let ran = session.run(f, Policy::Subtree, limits, &progress);
    match ran.ended {
        Ended::Done if !shared.stopped() => Ok(()),
        Ended::NodeLimit => {
            shared.abort.store(true, Ordering::Relaxed);
            Err(Halt::Redo(Redo::NodeLimit))
        }
        _ if shared.cancel.load(Ordering::Relaxed) => Err(Halt::Cancelled),
        _ if shared.abort.load(Ordering::Relaxed) => Err(Halt::Redo(Redo::NodeLimit)),
        _ => Err(stopped(shared)),
    }
}
