//! A [`Suite`] as JSON lines, and their replay (KLEE's `.ktest` and `klee-replay` roles).
//!
//! One object per test, fields in this order: `test`, `leaf`, `entry`, `inputs`,
//! `outcome`, `exception`, `line`, `store`, `return_value`, `stdout` (what the run
//! prints, byte for byte CPython's stdout; absent when it prints nothing), `path_condition` and
//! `disagreement` (null, or what the symbolic leaf said when it differed from the concrete
//! run), `assume` (the `--assume` preconditions, only when there are some), then
//! `model_params` (`{"κ1": 100}`) only for a leaf below folded loops. Values are JSON: ints
//! numbers (exact however large), bools booleans, tuples arrays.
//! `store` is the module variables of a module run (empty for `--entry`), `return_value`
//! the value an entry run returned (null also for `None`). [`parse`] reads a line back and
//! [`replay`] runs it with the concrete interpreter: `symdbg exec FILE --replay T.jsonl`.

use std::collections::BTreeMap;

use num_bigint::BigInt;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use super::{Expect, Suite};
use crate::diagnostics::Diagnostic;
use crate::session::program::ConcreteConfig;
use crate::session::{Loaded, Value, MODEL_TUPLE_LIMIT};

#[derive(Serialize, Deserialize)]
struct Line {
    test: String,
    leaf: Option<u32>,
    entry: Option<String>,
    inputs: BTreeMap<String, Json>,
    outcome: String,
    exception: Option<String>,
    line: Option<usize>,
    #[serde(default)]
    store: BTreeMap<String, Json>,
    return_value: Option<Json>,
    /// What the run prints (CPython's stdout); absent when it prints nothing.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    stdout: String,
    #[serde(default)]
    path_condition: Option<String>,
    #[serde(default)]
    disagreement: Option<String>,
    /// The `--assume` preconditions the inputs were generated under (absent: none);
    /// replay runs them as the program's first statements too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    assume: Vec<String>,
    /// `--fold auto`: the leaf model's κ per fold on its path (`{"κ1": 100}`); absent
    /// without folds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    model_params: Option<BTreeMap<String, Json>>,
}

/// One test read back from a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub test: String,
    pub entry: Option<String>,
    /// The `--assume` preconditions (see [`replay`]).
    pub assume: Vec<String>,
    pub inputs: BTreeMap<String, Value>,
    pub expect: Expect,
}

/// Did symdbg write the file that starts with `head` (its first bytes)? Each of its lines
/// is an object whose first field is `test`.
pub fn written_by_symdbg(head: &[u8]) -> bool {
    head.starts_with(b"{\"test\":")
}

/// The suite as JSON lines (one per test, each ending in a newline).
pub fn render(suite: &Suite) -> String {
    let json =
        |m: &BTreeMap<String, Value>| m.iter().map(|(k, v)| (k.clone(), v.to_json())).collect();
    let mut out = String::new();
    for t in &suite.tests {
        let e = &t.expect;
        let line = Line {
            test: t.name.clone(),
            leaf: Some(t.leaf.0),
            entry: suite.entry.clone(),
            inputs: json(&t.inputs),
            outcome: e.outcome.clone(),
            exception: e.exception.clone(),
            line: e.line,
            store: json(&e.store),
            return_value: e.return_value.as_ref().map(Value::to_json),
            stdout: e.stdout.clone(),
            path_condition: Some(t.path_condition.clone()),
            disagreement: t.disagreement.as_ref().map(Expect::describe),
            assume: suite.assumptions.clone(),
            model_params: (!t.folds.is_empty()).then(|| {
                t.folds
                    .iter()
                    .filter_map(|f| Some((f.name.clone(), f.value.as_ref()?.to_json())))
                    .collect()
            }),
        };
        // A struct of strings, numbers and maps always serialises.
        out.push_str(&serde_json::to_string(&line).unwrap_or_default());
        out.push('\n');
    }
    out
}

/// A JSON value as a minipy value: a number (an int), a boolean, an array of numbers.
fn value(j: &Json) -> Result<Value, String> {
    let int = |j: &Json| -> Result<BigInt, String> {
        match j {
            Json::Number(n) => n
                .to_string()
                .parse::<BigInt>()
                .map_err(|_| format!("`{n}` is not an int")),
            other => Err(format!("`{other}` is not an int")),
        }
    };
    match j {
        Json::Bool(b) => Ok(Value::Bool(*b)),
        Json::Array(items) if items.len() as u64 > MODEL_TUPLE_LIMIT => Err(format!(
            "a tuple of {} elements is longer than symdbg replays ({})",
            items.len(),
            MODEL_TUPLE_LIMIT
        )),
        Json::Array(items) => Ok(Value::tuple(
            items.iter().map(int).collect::<Result<_, _>>()?,
        )),
        other => int(other).map(Value::Int),
    }
}

fn values(m: &BTreeMap<String, Json>) -> Result<BTreeMap<String, Value>, String> {
    m.iter()
        .map(|(k, v)| Ok((k.clone(), value(v).map_err(|e| format!("`{k}`: {e}"))?)))
        .collect()
}

/// Read one line of a `--format jsonl` file.
pub fn parse(text: &str) -> Result<Case, String> {
    let l: Line = serde_json::from_str(text).map_err(|e| e.to_string())?;
    Ok(Case {
        test: l.test,
        entry: l.entry,
        assume: l.assume,
        inputs: values(&l.inputs)?,
        expect: Expect {
            outcome: l.outcome,
            exception: l.exception,
            line: l.line,
            store: values(&l.store)?,
            return_value: l.return_value.as_ref().map(value).transpose()?,
            stdout: l.stdout,
        },
    })
}

/// Run a case with the concrete interpreter: what the run does now (compare it with
/// `case.expect`). `loaded` must carry the case's `assume` preconditions
/// ([`Loaded::assume`]): inputs that violate one end `infeasible`. `Err` when the inputs
/// no longer fit the program (a renamed input, an unknown entry function).
pub fn replay(loaded: &Loaded, case: &Case) -> Result<Expect, Diagnostic> {
    let entry = case.entry.as_deref();
    let r = loaded.run_concrete(entry, &case.inputs, &ConcreteConfig::default())?;
    Ok(Expect::of_run(&r, &loaded.source, entry.is_some()))
}
