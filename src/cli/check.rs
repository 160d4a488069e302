//! `symdbg check FILE [--runs N] [--seed S] [--json] [options]`: the book's exhaustiveness
//! and precision tests (see [`crate::check`]).

use std::collections::BTreeMap;

use serde_json::json;

use super::{CheckArgs, Failure};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::check::parallel::{self, Parallel, Redo};
use crate::check::{self, Behaviour, Counterexample};
use crate::diagnostics::count;
use crate::session::{Ended, Limits, Outcome, Policy, Value};

/// `check` compares each leaf with a concrete run of its inputs: a path through `havoc`
/// (the statement, or a loop's invariant under `--loops invariant`) has values no input
/// fixes, which a concrete run (it keeps a havoc'd variable's value, and runs every
/// iteration of a loop) cannot replay: every verdict on it would be a false `no`.
fn refuse_arbitrary_values(
    loaded: &crate::session::Loaded,
    loops: super::Loops,
) -> Result<(), Failure> {
    use crate::lang::ast::{Stmt, StmtKind};
    fn havoc(body: &[Stmt]) -> Option<&Stmt> {
        body.iter().find_map(|s| match &s.kind {
            StmtKind::Havoc(_) => Some(s),
            StmtKind::FunctionDef(f) => havoc(&f.body),
            _ => s.nested_blocks().into_iter().find_map(havoc),
        })
    }
    if let Some(stmt) = havoc(&loaded.program.body) {
        let d = crate::diagnostics::Diagnostic::error(
            "`check` cannot test a program with `havoc`: a concrete run cannot replay its arbitrary value",
            stmt.span,
        )
        .with_label("any value, which no input fixes")
        .with_note("check compares every leaf with a concrete run of the leaf's inputs; explore the program with `symdbg run` instead");
        return Err(Failure::diagnostics(&[d], &loaded.source));
    }
    if loops == super::Loops::Invariant && crate::testgen::has_invariants(&loaded.program) {
        return Err(Failure::plain(
            "`check --loops invariant` cannot test loops with invariants: their one arbitrary iteration (`havoc`) is no concrete run",
            &["check unrolls such loops by default (`--loops unroll`), checking the invariants where `exec` does; `symdbg run` verifies them".to_string()],
        ));
    }
    Ok(())
}

/// The environment variable that makes `check --jobs N` say on stderr whether the
/// parallel result was used or why the check was re-done on one thread (for tests).
pub const TRACE_VAR: &str = "SYMDBG_TRACE_JOBS";

/// Run `f` on a new thread, in a fresh Z3 context (the `z3` crate's contexts are
/// thread-local): Z3's answers, and which of several minimal models it finds, depend on the
/// terms its context created before (their ids order its heuristics), so what `--jobs 2`
/// and `--jobs 1` compute after different explorations on this thread must not share its
/// context (`tests/data/fuzz4/p08.py`: the minimised counterexample `t = (-1, 0, -1, -1,
/// -1)` on one thread, `t = (-1, 0, -1, 1, -1)` with `--jobs 2`). On this thread if no
/// thread can be started.
fn fresh_context<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let run = || crate::session::solver_process::with_watchdog(f);
    let mut f = Some(run);
    let spawned = std::thread::scope(|s| {
        let f = &mut f;
        let thread = std::thread::Builder::new()
            .name("symdbg-check".into())
            .stack_size(super::STACK_SIZE)
            .spawn_scoped(s, move || f.take().map(|f| f()));
        thread.ok().map(|h| h.join())
    });
    match spawned {
        Some(Ok(Some(r))) => r,
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        _ => (f.take().expect("not started"))(),
    }
}

pub(super) fn check(args: &CheckArgs) -> Result<i32, Failure> {
    if args.runs > check::MAX_RUNS {
        return Err(Failure::plain(
            format!(
                "--runs {} is more than symdbg runs: at most {}",
                args.runs,
                check::MAX_RUNS
            ),
            &[
                "each run executes the program; a larger count would not end in any useful time"
                    .to_string(),
            ],
        ));
    }
    let loaded = super::load(&args.file)?;
    refuse_arbitrary_values(&loaded, args.loops)?;
    let explore = args.explore.check_calls();
    let contract_calls = explore.calls == Some(super::Calls::Contract);
    let mut session = explore.session(loaded, args.loops, true)?;
    let options = check::Options {
        runs: args.runs,
        seed: args.seed,
        undecided: check::Undecided::Counterexample,
    };
    let max_nodes = args.explore.max_nodes;
    let limits = |max_nodes| Limits {
        max_nodes: Some(max_nodes),
        ..Limits::default()
    };
    let root = session.tree().root();
    // (before the run: an unexplored session's recipe)
    let recipe = parallel::Recipe::of(&session);
    // `--calls contract` (issue 28) binds the contract uses to each run's calls, which
    // the workers of `--jobs` do not: it is checked on this thread.
    let mut report = if args.jobs > 1 && !contract_calls {
        // A small tree is checked on this thread (the workers' start costs more than they
        // save): explore up to `SEQUENTIAL_BELOW` nodes; a tree that ends there is the
        // whole sequential tree.
        let small = max_nodes.min(parallel::SEQUENTIAL_BELOW);
        let ran = session.run(root, Policy::Subtree, limits(small), &|_| {});
        if ran.ended == Ended::Done || small == max_nodes {
            check::check_with(&mut session, &options)
        } else {
            // More workers than cores only add Z3 contexts (about 35 MB each).
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let jobs = parallel::Jobs {
                workers: usize::from(args.jobs).min(cores.max(2)),
                max_nodes,
                stack_size: super::STACK_SIZE,
                panic_in_worker: std::env::var_os("SYMDBG_TEST_WORKER_PANIC").is_some(),
            };
            // Ctrl-C ends the process (all threads) as with one thread: no flag to set.
            let cancel = Arc::new(AtomicBool::new(false));
            // A solver call of the top already came close to its time limit: the workers
            // would re-do the check on one thread after their own (slow) attempt.
            let outcome = if session.stats().solver.close_calls > 0 {
                Parallel::Redo(Redo::CloseCall)
            } else {
                parallel::check(&recipe, &options, &jobs, &cancel)
            };
            if std::env::var_os(TRACE_VAR).is_some() {
                match &outcome {
                    Parallel::Done(_) => eprintln!("symdbg: jobs: checked in parallel"),
                    Parallel::Redo(why) => {
                        eprintln!("symdbg: jobs: re-done on one thread: {why:?}")
                    }
                    Parallel::Cancelled => eprintln!("symdbg: jobs: cancelled"),
                }
            }
            match outcome {
                Parallel::Done(report) => *report,
                other => {
                    if let Parallel::Redo(Redo::Worker(why)) = other {
                        eprintln!("symdbg: warning: {why}; checking on one thread instead");
                    }
                    // (in a fresh Z3 context, as `--jobs 1`'s: see `fresh_context`)
                    fresh_context(|| {
                        let mut session = recipe.session()?;
                        let root = session.tree().root();
                        session.run(root, Policy::Subtree, limits(max_nodes), &|_| {});
                        Ok(check::check_with(&mut session, &options))
                    })
                    .map_err(|e: String| Failure::plain(e, &[]))?
                }
            }
        }
    } else {
        session.run(root, Policy::Subtree, limits(max_nodes), &|_| {});
        check::check_with(&mut session, &options)
    };
    // A counterexample to exhaustiveness minimised as `run`'s are, the same way whatever
    // `--jobs` (in a fresh session: see `check::shrink`).
    if let Some(c) = &report.exhaustive {
        let small = fresh_context(|| {
            recipe
                .session()
                .ok()
                .and_then(|mut fresh| check::shrink::minimise(&mut fresh, c))
        });
        if small.is_some() {
            report.exhaustive = small;
        }
    }
    let text = if args.json {
        let side = |c: &Option<Counterexample>| {
            json!({
                "ok": c.is_none(),
                "counterexample": c.as_ref().map(counterexample_json),
            })
        };
        let mut s = serde_json::to_string_pretty(&json!({
            "exhaustive": if report.exhaustive.is_none() && report.compared == 0 {
                // Not tested (`--runs 0`, or no input got past the program's `assume`s to
                // a verdict): neither a pass nor a failure.
                json!({"ok": null, "counterexample": null})
            } else {
                side(&report.exhaustive)
            },
            "precise": if report.leaves_replayed() == 0 && !report.not_replayed.is_empty() {
                // No model replayed to a verdict: not tested.
                json!({"ok": null, "counterexample": null})
            } else {
                side(&report.precise)
            },
            "contracts": contracts_json(&report, contract_calls),
            "runs": report.runs,
            "compared": report.compared,
            "leaves_checked": report.leaves_checked,
            "skipped": {
                "rejected": report.rejected,
                "undecided": report.undecided,
                "unevaluated": report.unevaluated,
                "unfinished": report.unfinished,
                "not_replayed": report.not_replayed.iter().map(|(leaf, why)| json!({
                    "leaf": leaf.0,
                    "why": why.name(),
                    "contracts_used": session.contracts_used(*leaf),
                })).collect::<Vec<_>>(),
            },
        }))
        .unwrap_or_default();
        s.push('\n');
        s
    } else {
        let mut s = String::new();
        match &report.exhaustive {
            // `--runs 0`: nothing was tested, so nothing is claimed.
            None if report.runs == 0 => {
                s.push_str("exhaustive: not tested (--runs 0: no random input was run)\n")
            }
            None if report.compared == 0 => s.push_str(&format!(
                "exhaustive: not tested (no random input reached a leaf to compare with: {})\n",
                not_compared(&report)
            )),
            None if report.rejected > 0 => s.push_str(&format!(
                "exhaustive: probably ({} of {}, each ended as its leaf predicts; {} rejected \
                 by an `assume`)\n",
                report.compared,
                count(report.runs, "random input"),
                report.rejected
            )),
            None => s.push_str(&format!(
                "exhaustive: probably ({}, each ended as its leaf predicts)\n",
                count(report.runs, "random input")
            )),
            Some(c) => {
                let why = match &c.symbolic {
                    Some(b) if b.outcome == Some(Outcome::Bound) => {
                        "the run goes past --unroll/--recursion: its path was cut by a bound leaf"
                    }
                    Some(b) if b.outcome == Some(Outcome::Unknown) => {
                        "its path ended in a solver `unknown` leaf"
                    }
                    Some(b) if b.outcome.is_none() => {
                        "the exploration stopped at --max-nodes before this path ended: its node was cut there, not decided"
                    }
                    _ => "no leaf represents this run",
                };
                s.push_str(&format!("exhaustive: no\n{}", describe(c, why)))
            }
        }
        let replayed = report.leaves_replayed();
        match &report.precise {
            // No model was replayed to a verdict: nothing is claimed.
            None if replayed == 0 && !report.not_replayed.is_empty() => s.push_str(&format!(
                "precise: not tested (no leaf's model could be replayed: {} not replayed)\n",
                count(report.not_replayed.len(), "leaf")
            )),
            None => s.push_str(&format!(
                "precise: probably ({}, each leaf's model replayed concretely)\n",
                count(replayed, "leaf")
            )),
            Some(c) => s.push_str(&format!(
                "precise: no\n{}",
                describe(c, "the leaf's model does not do what the leaf says")
            )),
        }
        for (leaf, why) in &report.not_replayed {
            if *why == check::NotReplayed::ContractTooWeak {
                let of: Vec<String> = session
                    .contracts_used(*leaf)
                    .iter()
                    .map(|f| format!("of {f}"))
                    .collect();
                s.push_str(&format!(
                    "  leaf {} (abstract) not reproduced: the contract {} may be too weak (the \
                     body's results differ from the model's; the run agrees with the leaf it \
                     reaches)\n",
                    leaf.0,
                    of.join(", ")
                ));
                continue;
            }
            s.push_str(&format!(
                "  leaf {} not replayed: {}\n",
                leaf.0,
                why.describe()
            ));
        }
        if let Some((f, c)) = &report.broken {
            s.push_str(&format!(
                "contracts: broken: a call of {f} with a true precondition raised or failed \
                 its postcondition (a contract promises a normal return; {} broke one)\n  counterexample: {}\n  concrete \
                 run:   {}\n  (the tree trusts the contract: prove it with `symdbg check \
                 FILE --contracts`)\n",
                count(report.contracts_broken, "run"),
                literal_inputs(&c.inputs),
                behaviour_text(&c.concrete)
            ));
        } else if contract_calls {
            s.push_str(
                "contracts: every call with a true precondition returned as its contract says\n",
            );
        }
        // The random inputs skipped (the leaves not replayed are listed above).
        let leaves = |kind| {
            report
                .not_replayed
                .iter()
                .filter(|(_, w)| *w == kind)
                .count()
        };
        let unevaluated = report.unevaluated - leaves(check::NotReplayed::Unevaluated);
        let unfinished = report.unfinished - leaves(check::NotReplayed::Unfinished);
        if unevaluated + unfinished + report.undecided > 0 {
            s.push_str(&format!(
                "skipped (no verdict either way): {} under which symdbg cannot evaluate \
                 the path conditions (e.g. a quantifier over a huge range), {} past the \
                 step budget, {} undecided\n",
                count(unevaluated, "random input"),
                count(unfinished, "concrete run"),
                report.undecided
            ));
        }
        s
    };
    super::print(text.as_bytes())?;
    Ok(exit_code(&report))
}

/// 1 when a check failed (a counterexample to exhaustiveness or precision), else 0 (as
/// `crosshair check`: 0 passes, 1 a check says no, 2 errors).
fn exit_code(report: &check::Report) -> i32 {
    if report.exhaustive.is_some() || report.precise.is_some() || report.broken.is_some() {
        EXIT_CHECK_FAILED
    } else {
        0
    }
}

/// Exit code of a `check` whose exhaustiveness or precision test found a counterexample.
pub const EXIT_CHECK_FAILED: i32 = 1;

fn literal_inputs(inputs: &BTreeMap<String, Value>) -> String {
    crate::base::bindings::bindings(inputs)
}

fn behaviour_text(b: &Behaviour) -> String {
    let mut s = b.outcome_name().to_string();
    if let Some(e) = b.exception() {
        s.push(' ');
        s.push_str(e);
    }
    if let Some(v) = &b.return_value {
        s.push_str(&format!(", returns {v}"));
    }
    if !b.store.is_empty() {
        s.push_str(&format!(", {}", literal_inputs(&b.store)));
    }
    match b.stdout.as_deref() {
        Some("") | None => {}
        Some(out) => s.push_str(&format!(", prints {:?}", out)),
    }
    if let Some(note) = &b.note {
        s.push_str(&format!(" ({note})"));
    }
    s
}

fn describe(c: &Counterexample, why: &str) -> String {
    let leaf = match (&c.symbolic, c.leaf) {
        (Some(b), Some(id)) if b.outcome.is_none() => {
            format!("node {} (open): {}", id.0, behaviour_text(b))
        }
        (Some(b), Some(id)) => format!("leaf {}: {}", id.0, behaviour_text(b)),
        _ => "no leaf's path condition holds".to_string(),
    };
    format!(
        "  counterexample: {}\n  concrete run:   {}\n  symbolic:       {leaf}\n  ({why})\n",
        literal_inputs(&c.inputs),
        behaviour_text(&c.concrete)
    )
}

fn counterexample_json(c: &Counterexample) -> serde_json::Value {
    let b = |b: &Behaviour| {
        json!({
            "outcome": b.outcome_name(),
            "exception": b.exception(),
            "store": b.store.iter().map(|(k, v)| (k.clone(), v.to_json())).collect::<serde_json::Map<_, _>>(),
            "return_value": b.return_value.as_ref().map(Value::to_json),
            "stdout": b.stdout,
        })
    };
    json!({
        "inputs": c.inputs.iter().map(|(k, v)| (k.clone(), v.to_json())).collect::<serde_json::Map<_, _>>(),
        "concrete": b(&c.concrete),
        "symbolic": c.symbolic.as_ref().map(b),
        "leaf": c.leaf.map(|l| l.0),
    })
}

/// `"contracts"` of `--json` (issue 28): `null` unless `--calls contract`; else `ok`
/// (no run broke a contract), `broken` (how many runs did), `function` and
/// `counterexample` of the first.
fn contracts_json(report: &check::Report, contract_calls: bool) -> serde_json::Value {
    if !contract_calls {
        return serde_json::Value::Null;
    }
    json!({
        "ok": report.broken.is_none(),
        "broken": report.contracts_broken,
        "function": report.broken.as_ref().map(|(f, _)| f),
        "counterexample": report.broken.as_ref().map(|(_, c)| counterexample_json(c)),
    })
}

/// Why no random input was compared with a leaf (`check`'s "not tested").
fn not_compared(report: &check::Report) -> String {
    if report.rejected == report.runs {
        // (`rejected` also counts inputs the interpreter refuses; random ones never are.)
        return format!(
            "the program's `assume` rejected all {}",
            count(report.runs, "random input")
        );
    }
    format!(
        "{} rejected by an `assume`, the others skipped as listed below",
        report.rejected
    )
}
