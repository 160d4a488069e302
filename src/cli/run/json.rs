//! `--json`: the explored SET as one JSON object — DESIGN.md §3, a public interface.
//!
//! The structs below *are* the schema: field names and order are those of §3, and the
//! schema only grows by adding fields (never renaming or dropping one). Additions to §3,
//! all present on every object (null when they do not apply):
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
//!   holds `"k@1": 100`, like havoc symbols);
//! - `--assume` (preconditions): a node about to run the `--assume` expression `k` (or an
//!   exception raised in it) has `"assumption": k` (the key is absent elsewhere), `line`
//!   (`exception_line`) null and `statement` `assume EXPR`; with `--explain`, origins, pruned
//!   branches, core members and features from it also have `line` null and `assumption`.
//! - stats: `open`, `exceptions`, `bounds`, `folds`, `solver_cache_hits`, `z3_calls`.
//! - node `label` also says, at a node about to run an exception handler, which exception
//!   it caught: "IndexError raised at line 5, caught at line 9" (still a string or null).
//!
//! With `--explain` (and only then: without it these keys are absent, so the output is
//! byte for byte what it was), every node has:
//! - `origins`: parallel to `path_condition`, where each conjunct came from:
//!   `{"line", "node", "transition"}` (the statement's line, the node whose step added it,
//!   which way that step went: "then", "enter the loop", "IndexError at 4:9", ...);
//! - `pruned`: on stepped (`inner`) nodes, the alternatives of the step that were
//!   infeasible, `[{"branch", "line", "transition", "verdict", "core": [{"condition",
//!   "line", "node", "transition"}], "minimal"}]` (the core: the conditions that together
//!   rule the branch out; `minimal`: dropping any one makes the rest satisfiable); null on
//!   other nodes;
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

use crate::base::span::assumption_of_line;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{self, Write};

use serde::ser::{SerializeSeq, Serializer};
use serde::Serialize;

use super::Explored;
use crate::concrete::Value;
use crate::engine::explain::Verdict;
use crate::engine::{NodeId, NodeModel, Outcome, Stop};
use crate::session::Why;
use crate::term::{smt2_declarations, Sym, Term};

/// The whole output object.
#[derive(Serialize)]
struct Output<'a> {
    version: u32,
    file: String,
    inputs: Vec<Input>,
    nodes: Nodes<'a>,
    stats: Stats,
    // Additions to §3.
    entry: Option<String>,
    stop: &'static str,
}

/// A symbolic input: a declared module input or a parameter of the `--entry` function.
#[derive(Serialize)]
struct Input {
    name: String,
    /// `int`, `bool` or `tuple`.
    #[serde(rename = "type")]
    ty: String,
}

/// One SET node.
#[derive(Serialize)]
struct JsonNode {
    id: u32,
    parent: Option<u32>,
    children: Vec<u32>,
    depth: u32,
    /// `inner`, `open` or `leaf`.
    kind: &'static str,
    /// 1-based line of the statement about to run; null at leaves (and at an `--assume`
    /// precondition, which is in no line of the file).
    line: Option<usize>,
    /// That line's text, trimmed; "" at leaves.
    statement: String,
    /// The condition added on the edge from the parent (minipy), or null.
    branch: Option<String>,
    outcome: Option<&'static str>,
    /// The exception class at an exception leaf.
    exception: Option<&'static str>,
    /// The call stack, outermost first: `<module>`, then function names.
    frames: Vec<String>,
    path_condition: Vec<String>,
    /// The innermost frame's visible variables.
    store: BTreeMap<String, String>,
    return_value: Option<String>,
    smt2: Smt2,
    /// Concrete inputs reaching this leaf (every satisfiable leaf; null elsewhere).
    model: Option<BTreeMap<String, serde_json::Value>>,
    /// The store evaluated under the model.
    model_store: Option<BTreeMap<String, serde_json::Value>>,
    // Additions to §3.
    exception_line: Option<usize>,
    exception_column: Option<usize>,
    unknown_reason: Option<String>,
    model_return_value: Option<serde_json::Value>,
    label: Option<String>,
    invariant_failure: bool,
    model_unknown_reason: Option<String>,
    /// At a folded loop head (issue 15): the fold's parameter and template.
    fold: Option<super::fold_text::FoldJson>,
    /// At a fold's exit: how it leaves the folded path (the `--tree` label).
    fold_exit: Option<String>,
    /// At a leaf under folds: each fold's parameter (`κ1`) and its value in the model.
    model_params: Option<BTreeMap<String, serde_json::Value>>,
    /// At a node about to run (or an exception raised in) the `--assume` expression `k`:
    /// `k` (1-based); absent elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    assumption: Option<usize>,
    // `--explain` only (absent without it).
    #[serde(skip_serializing_if = "Option::is_none")]
    origins: Option<Vec<JsonOrigin>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pruned: Option<Option<Vec<JsonPruned>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    explanation: Option<Option<JsonExplanation>>,
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
}

/// A pruned alternative of a step (`--explain`).
#[derive(Serialize)]
struct JsonPruned {
    branch: String,
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    assumption: Option<usize>,
    /// Which way it would have gone ("else", "IndexError at 4:9").
    transition: String,
    verdict: &'static str,
    core: Vec<JsonCore>,
    minimal: bool,
}

/// A member of an unsat core (`--explain`).
#[derive(Serialize)]
struct JsonCore {
    condition: String,
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
            Verdict::Unknown(r) => Some(r.clone()),
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
fn file_line(line: usize) -> Option<usize> {
    assumption_of_line(line).is_none().then_some(line)
}

/// The `--explain` fields of a node.
fn explain_fields(x: &Explored, id: NodeId, json: &mut JsonNode) {
    let Some(ex) = &x.explained else { return };
    json.origins = Some(
        x.session
            .origins(id)
            .into_iter()
            .map(|o| JsonOrigin {
                line: file_line(o.line),
                assumption: assumption_of_line(o.line),
                node: o.node.0,
                transition: o.transition,
            })
            .collect(),
    );
    json.pruned = Some(ex.pruned.get(&id).map(|ps| {
        ps.iter()
            .map(|(p, why)| JsonPruned {
                branch: p.branch.clone(),
                line: file_line(p.line),
                assumption: assumption_of_line(p.line),
                transition: p.transition.clone(),
                verdict: why.verdict_name(),
                core: core(why),
                minimal: why.minimal,
            })
            .collect()
    }));
    json.explanation = Some(ex.leaves.get(&id).map(|w| explanation(w)));
}

/// The node's terms in SMT-LIB.
#[derive(Serialize)]
struct Smt2 {
    /// `(declare-const ...)` lines for every constant used below.
    declarations: String,
    path_condition: Vec<String>,
    store: BTreeMap<String, String>,
    return_value: Option<String>,
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

/// Write the object (one line) to `out`. Models are computed first (they are solver work
/// of this run, so `stats` is taken after them); nodes are then serialised one at a time
/// straight to `out`, printing each distinct term once (path conditions share prefixes).
pub(super) fn write(x: &mut Explored, out: &mut dyn Write) -> io::Result<()> {
    let leaves: Vec<NodeId> = x
        .session
        .tree()
        .nodes()
        .filter(|n| n.is_leaf())
        .map(|n| n.id)
        .collect();
    // No model at infeasible and unknown leaves; elsewhere the solver's reason if none.
    let mut models = HashMap::new();
    let mut no_model = HashMap::new();
    for id in leaves {
        match x.session.engine_mut().try_model(id) {
            Ok(m) => {
                models.insert(id, m);
            }
            Err(reason) => {
                if !matches!(
                    x.session.tree().node(id).outcome(),
                    Some(Outcome::Infeasible | Outcome::Unknown)
                ) {
                    no_model.insert(id, reason);
                }
            }
        }
    }
    let inputs = x
        .session
        .engine()
        .inputs()
        .iter()
        .map(|s| Input {
            name: s.name.to_string(),
            ty: s.sort.to_type().to_string(),
        })
        .collect();
    let s = x.session.engine().stats();
    let stats = Stats {
        nodes: s.nodes,
        leaves: s.leaves,
        solver_checks: s.solver.checks,
        solver_ms: millis(s.solver.z3_time.as_secs_f64() * 1000.0),
        total_ms: millis(x.elapsed_ms()),
        open: s.open,
        exceptions: s.exceptions,
        bounds: s.bounds,
        folds: s.folds,
        solver_cache_hits: s.solver.cache_hits,
        z3_calls: s.solver.z3_calls,
    };
    let doc = Output {
        version: 1,
        file: x.session.source().name.clone(),
        inputs,
        nodes: Nodes {
            x,
            models,
            no_model,
            texts: RefCell::default(),
        },
        stats,
        entry: x.session.entry().map(str::to_string),
        stop: stop_name(x.stop),
    };
    let mut out = io::BufWriter::new(out);
    serde_json::to_writer(&mut out, &doc).map_err(io::Error::from)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// Every node, serialised lazily in id order.
struct Nodes<'a> {
    x: &'a Explored,
    models: HashMap<NodeId, NodeModel>,
    /// Why a leaf that is neither infeasible nor unknown has no model.
    no_model: HashMap<NodeId, String>,
    texts: RefCell<Texts>,
}

impl Serialize for Nodes<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let tree = self.x.session.tree();
        let mut seq = ser.serialize_seq(Some(tree.len()))?;
        let mut texts = self.texts.borrow_mut();
        for n in tree.nodes() {
            let mut json = node(self.x, n.id, self.models.get(&n.id), &mut texts);
            json.model_unknown_reason = self.no_model.get(&n.id).cloned();
            explain_fields(self.x, n.id, &mut json);
            seq.serialize_element(&json)?;
        }
        seq.end()
    }
}

/// Each distinct term's minipy text, SMT-LIB text and constants, computed once (path
/// conditions share prefixes). The texts kept are bounded: past [`TEXTS_BYTES`] the cache
/// starts afresh (the nodes of a long path each hold a different large term).
#[derive(Default)]
struct Texts {
    terms: HashMap<Term, (String, String, Vec<Sym>)>,
    bytes: usize,
}

const TEXTS_BYTES: usize = 64 << 20;

impl Texts {
    fn get(&mut self, t: &Term) -> &(String, String, Vec<Sym>) {
        if self.bytes > TEXTS_BYTES && !self.terms.contains_key(t) {
            self.terms.clear();
            self.bytes = 0;
        }
        let bytes = &mut self.bytes;
        self.terms.entry(t.clone()).or_insert_with(|| {
            let mut syms = BTreeSet::new();
            t.vars(&mut syms);
            let (text, smt2) = (t.to_string(), t.to_smt2());
            *bytes += text.len() + smt2.len();
            (text, smt2, syms.into_iter().collect())
        })
    }

    fn minipy(&mut self, t: &Term) -> String {
        self.get(t).0.clone()
    }

    fn smt2(&mut self, t: &Term) -> String {
        self.get(t).1.clone()
    }
}

fn node(x: &Explored, id: NodeId, model: Option<&NodeModel>, texts: &mut Texts) -> JsonNode {
    let session = &x.session;
    let engine = session.engine();
    let n = session.tree().node(id);
    let view = session.view(id);
    let pc = engine.path_condition(id);
    let store = engine.store(id);
    let return_value = n.return_value.as_ref();
    let mut syms = BTreeSet::<Sym>::new();
    for t in pc
        .iter()
        .chain(store.iter().map(|(_, t)| t))
        .chain(return_value)
    {
        syms.extend(texts.get(t).2.iter().cloned());
    }
    JsonNode {
        id: id.0,
        parent: view.parent.map(|p| p.0),
        children: n.children.iter().map(|c| c.0).collect(),
        depth: view.depth,
        kind: view.kind_name(),
        line: view.line.and_then(file_line),
        // (raw: JSON escapes control characters itself)
        statement: view.line.map_or(String::new(), |l| {
            let text = session.source().line_text(l).trim();
            match assumption_of_line(l) {
                Some(_) => format!("assume {text}"),
                None => text.to_string(),
            }
        }),
        branch: n.branch.as_ref().map(|b| texts.minipy(b)),
        outcome: view.outcome().map(Outcome::name),
        exception: view.exception().map(|c| c.name()),
        // At an exception leaf: the frames at the raise, like a traceback (and the TUI).
        frames: engine.frames(engine.raise_node(id)),
        path_condition: pc.iter().map(|t| texts.minipy(t)).collect(),
        store: store
            .iter()
            .map(|(k, t)| (k.clone(), texts.minipy(t)))
            .collect(),
        return_value: return_value.map(|t| texts.minipy(t)),
        smt2: Smt2 {
            declarations: smt2_declarations(&syms),
            path_condition: pc.iter().map(|t| texts.smt2(t)).collect(),
            store: store
                .iter()
                .map(|(k, t)| (k.clone(), texts.smt2(t)))
                .collect(),
            return_value: return_value.map(|t| texts.smt2(t)),
        },
        model: model.map(|m| {
            let mut all = values(&m.inputs);
            all.extend(values(&m.havoc));
            all
        }),
        model_store: model.map(|m| values(&m.store)),
        exception_line: view.raised_at.and_then(|(l, _)| file_line(l)),
        exception_column: view.raised_at.map(|(_, c)| c),
        unknown_reason: view.unknown_reason.clone(),
        model_return_value: model.and_then(|m| m.return_value.as_ref().map(Value::to_json)),
        label: view.note().map(str::to_string),
        invariant_failure: view.invariant_failure,
        model_unknown_reason: None,
        assumption: view
            .line
            .or(view.raised_at.map(|(l, _)| l))
            .and_then(assumption_of_line),
        fold: super::fold_text::fold_json(x, id),
        fold_exit: engine
            .fold_exit(id)
            .and_then(|_| super::fold_text::label(x, id)),
        model_params: model.and_then(|m| super::fold_text::params_json(engine, id, &m.havoc)),
        origins: None,
        pruned: None,
        explanation: None,
    }
}

/// Concrete values as JSON (ints exact, tuples as arrays).
fn values(map: &BTreeMap<String, Value>) -> BTreeMap<String, serde_json::Value> {
    map.iter().map(|(k, v)| (k.clone(), v.to_json())).collect()
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
