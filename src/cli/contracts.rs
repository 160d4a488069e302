//! `symdbg check FILE --contracts`: prove the contract of every function that has one
//! (issue 28), each as `symdbg run FILE --entry f` does: assume `requires`, run the body
//! with calls of contracted functions using their contracts (recursion included), check
//! `ensures` at every return; any exception path is a failure. `--entry f` proves only
//! `f`'s contract; `--json` prints `{"contracts": [{"function", "verified", "paths",
//! "why", "counterexample"}]}`.

use std::fmt::Write as _;

use super::{CheckArgs, Failure, Loops};
use crate::base::bindings::bindings;
use crate::session::{Limits, NodeId, Outcome, Policy, Session};

/// Prove every contract; exit 0 when all are verified, 1 otherwise.
pub(super) fn prove_all(args: &CheckArgs) -> Result<i32, Failure> {
    let loaded = super::load(&args.file)?;
    let mut names: Vec<String> = loaded
        .program
        .functions()
        .filter(|f| !f.contract.is_empty())
        .map(|f| f.name.name.clone())
        .collect();
    if let Some(only) = &args.explore.entry {
        if !names.contains(only) {
            let known = loaded.program.functions().any(|f| &f.name.name == only);
            let why = if known {
                format!("`{only}` has no contract to prove")
            } else {
                format!("the program has no function `{only}`")
            };
            let help = if names.is_empty() {
                "help: contracts are `requires e` / `ensures e` lines at the top of a `def` body"
                    .to_string()
            } else {
                format!("help: the functions with contracts: {}", names.join(", "))
            };
            return Err(Failure::plain(why, &[help]));
        }
        names.retain(|f| f == only);
    }
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
    let mut json = Vec::new();
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
        let mut v = verdict(&mut session);
        if !v.verified && v.counterexample.is_none() && session.contract_prints(f) {
            if let Some(why) = &mut v.why {
                why.push_str(&format!(
                    "; `{f}` prints, so its calls are inlined, not replaced by its contract"
                ));
            }
        }
        all &= v.verified;
        let _ = writeln!(out, "{f}: {}", v.text());
        json.push(serde_json::json!({
            "function": f,
            "verified": v.verified,
            "paths": v.paths,
            "why": v.why,
            "counterexample": v.counterexample.as_ref().map(|c| serde_json::json!({
                "inputs": c.0,
                "text": c.1,
            })),
        }));
    }
    if args.json {
        let v = serde_json::json!({ "contracts": json });
        out = format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default());
    }
    super::print(out.as_bytes())?;
    Ok(if all { 0 } else { 1 })
}

/// The verdict on one contract.
struct Verdict {
    verified: bool,
    /// The number of leaves (paths) of the proof tree.
    paths: usize,
    /// Why not verified (`None` when verified).
    why: Option<String>,
    /// A failing leaf's inputs: as JSON values, and as `a = 1, b = 2`.
    counterexample: Option<(serde_json::Value, String)>,
}

impl Verdict {
    /// The text after `f: ` on the function's line.
    fn text(&self) -> String {
        match (&self.why, &self.counterexample) {
            (None, _) if self.paths == 1 => "verified (1 path)".to_string(),
            (None, _) => format!("verified ({} paths)", self.paths),
            (Some(why), Some((_, inputs))) => {
                format!("not verified: {why}; counterexample: {inputs}")
            }
            (Some(why), None) => format!("not verified: {why}"),
        }
    }
}

/// "verified" or why not, with a counterexample for a failing leaf.
fn verdict(session: &mut Session) -> Verdict {
    let s = session.stats();
    let leaves: Vec<NodeId> = session
        .tree()
        .nodes()
        .filter(|n| n.is_leaf())
        .map(|n| n.id)
        .collect();
    let mut v = Verdict {
        verified: false,
        paths: s.leaves,
        why: None,
        counterexample: None,
    };
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
        if let Ok(m) = session.try_model(bad) {
            let inputs: serde_json::Map<String, serde_json::Value> = m
                .inputs
                .iter()
                .map(|(k, x)| (k.clone(), x.to_json()))
                .collect();
            v.counterexample = Some((inputs.into(), bindings(m.inputs.iter())));
        }
        v.why = Some(format!("{what}{line}"));
        return v;
    }
    let unknown = leaves
        .iter()
        .filter(|&&id| session.tree().node(id).outcome() == Some(Outcome::Unknown))
        .count();
    if s.bounds > 0 || unknown > 0 || s.open > 0 {
        let mut advice = Vec::new();
        if s.bounds > 0 || s.open > 0 {
            advice.push("raise --unroll/--recursion/--max-nodes, or give loops invariants");
        }
        if unknown > 0 {
            advice.push("raise --timeout-ms (0: no limit)");
        }
        v.why = Some(format!(
            "no failure found, but {} bound, {unknown} unknown and {} open ({})",
            s.bounds,
            s.open,
            advice.join("; ")
        ));
        return v;
    }
    v.verified = true;
    v
}
