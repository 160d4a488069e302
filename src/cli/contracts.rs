//! `symdbg check FILE --contracts`: prove the contract of every function that has one
//! (issue 28), each as `symdbg run FILE --entry f` does: assume `requires`, run the body
//! with calls of contracted functions using their contracts (recursion included), check
//! `ensures` at every return; any exception path is a failure.

use std::fmt::Write as _;

use super::{CheckArgs, Failure, Loops};
use crate::base::bindings::bindings;
use crate::session::{Limits, NodeId, Outcome, Policy, Session};

/// Prove every contract; exit 0 when all are verified, 1 otherwise.
pub(super) fn prove_all(args: &CheckArgs) -> Result<i32, Failure> {
    let loaded = super::load(&args.file)?;
    let names: Vec<String> = loaded
        .program
        .functions()
        .filter(|f| !f.contract.is_empty())
        .map(|f| f.name.name.clone())
        .collect();
    if names.is_empty() {
        return Err(Failure::plain(
            "the program has no contracts to prove",
            &[
                "help: contracts are `requires e` / `ensures e` lines at the top of a `def` body"
                    .to_string(),
            ],
        ));
    }
    let mut out = String::new();
    let mut all = true;
    for f in &names {
        let explore = super::ExploreOpts {
            entry: Some(f.clone()),
            ..args.explore.clone()
        };
        let mut session = explore.session_with(loaded.clone(), Loops::Invariant, false, false)?;
        let root = session.tree().root();
        let limits = Limits {
            max_nodes: Some(args.explore.max_nodes),
            ..Limits::default()
        };
        session.run(root, Policy::Subtree, limits, &|_| {});
        let (verified, text) = verdict(&mut session);
        all &= verified;
        let _ = writeln!(out, "{f}: {text}");
    }
    super::print(out.as_bytes())?;
    Ok(if all { 0 } else { 1 })
}

/// "verified" or why not, with a counterexample for a failing leaf.
fn verdict(session: &mut Session) -> (bool, String) {
    let s = session.stats();
    let leaves: Vec<NodeId> = session
        .tree()
        .nodes()
        .filter(|n| n.is_leaf())
        .map(|n| n.id)
        .collect();
    if let Some(&bad) = leaves.iter().find(|&&id| {
        matches!(
            session.tree().node(id).outcome(),
            Some(Outcome::Exception(_))
        )
    }) {
        let view = session.view(bad);
        // A contract's failure is named by its note; another exception's text has its line.
        let (what, line) = match view.note() {
            Some(note) => (
                note.to_string(),
                view.place.map_or(String::new(), |l| format!(" (line {l})")),
            ),
            None => (view.text(crate::session::Form::Tree), String::new()),
        };
        let inputs = match session.try_model(bad) {
            Ok(m) => format!("; counterexample: {}", bindings(m.inputs.iter())),
            Err(_) => String::new(),
        };
        return (false, format!("not verified: {what}{line}{inputs}"));
    }
    let unknown = leaves
        .iter()
        .filter(|&&id| session.tree().node(id).outcome() == Some(Outcome::Unknown))
        .count();
    if s.bounds > 0 || unknown > 0 || s.open > 0 {
        return (
            false,
            format!(
                "not verified: no failure found, but {} bound, {unknown} unknown and {} open \
                 (raise --unroll/--max-nodes, or give loops invariants)",
                s.bounds, s.open
            ),
        );
    }
    (true, format!("verified ({} paths)", s.leaves))
}
