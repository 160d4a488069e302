//! A leaf's folds against a concrete run (issue 15; `testgen --fold auto`, `check`, the
//! TUI's replay): a leaf below a fold has a parameter κ in its model (how many times the
//! folded path ran). [`Session::fold_params`] gives the model's κ per fold on the path and
//! the real iteration count that κ-search finds for the run's inputs; the two must be
//! equal, or the leaf is wrong about its run (an engine bug).

use std::collections::BTreeMap;

use super::Session;
use crate::concrete::{RunResult, Value};
use crate::engine::NodeId;
use crate::term::display_name;

/// One fold on a test's path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoldParam {
    /// `κ1`.
    pub name: String,
    /// The line of the folded loop.
    pub loop_line: usize,
    /// The leaf model's κ (`None`: the model has no value for it).
    pub value: Option<Value>,
    /// The iteration count of the test's concrete run, by κ-search (`None`: not found).
    pub real: Option<Value>,
}

impl FoldParam {
    /// `loop at line 4: κ1 = 100`, and what the concrete run does when that differs.
    pub fn describe(&self) -> String {
        let shown = |v: &Option<Value>| v.as_ref().map_or("?".to_string(), Value::to_string);
        let mut s = format!(
            "loop at line {}: {} = {}",
            self.loop_line,
            self.name,
            shown(&self.value)
        );
        if !self.agrees() {
            s.push_str(&format!(
                " (but the concrete run iterates {} times)",
                shown(&self.real)
            ));
        }
        s
    }

    /// Does the model's κ equal the real count? (Unknown counts agree: no verdict.)
    pub fn agrees(&self) -> bool {
        match (&self.value, &self.real) {
            (Some(v), Some(r)) => v == r,
            _ => true,
        }
    }
}

impl Session {
    /// The folds on the path to `leaf`: the model's κs (`havoc`, by symbol name) and the
    /// real counts for `inputs`, whose concrete run is `run`.
    pub fn fold_params(
        &self,
        leaf: NodeId,
        inputs: &BTreeMap<String, Value>,
        havoc: &BTreeMap<String, Value>,
        run: &RunResult,
    ) -> Vec<FoldParam> {
        let engine = &self.engine;
        let on_path = engine.folds_on_path(leaf);
        if on_path.is_empty() {
            return Vec::new();
        }
        let model = self.input_model(inputs);
        let real = engine.with_fold_params(leaf, &model, super::kappa_limit(run));
        let real = real.as_ref();
        on_path
            .into_iter()
            .filter_map(|(node, kappa)| {
                let f = engine.fold_at(node)?;
                // A two-parameter fold (issue 27) has λ beside κ.
                let lambda = f.multi.as_ref().map(|p| p.lambda.clone());
                let loop_line = self.source().line(f.template.span.start);
                Some(
                    std::iter::once(kappa)
                        .chain(lambda)
                        .map(move |k| FoldParam {
                            name: display_name(&k.name).to_string(),
                            loop_line,
                            value: havoc.get(&*k.name).cloned(),
                            real: real.and_then(|m| m.values.get(&k).cloned()),
                        }),
                )
            })
            .flatten()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(value: Option<i64>, real: Option<i64>) -> FoldParam {
        FoldParam {
            name: "κ1".into(),
            loop_line: 4,
            value: value.map(|v| Value::Int(v.into())),
            real: real.map(|v| Value::Int(v.into())),
        }
    }

    #[test]
    fn a_kappa_agrees_only_with_the_real_count() {
        assert!(param(Some(100), Some(100)).agrees());
        assert_eq!(
            param(Some(100), Some(100)).describe(),
            "loop at line 4: κ1 = 100"
        );
        let wrong = param(Some(3), Some(4));
        assert!(!wrong.agrees());
        assert_eq!(
            wrong.describe(),
            "loop at line 4: κ1 = 3 (but the concrete run iterates 4 times)"
        );
        // No real count (κ-search gave up): no verdict.
        assert!(param(Some(3), None).agrees());
    }
}
