//! The engine's API for front-ends: stepping, limits, cancellation, strategies; and honest
//! `unknown` leaves; the session's run policies (step over, finish frame, run to a line).

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::time::Duration;

use symdbg::base::SourceMap;
use symdbg::engine::{Config, Engine, Limits, NodeId, Outcome, Stop, Strategy};
use symdbg::session::{Ended, Policy, Session, Stepped};
use symdbg::transform;

fn engine(src: &str, config: Config) -> Engine {
    let (program, types, ir) = transform::load(src).unwrap_or_else(|d| panic!("{d:?}"));
    Engine::new(&program, types, ir, None, config).unwrap()
}

const CALLS: &str = "\
def clamp(v: int, lo: int, hi: int) -> int:
    if v < lo:
        return lo
    if v > hi:
        return hi
    return v

x: int
y = clamp(x, 0, 10)
z = y + 1
";

/// Leaves as comparable text: outcome and path condition.
fn leaf_set(e: &Engine) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for n in e.tree().nodes().filter(|n| n.is_leaf()) {
        let pc: Vec<String> = e
            .path_condition(n.id)
            .iter()
            .map(|t| t.to_string())
            .collect();
        *out.entry(format!("{:?} | {}", n.outcome(), pc.join(" and ")))
            .or_insert(0) += 1;
    }
    out
}

#[test]
fn dfs_and_bfs_find_the_same_leaves_on_every_example() {
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/examples")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "py") {
            continue; // (examples/showme/ is a folder of its own)
        }
        let src = std::fs::read_to_string(&path).unwrap();
        // Unrolled: a solver timeout (possible with invariants on a slow machine) may fall
        // differently in two runs.
        let mut config = Config::default();
        config.loops = symdbg::engine::LoopMode::Unroll;
        let mut a = engine(&src, config.clone());
        let mut b = engine(&src, config);
        let (ra, rb) = (a.tree().root(), b.tree().root());
        assert_eq!(a.run(ra, Limits::default()), Stop::Done);
        let bfs = Limits {
            strategy: Strategy::Bfs,
            ..Limits::default()
        };
        assert_eq!(b.run(rb, bfs), Stop::Done);
        assert_eq!(leaf_set(&a), leaf_set(&b), "{}", path.display());
        assert_eq!(a.tree().len(), b.tree().len(), "{}", path.display());
    }
}

#[test]
fn a_node_is_stepped_once_and_the_tree_grows_only_on_request() {
    let mut e = engine(CALLS, Config::default());
    let root = e.tree().root();
    assert_eq!(e.tree().len(), 1);
    let children = e.step(root);
    assert_eq!(children.len(), 1, "the call has one way on");
    let len = e.tree().len();
    assert!(
        e.step(root).is_empty(),
        "stepping a stepped node does nothing"
    );
    assert_eq!(e.tree().len(), len);
    // The child is inside clamp, in a frame of its own.
    assert_eq!(e.frames(children[0]), ["<module>", "clamp"]);
}

/// The session over `src` (the run policies live there: `Session::run`).
fn session(src: &str) -> Session {
    Session::open(SourceMap::new("calls.py", src), None, Config::default()).unwrap()
}

/// The open nodes of a session's tree.
fn open_nodes(s: &Session) -> Vec<NodeId> {
    s.tree()
        .nodes()
        .filter(|n| n.is_open())
        .map(|n| n.id)
        .collect()
}

#[test]
fn step_over_and_finish_frame() {
    let mut s = session(CALLS);
    let root = s.tree().root();
    let ran = s.run(root, Policy::StepOver, Limits::default(), &|_| {});
    assert_eq!(ran.ended, Ended::Done);
    // Every path is back in the module frame, at `z = y + 1`, and still open there.
    let open = open_nodes(&s);
    assert_eq!(open.len(), 3, "one per way through clamp");
    for id in &open {
        assert_eq!(s.frames_at_raise(*id), ["<module>"]);
    }

    let mut s = session(CALLS);
    let root = s.tree().root();
    let Stepped::Children(inside) = s.step(root, None) else {
        panic!("the call has one way on")
    };
    let ran = s.run(inside[0], Policy::Finish, Limits::default(), &|_| {});
    assert_eq!(ran.ended, Ended::Done);
    let open = open_nodes(&s);
    assert_eq!(open.len(), 3);
    assert!(open.iter().all(|id| s.frames_at_raise(*id) == ["<module>"]));
}

#[test]
fn run_to_a_line_stops_there() {
    let mut s = session(CALLS);
    // Line 5 is `return hi`.
    let root = s.tree().root();
    let ran = s.run(
        root,
        Policy::RunTo { lines: &[5] },
        Limits::default(),
        &|_| {},
    );
    assert_eq!(ran.ended, Ended::Done);
    let at_line_5 = open_nodes(&s);
    assert_eq!(at_line_5.len(), 1);
    assert_eq!(s.statement_line(at_line_5[0]), Some(5));
}

fn ifs(n: usize) -> String {
    let mut s: String = (0..n).map(|i| format!("x{i}: int\n")).collect();
    for i in 0..n {
        s.push_str(&format!("if x{i} > 0:\n    pass\n"));
    }
    s
}

#[test]
fn node_and_time_limits_and_cancel() {
    let src = ifs(20);
    let mut e = engine(&src, Config::default());
    let root = e.tree().root();
    let stop = e.run(
        root,
        Limits {
            max_nodes: Some(500),
            ..Limits::default()
        },
    );
    assert_eq!(stop, Stop::NodeLimit);
    assert!(e.tree().len() >= 500 && e.tree().len() < 520);

    let mut e = engine(&src, Config::default());
    let root = e.tree().root();
    let stop = e.run(
        root,
        Limits {
            time: Some(Duration::from_millis(50)),
            ..Limits::default()
        },
    );
    assert_eq!(stop, Stop::TimeLimit);

    let mut e = engine(&src, Config::default());
    let cancel = e.cancel_handle();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        cancel.store(true, Ordering::Relaxed);
    });
    let root = e.tree().root();
    assert_eq!(e.run(root, Limits::default()), Stop::Cancelled);
    setter.join().unwrap();
    // Cancelling leaves a consistent tree: the unexplored paths are open nodes.
    assert!(e.stats().open > 0);
}

/// Fermat's last theorem for n = 3 is beyond Z3's nonlinear arithmetic: the assertion's
/// failing branch must come out `unknown`, never as a (false) red leaf.
#[test]
fn undecided_checks_give_unknown_leaves_not_false_alarms() {
    let src = "\
x: int
y: int
z: int
assume x > 0 and y > 0 and z > 0
assert x * x * x + y * y * y != z * z * z
";
    let mut config = Config::default();
    config.timeout_ms = Some(200);
    let mut e = engine(src, config);
    let root = e.tree().root();
    e.run(root, Limits::default());
    let outcomes: Vec<Outcome> = e.tree().nodes().filter_map(|n| n.outcome()).collect();
    assert!(
        !outcomes.iter().any(|o| matches!(o, Outcome::Exception(_))),
        "a false alarm: {outcomes:?}"
    );
    let unknown = e
        .tree()
        .nodes()
        .find(|n| n.outcome() == Some(Outcome::Unknown))
        .expect("an unknown leaf");
    assert!(unknown.unknown_reason().is_some());
    assert!(e.model(unknown.id).is_none(), "no model at an unknown leaf");
}

/// The TUI's Esc: the cancel flag interrupts a Z3 check that is already running (here one
/// that would run for a minute), the node stays open, and the next checks run normally.
#[test]
fn cancel_interrupts_a_running_z3_check() {
    let src = "\
x: int
y: int
z: int
assume x > 0 and y > 0 and z > 0
if x * x * x + y * y * y == z * z * z:
    r = 1
";
    let mut config = Config::default();
    config.timeout_ms = Some(300_000);
    let mut e = engine(src, config.clone());
    let root = e.tree().root();
    let at_if = e.step(root)[0];
    let cancel = e.cancel_handle();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        cancel.store(true, Ordering::Relaxed);
    });
    let started = std::time::Instant::now();
    assert!(
        e.step(at_if).is_empty(),
        "a cancelled step adds no children"
    );
    let took = started.elapsed();
    setter.join().unwrap();
    // A hang guard (the check would run for its five minutes), not a speed test.
    assert!(
        took < Duration::from_secs(60),
        "the check was not interrupted: {took:?}"
    );
    assert!(
        e.tree().node(at_if).is_open(),
        "the cancelled node stays open"
    );
    assert!(!e
        .tree()
        .nodes()
        .any(|n| n.outcome() == Some(Outcome::Unknown)));

    // The interruption does not stick to this thread's Z3 context.
    let mut easy = engine(CALLS, config);
    let root = easy.tree().root();
    assert_eq!(easy.run(root, Limits::default()), Stop::Done);
    assert_eq!(easy.stats().leaves, 3);
    assert!(!easy
        .tree()
        .nodes()
        .any(|n| n.outcome() == Some(Outcome::Unknown)));
}

/// At a `while` with invariants both transitions exist; `step_with` picks one whatever
/// the configured default is, and the loop-scope steps carry labels.
#[test]
fn loop_choice_and_labels() {
    let src = "\
n: int
assume n >= 0
i = 0
while i < n:
    invariant 0 <= i <= n
    i = i + 1
assert i == n
";
    let mut e = engine(src, Config::default());
    let root = e.tree().root();
    let mut at = root;
    while !e.loop_choice(at) {
        let children = e.step(at);
        assert_eq!(children.len(), 1);
        at = children[0];
    }
    assert_eq!(
        e.tree().node(at).label(),
        Some(symdbg::engine::label::LOOP_CHOICE)
    );

    // Unroll: the next node checks the invariant before the loop's test (where the
    // concrete interpreter checks it), and is not a choice any more.
    let mut unrolled = engine(src, Config::default());
    let mut u = unrolled.tree().root();
    while !unrolled.loop_choice(u) {
        u = unrolled.step(u)[0];
    }
    let next = unrolled.step_with(u, symdbg::engine::LoopMode::Unroll);
    assert_eq!(next.len(), 1);
    assert!(!unrolled.loop_choice(next[0]));
    assert_eq!(
        unrolled.tree().node(next[0]).label(),
        Some(symdbg::engine::label::CHECK)
    );
    unrolled.run(next[0], Limits::default());
    assert!(unrolled
        .tree()
        .nodes()
        .any(|n| n.outcome() == Some(Outcome::Bound)));

    // Unroll ONE iteration: after the body the loop head is a choice again, and running
    // on applies the default (the invariant) there: no bound leaf, nothing fails.
    for src in [
        src.to_string(),
        src.replace("i = i + 1", "i = i + 1\n    continue"),
    ] {
        let mut once = engine(&src, Config::default());
        let mut u = once.tree().root();
        while !once.loop_choice(u) {
            u = once.step(u)[0];
        }
        let next = once.step_with(u, symdbg::engine::LoopMode::UnrollOnce);
        assert_eq!(next.len(), 1);
        assert!(!once.loop_choice(next[0]));
        once.run(next[0], Limits::default());
        let heads: Vec<_> = once
            .tree()
            .nodes()
            .filter(|n| n.label() == Some(symdbg::engine::label::LOOP_CHOICE))
            .map(|n| n.id)
            .collect();
        assert_eq!(heads.len(), 2, "{src}: the head again after one iteration");
        let outcomes: Vec<Outcome> = once.tree().nodes().filter_map(|n| n.outcome()).collect();
        assert!(!outcomes.is_empty());
        assert!(
            outcomes
                .iter()
                .all(|o| matches!(o, Outcome::Normal | Outcome::Halt | Outcome::Infeasible)),
            "{src}: {outcomes:?}"
        );
    }
    // As a default, one iteration at a time would never end: it means Unroll.
    let mut config = Config::default();
    config.loops = symdbg::engine::LoopMode::UnrollOnce;
    let mut dflt = engine(src, config);
    let root = dflt.tree().root();
    assert_eq!(dflt.run(root, Limits::default()), Stop::Done);
    assert!(dflt
        .tree()
        .nodes()
        .any(|n| n.outcome() == Some(Outcome::Bound)));

    // Apply the invariant (the default): the proof's steps, labelled; it verifies.
    let next = e.step(at);
    assert_eq!(
        e.tree().node(next[0]).label(),
        Some(symdbg::engine::label::INITIALLY_VALID)
    );
    assert_eq!(e.run(root, Limits::default()), Stop::Done);
    let labels: Vec<&str> = e.tree().nodes().filter_map(|n| n.label()).collect();
    for expected in [
        symdbg::engine::label::HAVOC,
        symdbg::engine::label::ASSUME,
        symdbg::engine::label::PRESERVES,
        symdbg::engine::label::PRESERVED,
        symdbg::engine::label::USE_CASE,
    ] {
        assert!(labels.contains(&expected), "no `{expected}` in {labels:?}");
    }
    assert!(!e
        .tree()
        .nodes()
        .any(|n| matches!(n.outcome(), Some(Outcome::Exception(_) | Outcome::Unknown))));
}

/// Issue 23 item 7: an operand evaluated before a call is bound to a temporary first
/// (CPython's order: `x` in `x + f(x)` is read before `f` runs), but that binding changes
/// nothing a person sees, so it is no node of its own: the statement's node steps into the
/// call at once. An operand that may raise stays a step of its own (its exception is a
/// branch, raised before the call as in CPython).
#[test]
fn operands_read_before_a_call_are_no_step_of_their_own() {
    use symdbg::session::{Session, Stepped};
    for stmt in [
        "a = x + f(x)",
        "a = 2 + f(x)",
        "a = len((x, x * 3, f(x)))",
        "a = x - f(x) + f(x + 1)",
    ] {
        let src =
            format!("def f(n: int) -> int:\n    return n + 1\n\nx: int\n{stmt}\nassert a != 5\n");
        let mut s = Session::open(SourceMap::new("t.py", &src), None, Config::default()).unwrap();
        let root = s.tree().root();
        assert_eq!(s.statement_line(root), Some(5), "{stmt}");
        let Stepped::Children(children) = s.step(root, None) else {
            panic!("{stmt}: the root steps")
        };
        assert_eq!(children.len(), 1, "{stmt}");
        let child = children[0];
        assert_eq!(
            (s.statement_line(child), s.frames_at_raise(child).len()),
            (Some(2), 2),
            "{stmt}: one step from the statement enters f"
        );
    }
    // `y // x` may raise ZeroDivisionError before `f` runs: that step stays, with both ways.
    let src = "def f(n: int) -> int:\n    return n + 1\n\nx: int\ny: int\na = y // x + f(x)\n";
    let mut s = Session::open(SourceMap::new("t.py", src), None, Config::default()).unwrap();
    let root = s.tree().root();
    let Stepped::Children(children) = s.step(root, None) else {
        panic!("the root steps")
    };
    let outcomes: Vec<Option<Outcome>> = children
        .iter()
        .map(|&c| s.tree().node(c).outcome())
        .collect();
    assert!(
        outcomes.contains(&Some(Outcome::Exception(
            symdbg::base::ExcClass::ZeroDivisionError
        ))),
        "{outcomes:?}"
    );
    assert!(outcomes.contains(&None), "{outcomes:?}");
}
