//! Issue 29, value origins: every node of the example trees (module runs, `--entry` runs of
//! every function, `--fold auto`, loops unrolled, contracts used at calls), structurally:
//! - every variable of a node's store has an origin, an ancestor-or-self of the node;
//! - the origin's line holds what its kind says: an assignment to the name (`x = e`,
//!   `x += e`, `for x in ...`, `x = f(...)` for a `return`), a `havoc x`, a call of a
//!   function with a parameter of that name, the name's declaration or a `def` with that
//!   parameter (inputs), or a loop whose body assigns the name (a fold's step);
//! - no assignment to the name lies between the origin and the node: the value is the same
//!   text at every node after the origin's step, and no node in between runs a plain
//!   assignment to the name in the same frame;
//! - the origin is the same at every node in between (the chain is stable).
//!
//! Plus one test per construct: the origin chain through reads, augmented assignment,
//! `for` targets, calls and returns, folded loops, contract uses, havoc, inputs.

use std::collections::{BTreeMap, BTreeSet};

use symdbg::base::SourceMap;
use symdbg::lang::{Expr, ExprKind, Stmt, StmtKind};
use symdbg::session::{
    CallMode, Config, FoldMode, Limits, LoopMode, NodeId, Outcome, Policy, Session, StoreOrigin,
};

use crate::util::examples;

/// What each line of a program does to names, from its AST.
#[derive(Default)]
struct Lines {
    /// Names a plain `x = e` / `x += e` assigns, by line.
    plain: BTreeMap<usize, BTreeSet<String>>,
    /// Names a `for` target, a `havoc`, a declaration or a `def`'s parameter binds, by line.
    binds: BTreeMap<usize, BTreeSet<String>>,
    /// Names assigned anywhere inside a loop (its body), by the loop's line.
    loop_assigns: BTreeMap<usize, BTreeSet<String>>,
    /// The lines of `return` statements (in a contracted function, `return e` assigns
    /// `result` in its method frame).
    returns: BTreeSet<usize>,
    /// The first line of a self-recursive function's body (where `--fold auto` folds its
    /// recursion, rebinding the parameters), with its parameters.
    rec_entry: BTreeMap<usize, BTreeSet<String>>,
    /// The functions called on a line.
    calls: BTreeMap<usize, BTreeSet<String>>,
    /// Each function's parameter names.
    params: BTreeMap<String, BTreeSet<String>>,
}

fn line_of(src: &SourceMap, offset: usize) -> usize {
    src.line(offset)
}

fn calls_in(e: &Expr, out: &mut BTreeSet<String>) {
    if let ExprKind::Call { func, .. } = &e.kind {
        out.insert(func.name.clone());
    }
    for c in e.children() {
        calls_in(c, out);
    }
}

fn assigned_in(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Assign { target, .. } | StmtKind::AugAssign { target, .. } => {
                out.insert(target.name.clone());
            }
            StmtKind::For {
                target,
                body,
                orelse,
                ..
            } => {
                out.insert(target.name.clone());
                assigned_in(body, out);
                assigned_in(orelse.as_deref().unwrap_or_default(), out);
            }
            StmtKind::Havoc(x) => {
                out.insert(x.name.clone());
            }
            StmtKind::While { body, orelse, .. } => {
                assigned_in(body, out);
                assigned_in(orelse.as_deref().unwrap_or_default(), out);
            }
            StmtKind::If { branches, orelse } => {
                branches.iter().for_each(|(_, b)| assigned_in(b, out));
                assigned_in(orelse.as_deref().unwrap_or_default(), out);
            }
            StmtKind::Try { body, handlers } => {
                assigned_in(body, out);
                handlers.iter().for_each(|h| assigned_in(&h.body, out));
            }
            StmtKind::MethodFrame { body, .. } | StmtKind::LoopScope { body, .. } => {
                assigned_in(body, out)
            }
            _ => {}
        }
    }
}

fn scan(src: &SourceMap, stmts: &[Stmt], l: &mut Lines) {
    for s in stmts {
        let line = line_of(src, s.span.start);
        let mut calls = BTreeSet::new();
        own_exprs(s)
            .into_iter()
            .for_each(|e| calls_in(e, &mut calls));
        l.calls.entry(line).or_default().extend(calls);
        let mut bind = |n: &str| {
            l.binds.entry(line).or_default().insert(n.to_string());
        };
        match &s.kind {
            StmtKind::Assign { target, .. } | StmtKind::AugAssign { target, .. } => {
                l.plain.entry(line).or_default().insert(target.name.clone());
            }
            StmtKind::Declare { name, .. } | StmtKind::Havoc(name) => bind(&name.name),
            StmtKind::Return(_) => {
                l.returns.insert(line);
            }
            StmtKind::For {
                target,
                body,
                orelse,
                ..
            } => {
                bind(&target.name);
                let mut a = BTreeSet::new();
                assigned_in(std::slice::from_ref(s), &mut a);
                l.loop_assigns.insert(line, a);
                scan(src, body, l);
                scan(src, orelse.as_deref().unwrap_or_default(), l);
            }
            StmtKind::While { body, orelse, .. } => {
                let mut a = BTreeSet::new();
                assigned_in(std::slice::from_ref(s), &mut a);
                l.loop_assigns.insert(line, a);
                scan(src, body, l);
                scan(src, orelse.as_deref().unwrap_or_default(), l);
            }
            StmtKind::If { branches, orelse } => {
                branches.iter().for_each(|(_, b)| scan(src, b, l));
                scan(src, orelse.as_deref().unwrap_or_default(), l);
            }
            StmtKind::Try { body, handlers } => {
                scan(src, body, l);
                handlers.iter().for_each(|h| scan(src, &h.body, l));
            }
            StmtKind::MethodFrame { body, .. } | StmtKind::LoopScope { body, .. } => {
                let mut a = BTreeSet::new();
                assigned_in(body, &mut a);
                l.loop_assigns.insert(line, a);
                scan(src, body, l);
            }
            StmtKind::FunctionDef(f) => {
                let names: BTreeSet<String> =
                    f.params.iter().map(|p| p.name.name.clone()).collect();
                l.binds.entry(line).or_default().extend(names.clone());
                if !f.contract.ensures.is_empty() || !f.contract.requires.is_empty() {
                    // A contract's `result`: havoc'ed at a use, bound by the method frame.
                    l.binds
                        .entry(line)
                        .or_default()
                        .insert("result".to_string());
                }
                l.params.insert(f.name.name.clone(), names.clone());
                scan(src, &f.body, l);
                let body_lines: BTreeSet<usize> =
                    f.body.iter().map(|s| line_of(src, s.span.start)).collect();
                let recursive = l.calls.iter().any(|(line, fs)| {
                    fs.contains(&f.name.name)
                        && *line > line_of(src, s.span.start)
                        && body_lines.last().is_some_and(|last| line <= last)
                });
                if let (true, Some(first)) = (recursive, f.body.first()) {
                    l.rec_entry.insert(line_of(src, first.span.start), names);
                }
            }
            _ => {}
        }
    }
}

/// Does `line` hold what an origin of `kind` for `name` says?
fn line_fits(l: &Lines, line: usize, name: &str, kind: &str) -> bool {
    let has =
        |m: &BTreeMap<usize, BTreeSet<String>>| m.get(&line).is_some_and(|s| s.contains(name));
    let call_with_param = || {
        l.calls.get(&line).is_some_and(|fs| {
            fs.iter()
                .any(|f| l.params.get(f).is_some_and(|p| p.contains(name)))
        })
    };
    match kind {
        "assignment" | "return" => {
            has(&l.plain) || has(&l.binds) || (name == "result" && l.returns.contains(&line))
        }
        "input" => has(&l.binds),
        "parameter" => call_with_param(),
        "havoc" => has(&l.binds) || has(&l.loop_assigns) || call_with_param(),
        "step" => has(&l.loop_assigns) || call_with_param() || has(&l.plain) || has(&l.rec_entry),
        _ => false,
    }
}

/// The store `run --json` shows at a node: the innermost function's locals (also at a cut
/// leaf inside a call), else the module's variables; hidden temporaries left out.
fn store(session: &Session, id: NodeId) -> BTreeMap<String, String> {
    let state = &session.tree().node(id).state;
    let env = match scope(session, id) {
        Some(_) => &state.frames.last().expect("a frame").locals,
        None => &state.globals,
    };
    env.iter()
        .filter(|(k, _)| !k.starts_with('$'))
        .map(|(k, t)| (k.to_string(), t.to_string()))
        .collect()
}

/// Which variables that store holds: the locals of the `n`-th frame, or (`None`) the
/// module's.
fn scope(session: &Session, id: NodeId) -> Option<usize> {
    let node = session.tree().node(id);
    let state = &node.state;
    let cut = matches!(node.outcome(), Some(Outcome::Bound | Outcome::Unknown));
    match state.frames.last() {
        Some(f) if f.func.is_some() && (cut || !node.is_leaf()) => Some(state.frames.len()),
        _ => None,
    }
}

/// The expressions a statement evaluates on its own line (not in its blocks).
fn own_exprs(s: &Stmt) -> Vec<&Expr> {
    match &s.kind {
        StmtKind::Assign { value, .. } | StmtKind::AugAssign { value, .. } => vec![value],
        StmtKind::Expr(e) | StmtKind::Assert(e) => vec![e],
        StmtKind::Return(e) => e.iter().collect(),
        StmtKind::Print(es) => es.iter().collect(),
        StmtKind::If { branches, .. } => branches.first().map(|(c, _)| c).into_iter().collect(),
        StmtKind::While { cond, .. } => vec![cond],
        StmtKind::For { iter, .. } => vec![iter],
        _ => Vec::new(),
    }
}

/// Explore and check every node; returns how many origins were checked.
fn check_tree(name: &str, text: &str, entry: Option<&str>, config: Config) -> usize {
    let src = SourceMap::new(name, text.to_string());
    let Ok(mut session) = Session::open(src.clone(), entry, config) else {
        return 0;
    };
    let root = session.tree().root();
    session.run(
        root,
        Policy::Subtree,
        Limits {
            max_nodes: Some(1500),
            ..Limits::default()
        },
        &|_| {},
    );
    let mut lines = Lines::default();
    scan(&src, &session.program().body, &mut lines);
    let tree = session.tree();
    let frames = |n: NodeId| tree.node(n).state.frames.len();
    let mut checked = 0;
    for node in tree.nodes() {
        let id = node.id;
        let path = tree.path(id);
        let origins: BTreeMap<String, StoreOrigin> =
            session.store_origins(id).into_iter().collect();
        let values = store(&session, id);
        for (var, value) in &values {
            let o = origins.get(var).unwrap_or_else(|| {
                panic!("{name} {entry:?}: node {} has no origin for {var}", id.0)
            });
            let at = path.iter().position(|&n| n == o.node).unwrap_or_else(|| {
                panic!(
                    "{name}: origin {o:?} of {var} is no ancestor of node {}",
                    id.0
                )
            });
            assert!(
                line_fits(&lines, o.line, var, o.kind),
                "{name} {entry:?}: node {}: origin of {var} {o:?}: line {} does not {} it",
                id.0,
                o.line,
                o.kind
            );
            // Between the origin's step and the node: the same value, the same origin, and
            // no plain assignment of the name in the node's frame.
            let same_frame = |n: NodeId| scope(&session, n) == scope(&session, id);
            let start = if o.kind == "input" { at } else { at + 1 };
            for (k, &m) in path.iter().enumerate().skip(start) {
                if !same_frame(m) {
                    continue;
                }
                let mo: BTreeMap<String, StoreOrigin> =
                    session.store_origins(m).into_iter().collect();
                assert_eq!(
                    mo.get(var),
                    Some(o),
                    "{name}: origin of {var} at node {} vs node {}",
                    m.0,
                    id.0
                );
                assert_eq!(
                    store(&session, m).get(var),
                    Some(value),
                    "{name}: {var} changed at node {} without an origin",
                    m.0
                );
                let Some(&c) = path.get(k + 1) else { continue };
                let (ml, cl) = (tree.node(m).at(), tree.node(c).at());
                let line = |s: Option<symdbg::base::Span>| s.map(|s| src.line(s.start));
                if frames(c) == frames(m)
                    && line(ml) != line(cl)
                    && line(ml)
                        .is_some_and(|l| lines.plain.get(&l).is_some_and(|s| s.contains(var)))
                {
                    panic!(
                        "{name}: node {} assigns {var} after its origin {o:?} (node {})",
                        m.0, id.0
                    );
                }
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn every_node_of_the_example_trees_has_structurally_sound_origins() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut total = 0;
    for ex in examples() {
        let text = std::fs::read_to_string(format!("{root}/{ex}")).unwrap();
        let program = symdbg::lang::parse(&text).unwrap();
        let functions: Vec<String> = program
            .body
            .iter()
            .filter_map(|s| match &s.kind {
                StmtKind::FunctionDef(f) if !f.predicate => Some(f.name.name.clone()),
                _ => None,
            })
            .collect();
        let with = |f: &dyn Fn(&mut Config)| {
            let mut c = Config::default();
            f(&mut c);
            c
        };
        let configs = [
            Config::default(),
            with(&|c| c.loops = LoopMode::Unroll),
            with(&|c| c.fold = FoldMode::Auto),
            with(&|c| c.calls = Some(CallMode::Contract)),
        ];
        for config in configs.iter() {
            total += check_tree(&ex, &text, None, config.clone());
            for f in &functions {
                total += check_tree(&ex, &text, Some(f), config.clone());
            }
        }
    }
    assert!(total > 1000, "only {total} origins checked");
}

/// The explored session of `text` (every path, up to 2000 nodes).
fn explored(text: &str, entry: Option<&str>, config: Config) -> Session {
    let mut session = Session::open(SourceMap::new("t.py", text.to_string()), entry, config)
        .unwrap_or_else(|d| panic!("{d:?}"));
    let root = session.tree().root();
    session.run(
        root,
        Policy::Subtree,
        Limits {
            max_nodes: Some(2000),
            ..Limits::default()
        },
        &|_| {},
    );
    session
}

/// The first leaf that ends normally or returns.
fn first_leaf(session: &Session) -> NodeId {
    session
        .tree()
        .nodes()
        .find(|n| matches!(n.outcome(), Some(Outcome::Normal | Outcome::Return)))
        .expect("a leaf")
        .id
}

/// An origin chain as `(level, name, line, kind)`.
fn chain(session: &Session, id: NodeId, name: &str) -> Vec<(usize, String, usize, &'static str)> {
    session
        .origin_chain(id, name)
        .into_iter()
        .map(|l| (l.level, l.name, l.origin.line, l.origin.kind))
        .collect()
}

fn unrolled(k: u32) -> Config {
    let mut c = Config::default();
    c.loops = LoopMode::Unroll;
    c.unroll = k;
    c
}

#[test]
fn a_chain_follows_what_each_assignment_read_and_a_reassignment_of_the_same_value_counts() {
    // `y = 0` twice: the second is y's origin, though its term is the first one's.
    let s = explored(
        "x: int\ny = x * 2\nz = y + 1\ny = 0\ny = 0\nw = z\n",
        None,
        Config::default(),
    );
    let leaf = first_leaf(&s);
    let lines: Vec<(String, usize, &str)> = s
        .store_origins(leaf)
        .into_iter()
        .map(|(n, o)| (n, o.line, o.kind))
        .collect();
    assert_eq!(
        lines,
        [
            ("w".into(), 6, "assignment"),
            ("x".into(), 1, "input"),
            ("y".into(), 5, "assignment"),
            ("z".into(), 3, "assignment"),
        ]
    );
    assert_eq!(
        chain(&s, leaf, "w"),
        [
            (0, "w".into(), 6, "assignment"),
            (1, "z".into(), 3, "assignment"),
            (2, "y".into(), 2, "assignment"),
            (3, "x".into(), 1, "input"),
        ]
    );
    let link = &s.origin_chain(leaf, "z")[0];
    assert_eq!(link.statement, "z = y + 1");
    assert!(s.origin_chain(leaf, "nosuch").is_empty());
}

#[test]
fn augmented_assignment_and_for_targets_chain_through_the_loop() {
    let s = explored(
        "t: tuple\nn = 0\nfor e in t:\n    n += e\n",
        None,
        unrolled(2),
    );
    // The path through two iterations: n's origin is the second `n += e`, which read e
    // (the `for` target, from t) and n (the first `n += e`, back to `n = 0`).
    let two = s
        .tree()
        .nodes()
        .filter(|n| n.is_leaf() && n.outcome() == Some(Outcome::Normal))
        .max_by_key(|n| n.depth)
        .unwrap()
        .id;
    let c = chain(&s, two, "n");
    assert_eq!(c[0], (0, "n".into(), 4, "assignment"));
    assert!(c.contains(&(1, "e".into(), 3, "assignment")), "{c:?}");
    assert!(c.contains(&(1, "n".into(), 4, "assignment")), "{c:?}");
    assert!(c.contains(&(2, "n".into(), 2, "assignment")), "{c:?}");
    // The loop's hidden variables are looked through: e came from t.
    assert!(c.iter().any(|l| l.1 == "t" && l.3 == "input"), "{c:?}");
    assert!(c.iter().all(|l| !l.1.starts_with('$')), "{c:?}");
    // The path that skips the loop: n is still `n = 0`'s.
    let zero = s
        .tree()
        .nodes()
        .filter(|n| n.is_leaf())
        .min_by_key(|n| n.depth)
        .unwrap()
        .id;
    assert_eq!(chain(&s, zero, "n"), [(0, "n".into(), 2, "assignment")]);
}

#[test]
fn a_call_result_comes_from_the_return_and_a_parameter_from_the_call() {
    let s = explored(
        "def f(a: int) -> int:\n    b = a + 1\n    return b\nx: int\ny = f(x)\n",
        None,
        Config::default(),
    );
    let leaf = first_leaf(&s);
    assert_eq!(
        chain(&s, leaf, "y"),
        [
            (0, "y".into(), 5, "return"),
            (1, "b".into(), 2, "assignment"),
            (2, "a".into(), 5, "parameter"),
            (3, "x".into(), 4, "input"),
        ]
    );
    // Inside the call (about to return): the callee's frame, the parameter's call.
    let ret = s
        .tree()
        .nodes()
        .find(|n| n.at().is_some_and(|a| s.source().line(a.start) == 3))
        .unwrap()
        .id;
    let o: BTreeMap<String, StoreOrigin> = s.store_origins(ret).into_iter().collect();
    assert_eq!((o["a"].line, o["a"].kind), (5, "parameter"));
    assert_eq!((o["b"].line, o["b"].kind), (2, "assignment"));
    // An entry run: the parameters are inputs, at the `def` line.
    let s = explored(
        "def f(a: int) -> int:\n    b = a + 1\n    return b\n",
        Some("f"),
        Config::default(),
    );
    let at_return = s
        .tree()
        .nodes()
        .find(|n| n.at().is_some_and(|a| s.source().line(a.start) == 3))
        .unwrap()
        .id;
    assert_eq!(
        chain(&s, at_return, "b"),
        [
            (0, "b".into(), 2, "assignment"),
            (1, "a".into(), 1, "input")
        ]
    );
}

#[test]
fn a_folded_loop_is_the_origin_of_what_it_changed() {
    let mut f = Config::default();
    f.fold = FoldMode::Auto;
    let s = explored(
        "n: int\ni = 0\ns = 0\nwhile i < n:\n    i = i + 1\n    s = s + 2\nr = s\n",
        None,
        f,
    );
    let folded = s
        .tree()
        .nodes()
        .filter(|n| n.is_leaf() && n.outcome() == Some(Outcome::Normal))
        .find(|n| chain(&s, n.id, "r").iter().any(|l| l.3 == "step"))
        .expect("a leaf after the fold")
        .id;
    let c = chain(&s, folded, "r");
    assert_eq!(c[0], (0, "r".into(), 7, "assignment"));
    assert_eq!(c[1], (1, "s".into(), 4, "step"));
    // The fold read the loop's variables before it and its condition's n.
    for want in [
        (2, "s".into(), 3, "assignment"),
        (2, "i".into(), 2, "assignment"),
        (2, "n".into(), 1, "input"),
    ] {
        assert!(c.contains(&want), "{want:?} in {c:?}");
    }
}

#[test]
fn havoc_of_an_invariant_loop_and_a_contract_use() {
    // The invariant transition havocs the loop's variables at the loop.
    let s = explored(
        "n: int\ni = 0\nwhile i < n:\n    invariant i >= 0\n    i = i + 1\nr = i\n",
        None,
        Config::default(),
    );
    let leaf = first_leaf(&s);
    assert_eq!(
        chain(&s, leaf, "r"),
        [
            (0, "r".into(), 6, "assignment"),
            (1, "i".into(), 3, "havoc")
        ]
    );
    // A contract used at a call: the result is havoc'ed (`gcd@n`) at the callee's `def`.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/contracts.py"
    ))
    .unwrap();
    let mut k = Config::default();
    k.calls = Some(CallMode::Contract);
    let s = explored(&text, Some("area"), k);
    let after = s
        .tree()
        .nodes()
        .find(|n| !chain(&s, n.id, "g").is_empty())
        .expect("a node after g = gcd(w, h)")
        .id;
    let c = chain(&s, after, "g");
    assert_eq!(c[0], (0, "g".into(), 24, "return"));
    assert_eq!(c[1], (1, "result".into(), 14, "havoc"));
}
