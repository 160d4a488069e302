//! symdbg's side: the invariant-mode tree's red leaves, and per input the leaf of the
//! unrolled tree.

use std::collections::BTreeMap;
use std::time::Duration;

use symdbg::base::SourceMap;
use symdbg::concrete::Value;
use symdbg::engine::{Config, Engine, Limits, LoopMode, Outcome};
use symdbg::transform;

use super::python::{Input, PyRun};

/// A red leaf of symdbg's tree.
#[derive(Clone, Debug)]
pub(super) struct Red {
    pub(super) class: String,
    pub(super) line: usize,
    pub(super) invariant: bool,
    /// The model's inputs (JSON, as python3 gets them).
    pub(super) model: Option<Input>,
}

/// What symdbg's exploration produced.
#[derive(Clone, Debug, Default)]
pub(super) struct Tree {
    pub(super) reds: Vec<Red>,
    /// `bound` or `unknown` leaves, or open nodes left (no verdict).
    pub(super) incomplete: bool,
    pub(super) nodes: usize,
}

pub(super) fn to_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Int(i) => serde_json::from_str(&i.to_string()).unwrap(),
        Value::Bool(b) => (*b).into(),
        Value::Tuple(t) => serde_json::Value::Array(
            t.iter()
                .map(|i| serde_json::from_str(&i.to_string()).unwrap())
                .collect(),
        ),
    }
}

/// The leaf of an unrolled tree whose path condition an input satisfies.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Hit {
    /// A bound, unknown or open node: no prediction.
    Undecided,
    Normal,
    /// (class, line, invariant failure).
    Raises(String, usize, bool),
    /// Not exactly one leaf: how many.
    Matches(usize),
}

pub(super) fn input_model(inp: &Input) -> symdbg::term::Model {
    use symdbg::term::{Sort, Sym};
    let mut values = BTreeMap::new();
    for (name, v) in inp {
        let (sort, value) = match v {
            serde_json::Value::Array(xs) => (
                Sort::Seq,
                Value::Tuple(
                    xs.iter()
                        .map(|x| x.to_string().parse().unwrap())
                        .collect::<Vec<_>>()
                        .into(),
                ),
            ),
            x => (Sort::Int, Value::Int(x.to_string().parse().unwrap())),
        };
        values.insert(
            Sym {
                name: std::rc::Rc::from(name.as_str()),
                sort,
            },
            value,
        );
    }
    symdbg::term::Model {
        values,
        ..Default::default()
    }
}

/// `src` explored as `run` explores it in the campaign: `mode`, `--unroll 4`,
/// `--recursion 3`, 20 s per check, at most 20,000 nodes or 20 s.
fn explored(src: &str, mode: LoopMode) -> Result<Engine, String> {
    let (program, types, ir) = transform::load(src).map_err(|d| format!("{d:?}"))?;
    let mut config = Config::default();
    config.loops = mode;
    config.unroll = 4;
    config.recursion = 3;
    config.timeout_ms = Some(20_000);
    let mut e = Engine::new(&program, types, ir, None, config).map_err(|d| format!("{d:?}"))?;
    let root = e.tree().root();
    e.run(
        root,
        Limits {
            max_nodes: Some(20_000),
            time: Some(Duration::from_secs(20)),
            ..Limits::default()
        },
    );
    Ok(e)
}

/// `--loops unroll`: per input, the one leaf whose path condition holds.
pub(super) fn unrolled(src: &str, inputs: &[Input]) -> Result<Vec<Hit>, String> {
    let e = explored(src, LoopMode::Unroll)?;
    let map = SourceMap::new("prog.py", src);
    let candidates: Vec<_> = e
        .tree()
        .nodes()
        .filter(|n| n.is_open() || n.outcome().is_some_and(|o| o != Outcome::Infeasible))
        .map(|n| (n.id, e.path_condition(n.id)))
        .collect();
    Ok(inputs
        .iter()
        .map(|inp| {
            let model = input_model(inp);
            let ids: Vec<_> = candidates
                .iter()
                .filter(|(_, pc)| {
                    pc.iter()
                        .all(|t| matches!(model.eval(t), Some(Value::Bool(true))))
                })
                .map(|(id, _)| *id)
                .collect();
            let [id] = ids[..] else {
                return Hit::Matches(ids.len());
            };
            let node = e.tree().node(id);
            match node.outcome() {
                Some(Outcome::Normal) => Hit::Normal,
                Some(Outcome::Exception(c)) => Hit::Raises(
                    c.name().to_string(),
                    node.exception_at().map_or(0, |s| map.line(s.start)),
                    node.invariant_failure(),
                ),
                _ => Hit::Undecided,
            }
        })
        .collect())
}

/// What python3's checked run predicts for the leaf an input reaches when unrolled.
pub(super) fn expected_hit(r: &PyRun) -> Hit {
    match (&r.inv, &r.checked) {
        (Some(line), _) => Hit::Raises("AssertionError".into(), *line, true),
        (None, Some((c, line))) => Hit::Raises(c.clone(), *line, false),
        (None, None) => Hit::Normal,
    }
}

pub(super) fn explore(src: &str) -> Result<Tree, String> {
    let mut e = explored(src, LoopMode::Invariant)?;
    let map = SourceMap::new("prog.py", src);
    let mut tree = Tree {
        incomplete: e.stats().open > 0,
        nodes: e.stats().nodes,
        ..Tree::default()
    };
    let leaves: Vec<_> = e
        .tree()
        .nodes()
        .filter_map(|n| n.outcome().map(|o| (n.id, o)))
        .collect();
    for (id, o) in leaves {
        match o {
            Outcome::Bound | Outcome::Unknown => tree.incomplete = true,
            Outcome::Exception(class) => {
                let node = e.tree().node(id).clone();
                let model = e.model(id).map(|m| {
                    m.inputs
                        .iter()
                        .map(|(k, v)| (k.clone(), to_json(v)))
                        .collect()
                });
                tree.reds.push(Red {
                    class: class.name().to_string(),
                    line: node.exception_at().map_or(0, |s| map.line(s.start)),
                    invariant: node.invariant_failure(),
                    model,
                });
            }
            _ => {}
        }
    }
    Ok(tree)
}
