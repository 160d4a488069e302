//! The directed search finds the walk's leaf: same path, same outcome, same model.

use crate::base::rng::SplitMix64;
use crate::engine::fold::FoldMode;
use crate::engine::{Config, Engine, Limits, NodeId, Stop};

fn engine(src: &str) -> Engine {
    engine_with(src, &Config::default())
}

fn engine_with(src: &str, config: &Config) -> Engine {
    let (program, types, ir) = crate::transform::load(src).unwrap_or_else(|d| panic!("{d:?}"));
    Engine::new(&program, types, ir, None, config.clone()).unwrap()
}

/// The engine settings the directed search must agree with the walk under: the
/// default, folded loops and opaque calls.
fn modes() -> Vec<(&'static str, Config)> {
    vec![
        ("default", Config::default()),
        (
            "--fold auto",
            Config {
                fold: FoldMode::Auto,
                ..Config::default()
            },
        ),
        (
            "--no-frames",
            Config {
                frames: false,
                ..Config::default()
            },
        ),
    ]
}

/// The child positions from the root to `id`.
fn path(e: &Engine, id: NodeId) -> Vec<usize> {
    let tree = e.tree();
    let mut out = Vec::new();
    let mut cur = id;
    while let Some(p) = tree.node(cur).parent {
        let k = tree.node(p).children.iter().position(|&c| c == cur);
        out.push(k.expect("a child of its parent"));
        cur = p;
    }
    out.reverse();
    out
}

/// What a search found: the leaf's path, outcome and model (or why it found none).
fn found(e: &mut Engine, r: Result<NodeId, Stop>) -> Result<String, Stop> {
    let leaf = r?;
    let outcome = e.tree().node(leaf).outcome();
    let m = e.model(leaf).expect("an exception leaf has a model");
    Ok(format!(
        "path {:?} {outcome:?} inputs {:?} store {:?}",
        path(e, leaf),
        m.inputs,
        m.store
    ))
}

fn walk_and_directed(src: &str) -> (Result<String, Stop>, Result<String, Stop>, Engine) {
    walk_and_directed_with(src, &Config::default())
}

fn walk_and_directed_with(
    src: &str,
    config: &Config,
) -> (Result<String, Stop>, Result<String, Stop>, Engine) {
    let engine = |src: &str| engine_with(src, config);
    let limits = Limits {
        max_nodes: Some(200_000),
        ..Limits::default()
    };
    let mut plain = engine(src);
    let root = plain.tree().root();
    let r = plain.run_to(root, limits, &|n| n.kind.is_exception());
    let walk = found(&mut plain, r);
    // A few plain steps first: the walk goes on in its order after the lookahead.
    let mut d = engine(src);
    let r = d.run_to_exception_after(root, limits, 7);
    let after_warm = found(&mut d, r);
    assert_eq!(walk, after_warm, "after 7 plain steps, on\n{src}");
    // (no plain walk first: the lookahead and the pruned walk do all the work)
    let mut d = engine(src);
    let r = d.run_to_exception_after(root, limits, 0);
    let directed = found(&mut d, r);
    (walk, directed, d)
}

fn ifs(n: usize, assert: &str) -> String {
    let mut s: String = (0..n).map(|i| format!("x{i}: int\n")).collect();
    s.push_str("s = 0\n");
    for i in 0..n {
        s.push_str(&format!("if x{i} > 0:\n    s += 1\n"));
    }
    s.push_str(&format!("assert {assert}\n"));
    s
}

#[test]
fn the_all_else_path_is_found_without_the_paths_before_it() {
    let n = 12;
    // Only the all-else path (the walk's last) fails.
    let (walk, directed, d) = walk_and_directed(&ifs(n, "s != 0"));
    assert!(walk.is_ok(), "{walk:?}");
    assert_eq!(walk, directed);
    // The walk makes every one of the 2^12 paths; the directed search one path and the
    // then-children it left open (an `if` is one step: two nodes per level, and the root).
    assert!(d.tree().len() <= 2 * n + 4, "{} nodes", d.tree().len());
    // Several failing paths, the first in the middle of the walk's order.
    let (walk, directed, _) = walk_and_directed(&ifs(n, "s != 5"));
    assert!(walk.is_ok(), "{walk:?}");
    assert_eq!(walk, directed);
    // The natural order: the first path fails.
    let (walk, directed, _) = walk_and_directed(&ifs(n, &format!("s != {n}")));
    assert!(walk.is_ok(), "{walk:?}");
    assert_eq!(walk, directed);
}

#[test]
fn the_rest_of_the_tree_is_explored_afterwards() {
    let src = ifs(8, "s != 0");
    let (_, directed, mut d) = walk_and_directed(&src);
    assert!(directed.is_ok());
    let root = d.tree().root();
    assert_eq!(d.run(root, Limits::default()), Stop::Done);
    let mut plain = engine(&src);
    assert_eq!(plain.run(root, Limits::default()), Stop::Done);
    let (a, b) = (d.stats(), plain.stats());
    assert_eq!(
        (a.nodes, a.leaves, a.exceptions),
        (b.nodes, b.leaves, b.exceptions)
    );
    assert_eq!(a.exceptions, 1);
}

#[test]
fn no_failure_and_loops_give_the_walks_answer() {
    // No exception anywhere: the plain walk's answer, every path explored.
    let (walk, directed, d) = walk_and_directed(&ifs(6, "s <= 6"));
    assert_eq!(walk, Err(Stop::Done));
    assert_eq!(directed, Err(Stop::Done));
    assert_eq!(d.stats().leaves, 64);
    // A merged state reaching a loop: the walk's leaf.
    let src = "x: int\ny: int\ns = 0\nif x > 0:\n    s = 1\ni = 0\nwhile i < y:\n    i += 1\n\
               assert i + s != 3\n";
    let (walk, directed, _) = walk_and_directed(src);
    assert!(walk.is_ok(), "{walk:?}");
    assert_eq!(walk, directed);
}

/// `ifs(n, "s != 0")` (only the all-else path fails) with a symbolic loop before the
/// `if`s and loops after them: one over an input, one as long as `s`.
fn ifs_between_loops(n: usize) -> String {
    let mut s: String = (0..n).map(|i| format!("x{i}: int\n")).collect();
    s.push_str("y: int\ni = 0\nwhile i < y:\n    i += 1\ns = 0\n");
    for i in 0..n {
        s.push_str(&format!("if x{i} > 0:\n    s += 1\n"));
    }
    s.push_str("j = 0\nwhile j < s:\n    j += 1\n");
    s.push_str("k = 0\nwhile k < y:\n    k += 1\nassert s + j != 0\n");
    s
}

#[test]
fn loops_and_folds_do_not_stop_the_lookahead() {
    let n = 10;
    let src = ifs_between_loops(n);
    for (name, config) in modes() {
        let (walk, directed, d) = walk_and_directed_with(&src, &config);
        assert!(walk.is_ok(), "{name}: {walk:?}");
        assert_eq!(walk, directed, "{name}");
        // The lookahead ran through the loops (merged states included) and pruned: the
        // walk makes the 2^10 paths of the ifs under each path of the first loop, the
        // directed search about one path of them per iteration count.
        let mut e = engine_with(&src, &config);
        let root = e.tree().root();
        let f = e.failure_formula(root);
        assert!(f.as_ref().is_some_and(|f| !f.is_true()), "{name}: {f:?}");
        assert!(d.tree().len() < 1_000, "{name}: {} nodes", d.tree().len());
    }
}
/// A random program over int inputs: `if`s, assignments, asserts, divisions, calls and
/// small loops.
fn random_program(rng: &mut SplitMix64) -> String {
    let mut out = String::from(
        "def f(a: int, b: int) -> int:\n    if a > b:\n        return a - b\n    return b // (a - 2)\n\n\n\
         x0: int\nx1: int\nx2: int\ns = 0\nt = 1\n",
    );
    let n = 3 + rng.below(5) as usize;
    for _ in 0..n {
        statement(rng, 0, &mut out);
    }
    out
}

fn cond(rng: &mut SplitMix64) -> String {
    let v = |rng: &mut SplitMix64| match rng.below(5) {
        0 => "s".to_string(),
        1 => "t".to_string(),
        k => format!("x{}", k - 2),
    };
    let k = rng.below(7) as i64 - 3;
    match rng.below(4) {
        0 => format!("{} > {k}", v(rng)),
        1 => format!("{} == {k}", v(rng)),
        2 => format!("{} + {} < {k}", v(rng), v(rng)),
        _ => format!("{} != {}", v(rng), v(rng)),
    }
}

fn statement(rng: &mut SplitMix64, depth: usize, out: &mut String) {
    let pad = "    ".repeat(depth);
    let kinds = if depth >= 2 { 4 } else { 7 };
    match rng.below(kinds) {
        0 => out.push_str(&format!("{pad}s = s + x{}\n", rng.below(3))),
        1 => out.push_str(&format!("{pad}assert {}\n", cond(rng))),
        2 => out.push_str(&format!(
            "{pad}t = t + x{} // (s - {})\n",
            rng.below(3),
            rng.below(3)
        )),
        3 => out.push_str(&format!("{pad}t = f(s, x{})\n", rng.below(3))),
        4 | 5 => {
            out.push_str(&format!("{pad}if {}:\n", cond(rng)));
            for _ in 0..1 + rng.below(2) {
                statement(rng, depth + 1, out);
            }
            if rng.below(2) == 0 {
                out.push_str(&format!("{pad}else:\n"));
                statement(rng, depth + 1, out);
            }
        }
        _ => {
            out.push_str(&format!("{pad}i = 0\n{pad}while i < x{}:\n", rng.below(3)));
            out.push_str(&format!("{pad}    i += 1\n{pad}    s = s + i\n"));
        }
    }
}

/// A random program with a loop before it or after it (or both) at the top level.
fn random_program_with_loops(rng: &mut SplitMix64) -> String {
    let mut src = random_program(rng);
    let k = rng.below(4);
    if k & 1 == 1 {
        src.push_str("j = 0\nwhile j < s:\n    j += 1\n    t = t + j\n");
        src.push_str(&format!("assert {}\n", cond(rng)));
    }
    if k & 2 == 2 {
        // (a loop right after the inputs: before everything else)
        let at = src.find("s = 0\n").expect("random_program sets s");
        src.insert_str(at, "y = 0\nwhile y < x0:\n    y += 1\n");
    }
    src
}

#[test]
fn generated_programs_give_the_walks_leaf() {
    let mut rng = SplitMix64::new(30);
    let (mut failing, mut directed_ran) = (0, 0);
    for _ in 0..60 {
        let src = random_program(&mut rng);
        let (walk, directed, _) = walk_and_directed(&src);
        assert_eq!(walk, directed, "on\n{src}");
        failing += usize::from(walk.is_ok());
        let mut e = engine(&src);
        let root = e.tree().root();
        directed_ran += usize::from(e.failure_formula(root).is_some_and(|f| !f.is_true()));
    }
    // (the programs exercise the search: most have a failing path, and most of those a
    // failure formula that prunes)
    eprintln!("{failing} of 60 fail, {directed_ran} pruned");
    assert!(failing >= 30, "{failing} of 60 fail");
    assert!(directed_ran >= 20, "{directed_ran} of 60 pruned");
}

#[test]
fn generated_programs_with_loops_give_the_walks_leaf_in_every_mode() {
    for (name, config) in modes() {
        let mut rng = SplitMix64::new(31);
        let (mut failing, mut directed_ran) = (0, 0);
        for _ in 0..30 {
            let src = random_program_with_loops(&mut rng);
            let (walk, directed, _) = walk_and_directed_with(&src, &config);
            assert_eq!(walk, directed, "{name} on\n{src}");
            failing += usize::from(walk.is_ok());
            let mut e = engine_with(&src, &config);
            let root = e.tree().root();
            directed_ran += usize::from(e.failure_formula(root).is_some_and(|f| !f.is_true()));
        }
        eprintln!("{name}: {failing} of 30 fail, {directed_ran} pruned");
        assert!(failing >= 15, "{name}: {failing} of 30 fail");
        assert!(directed_ran >= 12, "{name}: {directed_ran} of 30 pruned");
    }
}
