//! Solver experiment: the query pattern of a depth-first symbolic execution, replayed
//! directly against `symdbg::solver` under different solver settings, to see what the
//! answer cache, constraint independence and prefix reuse on the Z3 stack each buy.
//!
//! Run: `cargo bench --bench solver_dfs` (prints one table; no criterion, no assertions);
//! `cargo bench --bench solver_dfs -- --limits=7`: the time-limit and model settings;
//! `cargo bench --bench solver_dfs -- --model-cost=7`: a check against a (not minimised)
//! model on the linear search's path at growing depths.
//!
//! Workloads (as in the engine, stepping a node checks all its alternatives, then the
//! feasible ones are explored depth-first):
//! - `ifs N`: N independent `if x_i > 0` (2^N paths), as in the benchmark (b);
//! - `search U`: linear search for a symbolic needle `x` in a symbolic tuple `t`, loop
//!   unrolled U times (`i < len(t)`, then `t[i] == x`): every conjunct shares `t`;
//! - `shared N`: N ifs over three variables (`x_{i%3} > i - N/2`), many infeasible.

use std::time::Instant;

use symdbg::lang::ast::CmpOp;
use symdbg::solver::{SatResult, Solver, SolverConfig, SolverStats};
use symdbg::term::{Sort, Sym, Term, TermKind};

type Gen = dyn Fn(usize, &[Term]) -> Option<Vec<Term>>;

/// Depth-first, as the engine steps: at `depth`, `gen` gives the alternatives (mutually
/// exclusive conditions); all are checked when the node is stepped, then each feasible
/// one is explored.
fn dfs(s: &mut Solver, pc: &mut Vec<Term>, depth: usize, gen: &Gen, nodes: &mut u64, leaf: usize) {
    if pc.len() == leaf {
        let mut syms = std::collections::BTreeSet::new();
        pc.iter().for_each(|t| t.vars(&mut syms));
        let syms: Vec<Sym> = syms.into_iter().collect();
        assert!(s.model(pc, &syms).is_some());
    }
    let Some(alternatives) = gen(depth, pc) else {
        return;
    };
    let mut feasible = Vec::new();
    for c in alternatives {
        pc.push(c);
        if s.check(pc) == SatResult::Sat {
            *nodes += 1;
            feasible.push(pc.pop().unwrap());
        } else {
            pc.pop();
        }
    }
    for c in feasible {
        pc.push(c);
        dfs(s, pc, depth + 1, gen, nodes, leaf);
        pc.pop();
    }
}

fn int_var(name: &str) -> Term {
    Term::var(Sym::new(name, Sort::Int))
}

fn ifs(n: usize) -> Box<Gen> {
    Box::new(move |d, _| {
        (d < n).then(|| {
            let c = Term::gt(int_var(&format!("x{d}")), Term::int(0));
            vec![c.clone(), Term::not(c)]
        })
    })
}

fn search(unroll: usize) -> Box<Gen> {
    Box::new(move |d, pc| {
        let t = Term::var(Sym::new("t", Sort::Seq));
        let x = int_var("x");
        let i = Term::int((d / 2) as i64);
        match pc.last().map(|c| c.kind()) {
            // `t[i] == x`: found, returned. `i >= len(t)`: the loop is over.
            Some(TermKind::Cmp(CmpOp::Eq, _, _) | TermKind::Cmp(CmpOp::Ge, _, _)) => None,
            _ if d / 2 >= unroll => None,
            _ if d % 2 == 0 => {
                let c = Term::lt(i, Term::len(t));
                Some(vec![c.clone(), Term::not(c)])
            }
            _ => {
                let c = Term::eq(Term::index(t, i), x);
                Some(vec![c.clone(), Term::not(c)])
            }
        }
    })
}

fn shared(n: usize) -> Box<Gen> {
    Box::new(move |d, _| {
        (d < n).then(|| {
            let c = Term::gt(
                int_var(&format!("x{}", d % 3)),
                Term::int(d as i64 - (n / 2) as i64),
            );
            vec![c.clone(), Term::not(c)]
        })
    })
}

struct Setting {
    name: &'static str,
    caching: bool,
    slicing: bool,
    incremental: bool,
    timeout_ms: Option<u64>,
}

const SETTINGS: &[Setting] = &[
    Setting {
        name: "all off (fresh stack)",
        caching: false,
        slicing: false,
        incremental: false,
        timeout_ms: Some(10_000),
    },
    Setting {
        name: "prefix reuse",
        caching: false,
        slicing: false,
        incremental: true,
        timeout_ms: Some(10_000),
    },
    Setting {
        name: "reuse + cache",
        caching: true,
        slicing: false,
        incremental: true,
        timeout_ms: Some(10_000),
    },
    Setting {
        name: "reuse + cache + indep. (default)",
        caching: true,
        slicing: true,
        incremental: true,
        timeout_ms: Some(10_000),
    },
    Setting {
        name: "default, no timeout",
        caching: true,
        slicing: true,
        incremental: true,
        timeout_ms: None,
    },
];

/// Explore; with `leaf_depth`, also ask for a model of every path condition that long.
fn run(gen: &Gen, st: &Setting, leaf_depth: usize) -> (u64, SolverStats, f64) {
    let mut s = Solver::new(SolverConfig {
        timeout_ms: st.timeout_ms,
    });
    s.set_caching(st.caching);
    s.set_slicing(st.slicing);
    s.set_incremental(st.incremental);
    let mut nodes = 0;
    let start = Instant::now();
    // One watchdog for the run, as the engine's front-ends have.
    symdbg::solver::with_watchdog(|| dfs(&mut s, &mut Vec::new(), 0, gen, &mut nodes, leaf_depth));
    (nodes, s.stats(), start.elapsed().as_secs_f64() * 1e3)
}

/// Peak resident memory of the process so far (Linux), in MiB.
fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// `--limits`: paired runs (interleaved, medians of `reps`) of the time-limit and model
/// settings: the watchdog alone against the watchdog plus Z3's own `timeout` parameter (the
/// timer symdbg used before), and models minimised or not.
fn limits(reps: usize) {
    let workloads: Vec<(&str, Box<Gen>, usize)> = vec![
        ("search 20", search(20), usize::MAX),
        ("search 40", search(40), usize::MAX),
        ("shared 12", shared(12), usize::MAX),
        ("ifs 12 + models", ifs(12), 12),
        ("search 20 + models", search(20), 21),
    ];
    println!("| workload | watchdog ms | watchdog + Z3 timer ms | ratio | models minimised ms | not minimised ms | ratio |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (name, gen, leaf) in &workloads {
        let mut t = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
        for _ in 0..reps {
            for (k, (timer, minimize)) in [(false, false), (true, false), (false, true)]
                .iter()
                .enumerate()
            {
                symdbg::solver::with_watchdog(|| {
                    let mut s = Solver::new(SolverConfig {
                        timeout_ms: Some(10_000),
                    });
                    s.set_z3_timer(*timer);
                    s.set_minimize(*minimize);
                    let start = Instant::now();
                    let mut nodes = 0;
                    dfs(&mut s, &mut Vec::new(), 0, gen.as_ref(), &mut nodes, *leaf);
                    t[k].push(start.elapsed().as_secs_f64() * 1e3);
                });
            }
        }
        t[3] = t[0].clone();
        let med = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let [mut a, mut b, mut c, mut d] = t;
        let (a, b, c, d) = (med(&mut a), med(&mut b), med(&mut c), med(&mut d));
        println!(
            "| {name} | {a:.1} | {b:.1} | {:.2} | {c:.1} | {d:.1} | {:.2} |",
            b / a,
            c / d
        );
    }
}

/// What a model costs over a check, on the linear search's path `i < len(t)`,
/// `t[i] != x` for i < n, at the top of the solver's stack (every earlier prefix checked
/// before, as in a depth-first run): medians of `reps` of each.
fn model_cost(reps: usize) {
    let (t, x) = (
        Term::var(Sym::new("t", Sort::Seq)),
        Term::var(Sym::new("x", Sort::Int)),
    );
    let syms = [Sym::new("t", Sort::Seq), Sym::new("x", Sort::Int)];
    println!("| conjuncts | check µs | model µs | model / check |");
    println!("|---:|---:|---:|---:|");
    for n in [40i64, 80, 160, 320, 640] {
        let mut pc = Vec::new();
        let mut s = Solver::new(SolverConfig::default());
        s.set_caching(false);
        s.set_minimize(false);
        for k in 0..n {
            pc.push(Term::lt(Term::int(k), Term::len(t.clone())));
            assert_eq!(s.check(&pc), SatResult::Sat);
            pc.push(Term::ne(Term::index(t.clone(), Term::int(k)), x.clone()));
            assert_eq!(s.check(&pc), SatResult::Sat);
        }
        let (mut checks, mut models) = (Vec::new(), Vec::new());
        for _ in 0..reps {
            let start = Instant::now();
            assert_eq!(s.check(&pc), SatResult::Sat);
            checks.push(start.elapsed().as_secs_f64() * 1e6);
            let start = Instant::now();
            assert!(s.model(&pc, &syms).is_some());
            models.push(start.elapsed().as_secs_f64() * 1e6);
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (c, m) = (median(&mut checks), median(&mut models));
        println!("| {} | {c:.1} | {m:.1} | {:.1} |", pc.len(), m / c);
    }
}

fn main() {
    if let Some(reps) = std::env::args()
        .skip(1)
        .find_map(|a| a.strip_prefix("--model-cost=").map(str::to_string))
    {
        model_cost(reps.parse().expect("--model-cost=REPS"));
        return;
    }
    if let Some(reps) = std::env::args()
        .skip(1)
        .find_map(|a| a.strip_prefix("--limits=").map(str::to_string))
    {
        limits(reps.parse().expect("--limits=REPS"));
        return;
    }
    if let Some(n) = std::env::args()
        .skip(1)
        .find_map(|a| a.strip_prefix("--ifs=").map(str::to_string))
    {
        // One big run with the default settings and a model at every leaf:
        // `cargo bench --bench solver_dfs -- --ifs=18`.
        let n: usize = n.parse().expect("--ifs=N");
        let (nodes, stats, ms) = run(ifs(n).as_ref(), &SETTINGS[3], n);
        println!(
            "ifs {n} (+ a model per leaf): {nodes} nodes, {} checks, {} z3 calls, {} cache hits, {:.1} ms in z3, {ms:.1} ms total, peak RSS {:.1} MiB",
            stats.checks,
            stats.z3_calls,
            stats.cache_hits,
            stats.z3_time.as_secs_f64() * 1e3,
            peak_rss_mib()
        );
        return;
    }
    let workloads: Vec<(String, Box<Gen>)> = vec![
        ("ifs 8".into(), ifs(8)),
        ("ifs 10".into(), ifs(10)),
        ("ifs 12".into(), ifs(12)),
        ("search 5".into(), search(5)),
        ("search 10".into(), search(10)),
        ("search 20".into(), search(20)),
        ("shared 12".into(), shared(12)),
    ];
    println!(
        "| workload | setting | feasible nodes | checks | z3 calls | cache hits | sliced | z3 ms | total ms | µs/check |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, gen) in &workloads {
        let mut answers = None;
        for st in SETTINGS {
            let (nodes, stats, ms) = run(gen.as_ref(), st, usize::MAX);
            // Every setting must explore the same tree.
            assert_eq!(*answers.get_or_insert(nodes), nodes, "{name}: {}", st.name);
            println!(
                "| {name} | {} | {nodes} | {} | {} | {} | {} | {:.1} | {:.1} | {:.0} |",
                st.name,
                stats.checks,
                stats.z3_calls,
                stats.cache_hits,
                stats.sliced,
                stats.z3_time.as_secs_f64() * 1e3,
                ms,
                ms * 1e3 / stats.checks.max(1) as f64,
            );
        }
    }
}
