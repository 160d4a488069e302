//! The `run --json` schema of DESIGN.md §3, checked field by field on every node: presence,
//! JSON type, and the relations between fields (parent/children, depth, path conditions
//! growing by the branch, leaves without a line, models exactly at satisfiable leaves).

use regex::Regex;
use serde_json::{Map, Value};

/// Every field §3 requires of a node.
const NODE_FIELDS: &[&str] = &[
    "id",
    "parent",
    "children",
    "depth",
    "kind",
    "line",
    "statement",
    "branch",
    "outcome",
    "exception",
    "frames",
    "path_condition",
    "store",
    "return_value",
    "smt2",
    "model",
    "model_store",
];

const OUTCOMES: &[&str] = &[
    "normal",
    "return",
    "exception",
    "infeasible",
    "halt",
    "bound",
    "unknown",
];

pub fn nodes(doc: &Value) -> &Vec<Value> {
    doc["nodes"].as_array().expect("nodes is an array")
}

fn obj<'a>(v: &'a Value, what: &str) -> &'a Map<String, Value> {
    v.as_object()
        .unwrap_or_else(|| panic!("{what} is not an object: {v}"))
}

fn strings<'a>(v: &'a Value, what: &str) -> Vec<&'a str> {
    v.as_array()
        .unwrap_or_else(|| panic!("{what} is not an array: {v}"))
        .iter()
        .map(|s| {
            s.as_str()
                .unwrap_or_else(|| panic!("{what}: not a string {s}"))
        })
        .collect()
}

fn string_map(v: &Value, what: &str) -> Map<String, Value> {
    let m = obj(v, what);
    for (k, s) in m {
        assert!(s.is_string(), "{what}[{k}] is not a string: {s}");
    }
    m.clone()
}

fn null_or_string(v: &Value, what: &str) {
    assert!(v.is_null() || v.is_string(), "{what}: {v}");
}

/// A concrete value of type `ty` (int, bool or tuple) in JSON.
fn value_of_type(v: &Value, ty: &str) -> bool {
    match ty {
        "int" => v.is_i64() || v.is_u64() || v.is_number(),
        "bool" => v.is_boolean(),
        "tuple" => v.as_array().is_some_and(|a| a.iter().all(Value::is_number)),
        _ => false,
    }
}

/// Parentheses balance (an SMT-LIB term).
fn balanced(s: &str) -> bool {
    let mut depth = 0i64;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// Check the whole document; `what` names the run in messages.
pub fn check(doc: &Value, what: &str) {
    let top = obj(doc, what);
    for field in ["version", "file", "inputs", "nodes", "stats"] {
        assert!(top.contains_key(field), "{what}: no `{field}`");
    }
    assert_eq!(doc["version"], 1, "{what}");
    assert!(doc["file"].is_string(), "{what}");
    let mut inputs = Vec::new();
    for i in doc["inputs"].as_array().expect("inputs") {
        let name = i["name"].as_str().expect("input name");
        let ty = i["type"].as_str().expect("input type");
        assert!(["int", "bool", "tuple"].contains(&ty), "{what}: type {ty}");
        inputs.push((name, ty));
    }
    let nodes = nodes(doc);
    assert!(!nodes.is_empty(), "{what}: a root");
    let decl = Regex::new(r"^\(declare-const (\S+|\|[^|]*\|) (Int|Bool|\(Seq Int\))\)$").unwrap();
    for (k, n) in nodes.iter().enumerate() {
        check_node(nodes, k, n, &inputs, &decl, &format!("{what}: node {k}"));
    }
    let stats = obj(&doc["stats"], "stats");
    for field in ["nodes", "leaves", "solver_checks", "solver_ms", "total_ms"] {
        assert!(stats.contains_key(field), "{what}: stats.{field}");
    }
    assert_eq!(stats["nodes"].as_u64(), Some(nodes.len() as u64), "{what}");
    let leaves = nodes.iter().filter(|n| n["kind"] == "leaf").count();
    assert_eq!(stats["leaves"].as_u64(), Some(leaves as u64), "{what}");
    assert!(stats["solver_checks"].is_u64(), "{what}");
    let solver = stats["solver_ms"].as_f64().expect("solver_ms is a number");
    let total = stats["total_ms"].as_f64().expect("total_ms is a number");
    assert!(solver >= 0.0 && total >= 0.0, "{what}: {solver} {total}");
}

fn check_node(
    nodes: &[Value],
    k: usize,
    n: &Value,
    inputs: &[(&str, &str)],
    decl: &Regex,
    what: &str,
) {
    let fields = obj(n, what);
    for f in NODE_FIELDS {
        assert!(fields.contains_key(*f), "{what}: no `{f}` in {n}");
    }
    assert_eq!(n["id"].as_u64(), Some(k as u64), "{what}: ids are indices");
    // Structure.
    let parent = if k == 0 {
        assert!(n["parent"].is_null(), "{what}: the root has no parent");
        assert_eq!(n["depth"].as_u64(), Some(0), "{what}");
        None
    } else {
        let p = n["parent"].as_u64().expect("parent id") as usize;
        assert!(p < k, "{what}: parent {p} created first");
        let siblings = nodes[p]["children"].as_array().unwrap();
        assert!(
            siblings.contains(&Value::from(k)),
            "{what}: not a child of {p}"
        );
        assert_eq!(
            n["depth"].as_u64(),
            nodes[p]["depth"].as_u64().map(|d| d + 1),
            "{what}"
        );
        Some(&nodes[p])
    };
    let children = n["children"].as_array().expect("children");
    for c in children {
        let c = c.as_u64().expect("child id") as usize;
        assert!(c > k && c < nodes.len(), "{what}: child {c}");
        assert_eq!(nodes[c]["parent"].as_u64(), Some(k as u64), "{what}");
    }
    // Kind, position, outcome.
    let kind = n["kind"].as_str().expect("kind");
    let leaf = kind == "leaf";
    match kind {
        "inner" => assert!(!children.is_empty(), "{what}: an inner node has children"),
        "open" | "leaf" => assert!(children.is_empty(), "{what}: {kind} without children"),
        _ => panic!("{what}: kind {kind}"),
    }
    let statement = n["statement"].as_str().expect("statement is a string");
    if leaf {
        assert!(n["line"].is_null(), "{what}: leaves have no line");
        assert_eq!(statement, "", "{what}");
        let outcome = n["outcome"].as_str().expect("a leaf has an outcome");
        assert!(OUTCOMES.contains(&outcome), "{what}: outcome {outcome}");
        let invariant_failure = n["invariant_failure"].as_bool().expect("invariant_failure");
        assert!(
            !invariant_failure || outcome == "exception",
            "{what}: only an exception leaf is an invariant failure"
        );
        if outcome == "exception" {
            let class = n["exception"].as_str().expect("exception class");
            assert!(
                class.ends_with("Error") || class.ends_with("Exception"),
                "{class}"
            );
        } else {
            assert!(n["exception"].is_null(), "{what}");
        }
    } else {
        assert!(n["line"].as_u64().is_some_and(|l| l >= 1), "{what}: line");
        assert!(!statement.is_empty(), "{what}: statement text");
        assert!(n["outcome"].is_null() && n["exception"].is_null(), "{what}");
    }
    null_or_string(&n["branch"], what);
    if k == 0 {
        assert!(n["branch"].is_null(), "{what}");
    }
    let frames = strings(&n["frames"], "frames");
    assert_eq!(frames.first(), Some(&"<module>"), "{what}: {frames:?}");
    // Path condition: the parent's plus what the edge added (the branch: one conjunct, or
    // the conjunction of several when an opaque call ran a whole callee in one step).
    let pc = strings(&n["path_condition"], "path_condition");
    if let Some(p) = parent {
        let before = strings(&p["path_condition"], "path_condition");
        assert!(pc.starts_with(&before), "{what}: pc extends the parent's");
        let added = &pc[before.len()..];
        match n["branch"].as_str() {
            None => assert!(added.is_empty(), "{what}: no branch, nothing added"),
            Some(b) if added.len() == 1 => assert_eq!(added[0], b, "{what}"),
            Some(_) => assert!(added.len() > 1, "{what}: a branch adds to the pc"),
        }
    }
    let store = string_map(&n["store"], "store");
    null_or_string(&n["return_value"], what);
    // The SMT-LIB twin of every term, and declarations of its constants.
    let smt2 = obj(&n["smt2"], "smt2");
    for f in ["declarations", "path_condition", "store", "return_value"] {
        assert!(smt2.contains_key(f), "{what}: no smt2.{f}");
    }
    let decls = smt2["declarations"].as_str().expect("declarations");
    // A slice with a step other than 1 is `py.slice`: its definition comes first.
    let uses_py_slice = n["smt2"].to_string().contains("(py.slice ");
    let decls = match decls.strip_prefix(symdbg::term::PY_SLICE_DEFINITION) {
        Some(rest) => {
            assert!(uses_py_slice, "{what}: py.slice defined but not used");
            rest.trim_start_matches('\n')
        }
        None => {
            assert!(!uses_py_slice, "{what}: py.slice used but not defined");
            decls
        }
    };
    for line in decls.lines() {
        assert!(decl.is_match(line), "{what}: declaration {line:?}");
    }
    // What the path printed (issue 25): lines of minipy items at leaves, null elsewhere;
    // its text under the model wherever there is a model.
    match n["stdout"].as_array() {
        Some(lines) => {
            assert_eq!(n["kind"], "leaf", "{what}: stdout at a leaf only");
            for l in lines {
                strings(l, "stdout line");
            }
        }
        None => assert!(n["stdout"].is_null() && n["kind"] != "leaf", "{what}"),
    }
    assert_eq!(
        n["model_stdout"].is_string(),
        n["model"].is_object() && n["kind"] == "leaf",
        "{what}: model_stdout with the leaf's model"
    );
    let smt_pc = strings(&smt2["path_condition"], "smt2.path_condition");
    assert_eq!(smt_pc.len(), pc.len(), "{what}");
    assert!(smt_pc.iter().all(|t| balanced(t)), "{what}: {smt_pc:?}");
    let smt_store = string_map(&smt2["store"], "smt2.store");
    assert_eq!(
        smt_store.keys().collect::<Vec<_>>(),
        store.keys().collect::<Vec<_>>(),
        "{what}"
    );
    for (name, t) in &smt_store {
        let t = t.as_str().unwrap();
        assert!(balanced(t), "{what}: {t}");
        // An input's own value is its constant, which must be declared.
        if inputs.iter().any(|(i, _)| i == name) && t == name {
            assert!(
                decls
                    .lines()
                    .any(|l| l.starts_with(&format!("(declare-const {name} "))),
                "{what}: {name} undeclared in {decls:?}"
            );
        }
    }
    assert_eq!(smt2["return_value"].is_null(), n["return_value"].is_null());
    // Models exactly at satisfiable leaves, with every input, typed.
    let satisfiable = leaf && !matches!(n["outcome"].as_str(), Some("infeasible" | "unknown"));
    if satisfiable {
        let model = obj(&n["model"], "model");
        // Every input, and the values of havoc'd symbols (`i!1`, `x!2.bound`).
        assert!(
            model
                .keys()
                .all(|k| k.contains('!') || inputs.iter().any(|(i, _)| i == k)),
            "{what}: {model:?}"
        );
        for (k, v) in model.iter().filter(|(k, _)| k.contains('!')) {
            let typed = if k.ends_with(".bound") {
                value_of_type(v, "bool")
            } else {
                ["int", "bool", "tuple"]
                    .iter()
                    .any(|ty| value_of_type(v, ty))
            };
            assert!(typed, "{what}: {k} = {v}");
        }
        for (name, ty) in inputs {
            let v = model
                .get(*name)
                .unwrap_or_else(|| panic!("{what}: no {name}"));
            assert!(value_of_type(v, ty), "{what}: {name}: {ty} = {v}");
        }
        let model_store = obj(&n["model_store"], "model_store");
        assert_eq!(
            model_store.keys().collect::<Vec<_>>(),
            store.keys().collect::<Vec<_>>(),
            "{what}: the whole store under the model"
        );
        for v in model_store.values() {
            assert!(
                ["int", "bool", "tuple"]
                    .iter()
                    .any(|ty| value_of_type(v, ty)),
                "{what}: {v}"
            );
        }
    } else {
        assert!(n["model"].is_null() && n["model_store"].is_null(), "{what}");
    }
}
