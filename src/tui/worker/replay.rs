//! The replay pane: [`Session::replay`] (the node's model run in the concrete interpreter
//! and checked against the node) as the protocol's plain data. Every variable of the
//! node's store is shown three ways: its symbolic value, its value at this node under the
//! model, and its value at the end of the concrete run.

use super::super::protocol::{ReplayInfo, ReplayVar};
use crate::base::SourceMap;
use crate::session::{
    outcome_text, NoModel, NodeId, Outcome, ReplayError, RunConfig, RunResult, Session, Value,
    Verdict,
};

pub(super) fn replay(session: &mut Session, id: NodeId) -> Result<ReplayInfo, String> {
    let no_model = || "no model: the path is infeasible or the solver could not decide";
    // The node's model, with the store pane's frame evaluated (at an exception leaf raised
    // inside calls: the raising frame), then its inputs run.
    let model = session.model_in_frame(id).map_err(|why| match why {
        NoModel::TooLarge(_) => format!("not replayed: {why}"),
        _ => no_model().to_string(),
    })?;
    let r = session
        .replay(id, Some(&model.inputs), &RunConfig::default())
        .map_err(|e| match e {
            ReplayError::NoModel(why @ NoModel::TooLarge(_)) => format!("not replayed: {why}"),
            ReplayError::NoModel(_) => no_model().to_string(),
            ReplayError::Run(message) => format!("the concrete run failed: {message}"),
        })?;
    let concrete_outcome = describe_run(&r.run, session.source());
    let verdict = match &r.verdict {
        Verdict::LeavesPath { index, conjunct } => format!(
            "does NOT follow this path: conjunct {index} `{conjunct}` is False for these inputs"
        ),
        Verdict::EndsOtherwise(o) => format!(
            "does NOT follow this path: the leaf is {} but the run ends {concrete_outcome}",
            leaf_text(*o)
        ),
        Verdict::ContractTooWeak(fs) => {
            let names: Vec<String> = fs.iter().map(|f| format!("the contract of {f}")).collect();
            format!(
                "not reproduced: {} may be too weak (with the results the calls really return, \
                 these inputs take another path; the run ends {concrete_outcome})",
                names.join(" or ")
            )
        }
        Verdict::Follows => {
            let mut v = match r.checked {
                0 => "follows this path: no condition to check".to_string(),
                1 => "follows this path: its 1 checked conjunct holds".to_string(),
                n => format!("follows this path: all {n} checked conjuncts hold"),
            };
            if r.undetermined > 0 {
                // (a fold's κ is checked: κ-search gives the run's count; only when it
                // fails do conjuncts about κ stay unchecked)
                let what = if r.kappas.is_empty() || r.kappas_found {
                    "havoc'd values"
                } else {
                    "a κ whose iteration count this run's κ-search did not find"
                };
                v.push_str(&format!(
                    " ({} mention {what} and were not checked)",
                    r.undetermined
                ));
            }
            v
        }
    };
    // The run ends in module code: a function's variables have no value at its end.
    let in_module = session.frame_is_module(id);
    let mut vars: Vec<ReplayVar> = session
        .frame_store_shown(id)
        .into_iter()
        .map(|(name, symbolic)| ReplayVar {
            here: model.store.get(&name).map(Value::to_string),
            end: in_module
                .then(|| r.run.store.get(&name).map(Value::to_string))
                .flatten(),
            symbolic,
            name,
        })
        .collect();
    vars.sort_by(|a, b| crate::base::natural::cmp(&a.name, &b.name));
    // Each fold's κ in the model (its iteration count), and the run's (κ-search on the
    // replay's inputs) when they differ.
    let havoc = r.model.as_ref().map_or(&model.havoc, |m| &m.havoc);
    let kappas = session
        .fold_params(id, &r.inputs, havoc, &r.run)
        .iter()
        .map(|f| f.describe())
        .collect();
    Ok(ReplayInfo {
        kappas,
        inputs: r
            .inputs
            .iter()
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect(),
        vars,
        concrete_outcome,
        follows: r.follows(),
        verdict,
    })
}

fn leaf_text(o: Outcome) -> String {
    match o {
        Outcome::Exception(c) => format!("exception {c}"),
        o => o.name().to_string(),
    }
}

fn describe_run(run: &RunResult, source: &SourceMap) -> String {
    match run.outcome {
        Outcome::Exception(c) => match run.exception_at {
            Some(s) => format!(
                "exception {c} at {}",
                crate::base::span::line_name(source.line(s.start))
            ),
            None => format!("exception {c}"),
        },
        Outcome::Return => match &run.return_value {
            Some(v) => format!("return {v}"),
            None => "return".to_string(),
        },
        Outcome::StepLimit => format!("stopped: {}", outcome_text(run.outcome)),
        o => o.name().to_string(),
    }
}
