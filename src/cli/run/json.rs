//! `--json`: the explored SET as one JSON object — DESIGN.md §3, a public interface.
//!
//! The structs below and the writer of a node (`json/node.rs`, which lists a node's fields
//! in order) *are* the schema: field names and order are those of §3, and the schema only
//! grows by adding fields (never renaming or dropping one). Additions to §3, all present
//! on every object (null when they do not apply):
//! - top level: `entry` (the `--entry` function or null), `stop` (`done`, `node_limit`,
//!   `time_limit`, `cancelled`: why exploration ended);
//! - node: `exception_line`, `exception_column` (1-based, where an exception leaf's
//!   exception was raised), `unknown_reason` (the solver's reason at an `unknown` leaf),
//!   `model_return_value` (the return value under the model), `model_unknown_reason` (why a
//!   satisfiable leaf has no model: the solver's reason, e.g. `timeout`), `label` (the node's step in
//!   the loop-scope transformation: "invariant initially valid?", "body preserves
//!   invariant?", "use case: ...", or null), `invariant_failure` (true at an exception leaf
//!   that is a loop invariant's failure: no `except` catches it, `exception_line` and
//!   `exception_column` are the failing `invariant` line's);
//! - node `model`: besides the inputs, the values of the symbols `havoc` made on the path
//!   (`"i!1": 0`: the state of a loop's arbitrary iteration; `"x!2.bound": false`: a
//!   variable the loop may not have assigned), so a broken invariant's counterexample
//!   shows the iteration it is about;
//! - folds (`--fold auto`, issue 15): node `fold` at a folded loop head (`param` "κ1",
//!   `smt_name` "k@1", `loop_line`, `path` [{`line`, `step`}], `closed_forms` {var: term},
//!   `iteration_condition` [conjuncts of Φ(κ)]), `fold_exit` at a fold's exit (its
//!   `--tree` label), `model_params` at a leaf under folds ({"κ1": 100}; the model also
//!   holds `"k@1": 100`, like havoc symbols); issue 31: `fallback` "unrolled" at a fold
//!   node's extra child where a leaf below the fold was `unknown` (the loop unrolled up to
//!   `--unroll` instead), `fallback_node` (that child's id) at each such `unknown` leaf;
//! - `--assume` (preconditions): a node about to run the `--assume` expression `k` (or an
//!   exception raised in it) has `"assumption": k` (the key is absent elsewhere), `line`
//!   (`exception_line`) null and `statement` `assume EXPR`; with `--explain`, origins, pruned
//!   branches, core members and features from it also have `line` null and `assumption`.
//! - `print` (issue 25): node `stdout` at a leaf, the lines the path printed, each a list
//!   of its items as minipy expressions over the inputs (`[["x + 1", "(x, 2)"], []]`:
//!   `print(x + 1, (x, 2))` then `print()`), null at other nodes; `model_stdout`, the
//!   text those lines print under the node's `model` (byte for byte CPython's stdout on
//!   those inputs: each line the items' `str`s joined by spaces, then `\n`), null where
//!   there is no model;
//! - stats: `open`, `exceptions`, `bounds`, `folds`, `solver_cache_hits`, `z3_calls`.
//! - top level, last: `coverage` (issue 29), `{"<line>": "reached" | "exception-only" |
//!   "unreachable" | "unexplored"}` for every counted line (`session::coverage`).
//! - node `label` also says, at a node about to run an exception handler, which exception
//!   it caught: "IndexError raised at line 5, caught at line 9" (still a string or null).
//!
//! With `--explain` (and only then: without it these keys are absent, so the output is
//! byte for byte what it was), every node has:
//! - `origins`: parallel to `path_condition`, where each conjunct came from:
//!   `{"line", "node", "transition"}` (the statement's line, the node whose step added it,
//!   which way that step went: "then", "enter the loop", "IndexError at 4:9", ...; a
//!   contract's step names its function, "postcondition of f assumed (use contract)",
//!   and has `"contract": "requires" | "ensures"`, a key absent elsewhere);
//! - `pruned`: on stepped (`inner`) nodes, the alternatives of the step that were
//!   infeasible, `[{"branch", "line", "transition", "verdict", "core": [{"condition",
//!   "line", "node", "transition"}], "minimal"}]` (the core: the conditions that together
//!   rule the branch out; `minimal`: dropping any one makes the rest satisfiable); null on
//!   other nodes; a contract check's failing alternative also has `"contract_failure":
//!   "requires" | "ensures"` (absent elsewhere);
//! - `store_origins` (issue 29): where each variable of `store` got its value,
//!   `{"x": {"line", "node", "kind"}}` (the assignment's line, the node whose step assigned
//!   it, and `kind`: `assignment`, `parameter` (bound at a call: the call's line), `return`
//!   (`x = f(...)`: the call's line, the `return`'s node), `havoc`, `step` (another step,
//!   e.g. a folded loop), `input` (a declared input or an entry parameter: its declaration's
//!   line or the `def` line, the first node that has it));
//! - `explanation`: on infeasible and unknown leaves, `{"verdict", "reason", "core",
//!   "minimal", "features": [{"kind", "term", "line"}], "summary"}`; null elsewhere.
//!   `verdict` is `infeasible`, `infeasible_without_features` (undecided, but unsat without
//!   the hard parts), `undecided` (because of `features`), `feasible` or `unknown`
//!   (`reason`: `timeout`, `interrupted`, ...).
//!
//! `--explain` never changes the tree (same nodes, ids and outcomes); its solver checks are
//! counted in `stats`.
//!
//! `exception_column` is where CPython 3.11's traceback marks the raise (see README). At an
//! exception leaf `frames` is the call stack at the raise, as a traceback shows it; a
//! `bound` or `unknown` leaf cut inside a call has that call's locals as its `store` (it is
//! still inside the call), other leaves the module's variables.
//!
//! Terms are printed twice: in minipy syntax (Term's `Display`) and in SMT-LIB
//! (`to_smt2`, shared subterms named by `let`), with the declarations of every constant
//! they use. A term too large to print (`term::MAX_PRINTED_NODES`) is the string
//! `…(term too large to print: N nodes)` in both.

use crate::base::span::Line;
use std::io::{self, Write};

use serde::Serialize;

use super::Explored;
use crate::session::Why;
use crate::session::{ExplainVerdict as Verdict, NodeId, Stop};

mod node;

/// A symbolic input: a declared module input or a parameter of the `--entry` function.
#[derive(Serialize)]
struct Input {
    name: String,
    /// `int`, `bool` or `tuple`.
    #[serde(rename = "type")]
    ty: String,
}

/// Where a path-condition conjunct came from (`--explain`).
#[derive(Serialize)]
struct JsonOrigin {
    /// Null for an `--assume` expression (then `assumption` says which).
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    assumption: Option<usize>,
    node: u32,
    transition: String,
    /// A contract's step (issue 28): the clause it checked or assumed; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    contract: Option<&'static str>,
}

/// A pruned alternative of a step (`--explain`).
#[derive(Serialize)]
struct JsonPruned {
    branch: String,
    /// Null for an `--assume` expression (then `assumption` says which).
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    assumption: Option<usize>,
    /// Which way it would have gone ("else", "IndexError at 4:9").
    transition: String,
    verdict: &'static str,
    core: Vec<JsonCore>,
    minimal: bool,
    /// A contract check's failing alternative (issue 28): `requires` or `ensures`;
    /// absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    contract_failure: Option<&'static str>,
}

/// A member of an unsat core (`--explain`).
#[derive(Serialize)]
struct JsonCore {
    condition: String,
    /// Null for an `--assume` expression (then `assumption` says which).
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    assumption: Option<usize>,
    node: u32,
    transition: String,
}

/// Why an infeasible or unknown leaf is (`--explain`).
#[derive(Serialize)]
struct JsonExplanation {
    verdict: &'static str,
    /// The solver's reason when the verdict is `unknown`.
    reason: Option<String>,
    core: Vec<JsonCore>,
    minimal: bool,
    features: Vec<JsonFeature>,
    summary: String,
}

/// A hard construct of an undecided leaf (`--explain`).
#[derive(Serialize)]
struct JsonFeature {
    kind: &'static str,
    term: String,
    /// Null for an `--assume` expression (then `assumption` says which).
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    assumption: Option<usize>,
}

fn core(why: &Why) -> Vec<JsonCore> {
    why.core
        .iter()
        .map(|c| JsonCore {
            condition: c.condition.clone(),
            line: file_line(c.line),
            assumption: assumption_of_line(c.line),
            node: c.node.0,
            transition: c.transition.clone(),
        })
        .collect()
}

fn explanation(why: &Why) -> JsonExplanation {
    JsonExplanation {
        verdict: why.verdict_name(),
        reason: match &why.verdict {
            Verdict::Unknown(r) => Some(r.to_string()),
            _ => None,
        },
        core: core(why),
        minimal: why.minimal,
        features: why
            .features
            .iter()
            .map(|f| JsonFeature {
                kind: f.kind,
                term: f.term.clone(),
                line: file_line(f.line),
                assumption: assumption_of_line(f.line),
            })
            .collect(),
        summary: why.summary(),
    }
}

/// A line of the file, or `None` for the line of an `--assume` expression.
pub(super) fn file_line(line: usize) -> Option<usize> {
    Line::of(line).in_file()
}

/// The `--assume` expression a line is one's, or `None` for a line of the file.
fn assumption_of_line(line: usize) -> Option<usize> {
    Line::of(line).assumption()
}

/// The `--explain` fields of a node (nothing without `--explain`).
fn explain_fields(x: &Explored, id: NodeId, b: &mut Vec<u8>) {
    let Some(ex) = &x.explained else { return };
    let origins: Vec<JsonOrigin> = x
        .session
        .origins(id)
        .into_iter()
        .map(|o| JsonOrigin {
            line: file_line(o.line),
            assumption: assumption_of_line(o.line),
            node: o.node.0,
            transition: o.transition,
            contract: o.contract.map(|c| c.name()),
        })
        .collect();
    let pruned: Option<Vec<JsonPruned>> = ex.pruned.get(&id).map(|ps| {
        ps.iter()
            .map(|(p, why)| JsonPruned {
                branch: p.branch.clone(),
                line: file_line(p.line),
                assumption: assumption_of_line(p.line),
                transition: p.transition.clone(),
                verdict: why.verdict_name(),
                core: core(why),
                minimal: why.minimal,
                contract_failure: p.tag.contract_failure().map(|c| c.name()),
            })
            .collect()
    });
    let explanation = ex.leaves.get(&id).map(|w| explanation(w));
    let store_origins: serde_json::Map<String, serde_json::Value> = x
        .session
        .store_origins(id)
        .into_iter()
        .map(|(name, o)| {
            let v = serde_json::json!({
                "line": file_line(o.line),
                "node": o.node.0,
                "kind": o.kind,
            });
            (name, v)
        })
        .collect();
    field(b, "origins", &origins);
    field(b, "pruned", &pruned);
    field(b, "explanation", &explanation);
    field(b, "store_origins", &store_origins);
}

/// `,"name":value`.
fn field<T: Serialize>(b: &mut Vec<u8>, name: &str, value: &T) {
    b.extend_from_slice(b",\"");
    b.extend_from_slice(name.as_bytes());
    b.extend_from_slice(b"\":");
    serde_json::to_writer(&mut *b, value).expect("writing to a Vec");
}

#[derive(Serialize)]
struct Stats {
    nodes: usize,
    leaves: usize,
    solver_checks: u64,
    solver_ms: f64,
    total_ms: f64,
    // Additions to §3.
    open: usize,
    exceptions: usize,
    bounds: usize,
    /// Fold nodes (issue 15).
    folds: usize,
    solver_cache_hits: u64,
    z3_calls: u64,
}

/// Write the object (one line) to `out`. Nodes are written one at a time straight to
/// `out` (each distinct term's text escaped once), with each leaf's model computed as its
/// node is written, in id order; `stats` comes after the nodes, so it counts the models'
/// solver work, and `total_ms` is the time before the nodes plus the models' time
/// (exploration and models, not the printing).
pub(super) fn write(x: &mut Explored, out: &mut dyn Write) -> io::Result<()> {
    let inputs: Vec<Input> = x
        .session
        .inputs()
        .into_iter()
        .map(|(name, ty)| Input {
            name,
            ty: ty.to_string(),
        })
        .collect();
    let before_nodes = x.elapsed_ms();
    // The fields of §3 in order: version, file, inputs, nodes, stats; then entry, stop.
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    out.write_all(b"{\"version\":1,\"file\":")?;
    serde_json::to_writer(&mut out, &x.session.source().name)?;
    out.write_all(b",\"inputs\":")?;
    serde_json::to_writer(&mut out, &inputs)?;
    out.write_all(b",\"nodes\":")?;
    let model_time = node::write_nodes(x, &mut out)?;
    let s = x.session.stats();
    let stats = Stats {
        nodes: s.nodes,
        leaves: s.leaves,
        solver_checks: s.solver.checks,
        solver_ms: millis(s.solver.z3_time.as_secs_f64() * 1000.0),
        total_ms: millis(before_nodes + model_time.as_secs_f64() * 1000.0),
        open: s.open,
        exceptions: s.exceptions,
        bounds: s.bounds,
        folds: s.folds,
        solver_cache_hits: s.solver.cache_hits,
        z3_calls: s.solver.z3_calls,
    };
    out.write_all(b",\"stats\":")?;
    serde_json::to_writer(&mut out, &stats)?;
    out.write_all(b",\"entry\":")?;
    serde_json::to_writer(&mut out, &x.session.entry())?;
    out.write_all(b",\"stop\":")?;
    serde_json::to_writer(&mut out, stop_name(x.stop))?;
    // Issue 29: every counted line's symbolic coverage ("reached", "exception-only",
    // "unreachable", "unexplored"), keyed by the line as a string, in line order.
    out.write_all(b",\"coverage\":{")?;
    for (k, (line, c)) in x.session.coverage().lines.iter().enumerate() {
        let comma = if k == 0 { "" } else { "," };
        write!(out, "{comma}\"{line}\":\"{}\"", c.name())?;
    }
    out.write_all(b"}")?;
    out.write_all(b"}\n")?;
    out.flush()
}

/// Milliseconds rounded to microseconds (no 17-digit noise in the output).
fn millis(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}

fn stop_name(stop: Stop) -> &'static str {
    match stop {
        Stop::Done => "done",
        Stop::NodeLimit => "node_limit",
        Stop::TimeLimit => "time_limit",
        Stop::Cancelled => "cancelled",
    }
}
