//! Issue 25, `for` loops: generated programs with `for` against python3 (the interpreter,
//! and every leaf's model through the engine), `check` on them, folds of `for` loops
//! against their `while` forms, invariants of `for` loops (verdicts and soundness against
//! the program without its annotations), the debugger's loop head, diagnostics.

use std::path::PathBuf;

use symdbg::base::SourceMap;
use symdbg::check::{self, Undecided};
use symdbg::concrete;
use symdbg::engine::fold::FoldMode;
use symdbg::engine::{Config, Engine, Limits, LoopMode, Outcome, Tag};
use symdbg::lang::{self, pretty};
use symdbg::session::{Loaded, Policy, Session};
use symdbg::transform;

use crate::gen;
use crate::util::symdbg;

const FOR_LOOPS: gen::Options = gen::Options {
    assume: false,
    for_loops: true,
};

/// The source of the `k`-th generated program with `for` loops (fixed seed).
fn generated(k: u64, len: usize) -> String {
    let mut rng = symdbg::base::rng::SplitMix64::new(0xf0f0_0025 + k);
    let choices: Vec<u32> = (0..len).map(|_| rng.next_u64() as u32).collect();
    pretty::program(&gen::program_with(&choices, FOR_LOOPS))
}

/// The generator writes `for` loops of every form the issue lists.
#[test]
fn the_generator_writes_every_for_form() {
    let sources: Vec<String> = (0..300).map(|k| generated(k, 200)).collect();
    let count = |pat: &str| sources.iter().filter(|s| s.contains(pat)).count();
    let with_for = count("for ");
    assert!(
        with_for * 2 >= sources.len(),
        "{with_for} programs with `for`"
    );
    for pat in [
        "in range(",
        ", -",
        ", 0):",
        "break",
        "continue",
        "else:",
        "def f",
    ] {
        assert!(count(pat) >= 5, "only {} programs with {pat:?}", count(pat));
    }
    // Tuple loops: `for iK in (`, a tuple variable or a concatenation.
    let tuple_loops = sources
        .iter()
        .filter(|s| {
            s.lines()
                .any(|l| l.trim_start().starts_with("for ") && !l.contains("range("))
        })
        .count();
    assert!(tuple_loops >= 20, "{tuple_loops} programs loop over tuples");
    for s in &sources {
        lang::load(s).unwrap_or_else(|d| panic!("{d:?}\n{s}"));
    }
}

/// The concrete interpreter against python3 on generated programs with `for` loops (as
/// modules, and `--entry f0`): outcome, exception, store, return value.
#[test]
fn generated_for_programs_agree_with_python() {
    let (programs, runs) =
        crate::differential::generated_agree_with_python("generated for loops", FOR_LOOPS, 200);
    assert!(programs >= 150, "{programs} programs");
    assert!(runs >= 1000, "{runs} runs");
}

/// The engine against python3: every leaf's model and random inputs replayed, with each
/// leaf's outcome, store and return value compared (`tests/it/symbolic.rs`).
#[test]
fn engine_agrees_with_python_on_generated_for_programs() {
    let dir = std::env::temp_dir().join(format!("symdbg-for-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let count: usize = std::env::var("SYMDBG_FOR_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(80);
    let files: Vec<PathBuf> = (0..count as u64)
        .map(|k| {
            let path = dir.join(format!("for_{k:04}.py"));
            std::fs::write(&path, generated(k, 160)).unwrap();
            path
        })
        .collect();
    let compared = crate::symbolic::differential_over(files, 5_000);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(compared > 300, "only {compared} comparisons");
}

/// `check` (exhaustiveness with random inputs, precision with every leaf's model) finds
/// no counterexample on generated programs with `for` loops. Inputs that reach a `bound`
/// leaf (`--unroll 3` cuts symbolic ranges) are undecided, not failures.
#[test]
fn check_is_exhaustive_and_precise_on_generated_for_programs() {
    let count: u64 = std::env::var("SYMDBG_FOR_CHECK")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let failures = std::thread::Builder::new()
        .stack_size(crate::differential::STACK_SIZE)
        .spawn(move || {
            let mut failures = Vec::new();
            let (mut leaves, mut runs) = (0, 0);
            for k in 0..count {
                let src = generated(1000 + k, 160);
                let loaded = Loaded::new(SourceMap::new("gen.py", &src)).unwrap();
                let mut entries = vec![None];
                if loaded.program.function("f0").is_some() {
                    entries.push(Some("f0"));
                }
                for entry in entries {
                    let mut config = Config::default();
                    config.timeout_ms = Some(2_000);
                    let mut session = Session::new(loaded.clone(), entry, config).unwrap();
                    let root = session.tree().root();
                    let limits = Limits {
                        max_nodes: Some(3_000),
                        ..Limits::default()
                    };
                    session.run(root, Policy::Subtree, limits, &|_| {});
                    let options = check::Options {
                        runs: 40,
                        seed: 11,
                        undecided: Undecided::Skip,
                    };
                    let report = check::check_with(&mut session, &options);
                    leaves += report.leaves_checked;
                    runs += report.runs;
                    for (what, c) in [
                        ("not exhaustive", &report.exhaustive),
                        ("not precise", &report.precise),
                    ] {
                        if let Some(c) = c {
                            failures.push(format!("{what} ({entry:?}): {c:?}\n{src}"));
                        }
                    }
                }
            }
            eprintln!("for loops, check: {count} programs, {leaves} leaves, {runs} runs");
            assert!(leaves as u64 >= 2 * count, "{leaves} leaves checked");
            failures
        })
        .unwrap()
        .join()
        .expect("check panicked");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `for` loops whose `while` forms fold fold the same way: one κ node each, and the folded
/// tree, the unrolled one and the interpreter agree on every input of a small box.
#[test]
fn for_loops_fold_like_their_while_forms() {
    let src = crate::fold::read("for_loops.py");
    for name in ["lin_srch", "all_pos", "down", "stride"] {
        let entry = format!("{name}_for");
        let folds = crate::fold::agree_on_box(&src, &entry);
        assert_eq!(folds, 1, "{entry}: {folds} folds");
        // The `while` twin folds as well (its agreement is what tests/it/fold.rs checks).
        let twin = crate::fold::explore(&src, &format!("{name}_while"), FoldMode::Auto, 3);
        assert_eq!(twin.stats().folds, 1, "{name}_while");
    }
    // Nothing is cut: the folded tree of the `for` search has no `bound` leaf.
    let e = crate::fold::explore(&src, "lin_srch_for", FoldMode::Auto, 3);
    assert!(e
        .tree()
        .nodes()
        .all(|n| n.outcome() != Some(Outcome::Bound)));
}

const INVARIANTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/for/invariants.py");

fn invariant_tree(src: &str, entry: &str, loops: LoopMode) -> Engine {
    let (program, types, ir) = transform::load(src).unwrap_or_else(|d| panic!("{d:?}"));
    let mut config = Config::default();
    config.loops = loops;
    config.timeout_ms = Some(5_000);
    let mut e = Engine::new(&program, types, ir, Some(entry), config).unwrap();
    let root = e.tree().root();
    e.run(
        root,
        Limits {
            max_nodes: Some(5_000),
            ..Limits::default()
        },
    );
    e
}

/// Invariants of `for` loops: the loop variable of a range loop and `x_index` of a tuple
/// loop name the position; right invariants are verified (no red leaf), wrong ones fail
/// where they are wrong (initially, or not preserved).
#[test]
fn for_invariants_are_verified_or_fail_where_wrong() {
    let src = std::fs::read_to_string(INVARIANTS).unwrap();
    let map = SourceMap::new("invariants.py", &src);
    let verified = ["find", "count", "sum_down", "stride_sum"];
    let failing = [("not_initially", 1), ("not_preserved", 1)];
    for entry in verified {
        let e = invariant_tree(&src, entry, LoopMode::Invariant);
        let red: Vec<String> = e
            .tree()
            .nodes()
            .filter(|n| matches!(n.outcome(), Some(Outcome::Exception(_) | Outcome::Unknown)))
            .map(|n| format!("{:?} at {:?}", n.outcome(), n.exception_at()))
            .collect();
        assert!(red.is_empty(), "{entry}: {red:?}");
        assert!(
            e.tree().nodes().any(|n| n.outcome() == Some(Outcome::Halt)),
            "{entry}: no preserved iteration"
        );
    }
    for (entry, min) in failing {
        let e = invariant_tree(&src, entry, LoopMode::Invariant);
        let failures: Vec<usize> = e
            .tree()
            .nodes()
            .filter(|n| n.invariant_failure())
            .map(|n| map.line(n.exception_at().unwrap().start))
            .collect();
        assert!(failures.len() >= min, "{entry}: {failures:?}");
        for line in failures {
            assert!(
                map.line_text(line).trim_start().starts_with("invariant"),
                "{entry}: fails at line {line}"
            );
        }
    }
}

/// The soundness rule on `for` loops with adversarial invariants (true ones that say
/// nothing about the failure, ones that mention the unbound loop variable, ones about the
/// position past the end): wherever the program without its annotations raises on an
/// input of the box, the invariant tree has an exception leaf of that class on that line,
/// or an invariant failure. "Verified" never hides a failure.
#[test]
fn for_invariants_never_hide_a_failure() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/for/adversarial.py"
    ))
    .unwrap();
    let map = SourceMap::new("adversarial.py", &src);
    let (program, types) = lang::load(&src).unwrap();
    let plain = symdbg::testgen::without_invariants(&program);
    let mut checked = 0;
    for f in program.functions() {
        let entry = f.name.name.as_str();
        let e = invariant_tree(&src, entry, LoopMode::Invariant);
        let leaves: Vec<(Outcome, usize, bool)> = e
            .tree()
            .nodes()
            .filter_map(|n| {
                let o = n.outcome()?;
                let line = n.exception_at().map_or(0, |s| map.line(s.start));
                Some((o, line, n.invariant_failure()))
            })
            .collect();
        let verified = !leaves.iter().any(|(_, _, inv)| *inv);
        let params: Vec<(String, lang::Type)> = f
            .params
            .iter()
            .map(|p| (p.name.name.clone(), p.ty))
            .collect();
        let mut raised_somewhere = false;
        for inputs in crate::fold::box_inputs(&params) {
            let r =
                concrete::run(&plain, &types, Some(entry), &inputs, &Default::default()).unwrap();
            let Outcome::Exception(class) = r.outcome else {
                continue;
            };
            raised_somewhere = true;
            checked += 1;
            let line = map.line(r.exception_at.unwrap().start);
            let shown = leaves
                .iter()
                .any(|(o, l, _)| *o == Outcome::Exception(class) && *l == line);
            assert!(
                shown || !verified,
                "{entry}: {class:?} at line {line} for {inputs:?} hidden by a verified invariant"
            );
        }
        assert!(raised_somewhere, "{entry}: the program never raises");
    }
    assert!(checked > 100, "{checked} failing runs checked");
}

/// The debugger: a `for` line is a loop head like `while` (its step enters or leaves the
/// loop; one node per iteration at the `for` line, the binding of the variable is no node
/// of its own), a loop with invariants offers the choice of transition, and the range's
/// zero step is a `ValueError` at the call.
#[test]
fn a_for_line_is_a_loop_head() {
    let src = "t: tuple\ns = 0\nfor x in t:\n    s += x\n";
    let map = SourceMap::new("t.py", src);
    let (program, types, ir) = transform::load(src).unwrap();
    let mut config = Config::default();
    config.unroll = 2;
    let mut e = Engine::new(&program, types, ir, None, config).unwrap();
    let root = e.tree().root();
    e.run(root, Limits::default());
    let heads: Vec<_> = e
        .tree()
        .nodes()
        .filter(|n| n.at().is_some_and(|s| map.line(s.start) == 3))
        .collect();
    assert_eq!(heads.len(), 3, "one head per test of the loop");
    for h in &heads {
        let tags: Vec<Option<Tag>> = h
            .children
            .iter()
            .map(|c| e.tree().node(*c).tag.clone())
            .collect();
        assert!(
            tags.iter()
                .all(|t| matches!(t, Some(Tag::Enter | Tag::Leave | Tag::Bound(_)))),
            "{tags:?}"
        );
        // Entering goes straight to the body's first line, `x` bound.
        for c in h.children.iter() {
            let child = e.tree().node(*c);
            if matches!(child.tag, Some(Tag::Enter)) {
                assert_eq!(child.at().map(|s| map.line(s.start)), Some(4));
                assert!(e.store(*c).iter().any(|(k, _)| k == "x"));
            }
        }
    }
    // An annotated `for`: the choice of transition.
    let src = "def f(n: int) -> int:\n    s = 0\n    for i in range(n):\n        invariant s >= 0\n        s += 1\n    return s\n";
    let (program, types, ir) = transform::load(src).unwrap();
    let mut e = Engine::new(&program, types, ir, Some("f"), Config::default()).unwrap();
    let root = e.tree().root();
    let children = e.step(root);
    assert!(e.loop_choice(children[0]), "no loop choice at the for line");
    // The zero step.
    let (code, out, _) = symdbg(&[
        "exec",
        "tests/data/programs/for_step_zero.py",
        "--input",
        "a=2",
        "--input",
        "s=0",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ValueError"), "{out}");
}

/// What stays unsupported gets a located message, never a panic.
#[test]
fn for_diagnostics_are_located() {
    let cases: &[(&str, &str, (usize, usize))] = &[
        (
            "t: tuple\nfor a, b in t:\n    pass\n",
            "tuple unpacking in a `for` target is not supported",
            (2, 5),
        ),
        (
            "t: tuple\nfor t[0] in t:\n    pass\n",
            "cannot use this expression as a `for` target",
            (2, 5),
        ),
        (
            "n: int\nfor i in n:\n    pass\n",
            "a `for` loop cannot iterate over an `int`",
            (2, 10),
        ),
        (
            "b: bool\nfor i in b:\n    pass\n",
            "a `for` loop cannot iterate over a `bool`",
            (2, 10),
        ),
        (
            "x = range(3)\n",
            "`range` is only supported as a `for` loop's iterable",
            (1, 5),
        ),
        (
            "for i in range():\n    pass\n",
            "`range` takes 1 to 3 arguments, not 0",
            (1, 10),
        ),
        (
            "for i in range(1, 2, 3, 4):\n    pass\n",
            "`range` takes 1 to 3 arguments, not 4",
            (1, 10),
        ),
        (
            "for i in range(True):\n    pass\n",
            "mismatched types",
            (1, 16),
        ),
        (
            "for i in range(3, step=1):\n    pass\n",
            "keyword arguments are not supported",
            (1, 19),
        ),
        (
            "t: tuple\nx_index = 0\nfor x in t:\n    invariant x_index >= 0\n    pass\n",
            "`x_index` is a variable here and this loop's position",
            (4, 15),
        ),
        (
            "for i in range(3):\n    pass\n    invariant i >= 0\n",
            "`invariant` lines must come first in a `while` or `for` body",
            (3, 5),
        ),
        (
            "t: tuple\nfor x in t:\n    pass\nelse:\n    x = (1,)\n",
            "`x` was `int`, cannot assign a `tuple`",
            (5, 9),
        ),
        ("for i in range(3)\n    pass\n", "expected", (1, 18)),
    ];
    for (src, message, (line, col)) in cases {
        let diags = match lang::load(src) {
            Ok(_) => panic!("accepted:\n{src}"),
            Err(d) => d,
        };
        let d = &diags[0];
        assert!(
            d.message.contains(message),
            "{src}\nexpected {message:?}, got {:?}",
            d.message
        );
        let span = d.span.expect("a located diagnostic");
        let map = SourceMap::new("t.py", *src);
        assert_eq!(map.line_col(span.start), (*line, *col), "{src}\n{d:?}");
    }
}

/// The example program: `check` exhaustive and precise with folds, the search folded.
#[test]
fn the_for_example_runs() {
    for entry in ["find", "last_below"] {
        let (code, out, err) = symdbg(&[
            "check",
            "examples/for_search.py",
            "--entry",
            entry,
            "--fold",
            "auto",
        ]);
        assert_eq!(code, 0, "{entry}: {out}{err}");
        assert!(out.contains("exhaustive: probably"), "{out}");
        assert!(out.contains("precise: probably"), "{out}");
    }
    let (code, out, err) = symdbg(&[
        "run",
        "examples/for_search.py",
        "--entry",
        "find",
        "--fold",
        "auto",
        "--tree",
    ]);
    assert_eq!(code, 0, "{err}");
    // The search over the input `t` is one κ node (the module's calls on constants fold
    // too): its exits read all elements before κ.
    assert!(
        out.contains("4: for i in range(len(t)):  -- fold: κ"),
        "{out}"
    );
    assert!(out.contains("all(t[τ"), "{out}");
    assert!(out.contains("(0 exceptions, 0 bound)"), "{out}");
    let (code, out, err) = symdbg(&["run", "examples/for_search.py", "--entry", "count"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(0 exceptions, "), "{out}");
}

/// The debugger's commands on a `for` loop: continue stops at a breakpoint on the `for`
/// line, step over a call runs its loop to the call's end, finish leaves the frame.
#[test]
fn continue_step_over_and_finish_work_on_for_loops() {
    use symdbg::session::{Ended, Policy};
    let src = "def total(t: tuple) -> int:\n    s = 0\n    for x in t:\n        s += x\n    return s\n\nt: tuple\nr = total(t)\nq = r + 1\n";
    let map = SourceMap::new("t.py", src);
    let loaded = Loaded::new(SourceMap::new("t.py", src)).unwrap();
    let mut config = Config::default();
    config.unroll = 2;
    let mut session = Session::new(loaded, None, config.clone()).unwrap();
    let line = |s: &Session, id| {
        s.tree()
            .node(id)
            .at()
            .map(|sp: symdbg::base::Span| map.line(sp.start))
    };
    let root = session.tree().root();
    let ran = session.run(
        root,
        Policy::Continue { breakpoints: &[3] },
        Limits::default(),
        &|_| {},
    );
    assert_eq!(ran.ended, Ended::Breakpoint(3));
    let head = ran.select.expect("stopped at the for line");
    assert_eq!(line(&session, head), Some(3));
    // Finish from the loop head: every path leaves `total` (back at line 9, or cut).
    let ran = session.run(head, Policy::Finish, Limits::default(), &|_| {});
    assert_eq!(ran.ended, Ended::Done);
    let after: Vec<Option<usize>> = session
        .tree()
        .nodes()
        .filter(|n| n.is_open())
        .map(|n| line(&session, n.id))
        .collect();
    assert!(
        !after.is_empty() && after.iter().all(|l| *l == Some(9)),
        "{after:?}"
    );
    // Step over the call from a fresh session: the loop inside runs to the call's end.
    let loaded = Loaded::new(SourceMap::new("t.py", src)).unwrap();
    let mut session = Session::new(loaded, None, config).unwrap();
    let root = session.tree().root();
    assert_eq!(line(&session, root), Some(8));
    let ran = session.run(root, Policy::StepOver, Limits::default(), &|_| {});
    assert_eq!(ran.ended, Ended::Done);
    let open: Vec<Option<usize>> = session
        .tree()
        .nodes()
        .filter(|n| n.is_open())
        .map(|n| line(&session, n.id))
        .collect();
    assert!(
        !open.is_empty() && open.iter().all(|l| *l == Some(9)),
        "{open:?}"
    );
}
