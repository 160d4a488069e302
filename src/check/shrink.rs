//! Minimal counterexamples to exhaustiveness (issue 23 item 19). The exhaustiveness test
//! finds a random input (`idx = 201, x = 185`); when it ends on a leaf that represents no
//! concrete result (a `bound` leaf past `--unroll`, an `unknown` leaf), every input on
//! that leaf's path fails the same way, so the leaf's minimal model (what `run
//! --counterexamples` prints, see `solver/minimize.rs`) is the one to show
//! (`idx = 0, x = -2`).
//!
//! The leaf is found again in a fresh session by following the input's path from the
//! root (a step per node on the path, not the whole tree), so `check --jobs N`, whose
//! tree is spread over workers, minimises exactly as `--jobs 1` does.

use std::collections::BTreeMap;

use super::{holding, input_run, leaf_behaviour, Counterexample, InputRun};
use crate::session::program::ConcreteConfig;
use crate::session::{Model, NodeId, Outcome, Session, Value};

/// The minimisation budget when the solver has no time limit (`--timeout-ms 0`).
const HANG_GUARD_MS: u64 = 60_000;

/// The counterexample of `found`'s leaf's minimal model, found in `fresh` (an unexplored
/// session of the same program and options), or `None` to keep `found`: its path ends
/// elsewhere than in a `bound` or `unknown` leaf, or the minimal model is `found` itself.
///
/// The model is minimised within the time limit of one solver call (a hang guard), not
/// the 250 ms default, which a loaded machine reaches: `check` printed `t = (0, 9, 9, 9,
/// 9)` on one thread and `t = (0, 1, 1, 1, 1)` with `--jobs 2` (issue 31).
pub fn minimise(fresh: &mut Session, found: &Counterexample) -> Option<Counterexample> {
    let outcome = found.symbolic.as_ref()?.outcome?;
    if !matches!(outcome, Outcome::Bound | Outcome::Unknown) {
        return None;
    }
    let limit = fresh.config().timeout_ms.unwrap_or(HANG_GUARD_MS);
    fresh.set_minimize_budget(std::time::Duration::from_millis(limit));
    let leaf = follow(fresh, &found.inputs)?;
    if fresh.tree().node(leaf).outcome() != Some(outcome) {
        return None;
    }
    let replay = fresh.replay(leaf, None, &ConcreteConfig::default()).ok()?;
    let inputs = replay.inputs;
    if inputs == found.inputs {
        return None;
    }
    let InputRun::Ran(concrete, limit) = input_run(fresh, &inputs) else {
        return None;
    };
    let model = fresh.input_model(&inputs);
    let model = fresh.with_fold_params(leaf, &model, limit)?;
    let symbolic = leaf_behaviour(fresh, leaf, &model, fresh.entry().is_some())?;
    Some(Counterexample {
        inputs,
        concrete,
        symbolic: Some(symbolic),
        leaf: found.leaf,
    })
}

/// The leaf whose path `inputs` take, stepping from the root of `session` along it.
fn follow(session: &mut Session, inputs: &BTreeMap<String, Value>) -> Option<NodeId> {
    let InputRun::Ran(_, limit) = input_run(session, inputs) else {
        return None;
    };
    let model: Model = session.input_model(inputs);
    let mut id = session.tree().root();
    loop {
        if session.tree().node(id).is_leaf() {
            return Some(id);
        }
        if session.tree().node(id).is_open() {
            session.step(id, None);
            if session.tree().node(id).is_open() {
                // (the step was cut short: cancelled)
                return None;
            }
        }
        let children: Vec<_> = session
            .tree()
            .node(id)
            .children
            .iter()
            .map(|&c| session.candidate(c))
            .collect();
        id = holding(session, &children, &model, limit).all.first()?.0;
    }
}
