//! Differential tests of the symbolic engine against CPython.
//!
//! For every program of the corpus (`tests/data/programs/`, module and `# entry:` runs):
//! 1. every satisfiable `normal`/`return`/`exception` leaf's model is replayed in `python3`:
//!    the same outcome, exception class, return value (entry runs) and final variables
//!    (module runs) must come out;
//! 2. for generated inputs, exactly one explored leaf's path condition holds (evaluated in
//!    Rust under the input), and unless that leaf is a `bound` leaf, python3 agrees with it.
//!
//! A failure names the program, the input (as `symdbg exec` arguments) and both results.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use symdbg::concrete::Value;
use symdbg::engine::{Config, Engine, Limits, NodeId, NodeKind, Outcome};
use symdbg::lang::Type;
use symdbg::term::Model;
use symdbg::term::{Sym, Term};
use symdbg::transform;

use crate::differential::{
    entry_of, generate, params_of, parse_results, py_files, python_output, request, root,
    show_inputs, spawn_oracle, Inputs, Observed, Val, STACK_SIZE,
};

/// Per program: the explored tree must stay below this (corpus programs are small).
const MAX_NODES: usize = 20_000;

/// What one program's exploration produced, as plain data (the engine is not `Send`).
struct Checked {
    name: String,
    entry: Option<String>,
    /// Input sets to replay, each with the leaf's prediction (`None`: bound, not compared).
    sets: Vec<(Inputs, Option<Observed>, String)>,
    failures: Vec<String>,
    leaves: usize,
    /// Leaf models derived from a neighbour's instead of built by Z3.
    derived: u64,
}

fn observed_at(engine: &Engine, leaf: NodeId, model: &Model, entry: bool) -> Option<Observed> {
    let node = engine.tree().node(leaf);
    let (outcome, exception) = match node.outcome()? {
        Outcome::Normal => ("normal", None),
        Outcome::Return => ("return", None),
        Outcome::Exception(c) => ("exception", Some(c.name().to_string())),
        _ => return None,
    };
    let eval = |t: &Term| model.eval(t).map(|v| Val::from_value(&v));
    let store = if entry {
        BTreeMap::new()
    } else {
        engine
            .store(leaf)
            .iter()
            .filter_map(|(k, t)| eval(t).map(|v| (k.clone(), v)))
            .collect()
    };
    Some(Observed {
        outcome: outcome.to_string(),
        exception,
        return_value: if entry {
            node.return_value().and_then(eval)
        } else {
            None
        },
        store,
        // (an item the model cannot evaluate shows as `?`: a disagreement)
        stdout: engine
            .output(leaf)
            .iter()
            .map(|line| {
                let items = line
                    .iter()
                    .map(|t| model.eval(t).map_or("?".to_string(), |v| v.to_string()));
                symdbg::semantics::print_line(items)
            })
            .collect(),
    })
}

/// `model` with the κ of every fold on the path to `id` (κ-search; folds, issue 27).
fn with_kappas(engine: &Engine, id: NodeId, model: Model) -> Model {
    engine
        .with_fold_params(id, &model, symdbg::engine::fold::KAPPA_SEARCH_LIMIT)
        .unwrap_or(model)
}

fn holds(model: &Model, pc: &[Term]) -> bool {
    pc.iter()
        .all(|t| matches!(model.eval(t), Some(Value::Bool(true))))
}

fn model_of(params: &[(String, Type)], set: &Inputs) -> Model {
    let mut values = BTreeMap::new();
    for ((name, ty), (_, v)) in params.iter().zip(set) {
        let sort = match ty {
            Type::Int => symdbg::term::Sort::Int,
            Type::Bool => symdbg::term::Sort::Bool,
            Type::Tuple => symdbg::term::Sort::Seq,
        };
        values.insert(
            Sym {
                name: Rc::from(name.as_str()),
                sort,
            },
            v.to_value(),
        );
    }
    Model {
        values,
        ..Model::default()
    }
}

fn check_program(
    path: &Path,
    max_nodes: usize,
    config: &Config,
    derive_from: Option<usize>,
) -> Checked {
    let name = crate::differential::name_of(path);
    let src = std::fs::read_to_string(path).unwrap();
    let entry = entry_of(&src);
    let mut out = Checked {
        name: name.clone(),
        entry: entry.clone(),
        sets: Vec::new(),
        failures: Vec::new(),
        leaves: 0,
        derived: 0,
    };
    let (program, types, ir) = match transform::load(&src) {
        Ok(x) => x,
        Err(d) => {
            out.failures.push(format!("{name}: does not load: {d:?}"));
            return out;
        }
    };
    let params = params_of(&program, entry.as_deref()).unwrap();
    let mut engine = Engine::new(&program, types, ir, entry.as_deref(), config.clone())
        .unwrap_or_else(|d| panic!("{name}: {d:?}"));
    if let Some(n) = derive_from {
        engine.set_model_derivation_from(n);
    }
    let root = engine.tree().root();
    engine.run(
        root,
        Limits {
            max_nodes: Some(max_nodes),
            ..Limits::default()
        },
    );
    let how = |set: &Inputs| {
        let e = entry
            .as_ref()
            .map_or(String::new(), |f| format!(" --entry {f}"));
        format!("symdbg exec {name}{e} {}", show_inputs(set))
    };
    // 1. Replay every satisfiable leaf's model.
    let leaves: Vec<NodeId> = engine
        .tree()
        .nodes()
        .filter(|n| n.is_leaf())
        .map(|n| n.id)
        .collect();
    out.leaves = leaves.len();
    for &leaf in &leaves {
        if !matches!(
            engine.tree().node(leaf).outcome(),
            Some(Outcome::Normal | Outcome::Return | Outcome::Exception(_))
        ) {
            continue;
        }
        let Some(m) = engine.model(leaf) else {
            out.failures
                .push(format!("{name}: no model for satisfiable leaf {}", leaf.0));
            continue;
        };
        let set: Inputs = params
            .iter()
            .map(|(n, _)| (n.clone(), Val::from_value(&m.inputs[n])))
            .collect();
        let model = with_kappas(&engine, leaf, model_of(&params, &set));
        if derive_from.is_some() && !holds(&model, &engine.path_condition(leaf)) {
            out.failures.push(format!(
                "{name}: the model of leaf {} does not satisfy its path condition",
                leaf.0
            ));
        }
        let expected = observed_at(&engine, leaf, &model, entry.is_some());
        let what = format!("{} (model of leaf {})", how(&set), leaf.0);
        out.sets.push((set, expected, what));
    }
    out.derived = engine.derived_models();
    // 2. Random inputs: exactly one leaf (or still-open node) matches.
    let candidates: Vec<(NodeId, Vec<Term>)> = engine
        .tree()
        .nodes()
        .filter(|n| {
            matches!(n.kind, NodeKind::Open)
                || matches!(
                    n.outcome(),
                    Some(
                        Outcome::Normal
                            | Outcome::Return
                            | Outcome::Exception(_)
                            | Outcome::Bound
                            | Outcome::Halt
                            | Outcome::Unknown
                    )
                )
        })
        .map(|n| (n.id, engine.path_condition(n.id)))
        .collect();
    let file = path.file_name().unwrap().to_string_lossy().to_string();
    for set in generate(&params, &file, 10, 20, false) {
        let model = model_of(&params, &set);
        let matching: Vec<NodeId> = candidates
            .iter()
            .filter(|(id, pc)| holds(&with_kappas(&engine, *id, model.clone()), pc))
            .map(|(id, _)| *id)
            .collect();
        match matching.as_slice() {
            [one] => {
                let node = engine.tree().node(*one);
                let undecided = matches!(node.outcome(), Some(Outcome::Bound | Outcome::Unknown));
                let expected = if node.is_open() || undecided {
                    None
                } else {
                    let model = with_kappas(&engine, *one, model.clone());
                    observed_at(&engine, *one, &model, entry.is_some())
                };
                let what = format!("{} (random input, leaf {})", how(&set), one.0);
                out.sets.push((set, expected, what));
            }
            many => out.failures.push(format!(
                "{}: {} leaves' path conditions hold (expected exactly one): {:?}",
                how(&set),
                many.len(),
                many.iter().map(|n| n.0).collect::<Vec<_>>()
            )),
        }
    }
    out
}

#[test]
fn engine_agrees_with_python_on_the_corpus() {
    let files: Vec<PathBuf> = py_files(&root().join("tests/data/programs"));
    assert!(files.len() >= 40, "the corpus has {} programs", files.len());
    let compared = differential_over(files, MAX_NODES);
    assert!(compared > 500, "only {compared} comparisons");
}

/// Random well-typed programs from the shared generator (fixed seed): every leaf model and
/// random inputs replayed in python3, as for the corpus.
#[test]
fn engine_agrees_with_python_on_generated_programs() {
    let dir = std::env::temp_dir().join(format!("symdbg-symbolic-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = symdbg::base::rng::SplitMix64::new(0x5eed_0003);
    let mut next = || rng.next_u64();
    // CI runs 80; `SYMDBG_GEN_PROGRAMS=2000 cargo test --test it generated` runs more by hand.
    let count: usize = std::env::var("SYMDBG_GEN_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(80);
    let files: Vec<PathBuf> = (0..count)
        .map(|k| {
            let choices: Vec<u32> = (0..160).map(|_| next() as u32).collect();
            let src = symdbg::lang::pretty::program(&crate::gen::program(&choices));
            let path = dir.join(format!("gen_{k:04}.py"));
            std::fs::write(&path, src).unwrap();
            path
        })
        .collect();
    let compared = differential_over(files, 5_000);
    if std::env::var_os("SYMDBG_KEEP_GENERATED").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(compared > 300, "only {compared} comparisons");
}

/// Explore every program, replay in python3; panics with the mismatches. Returns how many
/// runs were compared.
pub(crate) fn differential_over(files: Vec<PathBuf>, max_nodes: usize) -> usize {
    differential_over_with(files, max_nodes, Config::default())
}

/// [`differential_over`] with the engine's configuration (`--fold auto`, `--recursion`).
pub(crate) fn differential_over_with(
    files: Vec<PathBuf>,
    max_nodes: usize,
    config: Config,
) -> usize {
    differential_run(files, max_nodes, config, None).0
}

/// Leaf models derived from the previous leaf's at every depth (issue 30; by default only
/// components of `solver::DERIVE_FROM` conjuncts or more are): each must satisfy its
/// leaf's path condition and replay to the leaf in python3, as Z3's models do.
#[test]
fn derived_leaf_models_replay_to_their_leaves() {
    let mut files: Vec<PathBuf> = py_files(&root().join("tests/data/programs"));
    let dir = std::env::temp_dir().join(format!("symdbg-derived-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = symdbg::base::rng::SplitMix64::new(0x5eed_0030);
    for k in 0..60 {
        let choices: Vec<u32> = (0..160).map(|_| rng.next_u64() as u32).collect();
        let src = symdbg::lang::pretty::program(&crate::gen::program(&choices));
        let path = dir.join(format!("gen_{k:04}.py"));
        std::fs::write(&path, src).unwrap();
        files.push(path);
    }
    let (compared, derived) = differential_run(files, 5_000, Config::default(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(compared > 500, "only {compared} comparisons");
    assert!(derived > 200, "only {derived} models derived");
}

/// Explore and replay as [`differential_over_with`]; also the number of derived models.
fn differential_run(
    files: Vec<PathBuf>,
    max_nodes: usize,
    config: Config,
    derive_from: Option<usize>,
) -> (usize, u64) {
    let checked: Vec<Checked> = std::thread::Builder::new()
        .stack_size(STACK_SIZE)
        .spawn(move || {
            files
                .iter()
                .map(|p| check_program(p, max_nodes, &config, derive_from))
                .collect()
        })
        .unwrap()
        .join()
        .expect("the engine panicked");
    let mut failures: Vec<String> = checked.iter().flat_map(|c| c.failures.clone()).collect();
    // One python3 process for all replays.
    let requests: Vec<String> = checked
        .iter()
        .map(|c| {
            let sets: Vec<Inputs> = c.sets.iter().map(|(s, _, _)| s.clone()).collect();
            request(&root().join(&c.name), c.entry.as_deref(), &sets, Some(10.0))
        })
        .collect();
    let answer = python_output(spawn_oracle(&format!("[{}]", requests.join(", "))))
        .expect("run_python.py failed");
    let answers = answer.as_array().expect("a list of answers");
    let mut replays = 0;
    let mut compared = 0;
    for (c, a) in checked.iter().zip(answers) {
        let theirs = match parse_results(a, c.sets.len()) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: {e}", c.name));
                continue;
            }
        };
        for ((_, expected, what), mut theirs) in c.sets.iter().zip(theirs) {
            replays += 1;
            let Some(expected) = expected else { continue };
            compared += 1;
            if c.entry.is_some() {
                theirs.store.clear();
            }
            if *expected != theirs {
                failures.push(format!(
                    "{what}\n  python3: {theirs}\n  symdbg:  {expected}"
                ));
            }
        }
    }
    let leaves: usize = checked.iter().map(|c| c.leaves).sum();
    eprintln!(
        "symbolic differential: {} programs, {leaves} leaves, {replays} inputs replayed, {compared} compared, {} failures",
        checked.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures; first ones:\n\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    (compared, checked.iter().map(|c| c.derived).sum())
}
