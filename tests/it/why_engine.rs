//! The engine's "why" (issue 12): successor tags on every node, the provenance of every
//! path-condition conjunct checked structurally, pruned alternatives confirmed dead by
//! concrete runs, caught exceptions as nodes; over every example (unrolled and with
//! invariants), hand-written programs and programs from `gen.rs`.

use std::collections::BTreeMap;

use symdbg::base::rng::SplitMix64;
use symdbg::base::SourceMap;
use symdbg::concrete::{self, Value};
use symdbg::engine::{Config, Engine, Limits, LoopMode, NodeId, NodeKind, Outcome, Tag};
use symdbg::term::{Model, Sort, Term};
use symdbg::transform;

use crate::gen;

struct Explored {
    engine: Engine,
    map: SourceMap,
    program: symdbg::lang::Program,
    types: symdbg::lang::TypeInfo,
}

fn explore(name: &str, src: &str, loops: LoopMode) -> Explored {
    explore_with(name, src, loops, true)
}

/// `frames: false`: the book's opaque calls (a call node's step runs the whole callee).
fn explore_with(name: &str, src: &str, loops: LoopMode, frames: bool) -> Explored {
    let (program, types, ir) = transform::load(src).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    let mut config = Config::default();
    config.loops = loops;
    config.frames = frames;
    let mut engine = Engine::new(&program, types.clone(), ir, None, config).unwrap();
    let limits = Limits {
        max_nodes: Some(3_000),
        ..Limits::default()
    };
    engine.run(engine.tree().root(), limits);
    Explored {
        engine,
        map: SourceMap::new(name, src),
        program,
        types,
    }
}

/// What one tree showed.
#[derive(Default, Debug)]
struct Seen {
    nodes: usize,
    conjuncts: usize,
    pruned: usize,
    caught: usize,
    /// (pruned alternative, concrete run reaching its node) pairs confirmed dead.
    dead: usize,
}

/// Tags, provenance, pruned and caught on every node, structurally.
fn check_tree(x: &Explored, what: &str, seen: &mut Seen) {
    let (e, map) = (&x.engine, &x.map);
    let tree = e.tree();
    for n in tree.nodes() {
        seen.nodes += 1;
        assert_eq!(
            n.tag.is_some(),
            n.parent.is_some(),
            "{what}: tag of {}",
            n.id.0
        );
        let pc = e.path_condition(n.id);
        let prov = e.provenance(n.id, map);
        let terms: Vec<&Term> = prov.iter().map(|(t, _)| t).collect();
        assert_eq!(
            terms,
            pc.iter().collect::<Vec<_>>(),
            "{what}: node {}",
            n.id.0
        );
        let path = tree.path(n.id);
        let lines: Vec<usize> = path
            .iter()
            .filter_map(|&p| tree.node(p).at().map(|s| map.line(s.start)))
            .collect();
        for (t, o) in &prov {
            seen.conjuncts += 1;
            let (parent, child) = (tree.node(o.node), tree.node(o.child));
            assert_eq!(child.parent, Some(o.node), "{what}");
            assert!(path.contains(&o.child), "{what}: origin off the path");
            assert!(
                child.state.pc.contains(t),
                "{what}: {t} not in the child's pc"
            );
            assert!(
                !parent.state.pc.contains(t),
                "{what}: {t} already in the parent's pc"
            );
            assert_eq!(Some(o.span), parent.at(), "{what}");
            assert_eq!((o.line, o.column), map.line_col(o.span.start), "{what}");
            assert!(
                lines.contains(&o.line),
                "{what}: line {} not on the path",
                o.line
            );
            assert_eq!(Some(&o.tag), child.tag.as_ref(), "{what}");
            assert_eq!(o.transition, o.tag.text(map));
            let frames = e.frames(o.node);
            let innermost = frames.last().filter(|f| *f != "<module>").cloned();
            assert_eq!(o.function, innermost, "{what}");
        }
        if n.kind == NodeKind::Inner {
            for p in e.pruned(n.id, map) {
                seen.pruned += 1;
                assert!(!p.cond.is_true(), "{what}");
                assert!(!n.state.pc.contains(&p.cond), "{what}");
                let taken = n.children.iter().any(|&c| {
                    let c = tree.node(c);
                    c.tag.as_ref() == Some(&p.tag) && c.branch.as_ref() == Some(&p.cond)
                });
                assert!(!taken, "{what}: pruned {:?} is a child", p.tag);
                // Inside an opaque call: a statement of the callee, after `given`.
                if p.given.is_empty() && e.config().frames {
                    assert_eq!(Some(p.span), n.at(), "{what}");
                }
                assert_eq!(p.line, map.line(p.span.start));
            }
        } else {
            assert!(e.pruned(n.id, map).is_empty(), "{what}");
        }
        if let Some(c) = e.caught(n.id) {
            seen.caught += 1;
            let raised = match &n.tag {
                Some(Tag::Raise(class, at)) => (*class, *at),
                Some(Tag::AssertFails(at)) => (symdbg::base::ExcClass::AssertionError, *at),
                t => panic!("{what}: caught after {t:?}"),
            };
            assert_eq!(raised, (c.class, c.raised), "{what}");
            assert!(n.at().is_some_and(|s| s == c.handler));
            assert!(map
                .line_text(map.line(c.handler.start))
                .trim_start()
                .starts_with("except"));
            for &k in &n.children {
                assert_eq!(tree.node(k).tag, Some(Tag::Handler), "{what}");
            }
        }
    }
}

/// Deterministic inputs (splitmix64), mostly small.
struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn small(&mut self) -> i64 {
        (self.next() % 13) as i64 - 6
    }

    fn value(&mut self, sort: Sort) -> Value {
        match sort {
            Sort::Int => Value::Int(self.small().into()),
            Sort::Bool => Value::Bool(self.next().is_multiple_of(2)),
            Sort::Seq => {
                let n = (self.next() % 5) as usize;
                Value::Tuple(
                    (0..n)
                        .map(|_| self.small().into())
                        .collect::<Vec<_>>()
                        .into(),
                )
            }
        }
    }
}

fn holds(model: &Model, terms: &[Term]) -> Option<bool> {
    let mut all = Some(true);
    for t in terms {
        match model.eval(t) {
            Some(Value::Bool(true)) => {}
            Some(_) => return Some(false),
            None => all = None,
        }
    }
    all
}

/// Random inputs run concretely: the run ends as the leaf whose path condition it
/// satisfies (so that leaf's root path is the run's path), and at no node on that path does
/// a pruned alternative's condition hold.
fn pruned_are_dead(x: &Explored, what: &str, runs: usize, seed: u64, seen: &mut Seen) {
    let e = &x.engine;
    let tree = e.tree();
    let leaves: Vec<NodeId> = tree.nodes().filter(|n| n.is_leaf()).map(|n| n.id).collect();
    let mut rng = Rng(SplitMix64::new(seed));
    let config = concrete::Config {
        max_steps: 200_000,
        ..concrete::Config::default()
    };
    for _ in 0..runs {
        let values: BTreeMap<_, _> = e
            .inputs()
            .iter()
            .map(|s| (s.clone(), rng.value(s.sort)))
            .collect();
        let inputs: BTreeMap<String, Value> = values
            .iter()
            .map(|(s, v)| (s.name.to_string(), v.clone()))
            .collect();
        let model = Model {
            values,
            ..Model::default()
        };
        let Some(&leaf) = leaves
            .iter()
            .find(|&&l| holds(&model, &e.path_condition(l)) == Some(true))
        else {
            continue;
        };
        let node = tree.node(leaf);
        if matches!(
            node.outcome(),
            Some(Outcome::Bound | Outcome::Unknown | Outcome::Infeasible)
        ) {
            continue;
        }
        let run = concrete::run(&x.program, &x.types, None, &inputs, &config).unwrap();
        if run.outcome == concrete::Outcome::StepLimit {
            continue;
        }
        assert_eq!(
            run.outcome.name(),
            node.outcome().unwrap().name(),
            "{what}: {inputs:?} ends elsewhere than leaf {}",
            leaf.0
        );
        for &n in &tree.path(leaf) {
            for p in e.pruned(n, &x.map) {
                let mut goal = p.given.clone();
                goal.push(p.cond.clone());
                assert_ne!(
                    holds(&model, &goal),
                    Some(true),
                    "{what}: {inputs:?} takes the pruned {} at node {}",
                    p.text,
                    n.0
                );
                seen.dead += 1;
            }
        }
    }
}

/// Every example: (its path, its text).
fn examples() -> Vec<(String, String)> {
    super::util::examples()
        .into_iter()
        .map(|f| {
            let text =
                std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&f))
                    .unwrap();
            (f, text)
        })
        .collect()
}

#[test]
fn every_example_in_both_loop_modes() {
    let mut seen = Seen::default();
    let started = std::time::Instant::now();
    for (name, src) in examples() {
        let x = explore_with(&name, &src, LoopMode::Unroll, false);
        check_tree(&x, &format!("{name} opaque calls"), &mut seen);
        pruned_are_dead(&x, &format!("{name} opaque calls"), 60, 3, &mut seen);
        for loops in [LoopMode::Unroll, LoopMode::Invariant] {
            let x = explore(&name, &src, loops);
            check_tree(&x, &format!("{name} {loops:?}"), &mut seen);
            if loops == LoopMode::Unroll {
                pruned_are_dead(&x, &name, 60, 7, &mut seen);
            }
        }
    }
    eprintln!("examples: {seen:?} in {:?}", started.elapsed());
    assert!(
        seen.pruned > 20 && seen.dead > 50 && seen.caught > 0,
        "{seen:?}"
    );
}

/// Exceptions caught in a caller's frame, in a loop, re-raised from a handler, by a bare
/// `except`; asserts and divisions whose failures are ruled out by earlier branches.
const HANDWRITTEN: [&str; 4] = [
    "\
t: tuple
i: int
def get(t: tuple, i: int) -> int:
    return t[i]
try:
    x = get(t, i)
except IndexError:
    x = -1
",
    "\
n: int
k = 0
s = 0
while k < 3:
    k = k + 1
    try:
        s = s + 10 // (n - k)
    except ZeroDivisionError:
        s = s - 1
        if n > 5:
            break
",
    "\
a: int
b: int
if a > 0:
    if b > a:
        assert b > 0
        x = 100 // b
try:
    try:
        y = 1 // a
    except ZeroDivisionError:
        y = (1,)[b]
except:
    y = 7
",
    "\
x: int
assume x > 5
if x < 3:
    y = 1
else:
    y = 2
",
];

#[test]
fn handwritten_programs() {
    let mut seen = Seen::default();
    for (k, src) in HANDWRITTEN.iter().enumerate() {
        let x = explore(&format!("h{k}.py"), src, LoopMode::Unroll);
        check_tree(&x, &format!("handwritten {k}"), &mut seen);
        pruned_are_dead(&x, &format!("handwritten {k}"), 200, k as u64, &mut seen);
    }
    eprintln!("handwritten: {seen:?}");
    assert!(seen.caught >= 4 && seen.dead > 50, "{seen:?}");
    // `assume x > 5` then `if x < 3`: the then-branch is pruned, its condition at line 3.
    let src = HANDWRITTEN[3];
    let x = explore("h3.py", src, LoopMode::Unroll);
    let map = &x.map;
    let node = x
        .engine
        .tree()
        .nodes()
        .find(|n| n.at().is_some_and(|s| map.line(s.start) == 3))
        .unwrap();
    let pruned = x.engine.pruned(node.id, map);
    assert_eq!(pruned.len(), 1, "{pruned:?}");
    assert_eq!((pruned[0].tag.clone(), pruned[0].line), (Tag::Then, 3));
    assert_eq!(pruned[0].cond.to_string(), "x < 3");
    // The else leaf's provenance: line 2 (assume), line 3 (else).
    let leaf = x.engine.tree().nodes().find(|n| n.is_leaf()).unwrap();
    let prov = x.engine.provenance(leaf.id, map);
    let got: Vec<(usize, &str)> = prov
        .iter()
        .map(|(_, o)| (o.line, o.transition.as_str()))
        .collect();
    assert_eq!(got, [(2, "assume"), (3, "else")]);
}

#[test]
fn generated_programs() {
    let mut seen = Seen::default();
    let mut rng = Rng(SplitMix64::new(12));
    for case in 0..150u64 {
        let choices: Vec<u32> = (0..300)
            .map(|_| ((rng.next() % 256) as u32) << 24)
            .collect();
        let src = symdbg::lang::pretty::program(&gen::program(&choices));
        let what = format!("generated {case}:\n{src}");
        let x = explore("gen.py", &src, LoopMode::Unroll);
        check_tree(&x, &what, &mut seen);
        pruned_are_dead(&x, &what, 30, case, &mut seen);
    }
    eprintln!("generated: {seen:?}");
    assert!(seen.conjuncts > 100 && seen.pruned > 20, "{seen:?}");
}

#[test]
#[ignore = "a measurement: cargo test --test it why_engine::cost -- --ignored --nocapture"]
fn cost() {
    let src = "\
t: tuple
x: int
i = 0
s = 0
while i < len(t):
    if t[i] > x:
        s = s + 100 // (t[i] - x)
    i = i + 1
";
    let (program, types, ir) = transform::load(src).unwrap();
    let mut config = Config::default();
    config.unroll = 12;
    let mut e = Engine::new(&program, types, ir, None, config).unwrap();
    let t = std::time::Instant::now();
    e.run(e.tree().root(), Limits::default());
    let explore = t.elapsed();
    let map = SourceMap::new("cost.py", src);
    let t = std::time::Instant::now();
    let conjuncts: usize = e
        .tree()
        .nodes()
        .map(|n| e.provenance(n.id, &map).len())
        .sum();
    let provenance = t.elapsed();
    let t = std::time::Instant::now();
    let pruned: usize = e.tree().nodes().map(|n| e.pruned(n.id, &map).len()).sum();
    let pruned_time = t.elapsed();
    eprintln!(
        "{} nodes explored in {explore:?}; provenance of every node ({conjuncts} conjuncts) in {provenance:?}; pruned of every node ({pruned}) in {pruned_time:?}",
        e.tree().len()
    );
}

/// A user's `assert` before a hand-written `loop-scope` (its block ends with the scope)
/// runs as Python and fails where CPython marks it, as without the scope (the engine once
/// took such a block for a loop-scope form by its shape).
#[test]
fn assert_before_a_handwritten_loop_scope_is_the_users() {
    let plain = "x: int\nassert  (x > 3)\nx = 0\n";
    let scoped = "\
x: int
assert  (x > 3)
loop-scope(inv=x >= 0):
    if x < 5:
        x = x + 1
        continue
    else:
        break
";
    let column = |src: &str| {
        let x = explore("a.py", src, LoopMode::Invariant);
        let tree = x.engine.tree();
        let leaf = tree
            .nodes()
            .find(|n| {
                n.outcome() == Some(Outcome::Exception(symdbg::base::ExcClass::AssertionError))
            })
            .unwrap();
        assert!(matches!(leaf.tag, Some(Tag::AssertFails(_))));
        x.map.line_col(leaf.exception_at().unwrap().start)
    };
    assert_eq!(column(scoped), column(plain));
    assert_eq!(column(plain), (2, 10));
}
