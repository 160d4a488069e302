//! `symdbg diff OLD NEW --pytest OUT`: regression tests that pin OLD's behaviour.
//!
//! One test per reported difference, on its witness, expecting what OLD does there (so it
//! fails on NEW), and one per leaf of OLD's tree that has no witness, on the leaf's model,
//! when both programs behave the same on it (so it passes on both: it pins behaviour the
//! edit kept), at most [`AGREEING`] of those. Expected results are the concrete
//! interpreter's runs of OLD (CPython's semantics), as `testgen`'s are.

use std::collections::BTreeSet;

use super::{Expect, Suite, Test};
use crate::session::program::ConcreteConfig;
use crate::session::{diff, DiffReport, NodeId, Session};

/// At most this many tests of inputs on which the programs agree.
pub const AGREEING: usize = 20;

/// The tests: the witnesses first (`test_changed1_...`), then the agreeing leaves
/// (`test_kept_leaf7_...`).
/// `names`: how the programs are named in the tests' docstrings.
pub fn suite(
    old: &mut Session,
    new: &mut Session,
    report: &DiffReport,
    names: (&str, &str),
) -> Suite {
    let entry = old.entry().map(str::to_string);
    let mut suite = Suite {
        prints: old.program().prints() || new.program().prints(),
        entry: entry.clone(),
        assumptions: old.source().assumptions.clone(),
        tests: Vec::new(),
        skipped: Vec::new(),
    };
    let config = ConcreteConfig::default();
    let (old_name, new_name) = names;
    for (k, d) in report.differences.iter().enumerate() {
        let Ok(run) = old.run_concrete(&d.inputs, &config) else {
            continue;
        };
        let expect = Expect::of_run(&run, old.source(), entry.is_some());
        if !ends(&expect) || run.invariant_failure || run.contract_failure.is_some() {
            continue;
        }
        suite.tests.push(Test {
            leaf: d.old_leaf,
            name: format!("test_changed{}_{}", k + 1, expect.name_suffix()),
            inputs: d.inputs.clone(),
            expect,
            disagreement: None,
            path_condition: format!(
                "{} (the edit changed this: {})",
                pc_text(old, d.old_leaf),
                diff::difference_line(d, old_name, new_name)
            ),
            lines: BTreeSet::new(),
            folds: Vec::new(),
        });
    }
    let changed: BTreeSet<NodeId> = report.differences.iter().map(|d| d.old_leaf).collect();
    let mut kept = 0;
    for (id, model) in old.leaf_models() {
        if kept == AGREEING {
            break;
        }
        let Ok(model) = model else { continue };
        if changed.contains(&id) || old.tree().node(id).invariant_failure() {
            continue;
        }
        let (Ok(ro), Ok(rn)) = (
            old.run_concrete(&model.inputs, &config),
            new.run_concrete(&model.inputs, &config),
        ) else {
            continue;
        };
        let expect = Expect::of_run(&ro, old.source(), entry.is_some());
        let same = expect == Expect::of_run(&rn, new.source(), entry.is_some());
        if !same || !ends(&expect) || ro.invariant_failure || ro.contract_failure.is_some() {
            continue;
        }
        kept += 1;
        suite.tests.push(Test {
            leaf: id,
            name: format!("test_kept_leaf{}_{}", id.0, expect.name_suffix()),
            inputs: model.inputs,
            expect,
            disagreement: None,
            path_condition: pc_text(old, id),
            lines: BTreeSet::new(),
            folds: Vec::new(),
        });
    }
    suite
}

/// A run a test can pin: it ended (not at the interpreter's step limit).
fn ends(e: &Expect) -> bool {
    matches!(e.outcome.as_str(), "normal" | "return" | "exception")
}

/// A leaf's path condition as text (`True` when empty).
fn pc_text(s: &Session, id: NodeId) -> String {
    let pc = s.path_condition_texts(id);
    if pc.is_empty() {
        "True".to_string()
    } else {
        super::conjunction(&pc)
    }
}
