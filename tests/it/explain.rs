//! `Engine::explain`: unsat cores of infeasible leaves and pruned branches, features of
//! unknown leaves. Cores are checked outside Z3: each member is needed (a model of the core
//! without it, evaluated with `Model::eval` in Rust, satisfies the others and falsifies it),
//! the core is unsat again in a fresh solver with another seed, random inputs never satisfy
//! all its members, and a pruned branch's goal is in every core. Known answers on small
//! programs; generated programs with `assume`; cancellation.

use std::collections::BTreeSet;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use num_bigint::BigInt;
use symdbg::base::SourceMap;
use symdbg::concrete::Value;
use symdbg::engine::explain::{Explanation, Target, Verdict};
use symdbg::engine::{Config, Engine, Limits, NodeId, NodeKind, Outcome};
use symdbg::lang::pretty;
use symdbg::solver::{SatResult, Solver, SolverConfig};
use symdbg::term::features::{self, FeatureKind};
use symdbg::term::{Model, Sort, Sym, Term};
use symdbg::transform;

use crate::gen;

fn engine(src: &str, timeout_ms: u64) -> Engine {
    let (program, types, ir) = transform::load(src).unwrap_or_else(|d| panic!("{d:?}"));
    let mut config = Config::default();
    config.timeout_ms = Some(timeout_ms);
    Engine::new(&program, types, ir, None, config).unwrap()
}

fn explored(src: &str, timeout_ms: u64) -> Engine {
    let mut e = engine(src, timeout_ms);
    let root = e.tree().root();
    e.run(root, Limits::default());
    e
}

/// The stepped node about to run line `line`.
fn node_at(e: &Engine, src: &str, line: usize) -> NodeId {
    let map = SourceMap::new("t.py", src);
    e.tree()
        .nodes()
        .find(|n| n.at().is_some_and(|s| map.line(s.start) == line))
        .unwrap_or_else(|| panic!("no node at line {line}"))
        .id
}

/// The goal's conjuncts: the node's pc, plus the branch condition.
fn conjuncts(e: &Engine, id: NodeId, target: &Target) -> Vec<Term> {
    let mut pc = e.path_condition(id);
    if let Target::Branch(c) = target {
        pc.push(c.clone());
    }
    pc
}

/// The checks of the module doc on an infeasible explanation. `Model::eval` has no value
/// for an index out of range (Z3's element function has one there), so a member may
/// evaluate to nothing; never to the wrong truth value. Returns how many members were
/// confirmed strictly.
fn check_core(e: &Engine, id: NodeId, target: &Target, x: &Explanation) -> usize {
    assert_eq!(x.verdict, Verdict::Infeasible, "{x:?}");
    assert!(x.minimal, "{x:?}");
    let all = conjuncts(e, id, target);
    for item in &x.core {
        assert!(item.conjunct < all.len());
        // The part comes from its conjunct.
        let parts = features::split_parts(std::slice::from_ref(&all[item.conjunct]));
        assert!(parts.iter().any(|(_, p)| p == &item.part), "{item:?}");
    }
    let members: Vec<Term> = x.core.iter().map(|i| i.part.clone()).collect();
    let mut s = Solver::new(SolverConfig {
        timeout_ms: Some(10_000),
    });
    assert_eq!(s.check_fresh(&members, 11), SatResult::Unsat, "{members:?}");
    let mut syms = BTreeSet::new();
    members.iter().for_each(|t| t.vars(&mut syms));
    let syms: Vec<Sym> = syms.into_iter().collect();
    let mut strict = 0;
    for (k, c) in members.iter().enumerate() {
        let rest: Vec<Term> = (0..members.len())
            .filter(|&j| j != k)
            .map(|j| members[j].clone())
            .collect();
        let m = s
            .model(&rest, &syms)
            .unwrap_or_else(|| panic!("{rest:?} (without {c:?}) has no model"));
        let mut all_defined = true;
        for r in &rest {
            let v = m.eval(r);
            assert_ne!(v, Some(Value::Bool(false)), "{r:?} under {m:?}");
            all_defined &= v.is_some();
        }
        let v = m.eval(c);
        assert_ne!(v, Some(Value::Bool(true)), "{c:?} under {m:?}");
        if all_defined && v.is_some() {
            strict += 1;
        }
    }
    random_inputs_never_satisfy(&members, &syms);
    strict
}

/// No random assignment satisfies every member (evaluated in Rust).
fn random_inputs_never_satisfy(members: &[Term], syms: &[Sym]) {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..300 {
        let mut m = Model::default();
        for s in syms {
            let v = match s.sort {
                Sort::Int => Value::Int(BigInt::from((next() % 21) as i64 - 10)),
                Sort::Bool => Value::Bool(next() % 2 == 0),
                Sort::Seq => Value::tuple(
                    (0..next() % 4)
                        .map(|_| BigInt::from((next() % 11) as i64 - 5))
                        .collect(),
                ),
            };
            m.values.insert(s.clone(), v);
        }
        let all = members.iter().all(|t| m.eval(t) == Some(Value::Bool(true)));
        assert!(!all, "{m:?} satisfies the core {members:?}");
    }
}

#[test]
fn an_assumption_and_a_pruned_then_branch_make_the_core() {
    let src = "x: int\nassume x > 5\nif x < 3:\n    y = 1\nelse:\n    y = 2\n";
    let mut e = explored(src, 10_000);
    let id = node_at(&e, src, 3);
    assert_eq!(e.tree().node(id).children.len(), 1);
    let x = Term::var(Sym::new("x", Sort::Int));
    let target = Target::Branch(Term::lt(x.clone(), Term::int(3)));
    let ex = e.explain(id, target.clone());
    check_core(&e, id, &target, &ex);
    let pc = e.path_condition(id);
    let shown: Vec<(usize, bool, String)> = ex
        .core
        .iter()
        .map(|i| (i.conjunct, i.goal, i.part.to_string()))
        .collect();
    assert_eq!(
        shown,
        vec![
            (0, false, "x > 5".to_string()),
            (pc.len(), true, "x < 3".to_string())
        ]
    );
    assert!(ex.checks >= 1 && ex.features.is_empty());
    // The branch that was taken is feasible: nothing to explain.
    let other = e.explain(id, Target::Branch(Term::ge(x, Term::int(3))));
    assert_eq!(other.verdict, Verdict::Feasible);
    // The tree did not change.
    assert_eq!(e.tree().len(), explored(src, 10_000).tree().len());
}

#[test]
fn an_infeasible_leaf_names_the_clashing_conditions_only() {
    let src = "\
x: int
y: int
z: int
t: tuple
if z > len(t):
    pass
if x > y:
    if y > 2:
        assume x < 2
";
    let mut e = explored(src, 10_000);
    let leaves: Vec<NodeId> = e
        .tree()
        .nodes()
        .filter(|n| n.outcome() == Some(Outcome::Infeasible))
        .map(|n| n.id)
        .collect();
    assert_eq!(leaves.len(), 2);
    for id in leaves {
        let ex = e.explain(id, Target::Leaf);
        let strict = check_core(&e, id, &Target::Leaf, &ex);
        assert_eq!(strict, 3);
        let parts: Vec<String> = ex.core.iter().map(|i| i.part.to_string()).collect();
        assert_eq!(parts, vec!["x > y", "y > 2", "x < 2"], "{ex:?}");
        // Conjuncts are positions in the path condition, oldest first.
        let pc = e.path_condition(id);
        for item in &ex.core {
            assert_eq!(pc[item.conjunct], item.part);
        }
    }
}

/// Fermat for cubes: Z3 cannot decide it quickly.
const CUBES: &str = "\
x: int
y: int
z: int
assume x > 0
assume y > 0
assume z > 0
if x * x * x + y * y * y == z * z * z:
    r = 1
";

#[test]
fn an_unknown_leaf_reports_the_nonlinear_products() {
    let mut e = explored(CUBES, 200);
    let unknown: Vec<NodeId> = e
        .tree()
        .nodes()
        .filter(|n| n.outcome() == Some(Outcome::Unknown))
        .map(|n| n.id)
        .collect();
    assert!(!unknown.is_empty(), "expected an unknown leaf");
    let pc_len = e.path_condition(unknown[0]).len();
    let ex = e.explain(unknown[0], Target::Leaf);
    assert_eq!(ex.verdict, Verdict::Undecided, "{ex:?}");
    assert!(ex.core.is_empty());
    let nonlinear: Vec<String> = ex
        .features
        .iter()
        .filter(|f| f.kind == FeatureKind::Nonlinear)
        .map(|f| f.term.to_string())
        .collect();
    assert!(nonlinear.contains(&"x * x".to_string()), "{nonlinear:?}");
    assert!(ex.features.iter().all(|f| f.conjunct == pc_len - 1));
    assert!(ex.to_owned().features[0]
        .to_string()
        .starts_with("nonlinear: "));
    // Relaxation decided it; the full (hopeless) check was skipped.
    assert!(ex.checks <= 2, "{ex:?}");
}

#[test]
fn a_pruned_branch_with_a_hard_fact_and_a_linear_clash() {
    // The pruned branch holds a nonlinear fact and a linear clash with the assumption.
    let src = "x: int\ny: int\nassume x > 3\nif y > 0:\n    pass\n";
    let mut e = explored(src, 10_000);
    let id = node_at(&e, src, 4);
    let (x, y) = (
        Term::var(Sym::new("x", Sort::Int)),
        Term::var(Sym::new("y", Sort::Int)),
    );
    let cube = |v: &Term| Term::mul(v.clone(), Term::mul(v.clone(), v.clone()));
    let hard = Term::eq(Term::add(cube(&x), cube(&y)), Term::int(1_000_003));
    // Either Z3 decides the whole at once, or the relaxation explains it.
    let target = Target::Branch(Term::and(hard, Term::lt(x.clone(), Term::int(0))));
    let ex = e.explain(id, target.clone());
    match ex.verdict {
        Verdict::Infeasible | Verdict::InfeasibleWithoutFeatures => {}
        ref v => panic!("{v:?}"),
    }
    let parts: Vec<String> = ex.core.iter().map(|i| i.part.to_string()).collect();
    assert_eq!(parts, vec!["x > 3", "x < 0"]);
    assert!(ex.core[1].goal && !ex.core[0].goal);
}

#[test]
fn cancelling_an_explanation_returns_promptly() {
    let mut e = engine(CUBES, 60_000);
    let mut id = e.tree().root();
    // Step to the `if` (the assumptions are linear).
    let map = SourceMap::new("t.py", CUBES);
    while e
        .tree()
        .node(id)
        .at()
        .is_some_and(|s| map.line(s.start) != 7)
    {
        id = e.step(id)[0];
    }
    assert!(matches!(e.tree().node(id).kind, NodeKind::Open));
    let cube = |n: &str| {
        let v = Term::var(Sym::new(n, Sort::Int));
        Term::mul(v.clone(), Term::mul(v.clone(), v))
    };
    let cond = Term::eq(Term::add(cube("x"), cube("y")), cube("z"));
    let flag = e.cancel_handle();
    let start = Instant::now();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        flag.store(true, Ordering::Relaxed);
    });
    let ex = e.explain(id, Target::Branch(cond));
    setter.join().unwrap();
    assert_eq!(
        ex.verdict,
        Verdict::Unknown(symdbg::solver::Unknown::Interrupted),
        "{ex:?}"
    );
    // A hang guard: without the cancel the check would run for its minute.
    assert!(
        start.elapsed() < Duration::from_secs(50),
        "{:?}",
        start.elapsed()
    );
}

/// A tiny xorshift for choice sequences.
fn choices(seed: u64, n: usize) -> Vec<u32> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 24) as u32 & 0xff) << 24
        })
        .collect()
}

#[test]
fn generated_programs_cores_of_infeasible_leaves_and_pruned_branches() {
    let options = gen::Options {
        assume: true,
        ..Default::default()
    };
    let (mut leaves, mut branches, mut feasible) = (0, 0, 0);
    for seed in 0..200u64 {
        let src = pretty::program(&gen::program_with(&choices(seed, 200), options));
        if transform::load(&src).is_err() {
            continue;
        }
        let mut e = explored(&src, 5_000);
        let ids: Vec<NodeId> = e.tree().nodes().map(|n| n.id).collect();
        for id in ids {
            let node = e.tree().node(id);
            if node.outcome() == Some(Outcome::Infeasible) {
                let parent_len = e.path_condition(node.parent.unwrap()).len();
                let ex = e.explain(id, Target::Leaf);
                check_core(&e, id, &Target::Leaf, &ex);
                assert!(
                    ex.core.iter().any(|i| i.conjunct >= parent_len),
                    "{src}\n{ex:?}"
                );
                leaves += 1;
            }
            let node = e.tree().node(id);
            // One child left of a step: its alternatives were pruned, and (when the step
            // splits the parent) their disjunction is the negated edge.
            if node.kind == NodeKind::Inner && node.children.len() == 1 {
                let child = e.tree().node(node.children[0]);
                let Some(b) = child.branch.clone() else {
                    continue;
                };
                let target = Target::Branch(Term::not(b));
                let ex = e.explain(id, target.clone());
                match &ex.verdict {
                    Verdict::Infeasible => {
                        check_core(&e, id, &target, &ex);
                        assert!(ex.core.iter().any(|i| i.goal), "{src}\n{ex:?}");
                        branches += 1;
                    }
                    Verdict::Feasible => feasible += 1,
                    v => panic!("{src}\n{v:?}"),
                }
            }
        }
    }
    assert!(leaves >= 10, "only {leaves} infeasible leaves");
    assert!(branches >= 30, "only {branches} pruned branches");
    eprintln!("{leaves} leaves, {branches} pruned branches, {feasible} feasible negations");
}

#[test]
fn a_branch_that_times_out_is_relaxed_part_by_part() {
    let mut e = engine(CUBES, 200);
    let mut id = e.tree().root();
    let map = SourceMap::new("t.py", CUBES);
    while e
        .tree()
        .node(id)
        .at()
        .is_some_and(|s| map.line(s.start) != 7)
    {
        id = e.step(id)[0];
    }
    let pc_len = e.path_condition(id).len();
    let cube = |n: &str| {
        let v = Term::var(Sym::new(n, Sort::Int));
        Term::mul(v.clone(), Term::mul(v.clone(), v))
    };
    let hard = Term::eq(Term::add(cube("x"), cube("y")), cube("z"));
    // The goal is all hard: the rest is the node's (satisfiable) path condition.
    let ex = e.explain(id, Target::Branch(hard.clone()));
    assert_eq!(ex.verdict, Verdict::Undecided, "{ex:?}");
    assert!(ex.features.iter().all(|f| f.conjunct == pc_len));
    assert!(ex
        .features
        .iter()
        .any(|f| f.to_string() == "nonlinear: x * (x * x)"));
    // `hard and x > 5`: the linear part stays in the relaxed check, which is satisfiable.
    let x = Term::var(Sym::new("x", Sort::Int));
    let both = Term::and(hard.clone(), Term::gt(x.clone(), Term::int(5)));
    let ex = e.explain(id, Target::Branch(both));
    assert_eq!(ex.verdict, Verdict::Undecided, "{ex:?}");
    assert_eq!(ex.checks, 2, "the full check, then the relaxed one");
    // `hard and x < 0`: the linear part clashes with `assume x > 0`, whatever Z3 makes of
    // the rest (decided at once, or relaxed).
    let clash = Term::and(hard, Term::lt(x, Term::int(0)));
    let ex = e.explain(id, Target::Branch(clash));
    assert!(
        matches!(
            ex.verdict,
            Verdict::Infeasible | Verdict::InfeasibleWithoutFeatures
        ),
        "{ex:?}"
    );
    let parts: Vec<String> = ex.core.iter().map(|i| i.part.to_string()).collect();
    assert_eq!(parts, vec!["x > 0", "x < 0"]);
}
