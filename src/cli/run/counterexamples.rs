//! `--counterexamples [--first]`: one compiler-style line per exception leaf, so editors
//! (and `grep -n`-style tooling) can jump to where the exception is raised:
//!
//! ```text
//! examples/abs_double.py:18:1: AssertionError for y = -1
//! examples/find.py:21:12: IndexError for needle = 0, haystack = (1,)
//! ```
//!
//! `line:col` is where the exception was raised (1-based, column in characters); the
//! inputs are the leaf's model written as Python literals, in declaration order (for an
//! `--entry` run, the entry function's parameters), so the line can be replayed with
//! `symdbg exec FILE --input NAME=VALUE ...`. Leaves are listed in tree order (node id).
//! With `--first` the exploration stopped at the first exception leaf and only it is
//! listed. With no exception leaf nothing is printed; [`none_found`] is the note for stderr.
//!
//! A leaf that is a loop invariant's failure, or that the path reached through a loop's
//! invariant (havoc'd values: an arbitrary iteration), may not be reachable from the inputs
//! alone: its line goes on with ` -- ` the check that failed and whether running the inputs
//! in the concrete interpreter ends the same way (same class, same line):
//!
//! ```text
//! weak.py:7:15: AssertionError for n = 1 -- body violates invariant; reproduced
//! weak.py:7:15: AssertionError for n = 0 -- body violates invariant; not reproduced: the invariant may be too weak to prove this
//! ```

use std::fmt::Write;

use std::collections::BTreeMap;

use super::{is_exception, Explored};
use crate::base::bindings::bindings;
use crate::base::span::Line;
use crate::diagnostics::count;
use crate::session::program::ConcreteConfig;
use crate::session::{NoModel, NodeId, Outcome, Session, Stop, Value};

/// The concrete replay's step budget (a loop the invariant let through may never end).
const REPLAY_STEPS: u64 = 1_000_000;

pub(super) fn render(x: &mut Explored) -> String {
    let leaves: Vec<NodeId> = match x.first {
        Some(leaf) => vec![leaf],
        None => x
            .session
            .tree()
            .nodes()
            .filter(|n| is_exception(n))
            .map(|n| n.id)
            .collect(),
    };
    let mut out = String::new();
    for id in leaves {
        let _ = writeln!(out, "{}", line(x, id));
    }
    out
}

/// The line for one exception leaf.
fn line(x: &mut Explored, id: NodeId) -> String {
    let source = x.session.source();
    let tree = x.session.tree();
    let node = tree.node(id);
    let class = match node.outcome() {
        Some(Outcome::Exception(class)) => class.name(),
        _ => "exception",
    };
    // Where it was raised; failing that, the statement that raised it (the parent's).
    let span = node
        .exception_at()
        .or_else(|| node.parent.and_then(|p| tree.node(p).at()));
    let (line, col) = span.map_or((1, 1), |s| source.line_col(s.start));
    // Raised in an `--assume` expression: the file name, then where in which one.
    let mut text = match Line::of(line) {
        Line::Assume(k) => format!("{}: --assume #{k}:{col}: {class}", source.name),
        Line::File(_) => format!("{}:{line}:{col}: {class}", source.name),
    };
    if x.session.inputs().is_empty() {
        return text;
    }
    match x.session.try_model(id) {
        Ok(model) => {
            let values = x.session.inputs_or_default(&model.inputs);
            let _ = write!(text, " for {}", bindings(values));
            // Folded loops: how many times each ran (issue 15).
            let kappas = x.session.kappa_lines(id, &model.havoc);
            if !kappas.is_empty() {
                let _ = write!(text, " ({})", kappas.join("; "));
            }
            if let Some(note) = reproduction(&mut x.session, id, &model.inputs) {
                let _ = write!(text, " -- {note}");
            }
        }
        // A value too long to materialise: described, never replaced by a default.
        Err(NoModel::TooLarge(reason)) => {
            let _ = write!(text, " ({reason}; not replayed)");
        }
        Err(NoModel::Infeasible) => text.push_str(" (the solver found no inputs for this path)"),
        Err(NoModel::Unknown(reason)) => {
            let _ = write!(
                text,
                " (no inputs: the solver gave up on this path: {reason})"
            );
        }
    }
    text
}

/// For an invariant's failure, or a leaf after a loop's invariant: which check failed and
/// whether the inputs alone reproduce the leaf concretely. `None` for other leaves.
fn reproduction(
    session: &mut Session,
    id: NodeId,
    inputs: &BTreeMap<String, Value>,
) -> Option<String> {
    let tree = session.tree();
    let node = tree.node(id);
    let abstracted = session.after_havoc(id);
    let contracts = session.contracts_used(id);
    if !node.invariant_failure() && !abstracted && contracts.is_empty() {
        return None;
    }
    let (invariant_failure, label) = (node.invariant_failure(), node.label());
    let contract_failure = session.contract_failure(id).map(|c| c.to_string());
    let config = ConcreteConfig {
        max_steps: REPLAY_STEPS,
        ..ConcreteConfig::default()
    };
    let same = session
        .replay(id, Some(inputs), &config)
        .is_ok_and(|r| session.reproduces(id, &r));
    let verdict = if same {
        "reproduced".to_string()
    } else if !contracts.is_empty() {
        let names: Vec<String> = contracts.iter().map(|f| format!("of {f}")).collect();
        format!(
            "not reproduced: the contract {} may be too weak",
            names.join(", ")
        )
    } else {
        "not reproduced: the invariant may be too weak to prove this".to_string()
    };
    Some(
        match contract_failure
            .as_deref()
            .or(label.filter(|_| invariant_failure))
        {
            Some(l) => format!("{l}; {verdict}"),
            None => verdict,
        },
    )
}

/// The stderr note when there is no exception leaf: whether that is a proof within the
/// bounds or only as far as the exploration got.
pub(super) fn none_found(x: &Explored) -> String {
    let s = x.session.stats();
    let unknown = x
        .session
        .tree()
        .nodes()
        .filter(|n| n.outcome() == Some(Outcome::Unknown))
        .count();
    let mut gaps = Vec::new();
    if s.bounds > 0 {
        gaps.push(format!(
            "{} cut by --unroll/--recursion",
            count(s.bounds, "path")
        ));
    }
    if unknown > 0 {
        gaps.push(format!(
            "{} the solver could not decide",
            count(unknown, "path")
        ));
    }
    if s.open > 0 || x.stop != Stop::Done {
        gaps.push(format!("{} left unexplored", count(s.open, "node")));
    }
    if gaps.is_empty() {
        format!(
            "symdbg: no exception leaf: no path raises an exception ({} explored)",
            count(s.nodes, "node")
        )
    } else {
        format!(
            "symdbg: no exception leaf in {} explored; not explored: {}",
            count(s.nodes, "node"),
            gaps.join(", ")
        )
    }
}
