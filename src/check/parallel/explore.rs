//! The workers' exploration (see [`super`]): the top breadth-first, a frontier node's
//! subtree depth-first.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
        let stepped = session.step(id, None);
        // (a call close to its time limit: stop everyone now, not after the top)
        super::close_call(session, shared)?;
        match stepped {
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
///
/// A step that took half the solver's time limit or more (`close`) may hold a call close
/// to it (`SolverStats::close_calls`, which the callback cannot read): every worker stops
/// there and the check is re-done on one thread, rather than after the whole subtree (a
/// nonlinear nested loop, each of whose calls may time out, ran past 600 s with `--jobs
/// 2` where `--jobs 1` took 300 s).
pub(super) fn explore_subtree(
    session: &mut Session,
    f: NodeId,
    shared: &Shared,
    max_nodes: usize,
    engine_cancel: &Arc<AtomicBool>,
) -> Result<(), Halt> {
    let top = session.tree().len();
    let last = Cell::new(top);
    let close = session
        .config()
        .timeout_ms
        .map(|ms| Duration::from_millis(ms) / 2);
    let stepped = Cell::new(Instant::now());
    let slow = Cell::new(false);
    // (the nodes of all workers together reached --max-nodes)
    let full = Cell::new(false);
    let progress = |len: usize| {
        let now = Instant::now();
        if close.is_some_and(|c| now - stepped.replace(now) >= c) {
            slow.set(true);
            shared.abort.store(true, Ordering::Relaxed);
        }
        let delta = len - last.replace(len);
        let below = shared.below.fetch_add(delta, Ordering::Relaxed) + delta;
        if below + top >= max_nodes {
            full.set(true);
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
    super::close_call(session, shared)?;
    if slow.get() {
        return Err(Halt::Redo(Redo::CloseCall));
    }
    match ran.ended {
        Ended::Done if !shared.stopped() => Ok(()),
        Ended::NodeLimit => {
            shared.abort.store(true, Ordering::Relaxed);
            Err(Halt::Redo(Redo::NodeLimit))
        }
        _ if shared.cancel.load(Ordering::Relaxed) => Err(Halt::Cancelled),
        _ if full.get() => Err(Halt::Redo(Redo::NodeLimit)),
        // (stopped by another worker, which reports why)
        _ => Err(stopped(shared)),
    }
}
