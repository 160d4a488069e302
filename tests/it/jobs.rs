//! `symdbg check --jobs N` (docs/PARALLEL.md step 1): the output is `--jobs 1`'s, byte for
//! byte, on every example and corpus program and on generated ones; the parallel result is
//! really used (not always re-done on one thread); limits, unknowns, panics, cancelling
//! and bad values of N.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use symdbg::base::SourceMap;
use symdbg::check::parallel::{self, Jobs, Parallel, Recipe, Redo};
use symdbg::check::{self, Options, Undecided};
use symdbg::engine::{Config, Limits, LoopMode};
use symdbg::lang::pretty;
use symdbg::session::{Loaded, Policy, Session};

use crate::gen;
use crate::util::symdbg;

/// Every program of the corpus and the examples, and the extra options to run it with.
fn programs() -> Vec<(String, Vec<&'static str>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/programs");
    let mut corpus: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/data/programs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .map(|p| {
            format!(
                "tests/data/programs/{}",
                p.file_name().unwrap().to_string_lossy()
            )
        })
        .collect();
    corpus.sort();
    let mut out: Vec<(String, Vec<&str>)> = crate::util::examples()
        .into_iter()
        .chain(corpus)
        .map(|p| (p, vec![]))
        .collect();
    // Failures, bounds, limits, unknowns, entries, folds, other seeds.
    let extra: [(&str, &[&str]); 10] = [
        ("examples/while_program.py", &["--unroll", "2"]),
        (
            "tests/data/programs/nested_loops.py",
            &["--unroll", "2", "--runs", "300"],
        ),
        ("examples/find.py", &["--max-nodes", "25"]),
        (
            "tests/data/programs/nested_loops.py",
            &["--max-nodes", "400"],
        ),
        ("examples/power.py", &["--unroll", "6", "--seed", "7"]),
        ("tests/data/programs/find_entry.py", &["--entry", "find"]),
        ("examples/find_invariant.py", &["--unroll", "2"]),
        (
            "examples/window_sum.py",
            &["--fold", "auto", "--unroll", "5"],
        ),
        ("examples/clamp.py", &["--runs", "0"]),
        (
            "tests/data/programs/binary_search.py",
            &[
                "--entry",
                "bsearch",
                "--assume",
                "len(t) < 4",
                "--seed",
                "3",
            ],
        ),
    ];
    out.extend(extra.iter().map(|(p, a)| (p.to_string(), a.to_vec())));
    // Issue 31: the nested-loop program (`--jobs 2` found a model the one-thread run timed
    // out on) and the mutation corpus's programs whose trees are too large for one thread.
    let issue: [(&str, &[&str]); 6] = [
        (
            "tests/data/fold/longest_run.py",
            &["--entry", "f", "--unroll", "4", "--fold", "auto"],
        ),
        (
            "tests/data/fold/backwards.py",
            &["--entry", "f", "--unroll", "20"],
        ),
        (
            "tests/data/mutation/count_below.py",
            &["--entry", "count_below", "--unroll", "4"],
        ),
        (
            "tests/data/mutation/parity_sum.py",
            &["--entry", "parity", "--unroll", "4"],
        ),
        (
            "tests/data/mutation/sum_pos.py",
            &["--entry", "sum_pos", "--unroll", "4"],
        ),
        (
            "tests/data/mutation/window.py",
            &["--entry", "best_pair", "--unroll", "4"],
        ),
    ];
    out.extend(issue.iter().map(|(p, a)| (p.to_string(), a.to_vec())));
    out
}

/// stdout and exit code of `check --jobs 2` (text) and `--jobs 3` (JSON) are those of
/// `--jobs 1`, on every example and corpus program (and a few option sets that
/// make failures, cut paths, node limits and unknown leaves).
#[test]
fn jobs_output_is_the_sequential_output_on_every_program() {
    for (file, extra) in programs() {
        for json in [false, true] {
            let mut args = vec!["check", file.as_str()];
            args.extend(&extra);
            if json {
                args.push("--json");
            }
            let (code1, out1, _) = symdbg(&args);
            assert!(!out1.is_empty(), "{args:?}: no output");
            // Two workers on the text, three on the JSON (the same code prints both).
            let n = if json { "3" } else { "2" };
            let mut a = args.clone();
            a.extend(["--jobs", n]);
            let (code, out, err) = symdbg(&a);
            assert_eq!((code, &out), (code1, &out1), "{a:?}\nstderr: {err}");
            assert!(!err.contains("warning: worker"), "{a:?}: {err}");
        }
    }
}

fn config() -> Config {
    let mut c = Config::default();
    c.loops = LoopMode::Unroll;
    c
}

fn session_of(text: &str, entry: Option<&str>, config: Config) -> Session {
    let loaded = Loaded::new(SourceMap::new("p.py", text)).expect("a valid program");
    Session::new(loaded, entry, config).expect("a session")
}

fn sequential(text: &str, entry: Option<&str>, config: Config, options: &Options) -> String {
    let mut s = session_of(text, entry, config);
    let root = s.tree().root();
    let limits = Limits {
        max_nodes: Some(MAX_NODES),
        ..Limits::default()
    };
    s.run(root, Policy::Subtree, limits, &|_| {});
    format!("{:?}", check::check_with(&mut s, options))
}

const MAX_NODES: usize = 3_000;

fn jobs(workers: usize) -> Jobs {
    Jobs {
        workers,
        max_nodes: MAX_NODES,
        stack_size: 64 << 20,
        panic_in_worker: false,
    }
}

fn parallel(
    text: &str,
    entry: Option<&str>,
    config: Config,
    options: &Options,
    n: usize,
) -> Parallel {
    let recipe = Recipe::of(&session_of(text, entry, config));
    parallel::check(
        &recipe,
        options,
        &jobs(n),
        &Arc::new(AtomicBool::new(false)),
    )
}

/// Generated programs (module runs; `--entry f0` where the program defines it): the parallel
/// report is the sequential one, and the parallel path is really taken on most of them.
#[test]
fn parallel_report_is_the_sequential_report_on_generated_programs() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as u32
    };
    let (mut done, mut redone) = (0, 0);
    for case in 0..40 {
        let len = 40 + next() as usize % 360;
        let choices: Vec<u32> = (0..len).map(|_| (next() & 0xff) << 24).collect();
        let text = pretty::program(&gen::program_with(
            &choices,
            gen::Options {
                assume: true,
                ..Default::default()
            },
        ));
        let entry = text.contains("def f0(").then_some("f0");
        for entry in [None, entry] {
            if case % 2 == 1 && entry.is_none() {
                continue;
            }
            let options = Options {
                runs: 40,
                seed: case,
                undecided: if case % 3 == 0 {
                    Undecided::Counterexample
                } else {
                    Undecided::Skip
                },
            };
            let want = sequential(&text, entry, config(), &options);
            for n in [2, 3] {
                match parallel(&text, entry, config(), &options, n) {
                    Parallel::Done(r) => {
                        done += 1;
                        assert_eq!(format!("{r:?}"), want, "{n} workers on\n{text}");
                    }
                    Parallel::Redo(Redo::NodeLimit | Redo::Unknown | Redo::CloseCall) => {
                        redone += 1
                    }
                    other => panic!("{other:?} on\n{text}"),
                }
            }
        }
    }
    assert!(done > 4 * redone, "{done} parallel, {redone} re-done");
}

/// Issue 22: the merge counts the random inputs an `assume` rejected and those compared
/// with a leaf as the one-thread check does (none compared: exhaustiveness not tested).
#[test]
fn the_merge_counts_rejected_and_compared_inputs() {
    let text = "x: int\ny: int\nt: tuple\nassume len(t) > 4294967296\ni = 0\nwhile i < x:\n    \
                if y > i:\n        y -= 1\n    i += 1\nz = t[0]\n";
    let mut c = config();
    c.unroll = 8;
    let options = Options {
        runs: 30,
        seed: 7,
        undecided: Undecided::Counterexample,
    };
    let Parallel::Done(r) = parallel(text, None, c.clone(), &options, 2) else {
        panic!("the parallel path was not taken")
    };
    assert_eq!((r.rejected, r.compared), (30, 0), "{r:?}");
    assert!(r.exhaustive.is_none(), "{r:?}");
    assert_eq!(format!("{r:?}"), sequential(text, None, c, &options));
}

/// The examples and the corpus through the library (where the CLI would check a small
/// tree on one thread): the parallel path is taken and agrees; only solver `unknown`s
/// and node limits are re-done.
#[test]
fn parallel_report_is_the_sequential_report_on_the_examples_and_corpus() {
    let mut redone = Vec::new();
    for (file, _) in programs().into_iter().filter(|(_, extra)| extra.is_empty()) {
        let text =
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&file))
                .expect("example");
        let options = Options {
            runs: 100,
            seed: 0,
            undecided: Undecided::Counterexample,
        };
        let want = sequential(&text, None, config(), &options);
        match parallel(&text, None, config(), &options, 2) {
            Parallel::Done(r) => assert_eq!(format!("{r:?}"), want, "{file}"),
            Parallel::Redo(Redo::Unknown | Redo::NodeLimit | Redo::CloseCall) => redone.push(file),
            other => panic!("{file}: {other:?}"),
        }
    }
    assert!(redone.len() <= 5, "re-done: {redone:?}");
    eprintln!("re-done on one thread: {redone:?}");
}

/// A tree larger than `--max-nodes`: the parallel result is not used (which nodes the
/// sequential run cuts depends on its order).
#[test]
fn node_limit_is_re_done_on_one_thread() {
    let text =
        "t: tuple\nn = 0\ni = 0\nwhile i < len(t):\n    if t[i] > 0:\n        n += 1\n    i += 1\n";
    let mut c = config();
    c.unroll = 12;
    let options = Options {
        runs: 20,
        seed: 0,
        undecided: Undecided::Counterexample,
    };
    let recipe = Recipe::of(&session_of(text, None, c));
    let mut j = jobs(2);
    j.max_nodes = 60;
    let r = parallel::check(&recipe, &options, &j, &Arc::new(AtomicBool::new(false)));
    assert!(matches!(r, Parallel::Redo(Redo::NodeLimit)), "{r:?}");
}

/// A solver timeout (an `unknown` leaf, which depends on the load): re-done on one thread.
#[test]
fn timeouts_are_re_done_on_one_thread() {
    let text = "x: int\ny: int\nz: int\nif x > 0 and y > 0 and z > 0:\n    assert x * x * x + y * y * y != z * z * z\n";
    let mut c = config();
    c.timeout_ms = Some(200);
    let options = Options {
        runs: 10,
        seed: 0,
        undecided: Undecided::Counterexample,
    };
    let r = parallel(text, None, c, &options, 2);
    // (A timeout is also a call close to its limit: either reason.)
    assert!(
        matches!(r, Parallel::Redo(Redo::Unknown | Redo::CloseCall)),
        "{r:?}"
    );
}

/// `--jobs 0`, a negative or non-numeric N: a usage error (exit 2) that names the option.
#[test]
fn bad_jobs_values_are_usage_errors() {
    for bad in ["0", "-1", "two", "", "70000"] {
        let arg = format!("--jobs={bad}");
        let (code, out, err) = symdbg(&["check", "examples/clamp.py", &arg]);
        assert_eq!(code, 2, "--jobs {bad:?}: {out}{err}");
        assert!(out.is_empty());
        assert!(err.contains("--jobs"), "--jobs {bad:?}: {err}");
    }
}

/// More workers than work (a tree of a few nodes): the same report; through the CLI,
/// which checks such a tree on one thread, the same output.
#[test]
fn more_workers_than_work() {
    let text = "x: int\nif x > 0:\n    x = -x\n";
    let options = Options {
        runs: 30,
        seed: 1,
        undecided: Undecided::Counterexample,
    };
    let want = sequential(text, None, config(), &options);
    match parallel(text, None, config(), &options, 16) {
        Parallel::Done(r) => assert_eq!(format!("{r:?}"), want),
        other => panic!("{other:?}"),
    }
    let (code1, out1, _) = symdbg(&["check", "examples/abs_double.py"]);
    let (code, out, err) = symdbg(&["check", "examples/abs_double.py", "--jobs", "16"]);
    assert_eq!((code, out), (code1, out1), "{err}");
}

/// A worker that panics: a message on stderr, then the check on one thread; the output
/// and exit code are `--jobs 1`'s.
#[test]
fn a_panicking_worker_is_reported_and_the_check_still_runs() {
    let args = [
        "check",
        "tests/data/programs/nested_loops.py",
        "--jobs",
        "2",
    ];
    let (code1, out1, _) = symdbg(&args[..2]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_symdbg"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("SYMDBG_TEST_WORKER_PANIC", "1")
        .output()
        .expect("run symdbg");
    let (code, stdout, stderr) = crate::util::triple(out);
    assert_eq!((code, stdout), (code1, out1), "{stderr}");
    assert!(stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains("checking on one thread instead"),
        "{stderr}"
    );
}

/// The cancel flag reaches every worker, also inside a long Z3 check (no time limit).
#[test]
fn cancel_stops_every_worker() {
    // Several hard nonlinear checks in different subtrees.
    let text = "x: int\ny: int\nz: int\nw: int\nif w > 0:\n    pass\nif w > 1:\n    pass\nif w > 2:\n    pass\nif x > 0 and y > 0 and z > 0:\n    assert x * x * x + y * y * y != z * z * z\n";
    let mut c = config();
    c.timeout_ms = None;
    let recipe = Recipe::of(&session_of(text, None, c));
    let options = Options {
        runs: 10,
        seed: 0,
        undecided: Undecided::Counterexample,
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(1500));
        flag.store(true, Ordering::Relaxed);
        Instant::now()
    });
    let r = parallel::check(&recipe, &options, &jobs(2), &cancel);
    let ended = Instant::now();
    let set = stopper.join().unwrap();
    assert!(matches!(r, Parallel::Cancelled), "{r:?}");
    // A hang guard (the checks have no time limit and run for minutes), not a speed test.
    assert!(
        ended.duration_since(set) < Duration::from_secs(60),
        "took {:?} after the flag",
        ended.duration_since(set)
    );
}

/// Routes: a node's child indices from the root; following one in a fresh session (which
/// steps the nodes on the way) reaches a node with the same statement and path condition.
#[test]
fn routes_lead_to_the_same_node_in_another_session() {
    let text = "x: int\ny: int\nif x > 0:\n    if y > x:\n        y = 1\n    else:\n        y = 2\nelse:\n    y = 3\nz = x + y\n";
    let mut a = session_of(text, None, config());
    let root = a.tree().root();
    a.run(root, Policy::Subtree, Limits::default(), &|_| {});
    let mut b = session_of(text, None, config());
    for n in a.tree().nodes().map(|n| n.id).collect::<Vec<_>>() {
        let route = a.path_to(n);
        let m = b.walk(&route).expect("the route exists");
        assert_eq!(b.path_to(m), route);
        assert_eq!(a.tree().node(n).at(), b.tree().node(m).at());
        assert_eq!(a.path_condition_texts(n), b.path_condition_texts(m));
    }
}
