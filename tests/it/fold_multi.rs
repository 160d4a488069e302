//! Two-parameter templates (issue 27, seed 004 §6): loops with two cyclic paths whose
//! updates commute fold into one node with κ and λ. Checked against the concrete
//! interpreter and classic unrolling on every input of a box (tuples up to length 4),
//! python3 (every leaf's model replayed), tree sizes independent of `--unroll`, and
//! generated two-path loops.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use symdbg::concrete::Value;
use symdbg::engine::fold::FoldMode;
use symdbg::engine::{Config, Engine, NodeId, Outcome};
use symdbg::lang::Type;
use symdbg::transform;

use crate::fold::{concrete_ending, explore, symbolic_ending};
use crate::util::symdbg;

mod cli;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fold_multi");

/// The programs of `tests/data/fold_multi` with a two-parameter template.
const FOLDED: [&str; 7] = [
    "count_if.py",
    "two_counters.py",
    "reads_counter.py",
    "early_return.py",
    "assert_count.py",
    "backwards.py",
    "strides.py",
];

fn read(file: &str) -> (String, String) {
    let src = std::fs::read_to_string(format!("{DIR}/{file}")).unwrap();
    let entry = src
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# entry: "))
        .expect("an `# entry:` line")
        .trim()
        .to_string();
    (src, entry)
}

/// Every input of the box: tuples of length 0..=4 over -1..=2, ints in -1..=2.
fn box_inputs(params: &[(String, Type)]) -> Vec<BTreeMap<String, Value>> {
    let mut tuples: Vec<Vec<i64>> = vec![vec![]];
    let mut layer: Vec<Vec<i64>> = vec![vec![]];
    for _ in 0..4 {
        layer = layer
            .into_iter()
            .flat_map(|p| {
                (-1..=2).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
        tuples.extend(layer.clone());
    }
    let mut out = vec![BTreeMap::new()];
    for (name, ty) in params {
        let values: Vec<Value> = match ty {
            Type::Int => (-1..=2).map(|i: i64| Value::Int(i.into())).collect(),
            Type::Bool => vec![Value::Bool(false), Value::Bool(true)],
            Type::Tuple => tuples
                .iter()
                .map(|t| Value::Tuple(t.iter().map(|&i| i.into()).collect::<Vec<_>>().into()))
                .collect(),
        };
        out = out
            .into_iter()
            .flat_map(|m| {
                values.iter().map(move |v| {
                    let mut m = m.clone();
                    m.insert(name.clone(), v.clone());
                    m
                })
            })
            .collect();
    }
    out
}

fn params(src: &str, entry: &str) -> Vec<(String, Type)> {
    let (_, _, ir) = transform::load(src).unwrap();
    ir.functions[entry].params.clone()
}

/// The leaves of `e` that end the run (no bound, no infeasible leaf).
fn ending_leaves(e: &Engine) -> BTreeSet<NodeId> {
    e.tree()
        .nodes()
        .filter(|n| {
            matches!(
                n.outcome(),
                Some(Outcome::Return | Outcome::Normal | Outcome::Exception(_))
            )
        })
        .map(|n| n.id)
        .collect()
}

/// Every `sample`-th input of the box ends on the folded tree's leaf as the interpreter
/// runs it (exhaustiveness), classic unrolling past the box's lengths ends the same, the
/// two trees find the same outcomes, and (`precise`) every ending leaf of the folded tree
/// is reached by an input. Returns the folded tree.
pub(crate) fn agree_on_box(src: &str, entry: &str, sample: usize, precise: bool) -> Engine {
    let folded = explore(src, entry, FoldMode::Auto, 3);
    let classic = explore(src, entry, FoldMode::Off, 5);
    let mut reached = BTreeSet::new();
    let (mut from_folded, mut from_classic) = (BTreeSet::new(), BTreeSet::new());
    for inputs in box_inputs(&params(src, entry)).into_iter().step_by(sample) {
        let concrete = concrete_ending(src, entry, &inputs);
        let (leaf, f) = symbolic_ending(&folded, &inputs)
            .unwrap_or_else(|| panic!("{src}\n{inputs:?}: no folded leaf holds"));
        assert_eq!(f, concrete, "{src}\n{inputs:?}: fold vs interpreter");
        let (_, c) = symbolic_ending(&classic, &inputs)
            .unwrap_or_else(|| panic!("{src}\n{inputs:?}: no classic leaf holds"));
        assert_eq!(c, concrete, "{src}\n{inputs:?}: classic vs interpreter");
        reached.insert(leaf);
        from_folded.insert(f.0);
        from_classic.insert(c.0);
    }
    assert_eq!(from_folded, from_classic, "{src}: outcomes");
    if precise {
        for leaf in ending_leaves(&folded) {
            assert!(
                reached.contains(&leaf),
                "{src}: leaf {} is reached by no input",
                leaf.0
            );
        }
    }
    folded
}

#[test]
fn two_parameter_folds_agree_with_the_interpreter_on_every_input_of_a_box() {
    for file in FOLDED {
        let (src, entry) = read(file);
        let folded = agree_on_box(&src, &entry, 1, true);
        let s = folded.stats();
        assert_eq!(s.folds, 1, "{file}: one two-parameter fold");
        assert_eq!(s.bounds, 0, "{file}: a bound leaf");
        let fold = folded
            .tree()
            .nodes()
            .find_map(|n| folded.fold_at(n.id))
            .unwrap();
        assert!(fold.multi.is_some(), "{file}: a one-path fold");
    }
}

/// Every satisfiable leaf's model replayed in python3 (outcome, exception, return value:
/// the programs return their counters and index, so the store is compared too).
#[test]
fn two_parameter_fold_leaves_agree_with_python() {
    let mut files: Vec<PathBuf> = FOLDED.iter().map(|f| PathBuf::from(DIR).join(f)).collect();
    files.push(PathBuf::from(DIR).join("no_multi.py"));
    let mut config = Config::default();
    config.fold = FoldMode::Auto;
    config.unroll = 3;
    let compared = crate::symbolic::differential_over_with(files, 20_000, config);
    assert!(compared >= 60, "only {compared} comparisons");
}

#[test]
fn two_parameter_folds_do_not_grow_with_unroll() {
    for file in FOLDED {
        let (src, entry) = read(file);
        let sizes: Vec<usize> = [1, 3, 10, 50]
            .iter()
            .map(|&u| {
                let e = explore(&src, &entry, FoldMode::Auto, u);
                assert_eq!(e.stats().bounds, 0, "{file} --unroll {u}");
                assert_eq!(e.stats().folds, 1, "{file} --unroll {u}");
                e.stats().nodes
            })
            .collect();
        assert!(sizes.iter().all(|n| *n == sizes[0]), "{file}: {sizes:?}");
        let classic: Vec<usize> = [1, 3, 6]
            .iter()
            .map(|&u| explore(&src, &entry, FoldMode::Off, u).stats().nodes)
            .collect();
        assert!(
            classic.windows(2).all(|w| w[0] < w[1]) && classic[0] > sizes[0],
            "{file}: classic {classic:?}, compact {sizes:?}"
        );
    }
}

#[test]
fn templates_say_which_loops_get_two_parameters_and_why_not() {
    let (code, out, err) = symdbg(&["run", "tests/data/fold_multi/count_if.py", "--templates"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "count_if.py:6: two-parameter template: κ iterations of path 1 (6 enter, 7 then, 8, 9) \
             and λ of path 2 (6 enter, 7 else, 9), in any order"
        ),
        "{out}"
    );
    assert!(out.contains("i ↦ i + κ + λ, k ↦ k + κ"), "{out}");
    let (code, out, err) = symdbg(&["run", "tests/data/fold_multi/no_multi.py", "--templates"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "no_multi.py:6: no two-parameter template: `last` changes on path 1 and is not \
             increased by a constant"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "no_multi.py:16: no two-parameter template: 3 paths through the body come back"
        ),
        "{out}"
    );
    // Those loops still fold with one parameter.
    assert_eq!(out.matches("template, path (").count(), 2, "{out}");
}

#[test]
fn json_models_and_labels_of_a_two_parameter_fold() {
    let (code, out, err) = symdbg(&[
        "run",
        "tests/data/fold_multi/count_if.py",
        "--entry",
        "count_if",
        "--fold",
        "auto",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let nodes = doc["nodes"].as_array().unwrap();
    let fold = nodes.iter().find(|n| !n["fold"].is_null()).unwrap();
    assert_eq!(fold["fold"]["param"], "κ1");
    assert_eq!(fold["fold"]["lambda"], "λ1");
    assert_eq!(fold["fold"]["counts"], "ω1");
    assert_eq!(fold["fold"]["closed_forms"]["k"], "k + κ1");
    assert_eq!(fold["fold"]["closed_forms"]["i"], "i + κ1 + λ1");
    assert_eq!(fold["fold"]["path2"].as_array().unwrap().len(), 3);
    let leaf = nodes.iter().find(|n| n["outcome"] == "return").unwrap();
    let model = &leaf["model"];
    let (k, l) = (
        model["k@1"].as_i64().unwrap(),
        model["l@1"].as_i64().unwrap(),
    );
    let a = model["a"].as_array().unwrap();
    let x = model["x"].as_i64().unwrap();
    // The model's κ and λ are the real counts of its inputs.
    let matches = a.iter().filter(|v| v.as_i64() == Some(x)).count() as i64;
    assert_eq!((k, l), (matches, a.len() as i64 - matches), "{model}");
    assert_eq!(leaf["model_params"]["κ1"], k);
    assert_eq!(leaf["model_params"]["λ1"], l);
    // The tree's labels.
    let (_, tree, _) = symdbg(&[
        "run",
        "tests/data/fold_multi/count_if.py",
        "--entry",
        "count_if",
        "--fold",
        "auto",
    ]);
    assert!(
        tree.contains("fold: κ1 iterations of path 1 (6 enter, 7 then, 8, 9) and λ1 of path 2"),
        "{tree}"
    );
    assert!(
        tree.contains("exit: the loop condition fails after κ1 + λ1 iterations"),
        "{tree}"
    );
    assert!(
        // (κ1 * 100 + (κ1 + λ1) normalised for display)
        tree.contains("return  return κ1 * 101 + λ1"),
        "{tree}"
    );
}

/// Generated two-path loops: the branch, each path's increments, an exit in the body.
fn generated() -> Vec<String> {
    let conds = ["t[i] == a", "t[i] > a", "t[i] + c == a", "t[i] != c"];
    let incs = [
        ("c = c + 1", "d = d + 0"),
        ("c = c + 2", "d = d - 1"),
        ("c = c - 1", "c = c + 1"),
    ];
    let extras = [
        "",
        "        if t[i] < 0:\n            break\n",
        "        assert c != 2\n",
        "        if t[i] == 2:\n            return c * 7\n",
    ];
    let loops = [("0", "i < len(t)", "1"), ("len(t) - 1", "i >= 0", "-1")];
    let mut out = Vec::new();
    let mut k = 0usize;
    for cond in conds {
        for (p1, p2) in incs {
            for (start, guard, step) in loops {
                k += 1;
                let extra = extras[k % extras.len()];
                out.push(format!(
                    "def f(t: tuple, a: int) -> int:\n    i = {start}\n    c = 0\n    d = 0\n    \
                     while {guard}:\n{extra}        if {cond}:\n            {p1}\n        else:\n            \
                     {p2}\n        i += {step}\n    return c * 100 + d * 10 + i\n"
                ));
            }
        }
    }
    out
}

#[test]
fn generated_two_path_loops_agree_with_the_interpreter_and_python() {
    let dir = std::env::temp_dir().join(format!("symdbg-fold-multi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let progs = generated();
    let mut files = Vec::new();
    let mut folded = 0;
    for (k, src) in progs.iter().enumerate() {
        // Every 5th input of the box (all tuple lengths, every a).
        let e = agree_on_box(src, "f", 5, false);
        let multi = e
            .tree()
            .nodes()
            .any(|n| e.fold_at(n.id).is_some_and(|f| f.multi.is_some()));
        folded += usize::from(multi);
        let path = dir.join(format!("multi_{k:03}.py"));
        std::fs::write(&path, src).unwrap();
        files.push(path);
    }
    let mut config = Config::default();
    config.fold = FoldMode::Auto;
    config.unroll = 3;
    let compared = crate::symbolic::differential_over_with(files, 20_000, config);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "generated two-path loops: {} programs, {folded} with a two-parameter fold, {compared} leaf and random runs compared with python3",
        progs.len()
    );
    assert!(
        folded * 4 >= progs.len() * 3,
        "only {folded} of {} folded with two parameters",
        progs.len()
    );
    assert!(compared >= progs.len() * 5, "only {compared} comparisons");
}
