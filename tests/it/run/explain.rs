//! `symdbg run --explain` and the session's "why" (`src/session/why.rs`): origins parallel
//! to `path_condition` on every node of every example; `--explain` never changes the tree;
//! without it the output has none of its keys; every pruned core of the examples re-checked
//! outside Z3 (dropping any member: a model of the rest, evaluated with `Model::eval` in
//! Rust, satisfies the others); known answers; `--tree --explain` snapshots.

use std::collections::BTreeSet;

use serde_json::Value as Json;
use symdbg::base::SourceMap;
use symdbg::concrete::Value;
use symdbg::engine::explain::Verdict;
use symdbg::engine::{Config, Limits, LoopMode, NodeKind};
use symdbg::session::{Policy, Session, WhyTarget};
use symdbg::solver::{Solver, SolverConfig};
use symdbg::term::{Sym, Term};

use super::super::util::{examples, symdbg};
use super::RUNS;

fn json(args: &[&str]) -> Json {
    let (code, out, err) = symdbg(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// What `--explain` must not change: the tree's shape, conditions and outcomes.
fn shape(doc: &Json) -> Vec<String> {
    doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            format!(
                "{} {} {} {} {} {} {}",
                n["id"],
                n["parent"],
                n["children"],
                n["kind"],
                n["outcome"],
                n["branch"],
                n["path_condition"]
            )
        })
        .collect()
}

/// Every example (and the run module's option sets): same tree with and without
/// `--explain`; origins parallel to the path condition, each from a node on the root path
/// whose line is a statement line; pruned lists only on inner nodes; explanations exactly
/// on infeasible and unknown leaves.
#[test]
fn origins_are_parallel_and_the_tree_is_unchanged() {
    let mut runs: Vec<(String, Vec<&str>)> = examples()
        .into_iter()
        .map(|f| (f, vec!["--unroll", "2", "--max-nodes", "400"]))
        .collect();
    runs.extend(RUNS.iter().map(|(f, o)| (f.to_string(), o.to_vec())));
    let (mut origins, mut pruned) = (0, 0);
    for (file, opts) in &runs {
        let mut plain_args = vec!["run", file.as_str(), "--json"];
        plain_args.extend(opts.iter().copied());
        let plain = json(&plain_args);
        let mut args = plain_args.clone();
        args.push("--explain");
        let doc = json(&args);
        assert_eq!(shape(&plain), shape(&doc), "{file} {opts:?}");
        let nodes = doc["nodes"].as_array().unwrap();
        for (p, n) in plain["nodes"].as_array().unwrap().iter().zip(nodes) {
            for key in ["origins", "pruned", "explanation", "store_origins"] {
                assert!(p.get(key).is_none(), "{file}: {key} without --explain");
                assert!(n.get(key).is_some(), "{file}: no {key} with --explain");
            }
            let pc = n["path_condition"].as_array().unwrap();
            let os = n["origins"].as_array().unwrap();
            assert_eq!(pc.len(), os.len(), "{file} node {}", n["id"]);
            // The root path of this node.
            let mut path = BTreeSet::new();
            let mut at = n["parent"].as_u64();
            while let Some(a) = at {
                path.insert(a);
                at = nodes[a as usize]["parent"].as_u64();
            }
            for o in os {
                let from = o["node"].as_u64().unwrap();
                assert!(
                    path.contains(&from),
                    "{file}: origin {o} not above {}",
                    n["id"]
                );
                assert_eq!(nodes[from as usize]["line"], o["line"], "{file}: {o}");
                assert!(!o["transition"].as_str().unwrap().is_empty());
                origins += 1;
            }
            // Issue 29: every store variable has its value's origin, at the node or above it.
            let store: Vec<&String> = n["store"].as_object().unwrap().keys().collect();
            let so = n["store_origins"].as_object().unwrap();
            assert_eq!(
                store,
                so.keys().collect::<Vec<_>>(),
                "{file} node {}",
                n["id"]
            );
            for o in so.values() {
                let from = o["node"].as_u64().unwrap();
                assert!(
                    from == n["id"].as_u64().unwrap() || path.contains(&from),
                    "{file}: {o}"
                );
                assert!(o["line"].is_u64() || o["line"].is_null(), "{file}: {o}");
                assert!(o["kind"].is_string(), "{file}: {o}");
            }
            let leaf_to_explain = matches!(n["outcome"].as_str(), Some("infeasible" | "unknown"));
            assert_eq!(n["explanation"].is_object(), leaf_to_explain, "{file}: {n}");
            assert_eq!(n["pruned"].is_array(), n["kind"] == "inner", "{file}: {n}");
            for pr in n["pruned"].as_array().into_iter().flatten() {
                pruned += 1;
                assert_eq!(pr["line"], n["line"], "{file}: {pr}");
                if pr["verdict"] == "infeasible" {
                    assert!(!pr["core"].as_array().unwrap().is_empty());
                }
            }
        }
    }
    assert!(
        origins > 100 && pruned > 20,
        "{origins} origins, {pruned} pruned"
    );
}

/// A model of `terms` over their constants.
fn model_of(s: &mut Solver, terms: &[Term]) -> Option<symdbg::term::Model> {
    let mut syms = BTreeSet::new();
    terms.iter().for_each(|t| t.vars(&mut syms));
    let syms: Vec<Sym> = syms.into_iter().collect();
    s.model(terms, &syms)
}

/// Every pruned branch of every example (both loop modes), explained through the session:
/// the core is unsat-minimal outside Z3 — dropping any member leaves a set with a model
/// that satisfies every other member (by `Model::eval`); the branch's own condition is in
/// the core; a second request comes from the cache.
#[test]
fn every_pruned_core_is_minimal_outside_z3() {
    let mut s = Solver::new(SolverConfig {
        timeout_ms: Some(10_000),
    });
    let (mut checked, mut not_minimal) = (0, 0);
    for file in examples() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/").to_string() + &file)
                .unwrap();
        for loops in [LoopMode::Unroll, LoopMode::Invariant] {
            let mut config = Config::default();
            config.loops = loops;
            config.unroll = 2;
            let mut session =
                Session::open(SourceMap::new(&file, text.as_str()), None, config).unwrap();
            let root = session.tree().root();
            let limits = Limits {
                max_nodes: Some(300),
                ..Limits::default()
            };
            session.run(root, Policy::Subtree, limits, &|_| {});
            let explained = session.explain_all();
            for (id, ps) in &explained.pruned {
                assert_eq!(session.tree().node(*id).kind, NodeKind::Inner);
                for (p, why) in ps {
                    if why.verdict != Verdict::Infeasible {
                        continue;
                    }
                    assert!(
                        why.core.iter().any(|c| c.goal),
                        "{file}: goal not in {why:?}"
                    );
                    if !why.minimal {
                        // Minimisation ran out of time (quantified invariants): said so.
                        not_minimal += 1;
                        continue;
                    }
                    assert!(
                        why.core.iter().any(|c| c.goal),
                        "{file}: goal not in {why:?}"
                    );
                    let members: Vec<Term> = why.core.iter().map(|c| c.term.clone()).collect();
                    for k in 0..members.len() {
                        let rest: Vec<Term> = (0..members.len())
                            .filter(|&j| j != k)
                            .map(|j| members[j].clone())
                            .collect();
                        let Some(m) = model_of(&mut s, &rest) else {
                            panic!("{file}: {rest:?} (without {:?}) has no model", members[k])
                        };
                        for r in &rest {
                            assert_ne!(
                                m.eval(r),
                                Some(Value::Bool(false)),
                                "{file}: {r:?} under {m:?}"
                            );
                        }
                        assert_ne!(m.eval(&members[k]), Some(Value::Bool(true)), "{file}");
                    }
                    let again = session.why(*id, WhyTarget::Pruned(p.index)).unwrap();
                    assert!(std::rc::Rc::ptr_eq(&again, why), "not cached");
                    checked += 1;
                }
            }
        }
    }
    assert!(
        checked > 20 && not_minimal * 4 < checked,
        "{checked} cores checked, {not_minimal} not minimal"
    );
}

fn tree_explain(src: &str) -> String {
    let path = super::temp_file(src);
    let (code, out, err) = symdbg(&[
        "run",
        path.to_str().unwrap(),
        "--tree",
        "--explain",
        // Generous: the cubes' equation stays undecided at any limit, and the easy checks
        // (the `!=` side's) must not time out on a busy machine.
        "--timeout-ms",
        "5000",
    ]);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn known_answer_assume_then_if() {
    let src = "x: int\nassume x > 5\nif x < 3:\n    y = 1\nelse:\n    y = 2\n";
    let path = super::temp_file(src);
    let doc = json(&["run", path.to_str().unwrap(), "--json", "--explain"]);
    let node = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["line"] == 3)
        .unwrap();
    let pruned = node["pruned"].as_array().unwrap();
    assert_eq!(pruned.len(), 1, "{node}");
    assert_eq!(pruned[0]["branch"], "x < 3");
    assert_eq!(pruned[0]["minimal"], true);
    let lines: Vec<(u64, &str)> = pruned[0]["core"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["line"].as_u64().unwrap(),
                c["condition"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(lines, [(2, "x > 5"), (3, "x < 3")]);
    insta::assert_snapshot!("explain_assume_then_if", tree_explain(src));
}

#[test]
fn tree_explain_snapshots() {
    // Infeasible leaves: an `assume` that contradicts two earlier branches.
    let clash = "x: int\ny: int\nif x > y:\n    if y > 2:\n        assume x < 2\n        z = 1\n";
    insta::assert_snapshot!("explain_infeasible_leaf", tree_explain(clash));
    // An unknown leaf: what made it hard, with its line.
    let cubes = "x: int\ny: int\nz: int\nassume x > 0\nassume y > 0\nassume z > 0\nif x * x * x + y * y * y == z * z * z:\n    r = 1\n";
    insta::assert_snapshot!("explain_unknown_leaf", tree_explain(cubes));
    // A caught exception is a node that says so; the raise's alternative is pruned where
    // the index is known to be in range.
    let caught = "t: tuple\ni: int\ntry:\n    x = t[i]\nexcept IndexError:\n    x = 0\nif i > 10:\n    assume len(t) > i\n    y = t[i]\n";
    insta::assert_snapshot!("explain_caught", tree_explain(caught));
}

/// Under an opaque call a pruned branch's goal is the callee's earlier branches (`given`)
/// and its own condition: explained together, the core is both (from the call's branch),
/// not "feasible".
#[test]
fn opaque_call_pruned_branch_includes_what_the_callee_assumed() {
    let src = "def f(a: int) -> int:\n    if a > 0:\n        if a < 0:\n            return 1\n        return 2\n    return 3\n\nx: int\ny = f(x)\n";
    let mut config = Config::default();
    config.frames = false;
    let mut session = Session::open(SourceMap::new("t.py", src), None, config).unwrap();
    let root = session.tree().root();
    session.run(root, Policy::Subtree, Limits::default(), &|_| {});
    let pruned = session.pruned_branches(root);
    assert_eq!(pruned.len(), 1, "{pruned:?}");
    assert_eq!(pruned[0].line, 3);
    let why = session.why(root, WhyTarget::Pruned(0)).unwrap();
    assert_eq!(why.verdict, Verdict::Infeasible, "{why:?}");
    let core: Vec<(&str, usize, bool)> = why
        .core
        .iter()
        .map(|c| (c.condition.as_str(), c.line, c.goal))
        .collect();
    assert_eq!(core, [("x > 0", 3, true), ("x < 0", 3, true)], "{why:?}");
    assert!(session.why(root, WhyTarget::Pruned(1)).is_none());
}
