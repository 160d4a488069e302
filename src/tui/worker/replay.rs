//! Replay: run the concrete interpreter on a node's model and compare it with the node.
//!
//! The node's model gives concrete inputs. [`crate::concrete::run`] runs the program on
//! them. The run follows the node's path exactly when every conjunct of the path condition
//! evaluates to `True` under the inputs ([`crate::term::Model::eval`], plain Rust), and,
//! at a leaf, when the run also ends the way the leaf says (same outcome and exception
//! class). Conjuncts that mention values the inputs do not determine (`havoc`ed variables
//! of a loop scope) are not evaluated and are reported as such. Every variable of the
//! node's store is shown three ways: its symbolic value, its value at this node under the
//! model, and its value at the end of the concrete run.

use std::collections::BTreeSet;

use super::super::protocol::{ReplayInfo, ReplayVar};
use crate::base::SourceMap;
use crate::concrete::{self, Value};
use crate::engine::{Engine, NodeId, Outcome};
use crate::lang::{Program, TypeInfo};
use crate::term::Model;
use crate::term::Sym;

pub(super) fn replay(
    engine: &mut Engine,
    program: &Program,
    types: &TypeInfo,
    source: &SourceMap,
    id: NodeId,
) -> Result<ReplayInfo, String> {
    let model = engine
        .model(id)
        .ok_or("no model: the path is infeasible or the solver could not decide")?;
    let run = concrete::run(
        program,
        types,
        engine.entry(),
        &model.inputs,
        &concrete::Config::default(),
    )
    .map_err(|d| format!("the concrete run failed: {}", d.message))?;

    // The path condition under the inputs alone.
    let inputs: BTreeSet<Sym> = engine.inputs().iter().cloned().collect();
    let under = Model {
        values: engine
            .inputs()
            .iter()
            .filter_map(|s| model.inputs.get(&*s.name).map(|v| (s.clone(), v.clone())))
            .collect(),
    };
    let pc = engine.path_condition(id);
    let mut undetermined = 0;
    let mut failed = None;
    for (k, t) in pc.iter().enumerate() {
        let mut vars = BTreeSet::new();
        t.vars(&mut vars);
        if !vars.is_subset(&inputs) {
            undetermined += 1;
            continue;
        }
        if under.eval(t) != Some(Value::Bool(true)) {
            failed = Some((k + 1, t.to_string()));
            break;
        }
    }

    let node = engine.tree().node(id);
    let concrete_outcome = describe_run(&run, source);
    let leaf_mismatch = node.outcome().and_then(|o| {
        let same = match (o, run.outcome) {
            (Outcome::Exception(a), concrete::Outcome::Exception(b)) => a == b,
            (Outcome::Bound | Outcome::Unknown, _) => true,
            (o, c) => o.name() == c.name(),
        };
        (!same).then(|| {
            format!(
                "the leaf is {} but the run ends {}",
                leaf_text(o),
                concrete_outcome
            )
        })
    });
    let checked = pc.len() - undetermined;
    let (follows, verdict) = match (failed, leaf_mismatch) {
        (Some((k, t)), _) => (
            false,
            format!("does NOT follow this path: conjunct {k} `{t}` is False for these inputs"),
        ),
        (None, Some(why)) => (false, format!("does NOT follow this path: {why}")),
        (None, None) => {
            let mut v = match checked {
                0 => "follows this path: no condition to check".to_string(),
                1 => "follows this path: its 1 checked conjunct holds".to_string(),
                n => format!("follows this path: all {n} checked conjuncts hold"),
            };
            if undetermined > 0 {
                v.push_str(&format!(
                    " ({undetermined} mention havoc'd values and were not checked)"
                ));
            }
            (true, v)
        }
    };

    let vars = engine
        .store(id)
        .into_iter()
        .map(|(name, t)| ReplayVar {
            here: model.store.get(&name).map(Value::to_string),
            end: run.store.get(&name).map(Value::to_string),
            symbolic: t.to_string(),
            name,
        })
        .collect();
    Ok(ReplayInfo {
        inputs: model
            .inputs
            .iter()
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect(),
        vars,
        concrete_outcome,
        follows,
        verdict,
    })
}

fn leaf_text(o: Outcome) -> String {
    match o {
        Outcome::Exception(c) => format!("exception {c}"),
        o => o.name().to_string(),
    }
}

fn describe_run(run: &concrete::RunResult, source: &SourceMap) -> String {
    match run.outcome {
        concrete::Outcome::Exception(c) => match run.exception_at {
            Some(s) => format!("exception {c} at line {}", source.line(s.start)),
            None => format!("exception {c}"),
        },
        concrete::Outcome::Return => match &run.return_value {
            Some(v) => format!("return {v}"),
            None => "return".to_string(),
        },
        concrete::Outcome::StepLimit => format!("stopped: {}", run.outcome.describe()),
        o => o.name().to_string(),
    }
}
