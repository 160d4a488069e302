//! What an explanation (`Engine::explain`, an unsat core minimised by deletion) costs, next to
//! the exploration it explains. For each program: explore it, then explain every infeasible
//! leaf and every pruned alternative of a step left with one child (the negated edge); print
//! the median over `RUNS` runs of the exploration time and of the time per explanation
//! (`all`: per explanation × targets, i.e. what explaining the whole tree adds), with the
//! targets, how many were infeasible, Z3 checks per explanation, and the mean and largest
//! core sizes.
//!
//! `cargo bench --bench explain_cost` (release), or quicker to build:
//! `cargo bench --bench explain_cost --profile dev` (Z3 itself is the system library, so
//! the times are nearly the same).

use std::rc::Rc;
use std::time::{Duration, Instant};

use symdbg::engine::explain::{Target, Verdict};
use symdbg::engine::{Config, Engine, Limits, NodeId, NodeKind, Outcome};
use symdbg::term::Term;
use symdbg::transform;

const RUNS: usize = 7;

fn engine(src: &str) -> Engine {
    let (program, types, ir) = transform::load(src).expect("benchmark programs are valid");
    let mut config = Config::default();
    config.unroll = 4;
    Engine::new(&program, types, Rc::clone(&ir), None, config).unwrap()
}

/// The targets to explain in an explored tree.
fn targets(e: &Engine) -> Vec<(NodeId, Target)> {
    let mut out = Vec::new();
    for n in e.tree().nodes() {
        if n.outcome() == Some(Outcome::Infeasible) {
            out.push((n.id, Target::Leaf));
        } else if n.kind == NodeKind::Inner && n.children.len() == 1 {
            if let Some(b) = &e.tree().node(n.children[0]).branch {
                out.push((n.id, Target::Branch(Term::not(b.clone()))));
            }
        }
    }
    out
}

struct Sample {
    explore: Duration,
    per_explain: Duration,
    explained: usize,
    infeasible: usize,
    checks: usize,
    core_parts: usize,
    largest_core: usize,
}

fn sample(src: &str) -> Sample {
    let mut e = engine(src);
    let start = Instant::now();
    let root = e.tree().root();
    e.run(root, Limits::default());
    let explore = start.elapsed();
    let targets = targets(&e);
    let start = Instant::now();
    let (mut infeasible, mut checks, mut core_parts, mut largest_core) = (0, 0, 0, 0);
    // One watchdog for all of them, as in the CLI (`with_watchdog` around the run).
    symdbg::solver::with_watchdog(|| {
        for (id, t) in &targets {
            let x = e.explain(*id, t.clone());
            checks += x.checks;
            if x.verdict == Verdict::Infeasible {
                infeasible += 1;
                core_parts += x.core.len();
                largest_core = largest_core.max(x.core.len());
            }
        }
    });
    let n = targets.len().max(1);
    Sample {
        explore,
        per_explain: start.elapsed() / n as u32,
        explained: targets.len(),
        infeasible,
        checks,
        core_parts,
        largest_core,
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/");
    let mut programs: Vec<(String, String)> = [
        "examples/find.py",
        "examples/clamp.py",
        "examples/loop_scope.py",
        "examples/find_invariant.py",
        "examples/filter_nonnegative.py",
    ]
    .iter()
    .map(|p| {
        (
            p.to_string(),
            std::fs::read_to_string(format!("{dir}{p}")).unwrap(),
        )
    })
    .collect();
    // Many assumptions, one clash among them per path.
    let mut chain = String::new();
    for i in 0..12 {
        chain.push_str(&format!("x{i}: int\n"));
    }
    for i in 0..11 {
        chain.push_str(&format!("assume x{i} < x{}\n", i + 1));
    }
    chain.push_str("if x11 < x0:\n    y = 1\nif x5 > x3:\n    y = 2\n");
    programs.push(("chain of 11 assumptions".into(), chain));
    println!(
        "{:<32} {:>9} {:>9} {:>9} {:>6} {:>6} {:>8} {:>6} {:>5}",
        "program", "explore", "explain", "all", "targ.", "unsat", "checks/e", "core", "max"
    );
    for (name, src) in &programs {
        let samples: Vec<Sample> = (0..RUNS).map(|_| sample(src)).collect();
        let s = &samples[0];
        let explore = median(samples.iter().map(|s| s.explore).collect());
        let per = median(samples.iter().map(|s| s.per_explain).collect());
        let n = s.explained.max(1);
        println!(
            "{:<32} {:>9.2?} {:>9.2?} {:>9.2?} {:>6} {:>6} {:>8.1} {:>6.1} {:>5}",
            name,
            explore,
            per,
            per * s.explained as u32,
            s.explained,
            s.infeasible,
            s.checks as f64 / n as f64,
            s.core_parts as f64 / s.infeasible.max(1) as f64,
            s.largest_core,
        );
    }
}
