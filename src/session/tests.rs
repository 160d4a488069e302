//! The session's policies, views and replay on small programs.

use std::cell::Cell;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::*;
use crate::engine::{Limits, NodeKind, Outcome};

fn open(src: &str) -> Session {
    Session::open(SourceMap::new("t.py", src), None, Config::default()).unwrap()
}

fn open_entry(src: &str, f: &str) -> Session {
    Session::open(SourceMap::new("t.py", src), Some(f), Config::default()).unwrap()
}

const CALLS: &str = "\
def g(a: int) -> int:
    if a > 0:
        return a
    return -a

x: int
v = x
y = g(x)
z = y + 1
if z > 5:
    w = 1
";

#[test]
fn open_rejects_a_malformed_program_and_a_missing_entry() {
    assert!(Session::open(SourceMap::new("t.py", "x = \n"), None, Config::default()).is_err());
    let err = Session::open(
        SourceMap::new("t.py", "x = 1\n"),
        Some("f"),
        Config::default(),
    )
    .err()
    .unwrap();
    assert!(err[0].message.contains("no function `f`"), "{err:?}");
}

#[test]
fn step_tells_leaves_and_stepped_nodes_from_children() {
    let mut s = open("x: int\nif x > 0:\n    x = 1\n");
    let root = s.tree().root();
    let Stepped::Children(c) = s.step(root, None) else {
        panic!("the root steps")
    };
    assert_eq!(s.step(root, None), Stepped::AlreadyStepped);
    s.run(root, Policy::Subtree, Limits::default(), &|_| {});
    let leaf = s.tree().nodes().find(|n| n.is_leaf()).unwrap().id;
    assert_eq!(s.step(leaf, None), Stepped::Leaf);
    assert!(!c.is_empty());
}

/// Esc while a step is inside a Z3 check: `Cancelled` and the node stays open (the
/// engine's bare result would be the empty list of "no successors").
#[test]
fn a_step_cancelled_inside_z3_is_not_no_successors() {
    let src = "x: int\ny: int\nz: int\nif x > 0 and y > 0 and z > 0:\n    if x * x * x + y * y * y == z * z * z:\n        r = 1\n";
    let config = Config {
        timeout_ms: Some(60_000),
        ..Config::default()
    };
    let mut s = Session::open(SourceMap::new("t.py", src), None, config).unwrap();
    let root = s.tree().root();
    s.run(
        root,
        Policy::RunTo { lines: &[5] },
        Limits::default(),
        &|_| {},
    );
    let at5 = s
        .tree()
        .nodes()
        .find(|n| n.is_open() && s.statement_line(n.id) == Some(5))
        .unwrap()
        .id;
    let cancel = s.engine.cancel_handle();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop2 = stop.clone();
    let setter = std::thread::spawn(move || {
        // The step clears the flag when it starts: keep setting it.
        while !stop2.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(50));
            cancel.store(true, Ordering::Relaxed);
        }
    });
    let stepped = s.step(at5, None);
    stop.store(true, Ordering::Relaxed);
    setter.join().unwrap();
    assert_eq!(stepped, Stepped::Cancelled);
    assert!(s.tree().node(at5).is_open());
}

#[test]
fn step_over_stays_in_the_frame_and_finish_leaves_it() {
    let mut s = open(CALLS);
    let root = s.tree().root();
    // To the call `y = g(x)` (line 8).
    s.run(
        root,
        Policy::RunTo { lines: &[8] },
        Limits::default(),
        &|_| {},
    );
    let call = s.first_stop(root).unwrap();
    assert_eq!(s.statement_line(call), Some(8));
    let counted = Cell::new(0);
    let ran = s.run(call, Policy::StepOver, Limits::default(), &|n| {
        counted.set(n)
    });
    assert_eq!(ran.ended, Ended::Done);
    assert_eq!(
        counted.get(),
        s.tree().len(),
        "progress reports the node count"
    );
    // Every open node under the call is back in the module's frame.
    for id in s.tree().subtree(call).into_iter().skip(1) {
        let n = s.tree().node(id);
        if n.is_open() {
            assert_eq!(n.state.frames.len(), 1);
            assert_eq!(s.statement_line(id), Some(9));
        }
    }
    assert!(ran.select.is_some_and(|n| s.tree().node(n).is_open()));
    // Into g, then finish: every path has left g.
    let mut s = open(CALLS);
    let root = s.tree().root();
    s.run(
        root,
        Policy::RunTo { lines: &[2] },
        Limits::default(),
        &|_| {},
    );
    let inside = s.first_stop(root).unwrap();
    assert_eq!(s.tree().node(inside).state.frames.len(), 2);
    let ran = s.run(inside, Policy::Finish, Limits::default(), &|_| {});
    assert_eq!(ran.ended, Ended::Done);
    let open: Vec<_> = s.tree().nodes().filter(|n| n.is_open()).collect();
    assert_eq!(open.len(), 2, "one per return of g");
    assert!(open.iter().all(|n| n.state.frames.len() == 1));
}

#[test]
fn continue_stops_at_breakpoints_branches_and_leaves() {
    let mut s = open(CALLS);
    let root = s.tree().root();
    let ran = s.run(
        root,
        Policy::Continue { breakpoints: &[8] },
        Limits::default(),
        &|_| {},
    );
    assert_eq!(ran.ended, Ended::Breakpoint(8));
    let at8 = ran.select.unwrap();
    // On: into g, to the branch on `a > 0`.
    let ran = s.run(
        at8,
        Policy::Continue { breakpoints: &[] },
        Limits::default(),
        &|_| {},
    );
    assert_eq!(ran.ended, Ended::BranchPoint { at_start: false });
    let branch = ran.select.unwrap();
    assert_eq!(s.tree().node(branch).children.len(), 2);
    // Again from there: the person has to pick a branch first.
    let ran = s.run(
        branch,
        Policy::Continue { breakpoints: &[] },
        Limits::default(),
        &|_| {},
    );
    assert_eq!(
        ran,
        Ran {
            ended: Ended::BranchPoint { at_start: true },
            select: Some(branch)
        }
    );
    // A straight program: continue runs to its only leaf.
    let mut s = open("x = 1\ny = x + 1\n");
    let root = s.tree().root();
    let ran = s.run(
        root,
        Policy::Continue { breakpoints: &[] },
        Limits::default(),
        &|_| {},
    );
    assert_eq!(ran.ended, Ended::PathEnded);
    assert!(s.tree().node(ran.select.unwrap()).is_leaf());
    // The node limit.
    let mut s = open(CALLS);
    let root = s.tree().root();
    let limits = Limits {
        max_nodes: Some(2),
        ..Limits::default()
    };
    let ran = s.run(root, Policy::Continue { breakpoints: &[] }, limits, &|_| {});
    assert_eq!(ran.ended, Ended::NodeLimit);
}

#[test]
fn first_exception_and_subtree() {
    let src = "x: int\nif x > 3:\n    y = 1 // (x - 4)\nelse:\n    y = 0\n";
    let mut s = open(src);
    let root = s.tree().root();
    let ran = s.run(root, Policy::FirstException, Limits::default(), &|_| {});
    assert_eq!(ran.ended, Ended::Done);
    let leaf = s.tree().node(ran.select.unwrap());
    assert!(matches!(leaf.outcome(), Some(Outcome::Exception(_))));
    let ran = s.run(root, Policy::Subtree, Limits::default(), &|_| {});
    assert_eq!(
        ran,
        Ran {
            ended: Ended::Done,
            select: Some(root)
        }
    );
    assert!(s.tree().nodes().all(|n| !n.is_open()));
    let mut s = open("x = 1\n");
    let ran = s.run(
        s.tree().root(),
        Policy::FirstException,
        Limits::default(),
        &|_| {},
    );
    assert_eq!(
        ran,
        Ran {
            ended: Ended::Done,
            select: None
        },
        "no exception leaf"
    );
    let limits = Limits {
        max_nodes: Some(1),
        ..Limits::default()
    };
    let mut s = open(src);
    let ran = s.run(s.tree().root(), Policy::Subtree, limits, &|_| {});
    assert_eq!(ran.ended, Ended::NodeLimit);
}

#[test]
fn views_say_the_same_in_every_form() {
    let src = "x: int\nif x > 3:\n    y = 1 // (x - 4)\nelse:\n    y = x\n    z = 2\n";
    let mut s = open(src);
    let root = s.tree().root();
    s.run(root, Policy::Subtree, Limits::default(), &|_| {});
    let v = s.view(root);
    assert_eq!(
        (v.line, v.column, v.statement.as_str()),
        (Some(2), Some(1), "if x > 3:")
    );
    assert_eq!(v.text(Form::Tree), "2: if x > 3:");
    assert_eq!(v.text(Form::Graph), "2: if x > 3:");
    assert_eq!(v.text(Form::Row), "");
    let exc = s
        .tree()
        .nodes()
        .find(|n| matches!(n.outcome(), Some(Outcome::Exception(_))))
        .unwrap()
        .id;
    let v = s.view(exc);
    assert_eq!(v.raised_at, Some((3, 9)));
    assert_eq!(v.text(Form::Tree), "exception ZeroDivisionError at line 3");
    assert_eq!(v.text(Form::Graph), "ZeroDivisionError\nline 3");
    assert_eq!(v.text(Form::Row), "ZeroDivisionError at line 3");
    let normal = s
        .tree()
        .nodes()
        .find(|n| n.outcome() == Some(Outcome::Normal) && s.view(n.id).store.len() == 3)
        .unwrap()
        .id;
    let v = s.view(normal);
    assert_eq!(v.text(Form::Tree), "normal  x = x, y = x, z = 2");
    // (issue 23 item 18: DOT's leaves show the final store, one variable a line)
    assert_eq!(v.text(Form::Graph), "normal\nx = x\ny = x\nz = 2");
    assert_eq!(v.text(Form::Row), "normal  x = x, y = x, z = 2");
    assert_eq!(v.kind_name(), "leaf");
    // An open node.
    let mut s = open(src);
    let v = s.view(s.tree().root());
    assert_eq!(v.kind, NodeKind::Open);
    assert_eq!(v.text(Form::Tree), "2: if x > 3:  (open)");
    assert_eq!(v.text(Form::Graph), "2: if x > 3:\n(open)");
    s.step(s.tree().root(), None);
    // Many variables: the row shows four.
    let mut s = open("a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n");
    s.run(s.tree().root(), Policy::Subtree, Limits::default(), &|_| {});
    let leaf = s.tree().nodes().find(|n| n.is_leaf()).unwrap().id;
    assert_eq!(
        s.view(leaf).text(Form::Row),
        "normal  a = 1, b = 2, c = 3, d = 4, …"
    );
    // Issue 23 items 17 and 18: natural order (a2 before a10) in every form; DOT shows
    // eight variables and says how many more, and cuts long lines.
    let many: String = (1..=12).map(|k| format!("a{k} = {k}\n")).collect();
    let mut s = open(&format!(
        "{many}t = {}\n",
        "(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)"
    ));
    s.run(s.tree().root(), Policy::Subtree, Limits::default(), &|_| {});
    let leaf = s.tree().nodes().find(|n| n.is_leaf()).unwrap().id;
    let v = s.view(leaf);
    let names: Vec<&str> = v.store.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names,
        ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "a11", "a12", "t"]
    );
    assert!(v
        .text(Form::Tree)
        .starts_with("normal  a1 = 1, a2 = 2, a3 = 3"));
    assert_eq!(
        v.text(Form::Graph),
        "normal\na1 = 1\na2 = 2\na3 = 3\na4 = 4\na5 = 5\na6 = 6\na7 = 7\na8 = 8\n… (5 more)"
    );
    let mut s = open(&format!(
        "t = {}\n",
        "(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)"
    ));
    s.run(s.tree().root(), Policy::Subtree, Limits::default(), &|_| {});
    let leaf = s.tree().nodes().find(|n| n.is_leaf()).unwrap().id;
    assert_eq!(
        s.view(leaf).text(Form::Graph),
        "normal\nt = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,…"
    );
    // A return leaf of an entry run.
    let mut s = open_entry("def f(a: int) -> int:\n    return a + 1\n", "f");
    s.run(s.tree().root(), Policy::Subtree, Limits::default(), &|_| {});
    let leaf = s.tree().nodes().find(|n| n.is_leaf()).unwrap().id;
    let v = s.view(leaf);
    assert_eq!(v.text(Form::Tree), "return  return a + 1");
    assert_eq!(v.text(Form::Row), "return a + 1");
    assert_eq!(v.text(Form::Graph), "return a + 1");
}

#[test]
fn replay_follows_every_satisfiable_leaf_and_catches_a_wrong_one() {
    let src = "x: int\nif x > 3:\n    y = 1 // (x - 4)\nelse:\n    y = x\n";
    let mut s = open(src);
    s.run(s.tree().root(), Policy::Subtree, Limits::default(), &|_| {});
    let leaves: Vec<NodeId> = s
        .tree()
        .nodes()
        .filter(|n| n.is_leaf())
        .map(|n| n.id)
        .collect();
    assert_eq!(leaves.len(), 3);
    let config = crate::concrete::Config::default();
    for &leaf in &leaves {
        let r = s.replay(leaf, None, &config).unwrap();
        assert!(r.follows(), "{leaf:?}: {:?}", r.verdict);
        assert!(r.model.is_some());
        assert_eq!(r.undetermined, 0);
        if s.tree().node(leaf).outcome() != Some(Outcome::Normal) {
            assert!(s.reproduces(leaf, &r));
        }
    }
    // Inputs that take the other branch: the path's conjunct is false.
    let exc = leaves
        .iter()
        .copied()
        .find(|&l| matches!(s.tree().node(l).outcome(), Some(Outcome::Exception(_))))
        .unwrap();
    let other = [("x".to_string(), crate::concrete::Value::Int(0.into()))].into();
    let r = s.replay(exc, Some(&other), &config).unwrap();
    assert!(
        matches!(r.verdict, Verdict::LeavesPath { index: 1, .. }),
        "{:?}",
        r.verdict
    );
    assert!(!s.reproduces(exc, &r));
}

#[test]
fn replay_says_why_there_is_no_model() {
    let mut s = open("x: int\nassume x > 0\nassume x < 0\n");
    s.run(s.tree().root(), Policy::Subtree, Limits::default(), &|_| {});
    let infeasible = s
        .tree()
        .nodes()
        .find(|n| n.outcome() == Some(Outcome::Infeasible))
        .unwrap()
        .id;
    let r = s.replay(infeasible, None, &crate::concrete::Config::default());
    assert_eq!(
        r.err(),
        Some(ReplayError::NoModel(super::NoModel::Infeasible))
    );
}
