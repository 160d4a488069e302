//! `check --calls contract` (issue 28): leaves below a use of a contract are abstract (the
//! call's result is a fresh symbol `f@n` constrained by the postcondition), and a concrete
//! run inlines the call, so the two are compared through the calls' real results:
//!
//! - the concrete interpreter records every call the tree used a contract for, with how
//!   it ended ([`RunResult::contract_calls`]); each use's `f@n` is bound to the result
//!   of the matching call, so a path condition (and a leaf's values) are evaluated
//!   exactly, as for a program without contracts: **exhaustiveness is exact**;
//! - a run in which a call with a true precondition raised, or returned a value its
//!   postcondition rejects, broke the contract: the tree, which trusts the contract,
//!   cannot show that failure, so it is reported ([`Report::broken`]), never compared;
//! - **precision** of an abstract leaf: its model gives the calls' results (`f@n`); when
//!   the body's real results are the same, the run must follow the leaf and is compared
//!   with it exactly; when they differ, the contract lets results the body does not
//!   return ("the contract of f may be too weak"): no verdict on that leaf, but the run
//!   is checked against the whole tree as a random input is (a leaf that does not
//!   represent it is a real disagreement, reported).
//!
//! [`RunResult::contract_calls`]: crate::session::program::RunResult::contract_calls
//! [`Report::broken`]: super::Report::broken

use std::collections::BTreeMap;

use super::{
    candidates, concrete_behaviour, kappa_limit, leaf_behaviour, Behaviour, Counterexample,
    LeafCheck, NotReplayed,
};
use crate::session::program::{CallEnd, ContractCall};
use crate::session::{Model, NodeId, Outcome, Replay, Session, Value};

/// What a run's recorded calls of contracted functions mean for the comparison.
pub(super) enum Calls {
    /// Every call kept its contract (returned, or its precondition was false).
    Kept,
    /// The first call that broke its function's contract (raised with a true precondition).
    Broken(String),
    /// A call ended otherwise (a `halt` in it): no verdict.
    Other,
}

pub(super) fn classify(calls: &[ContractCall]) -> Calls {
    for c in calls {
        match c.end {
            CallEnd::Raised => return Calls::Broken(c.function.clone()),
            CallEnd::Other => return Calls::Other,
            CallEnd::Returned(_) | CallEnd::PreconditionFailed => {}
        }
    }
    Calls::Kept
}

/// The report of a run that broke the contract of `function`.
pub(super) fn broken(
    function: String,
    inputs: &BTreeMap<String, Value>,
    concrete: &Behaviour,
    leaf: Option<NodeId>,
) -> (String, Counterexample) {
    (
        function,
        Counterexample {
            inputs: inputs.clone(),
            concrete: concrete.clone(),
            symbolic: None,
            leaf,
        },
    )
}

/// Precision of the abstract leaf `leaf` whose model was replayed: `Ok` with the inputs'
/// model and the calls' real results when they are the model's (compare exactly), else
/// the verdict (see the module docs).
pub(super) fn abstract_leaf(
    session: &Session,
    leaf: NodeId,
    inputs: &BTreeMap<String, Value>,
    replay: &Replay,
    is_entry: bool,
) -> Result<Model, LeafCheck> {
    let run = &replay.run;
    if run.outcome == Outcome::StepLimit {
        return Err(LeafCheck::Unfinished);
    }
    let concrete = concrete_behaviour(run, is_entry);
    match classify(&run.contract_calls) {
        Calls::Kept => {}
        Calls::Broken(f) => {
            let (f, c) = broken(f, inputs, &concrete, Some(leaf));
            return Err(LeafCheck::Broken(f, Box::new(c)));
        }
        Calls::Other => return Err(LeafCheck::RunFailed),
    }
    let model = session.input_model(inputs);
    let calls = &run.contract_calls;
    if let (Some(bound), Some(claimed)) = (
        session.with_contract_results(leaf, &model, calls),
        replay.model.as_ref().map(|m| &m.havoc),
    ) {
        if session
            .contract_results_differ(leaf, claimed, &bound)
            .is_empty()
        {
            return Ok(bound);
        }
    }
    // Another path may be taken: the run against the whole tree, as a random input.
    let all = candidates(session, |_| true);
    let mut hits = session.holding_run(&all, &model, kappa_limit(run), Some(calls));
    if hits.all.is_empty() {
        if hits.any_undecided {
            return Err(LeafCheck::Unevaluated);
        }
        return Err(LeafCheck::Wrong(Box::new(Counterexample {
            inputs: inputs.clone(),
            concrete,
            symbolic: None,
            leaf: None,
        })));
    }
    let (reached, m) = hits.all.swap_remove(0);
    let Some(symbolic) = leaf_behaviour(session, reached, &m, is_entry) else {
        return Err(LeafCheck::Unevaluated);
    };
    if symbolic == concrete {
        return Err(LeafCheck::NotReproduced(NotReplayed::ContractTooWeak));
    }
    Err(LeafCheck::Wrong(Box::new(Counterexample {
        inputs: inputs.clone(),
        concrete,
        symbolic: Some(symbolic),
        leaf: Some(reached),
    })))
}
