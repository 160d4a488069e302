//! The `nodes` array of `--json`, written by hand (issue 13): each distinct term's minipy
//! and SMT-LIB texts are escaped once and copied into every node that shows them, each
//! distinct set of constants has its `declarations` text once, and nothing per node is
//! built as a map or a value tree. The bytes are those `serde_json` wrote from the
//! `JsonNode` struct this replaced: the field order and null/absent rules are the schema's
//! (the module doc of `json.rs`); cold parts (folds, `--explain`, model values) still go
//! through `serde_json`.
//!
//! A node's fields, in order (§3, then the additions of `json.rs`): `id`, `parent`,
//! `children`, `depth`, `kind` (`inner`, `open` or `leaf`), `line` (1-based, of the
//! statement about to run; null at leaves), `statement` (that line's text, trimmed; "" at
//! leaves), `branch` (the condition the edge from the parent added, minipy, or null),
//! `outcome`, `exception` (the class at an exception leaf), `frames` (the call stack,
//! outermost first: `<module>`, then function names), `path_condition`, `store` (the
//! innermost frame's visible variables), `return_value`, `smt2` {`declarations`,
//! `path_condition`, `store`, `return_value`}, `model` (concrete inputs reaching the leaf:
//! every satisfiable leaf, null elsewhere), `model_store` (the store under the model),
//! `exception_line`, `exception_column`, `unknown_reason`, `model_return_value`, `label`,
//! `invariant_failure`, `contract_failure` (`requires`/`ensures` at a contract's failure,
//! else null), `abstract` (a leaf below a use of a contract), `model_unknown_reason`, `fold` (at a folded loop head), `fold_exit`
//! (at a fold's exit: its `--tree` label), `fallback` (issue 31: "unrolled" at a fold's
//! fallback node, the loop unrolled where a fold leaf was undecided), `fallback_node` (at
//! such an undecided leaf: the fallback's id), `model_params` (at a leaf under folds: each
//! fold's parameter and its value), `stdout` (at a leaf: the printed lines, each a list
//! of its items in minipy; null elsewhere), `model_stdout` (the text those lines print
//! under the model: CPython's stdout on the model's inputs), and with `--explain` only: `origins`, `pruned`,
//! `explanation`, `store_origins`.

use std::collections::HashMap;
use std::io::{self, Write};
use std::rc::Rc;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::super::Explored;
use crate::base::span::Line;
use crate::session::json_texts::{escaped, JsonTexts, NodeTexts, Text};
use crate::session::{NodeId, NodeKind, NodeModel, Outcome, Value};

/// Per-run caches and per-node scratch buffers.
#[derive(Default)]
struct Scratch {
    texts: JsonTexts,
    /// Statement texts per line, escaped.
    lines: HashMap<usize, Box<str>>,
    /// Variable names, escaped.
    keys: HashMap<Rc<str>, Box<str>>,
    node: NodeTexts,
}

/// `[node, node, ...]` to `out`, in id order, with the model of every leaf (computed as its
/// node is written: no model outlives its node). Returns the time the models took.
pub(super) fn write_nodes(x: &mut Explored, out: &mut dyn Write) -> io::Result<Duration> {
    let mut s = Scratch::default();
    let mut model_time = Duration::ZERO;
    let mut buf = Vec::with_capacity(1 << 17);
    buf.push(b'[');
    for i in 0..x.session.tree().len() {
        let id = NodeId(i as u32);
        if i > 0 {
            buf.push(b',');
        }
        let model = if x.session.tree().node(id).is_leaf() {
            let start = Instant::now();
            let m = x.session.try_model(id);
            model_time += start.elapsed();
            Some(m)
        } else {
            None
        };
        let (model, no_model) = match &model {
            Some(Ok(m)) => (Some(m), None),
            // No model at infeasible and unknown leaves; elsewhere the solver's reason.
            Some(Err(reason)) => match x.session.tree().node(id).outcome() {
                Some(Outcome::Infeasible | Outcome::Unknown) => (None, None),
                _ => (None, Some(reason.text())),
            },
            None => (None, None),
        };
        node(x, id, model, no_model, &mut s, &mut buf);
        if buf.len() >= 1 << 16 {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    buf.push(b']');
    out.write_all(&buf)?;
    Ok(model_time)
}

fn node(
    x: &Explored,
    id: NodeId,
    model: Option<&NodeModel>,
    no_model: Option<&str>,
    s: &mut Scratch,
    b: &mut Vec<u8>,
) {
    let session = &x.session;
    let source = session.source();
    let n = session.tree().node(id);
    // The terms the node shows, and their constants.
    session.node_json_texts(id, &mut s.texts, &mut s.node);
    let (pc, store, rv) = (&s.node.path_condition, &s.node.store, &s.node.return_value);

    b.extend_from_slice(b"{\"id\":");
    num(b, id.0 as u64);
    b.extend_from_slice(b",\"parent\":");
    opt_num(b, n.parent.map(|p| p.0 as u64));
    b.extend_from_slice(b",\"children\":[");
    for (i, c) in n.children.iter().enumerate() {
        if i > 0 {
            b.push(b',');
        }
        num(b, c.0 as u64);
    }
    b.extend_from_slice(b"],\"depth\":");
    num(b, n.depth as u64);
    b.extend_from_slice(b",\"kind\":");
    b.extend_from_slice(match n.kind {
        NodeKind::Inner => b"\"inner\"",
        NodeKind::Open => b"\"open\"",
        NodeKind::Leaf(_) => b"\"leaf\"",
    });
    let line = n.at().map(|sp| source.line(sp.start));
    b.extend_from_slice(b",\"line\":");
    opt_num(b, line.and_then(super::file_line).map(|l| l as u64));
    b.extend_from_slice(b",\"statement\":");
    match line {
        // (raw: JSON escapes control characters itself)
        Some(l) => {
            let text = s.lines.entry(l).or_insert_with(|| {
                let text = source.line_text(l).trim();
                match Line::of(l) {
                    Line::Assume(_) => escaped(&format!("assume {text}")),
                    Line::File(_) => escaped(text),
                }
            });
            b.extend_from_slice(text.as_bytes());
        }
        None => b.extend_from_slice(b"\"\""),
    }
    b.extend_from_slice(b",\"branch\":");
    match &s.node.branch {
        Some(t) => b.extend_from_slice(t.minipy.as_bytes()),
        None => null(b),
    }
    let outcome = n.outcome();
    b.extend_from_slice(b",\"outcome\":");
    opt_str(b, outcome.map(Outcome::name));
    b.extend_from_slice(b",\"exception\":");
    let exception = match outcome {
        Some(Outcome::Exception(c)) => Some(c),
        _ => None,
    };
    opt_str(b, exception.map(|c| c.name()));
    // At an exception leaf: the frames at the raise, like a traceback (and the TUI).
    b.extend_from_slice(b",\"frames\":[");
    for (i, f) in session.frames_at_raise(id).iter().enumerate() {
        if i > 0 {
            b.push(b',');
        }
        string(b, f);
    }
    b.extend_from_slice(b"],\"path_condition\":");
    list(b, pc.iter().map(|t| &*t.minipy));
    b.extend_from_slice(b",\"store\":");
    object(b, &mut s.keys, store, |t| &t.minipy);
    b.extend_from_slice(b",\"return_value\":");
    opt_raw(b, rv.as_ref().map(|t| &*t.minipy));
    b.extend_from_slice(b",\"smt2\":{\"declarations\":");
    b.extend_from_slice(s.node.declarations.as_bytes());
    b.extend_from_slice(b",\"path_condition\":");
    list(b, pc.iter().map(|t| &*t.smt2));
    b.extend_from_slice(b",\"store\":");
    object(b, &mut s.keys, store, |t| &t.smt2);
    b.extend_from_slice(b",\"return_value\":");
    opt_raw(b, rv.as_ref().map(|t| &*t.smt2));
    b.extend_from_slice(b"},\"model\":");
    match model {
        // Inputs and havoc symbols have distinct names: merge the two sorted maps.
        Some(m) => {
            let mut all: Vec<(&String, &Value)> = m.inputs.iter().chain(&m.havoc).collect();
            all.sort_by(|a, b| a.0.cmp(b.0));
            all.dedup_by(|later, earlier| {
                // (as `BTreeMap::extend`: a havoc value replaces an input's)
                if later.0 == earlier.0 {
                    earlier.1 = later.1;
                    true
                } else {
                    false
                }
            });
            values(b, all);
        }
        None => null(b),
    }
    b.extend_from_slice(b",\"model_store\":");
    match model {
        Some(m) => values(b, m.store.iter().collect()),
        None => null(b),
    }
    let raised_at = match n.kind {
        NodeKind::Leaf(Outcome::Exception(_)) => {
            n.exception_at().map(|sp| source.line_col(sp.start))
        }
        _ => None,
    };
    b.extend_from_slice(b",\"exception_line\":");
    opt_num(
        b,
        raised_at
            .and_then(|(l, _)| super::file_line(l))
            .map(|l| l as u64),
    );
    b.extend_from_slice(b",\"exception_column\":");
    opt_num(b, raised_at.map(|(_, c)| c as u64));
    b.extend_from_slice(b",\"unknown_reason\":");
    opt_str(b, n.unknown_reason());
    b.extend_from_slice(b",\"model_return_value\":");
    match model.and_then(|m| m.return_value.as_ref()) {
        Some(v) => value(b, v),
        None => null(b),
    }
    b.extend_from_slice(b",\"label\":");
    match n.label() {
        Some(l) => string(b, l),
        None => opt_str(b, session.caught_text(id).as_deref()),
    }
    b.extend_from_slice(b",\"invariant_failure\":");
    b.extend_from_slice(if n.invariant_failure() {
        b"true"
    } else {
        b"false"
    });
    b.extend_from_slice(b",\"contract_failure\":");
    opt_str(b, session.contract_failure(id).map(|c| c.clause.name()));
    b.extend_from_slice(b",\"abstract\":");
    b.extend_from_slice(if n.is_leaf() && session.is_abstract(id) {
        b"true"
    } else {
        b"false"
    });
    b.extend_from_slice(b",\"model_unknown_reason\":");
    opt_str(b, no_model);
    b.extend_from_slice(b",\"fold\":");
    serde(b, &session.fold_json(id));
    b.extend_from_slice(b",\"fold_exit\":");
    opt_str(b, session.fold_exit_label(id).as_deref());
    b.extend_from_slice(b",\"fallback\":");
    opt_str(b, session.fallback_json(id));
    b.extend_from_slice(b",\"fallback_node\":");
    match session.fallback_node(id) {
        Some(f) => b.extend_from_slice(f.0.to_string().as_bytes()),
        None => null(b),
    }
    b.extend_from_slice(b",\"model_params\":");
    serde(
        b,
        &model.and_then(|m| session.fold_params_json(id, &m.havoc)),
    );
    // Leaves: what the path printed (lines of items, minipy over the inputs) and that
    // output under the model (CPython's stdout on the model's inputs).
    b.extend_from_slice(b",\"stdout\":");
    if n.is_leaf() {
        serde(b, &session.output_at(id));
    } else {
        null(b);
    }
    b.extend_from_slice(b",\"model_stdout\":");
    opt_str(b, model.and_then(|m| m.stdout.as_deref()));
    // At a node about to run (or an exception raised in) the `--assume` expression `k`.
    if let Some(k) = line
        .or(raised_at.map(|(l, _)| l))
        .and_then(|l| Line::of(l).assumption())
    {
        b.extend_from_slice(b",\"assumption\":");
        num(b, k as u64);
    }
    super::explain_fields(x, id, b);
    b.push(b'}');
}

fn num(b: &mut Vec<u8>, n: u64) {
    let _ = write!(b, "{n}");
}

fn null(b: &mut Vec<u8>) {
    b.extend_from_slice(b"null");
}

fn opt_num(b: &mut Vec<u8>, n: Option<u64>) {
    match n {
        Some(n) => num(b, n),
        None => null(b),
    }
}

fn string(b: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(&mut *b, s).expect("writing to a Vec");
}

fn opt_str(b: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => string(b, s),
        None => null(b),
    }
}

/// An already escaped string, or null.
fn opt_raw(b: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => b.extend_from_slice(s.as_bytes()),
        None => null(b),
    }
}

/// A list of already escaped strings.
fn list<'a>(b: &mut Vec<u8>, items: impl Iterator<Item = &'a str>) {
    b.push(b'[');
    for (i, s) in items.enumerate() {
        if i > 0 {
            b.push(b',');
        }
        b.extend_from_slice(s.as_bytes());
    }
    b.push(b']');
}

/// A store as an object (its keys are sorted: the store is an ordered map).
fn object(
    b: &mut Vec<u8>,
    keys: &mut HashMap<Rc<str>, Box<str>>,
    store: &[(Rc<str>, Rc<Text>)],
    text: impl Fn(&Text) -> &str,
) {
    b.push(b'{');
    for (i, (k, t)) in store.iter().enumerate() {
        if i > 0 {
            b.push(b',');
        }
        let k = keys.entry(k.clone()).or_insert_with(|| escaped(k));
        b.extend_from_slice(k.as_bytes());
        b.push(b':');
        b.extend_from_slice(text(t).as_bytes());
    }
    b.push(b'}');
}

/// Concrete values as a JSON object (sorted by name; ints exact, tuples as arrays).
fn values(b: &mut Vec<u8>, vals: Vec<(&String, &Value)>) {
    b.push(b'{');
    for (i, (k, v)) in vals.into_iter().enumerate() {
        if i > 0 {
            b.push(b',');
        }
        string(b, k);
        b.push(b':');
        value(b, v);
    }
    b.push(b'}');
}

/// A concrete value as `Value::to_json` prints it: an int's decimal digits (serde_json's
/// arbitrary-precision numbers print as written), `true`/`false`, a tuple as an array.
fn value(b: &mut Vec<u8>, v: &Value) {
    match v {
        Value::Int(i) => {
            let _ = write!(b, "{i}");
        }
        Value::Bool(x) => b.extend_from_slice(if *x { b"true" } else { b"false" }),
        Value::Tuple(t) => {
            b.push(b'[');
            for (i, x) in t.iter().enumerate() {
                if i > 0 {
                    b.push(b',');
                }
                let _ = write!(b, "{x}");
            }
            b.push(b']');
        }
    }
}

fn serde<T: Serialize>(b: &mut Vec<u8>, v: &T) {
    serde_json::to_writer(&mut *b, v).expect("writing to a Vec");
}

#[cfg(test)]
mod tests {
    use num_bigint::BigInt;

    use super::*;

    #[test]
    fn values_are_written_as_serde_json_writes_to_json() {
        let big: BigInt = BigInt::from(-7i64) << 200u32;
        let vals = [
            Value::Int(0.into()),
            Value::Int((-12345).into()),
            Value::Int(big.clone()),
            Value::Bool(true),
            Value::Bool(false),
            Value::Tuple(std::sync::Arc::from(Vec::<BigInt>::new())),
            Value::Tuple(std::sync::Arc::from(vec![BigInt::from(1)])),
            Value::Tuple(std::sync::Arc::from(vec![
                BigInt::from(-1),
                big,
                BigInt::from(0),
            ])),
        ];
        for v in &vals {
            let mut b = Vec::new();
            value(&mut b, v);
            let want = serde_json::to_string(&v.to_json()).unwrap();
            assert_eq!(String::from_utf8(b).unwrap(), want, "{v}");
        }
    }
}
