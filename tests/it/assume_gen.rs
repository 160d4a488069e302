//! `--assume` over generated programs (issue 16, item 4):
//! 1. the tree under `--assume A` is the tree of the program with `assume A` written as its
//!    first statement: the same nodes in the same order, with the same kinds, outcomes and
//!    path conditions (lines shifted by the inserted ones) — no leaf reachable under the
//!    assumption is lost, none is added;
//! 2. every satisfiable leaf's model satisfies the assumptions when python3 evaluates them,
//!    and the concrete interpreter, running the program with its preconditions on that
//!    model, ends as the leaf says (never `infeasible`);
//! 3. the same for `--entry f0` runs with assumptions over `f0`'s parameters (item 2).

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

use symdbg::base::span::assumption_of_line;
use symdbg::base::{Outcome, SourceMap};
use symdbg::concrete::{self, Value};
use symdbg::engine::{Config, Limits, LoopMode, NodeId};
use symdbg::lang::pretty;
use symdbg::session::{Loaded, Policy, Session};

use crate::gen;

const CASES: u64 = 60;
const MAX_NODES: usize = 3_000;

/// A deterministic choice sequence for case `seed` (xorshift).
fn choices(seed: u64) -> Vec<u32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..120)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 32) as u32
        })
        .collect()
}

/// One or two assumptions over `names` (the inputs in scope, with their types).
fn assumptions(seed: u64, names: &[(&str, &str)]) -> Vec<String> {
    let int: Vec<&str> = names
        .iter()
        .filter(|(_, t)| *t == "int")
        .map(|(n, _)| *n)
        .collect();
    let tuple = names.iter().find(|(_, t)| *t == "tuple").map(|(n, _)| *n);
    let boolean = names.iter().find(|(_, t)| *t == "bool").map(|(n, _)| *n);
    let c = (seed % 7) as i64 - 3;
    let x = int[seed as usize % int.len()];
    let y = int[(seed as usize / 3) % int.len()];
    let mut pool = vec![
        format!("{x} > {c}"),
        format!("{x} % 3 == {}", c.rem_euclid(3)),
        format!("-5 <= {x} <= {}", c + 4),
        format!("{x} + {y} != {c}"),
        format!("abs({x} - {y}) < 4"),
    ];
    if let Some(t) = tuple {
        pool.push(format!("len({t}) <= {}", c.rem_euclid(3)));
        pool.push(format!("len({t}) == 0 or {t}[0] > {x}"));
        pool.push(format!("all({t}[k] >= 0 for k in range(len({t})))"));
    }
    if let Some(b) = boolean {
        pool.push(format!("{b} or {x} < {c}"));
        pool.push(format!("not {b}"));
    }
    let first = pool[(seed as usize) % pool.len()].clone();
    if seed.is_multiple_of(3) {
        vec![first]
    } else {
        let second = pool[(seed as usize / 5 + 1) % pool.len()].clone();
        vec![first, second]
    }
}

fn config() -> Config {
    let mut c = Config::default();
    c.timeout_ms = Some(2_000);
    c.loops = LoopMode::Unroll;
    c
}

fn explore(loaded: Loaded, entry: Option<&str>) -> Session {
    let mut s = Session::new(loaded, entry, config()).expect("session");
    let root = s.tree().root();
    let limits = Limits {
        max_nodes: Some(MAX_NODES),
        ..Limits::default()
    };
    s.run(root, Policy::Subtree, limits, &|_| {});
    s
}

/// (kind, outcome, line, path condition) of every node; `shift` is added to file lines and
/// an `--assume` line `k` becomes line `k` (where `assume` written in the source sits).
fn shape(s: &Session, shift: usize) -> Vec<String> {
    s.tree()
        .nodes()
        .map(|n| {
            let line = s.view(n.id).line.map(|l| match assumption_of_line(l) {
                Some(k) => k,
                None => l + shift,
            });
            let pc: Vec<String> = n.state.pc.to_vec().iter().map(|t| t.to_string()).collect();
            format!(
                "{:?} {:?} {line:?} {}",
                n.kind,
                n.outcome(),
                pc.join(" and ")
            )
        })
        .collect()
}

/// Checks 2 for one explored session; the python3 checks are queued in `py`.
fn check_leaves(
    s: &mut Session,
    entry: Option<&str>,
    assume: &[String],
    what: &str,
    py: &mut Vec<(String, String)>,
) -> Result<usize, String> {
    // The concrete runs below run the session's entry function.
    assert_eq!(s.entry(), entry, "{what}");
    let leaves: Vec<NodeId> = s
        .tree()
        .nodes()
        .filter(|n| {
            matches!(
                n.outcome(),
                Some(Outcome::Normal | Outcome::Return | Outcome::Exception(_))
            )
        })
        .map(|n| n.id)
        .collect();
    let mut checked = 0;
    for id in leaves {
        // Only paths that ran the preconditions (an import that fails never calls the
        // entry function).
        let mut at = Some(id);
        let mut under = false;
        while let Some(n) = at {
            under |= s.view(n).line.and_then(assumption_of_line).is_some();
            at = s.tree().node(n).parent;
        }
        if !under {
            continue;
        }
        let Ok(model) = s.try_model(id) else {
            continue;
        };
        let inputs: BTreeMap<String, Value> = model.inputs.clone();
        let leaf = s.tree().node(id).outcome();
        let run = s
            .run_concrete(&inputs, &concrete::Config::default())
            .map_err(|d| format!("{what}: concrete run: {d:?}"))?;
        if run.outcome == Outcome::StepLimit {
            continue;
        }
        if Some(run.outcome) != leaf {
            return Err(format!(
                "{what}: leaf {} says {leaf:?}, the concrete run with the preconditions on {inputs:?} ends {:?}",
                id.0, run.outcome
            ));
        }
        let bindings: Vec<String> = inputs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        for a in assume {
            py.push((a.clone(), bindings.join(", ")));
        }
        checked += 1;
    }
    Ok(checked)
}

/// Evaluate every (condition, bindings) in one python3 process: the conditions that fail.
fn python_failures(py: &[(String, String)]) -> Vec<String> {
    let mut script = String::new();
    for (cond, bindings) in py {
        script.push_str(&format!("print(eval({cond:?}, dict({bindings})))\n"));
    }
    let mut child = Command::new("python3")
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().expect("python3 output");
    assert!(out.status.success(), "python3 failed on:\n{script}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), py.len(), "{text}");
    py.iter()
        .zip(lines)
        .filter(|(_, r)| *r != "True")
        .map(|((c, b), r)| format!("{c} is {r} for {b}"))
        .collect()
}

#[test]
fn assume_option_is_assume_as_first_statement() {
    let mut py = Vec::new();
    let (mut compared, mut leaves, mut entries) = (0, 0, 0);
    for seed in 0..CASES {
        let program = gen::program(&choices(seed));
        let src = pretty::program(&program);
        let names: Vec<(&str, &str)> = program
            .inputs()
            .map(|(id, ty)| (id.name.as_str(), ty.name()))
            .collect();
        let assume = assumptions(seed, &names);
        // Module run: --assume against `assume` as the first lines of the file.
        let mut with_option = Loaded::new(SourceMap::new("gen.py", src.as_str())).expect("loads");
        with_option
            .assume(None, &assume)
            .expect("the assumptions check");
        let written: String = assume.iter().map(|a| format!("assume {a}\n")).collect();
        let in_source = Loaded::new(SourceMap::new("gen.py", format!("{written}{src}")))
            .unwrap_or_else(|d| panic!("{d:?}\n{written}{src}"));
        let mut a = explore(with_option, None);
        let b = explore(in_source, None);
        let (sa, sb) = (shape(&a, assume.len()), shape(&b, 0));
        assert_eq!(
            sa, sb,
            "seed {seed}: --assume {assume:?} differs from assume in the source:\n{src}"
        );
        compared += 1;
        leaves += check_leaves(&mut a, None, &assume, &format!("seed {seed}"), &mut py)
            .unwrap_or_else(|e| panic!("{e}\n{src}"));
        // Entry run of f0 with an assumption over its parameters, in the module of the
        // functions alone (the generated top level reads inputs: an import would fail).
        if program.function("f0").is_some() {
            let defs = symdbg::lang::Program {
                body: program
                    .body
                    .iter()
                    .filter(|s| matches!(s.kind, symdbg::lang::StmtKind::FunctionDef(_)))
                    .cloned()
                    .collect(),
                preconditions: Vec::new(),
            };
            let src = pretty::program(&defs);
            let params = [("a", "int"), ("u", "tuple")];
            let assume = assumptions(seed + 1, &params);
            let mut loaded = Loaded::new(SourceMap::new("gen.py", src.as_str())).expect("loads");
            loaded
                .assume(Some("f0"), &assume)
                .expect("the assumptions check");
            let mut s = explore(loaded, Some("f0"));
            let what = format!("seed {seed} --entry f0 {assume:?}");
            leaves += check_leaves(&mut s, Some("f0"), &assume, &what, &mut py)
                .unwrap_or_else(|e| panic!("{e}\n{src}"));
            entries += 1;
        }
    }
    let failures = python_failures(&py);
    assert!(
        failures.is_empty(),
        "models violate their assumptions: {failures:#?}"
    );
    assert_eq!(compared, CASES as usize);
    assert!(entries >= 10, "only {entries} entry runs");
    assert!(leaves >= 100, "only {leaves} leaves checked");
    eprintln!(
        "{compared} programs, {entries} entry runs, {leaves} leaves, {} python3 checks",
        py.len()
    );
}
