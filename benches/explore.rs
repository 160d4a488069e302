//! Criterion benchmarks of whole explorations (parse + lower + explore every path), on the
//! scaling programs of docs/PERFORMANCE.md. `cargo bench --bench explore`.
//! The table with nodes/s, solver share and memory comes from `benches/table.sh`.

use std::rc::Rc;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use symdbg::engine::{Config, Engine, Limits};
use symdbg::transform;

fn explore(src: &str, unroll: u32) -> usize {
    let (program, types, ir) = transform::load(src).expect("benchmark programs are valid");
    let mut config = Config::default();
    config.unroll = unroll;
    let mut engine = Engine::new(&program, types, Rc::clone(&ir), None, config).unwrap();
    let root = engine.tree().root();
    engine.run(root, Limits::default());
    engine.tree().len()
}

const SEARCH: &str = "\
def find(needle: int, haystack: tuple) -> int:
    i = 0
    while i < len(haystack):
        if haystack[i] == needle:
            return i
        i = i + 1
    return -1

x: int
t: tuple
r = find(x, t)
";

fn ifs(n: usize) -> String {
    let mut s: String = (0..n).map(|i| format!("x{i}: int\n")).collect();
    s.push_str("s = 0\n");
    for i in 0..n {
        s.push_str(&format!("if x{i} > 0:\n    s += 1\n"));
    }
    s
}

fn calls(depth: usize) -> String {
    let mut s = String::from(
        "def clamp(v: int, lo: int, hi: int) -> int:\n    if v < lo:\n        return lo\n    if v > hi:\n        return hi\n    return v\n\nx: int\ny: int\nv = x\n",
    );
    for k in 1..=depth {
        s.push_str(&format!("v = max(clamp(v, -{k}, {k}), y)\n"));
    }
    s
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    for unroll in [2u32, 5, 10] {
        g.bench_with_input(BenchmarkId::from_parameter(unroll), &unroll, |b, &u| {
            b.iter(|| explore(SEARCH, u))
        });
    }
    g.finish();
    let mut g = c.benchmark_group("ifs");
    g.sample_size(10);
    for n in [6usize, 8, 10] {
        let src = ifs(n);
        g.bench_with_input(BenchmarkId::from_parameter(n), &src, |b, src| {
            b.iter(|| explore(src, 3))
        });
    }
    g.finish();
    let mut g = c.benchmark_group("calls");
    g.sample_size(10);
    for d in [2usize, 4] {
        let src = calls(d);
        g.bench_with_input(BenchmarkId::from_parameter(d), &src, |b, src| {
            b.iter(|| explore(src, 3))
        });
    }
    g.finish();
    // Deep paths (docs/PERFORMANCE.md, "Deep paths and large trees"): the per-node cost
    // should not grow with the depth. `cargo bench --bench explore -- deep`.
    let mut g = c.benchmark_group("deep");
    g.sample_size(10);
    for unroll in [80u32, 640] {
        g.bench_with_input(BenchmarkId::new("search", unroll), &unroll, |b, &u| {
            b.iter(|| explore(SEARCH, u))
        });
    }
    g.finish();
}

criterion_group!(explore_benches, benches);
criterion_main!(explore_benches);
