//! Leaf models below several folds (issues 30, 31): every feasible leaf gets a model, the
//! model is minimal (checked by brute force over smaller inputs, by evaluation, not by
//! Z3), it replays to its leaf in the concrete interpreter and in python3, and it does not
//! depend on the per-call time limit (`--timeout-ms`): the quantifier-free form of
//! `solver/bounded.rs` answers the model queries, counted in Z3's resource units.

use std::collections::BTreeMap;

use symdbg::concrete::Value;
use symdbg::engine::fold::{FoldMode, KAPPA_SEARCH_LIMIT};
use symdbg::engine::{Engine, NodeId, Outcome};
use symdbg::term::{Model, Sym, Term};

use crate::differential::{parse_results, python_output, request, root, spawn_oracle, Val};
use crate::fold::{concrete_ending, explore, read, symbolic_ending};
use crate::util::symdbg;

/// Folded loops with a branch and no two-parameter template (an update on one path that is
/// not a constant step): at `--unroll 4` their deepest leaves sit below four folds.
/// (`parity.py`, the program, now gets one two-parameter fold: 4 nodes.)
const PROGRAMS: [(&str, &str); 2] = [("parity_last.py", "parity"), ("big_sum.py", "big_sum")];

/// Element values tried for the smaller tuples of the brute-force minimality check.
const SMALL: [i64; 5] = [-1, 0, 1, 2, 3];

/// Does the tuple `t` reach `leaf` of `e` (κs found by κ-search)?
fn reaches(e: &Engine, leaf: NodeId, t: &[i64]) -> bool {
    let input = e.inputs()[0].clone();
    let model = Model {
        values: [(input, Value::tuple(t.iter().map(|&v| v.into()).collect()))].into(),
        ..Model::default()
    };
    let Some(m) = e.with_fold_params(leaf, &model, KAPPA_SEARCH_LIMIT) else {
        return false;
    };
    e.path_condition(leaf)
        .iter()
        .all(|c| m.eval(c) == Some(Value::Bool(true)))
}

/// Every tuple of length `n` over `values`.
fn tuples(n: usize, values: &[i64]) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|t| {
                values.iter().map(move |&v| {
                    let mut t = t.clone();
                    t.push(v);
                    t
                })
            })
            .collect();
    }
    out
}

/// The folds (κs) on the path to `leaf`.
fn kappas(e: &Engine, leaf: NodeId) -> usize {
    let mut syms = std::collections::BTreeSet::<Sym>::new();
    e.path_condition(leaf)
        .iter()
        .for_each(|t: &Term| t.vars(&mut syms));
    // (κn is printed for the symbol `k@n`)
    syms.iter()
        .filter(|s| s.name.starts_with("k@") || s.name.starts_with('κ'))
        .count()
}

#[test]
fn leaves_below_three_folds_get_minimal_models_that_replay() {
    for (file, entry) in PROGRAMS {
        let src = read(file);
        let mut e = explore(&src, entry, FoldMode::Auto, 4);
        let leaves: Vec<NodeId> = e
            .tree()
            .nodes()
            .filter(|n| n.is_leaf() && n.outcome() != Some(Outcome::Infeasible))
            .map(|n| n.id)
            .collect();
        let mut deep = 0;
        let mut sets = Vec::new();
        for leaf in leaves {
            let m = e
                .model(leaf)
                .unwrap_or_else(|| panic!("{file}: no model for leaf {}", leaf.0));
            let Value::Tuple(items) = &m.inputs["t"] else {
                panic!("{file}: t is not a tuple: {:?}", m.inputs);
            };
            let t: Vec<i64> = items.iter().map(|v| i64::try_from(v).unwrap()).collect();
            assert!(
                reaches(&e, leaf, &t),
                "{file}: {t:?} misses leaf {}",
                leaf.0
            );
            deep += usize::from(kappas(&e, leaf) >= 3);
            // Minimal: no shorter tuple reaches the leaf, nor one of the same length
            // with smaller elements.
            for n in 0..t.len() {
                if let Some(s) = tuples(n, &SMALL).iter().find(|s| reaches(&e, leaf, s)) {
                    panic!("{file}: leaf {}: {s:?} is shorter than {t:?}", leaf.0);
                }
            }
            let top = t.iter().map(|v| v.abs()).max().unwrap_or(0);
            let smaller: Vec<i64> = (1 - top..top).collect();
            if let Some(s) = tuples(t.len(), &smaller)
                .iter()
                .filter(|_| top > 0)
                .find(|s| reaches(&e, leaf, s))
            {
                panic!("{file}: leaf {}: {s:?} is smaller than {t:?}", leaf.0);
            }
            if e.tree().node(leaf).outcome() != Some(Outcome::Return) {
                continue;
            }
            // Replayed: the concrete interpreter ends as the leaf does, and python3
            // returns what the interpreter returns.
            let inputs: BTreeMap<String, Value> = m.inputs.clone();
            let (reached, ending) = symbolic_ending(&e, &inputs).expect("a leaf holds");
            assert_eq!(reached, leaf, "{file}: {t:?}");
            let concrete = concrete_ending(&src, entry, &inputs);
            assert_eq!(concrete, ending, "{file}: {t:?}");
            let value = m.return_value.clone().expect("a return value");
            sets.push((t, Val::from_value(&value)));
        }
        assert!(deep >= 4, "{file}: {deep} leaves below three folds");
        let inputs: Vec<Vec<(String, Val)>> = sets
            .iter()
            .map(|(t, _)| {
                let items = t.iter().map(|&v| v.into()).collect();
                vec![("t".to_string(), Val::from_value(&Value::tuple(items)))]
            })
            .collect();
        let path = root().join("tests/data/fold").join(file);
        let answer = python_output(spawn_oracle(&request(
            &path,
            Some(entry),
            &inputs,
            Some(10.0),
        )))
        .expect("python3");
        let theirs = parse_results(&answer, inputs.len()).expect("python3's results");
        for ((t, ours), theirs) in sets.iter().zip(theirs) {
            assert_eq!(theirs.return_value.as_ref(), Some(ours), "{file}: {t:?}");
        }
    }
}

/// The models of `symdbg run --json` (every node's model, κs and reason for none).
fn models(file: &str, entry: &str, timeout_ms: &str) -> Vec<String> {
    let (code, out, err) = symdbg(&[
        "run",
        file,
        "--entry",
        entry,
        "--unroll",
        "4",
        "--fold",
        "auto",
        "--json",
        "--timeout-ms",
        timeout_ms,
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    json["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .filter(|n| n["kind"] == "leaf")
        .map(|n| {
            format!(
                "{} model={} params={} reason={}",
                n["id"], n["model"], n["model_params"], n["model_unknown_reason"]
            )
        })
        .collect()
}

/// `symdbg testgen`'s tests (the file from its first test on: the header names the
/// options).
fn tests(file: &str, entry: &str, timeout_ms: &str, out: &std::path::Path) -> String {
    let (code, _, err) = symdbg(&[
        "testgen",
        file,
        "--entry",
        entry,
        "--unroll",
        "4",
        "--fold",
        "auto",
        "--timeout-ms",
        timeout_ms,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(out).unwrap();
    let first = text.find("\ndef test_").expect("a test");
    text[first..].to_string()
}

#[test]
fn fold_models_are_the_same_whatever_the_time_limit() {
    let dir = std::env::temp_dir().join(format!("symdbg-fold-models-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (file, entry) in PROGRAMS {
        let file = format!("tests/data/fold/{file}");
        let short = models(&file, entry, "1000");
        let long = models(&file, entry, "10000");
        assert_eq!(short, long, "{file}");
        for leaf in &short {
            assert!(leaf.ends_with("reason=null"), "{file}: {leaf}");
            assert!(!leaf.contains("model=null"), "{file}: {leaf}");
        }
        let short = tests(&file, entry, "1000", &dir.join("a_test.py"));
        let long = tests(&file, entry, "10000", &dir.join("b_test.py"));
        assert_eq!(short, long, "{file}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
