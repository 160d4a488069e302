//! `symdbg diff OLD.py NEW.py [--entry F] [options] [--json]` (issue 29): the classes of
//! inputs on which two programs behave differently ([`crate::session::diff`]), each with a
//! witness both programs ran concretely.
//!
//! Exit codes: 0 no difference (within the bounds), 1 a difference, 2 an error.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;

use super::{ExploreOpts, Failure, Loops};
use crate::files::program::display_name;
use crate::session::{diff, Behaviour, DiffReport, Limits, Policy, Session, Strategy, Value};

/// Exit code when the programs differ.
pub const EXIT_DIFFERENT: i32 = 1;

#[derive(Debug, Args)]
pub(super) struct DiffArgs {
    /// The program before the edit
    old: PathBuf,
    /// The program after the edit (the same inputs)
    new: PathBuf,
    /// Print `{"differences": [{"input", "old", "new", "differs"}], "bounded": bool, "undecided": N}`
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    explore: ExploreOpts,
}

fn explore(args: &DiffArgs, file: &std::path::Path) -> Result<Session, Failure> {
    let loaded = super::load(file)?;
    let mut session = args.explore.session(loaded, Loops::Unroll, true)?;
    let limits = Limits {
        max_nodes: Some(args.explore.max_nodes),
        time: None,
        strategy: Strategy::Dfs,
    };
    let root = session.tree().root();
    session.run(root, Policy::Subtree, limits, &|_| {});
    Ok(session)
}

pub(super) fn diff(args: &DiffArgs) -> Result<i32, Failure> {
    let mut old = explore(args, &args.old)?;
    let mut new = explore(args, &args.new)?;
    let report = diff::diff(&mut old, &mut new).map_err(|m| Failure::plain(m, &[]))?;
    let (old_name, new_name) = (display_name(&args.old), display_name(&args.new));
    let text = if args.json {
        json(&report)
    } else {
        text(&report, &old_name, &new_name)
    };
    super::print(text.as_bytes())?;
    Ok(if report.differences.is_empty() {
        0
    } else {
        EXIT_DIFFERENT
    })
}

/// `x = -1, t = (1, 2)`.
fn inputs_text(inputs: &std::collections::BTreeMap<String, Value>) -> String {
    if inputs.is_empty() {
        return "(no inputs)".to_string();
    }
    let v: Vec<String> = inputs.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    v.join(", ")
}

/// `returns 1`, `raises ZeroDivisionError at new.py:7`, `ends with y = 2`.
fn describe(b: &Behaviour, file: &str, what: &[String]) -> String {
    match (b.outcome, &b.exception) {
        (_, Some(class)) => match b.line {
            Some(l) => format!("raises {class} at {file}:{l}"),
            None => format!("raises {class}"),
        },
        ("return", _) => match &b.return_value {
            Some(v) => format!("returns {v}"),
            None => "returns None".to_string(),
        },
        ("step_limit", _) => "runs past the interpreter's step limit".to_string(),
        _ => {
            let vars: Vec<String> = b
                .store
                .iter()
                .filter(|(k, _)| what.contains(k))
                .map(|(k, v)| format!("{k} = {v}"))
                .collect();
            if vars.is_empty() {
                "ends normally".to_string()
            } else {
                format!("ends with {}", vars.join(", "))
            }
        }
    }
}

fn text(r: &DiffReport, old: &str, new: &str) -> String {
    let mut out = String::new();
    if r.differences.is_empty() {
        out.push_str(&format!("{old} and {new}: no difference"));
    } else {
        let n = r.differences.len();
        let classes = if n == 1 { "class" } else { "classes" };
        let _ = writeln!(out, "{old} and {new} differ on {n} {classes} of inputs:");
        for d in &r.differences {
            let _ = writeln!(
                out,
                "  {}: old {}, new {}  (leaves {} and {})",
                inputs_text(&d.inputs),
                describe(&d.old, old, &d.what),
                describe(&d.new, new, &d.what),
                d.old_leaf.0,
                d.new_leaf.0
            );
        }
    }
    if r.differences.is_empty() {
        out.push_str(if r.bounded {
            " within the bounds (equivalent only up to the bounds: paths were cut by --unroll, --recursion, --max-nodes or the solver)\n"
        } else {
            ": the programs behave the same on every input\n"
        });
    } else if r.bounded {
        out.push_str("(paths were cut: more differences may lie beyond the bounds)\n");
    }
    if r.undecided > 0 {
        let _ = writeln!(
            out,
            "({} classes of inputs the solver could not decide)",
            r.undecided
        );
    }
    out
}

fn value_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Int(i) => serde_json::from_str(&i.to_string()).unwrap_or(serde_json::Value::Null),
        Value::Bool(b) => serde_json::Value::Bool(*b),
        Value::Tuple(t) => serde_json::Value::Array(
            t.iter()
                .map(|i| serde_json::from_str(&i.to_string()).unwrap_or(serde_json::Value::Null))
                .collect(),
        ),
    }
}

fn behaviour_json(b: &Behaviour) -> serde_json::Value {
    serde_json::json!({
        "outcome": b.outcome,
        "exception": b.exception,
        "line": b.line,
        "return_value": b.return_value.as_ref().map(value_json),
        "store": b.store.iter().map(|(k, v)| (k.clone(), value_json(v))).collect::<serde_json::Map<_, _>>(),
        // Issue 25's `print`: the concrete run's output, once runs record it.
        "stdout": null,
    })
}

fn json(r: &DiffReport) -> String {
    let differences: Vec<serde_json::Value> = r
        .differences
        .iter()
        .map(|d| {
            serde_json::json!({
                "input": d.inputs.iter().map(|(k, v)| (k.clone(), value_json(v))).collect::<serde_json::Map<_, _>>(),
                "old": behaviour_json(&d.old),
                "new": behaviour_json(&d.new),
                "differs": d.what,
                "old_leaf": d.old_leaf.0,
                "new_leaf": d.new_leaf.0,
            })
        })
        .collect();
    let v = serde_json::json!({
        "differences": differences,
        "bounded": r.bounded,
        "undecided": r.undecided,
    });
    format!("{v}\n")
}
