//! Nested-loop templates (issue 27): an outer loop whose inner loop runs a closed-form
//! number of times (`fold::nested`) folds with the inner loop summed on its path. Checked
//! against the concrete interpreter and classic unrolling on every input of a box (with
//! each ending leaf reached), python3 (every leaf's model replayed), tree sizes independent
//! of `--unroll`, `--templates`' reasons, and generated nested loops.

use std::path::PathBuf;

use symdbg::engine::fold::FoldMode;
use symdbg::engine::{Config, Engine};

use crate::fold::explore;
use crate::fold_multi::agree_on_box;
use crate::util::symdbg;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fold_nested");

/// The programs of `tests/data/fold_nested` whose outer loop folds over its inner loop.
const NESTED: [&str; 5] = [
    "rows.py",
    "strided.py",
    "halves.py",
    "branchy.py",
    "same_path.py",
];

fn read(file: &str) -> (String, String) {
    let src = std::fs::read_to_string(format!("{DIR}/{file}")).unwrap();
    let entry = src
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# entry: "))
        .expect("an `# entry:` line")
        .trim()
        .to_string();
    (src, entry)
}

/// How many fold nodes of `e` fold a loop over a summed inner loop.
fn nested_folds(e: &Engine) -> usize {
    e.tree()
        .nodes()
        .filter_map(|n| e.fold_at(n.id))
        .filter(|f| f.template.steps.iter().any(|(_, w)| *w == "inner loop"))
        .count()
}

#[test]
fn nested_folds_agree_with_the_interpreter_on_every_input_of_a_box() {
    for file in NESTED {
        let (src, entry) = read(file);
        let folded = agree_on_box(&src, &entry, 1, true);
        assert_eq!(nested_folds(&folded), 1, "{file}: one nested fold");
        assert_eq!(folded.stats().bounds, 0, "{file}: a bound leaf");
    }
}

/// Every satisfiable leaf's model replayed in python3 (outcome, exception, return value:
/// the programs return their counters, so the store is compared too).
#[test]
fn nested_fold_leaves_agree_with_python() {
    let mut files: Vec<PathBuf> = NESTED.iter().map(|f| PathBuf::from(DIR).join(f)).collect();
    files.push(PathBuf::from(DIR).join("no_nested.py"));
    files.push(PathBuf::from(DIR).join("no_branchy.py"));
    let mut config = Config::default();
    config.fold = FoldMode::Auto;
    config.unroll = 3;
    let compared = crate::symbolic::differential_over_with(files, 20_000, config);
    assert!(compared >= 40, "only {compared} comparisons");
}

#[test]
fn nested_folds_do_not_grow_with_unroll() {
    for file in NESTED {
        let (src, entry) = read(file);
        // (From 2: at --unroll 1 an exit inside the body after the first classic
        // iteration is a `bound` leaf, as for any fold.)
        let sizes: Vec<usize> = [2, 3, 10, 50]
            .iter()
            .map(|&u| {
                let e = explore(&src, &entry, FoldMode::Auto, u);
                assert_eq!(e.stats().bounds, 0, "{file} --unroll {u}");
                assert_eq!(nested_folds(&e), 1, "{file} --unroll {u}");
                e.stats().nodes
            })
            .collect();
        assert!(sizes.iter().all(|n| *n == sizes[0]), "{file}: {sizes:?}");
        let classic: Vec<usize> = [1, 2, 3]
            .iter()
            .map(|&u| explore(&src, &entry, FoldMode::Off, u).stats().nodes)
            .collect();
        assert!(
            classic.windows(2).all(|w| w[0] < w[1]),
            "{file}: classic {classic:?}, compact {sizes:?}"
        );
    }
}

#[test]
fn templates_say_which_outer_loops_fold_over_their_inner_loop_and_why_not() {
    let (code, out, err) = symdbg(&["run", "tests/data/fold_nested/rows.py", "--templates"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "rows.py:6: while i < m:  template, path (6 enter, 7, 8 inner loop, 11)\n    \
             i ↦ i + κ, s ↦ s + κ * max(n, 0), j ↦ (max(n, 0) if κ >= 1 else j) ;  each iteration: i < m"
        ),
        "{out}"
    );
    let (code, out, err) = symdbg(&["run", "tests/data/fold_nested/no_nested.py", "--templates"]);
    assert_eq!(code, 0, "{err}");
    for reason in [
        "no_nested.py:6: while i < n:  no template: the inner loop requires more than its \
         condition on each iteration (a branch, an index or an assertion) (line 8)",
        "no_nested.py:15: while i < len(t):  no template: `s` grows by a value that changes \
         with the iteration (it reads `i`",
        "no_nested.py:22: while i < n:  no template: the inner loop sets `s` from other values \
         (a reset; its final value has no closed form here) (line 24)",
    ] {
        assert!(out.contains(reason), "{reason}\n{out}");
    }
}

/// An inner loop with a branch is summed where both counts have closed forms, and
/// `--templates` says which part has none otherwise.
#[test]
fn templates_say_which_branching_inner_loops_are_summed_and_why_not() {
    let (code, out, err) = symdbg(&["run", "tests/data/fold_nested/branchy.py", "--templates"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "branchy.py:8: while i < m:  template, path (8 enter, 9, 10 inner loop, 16, 17 inner loop, 21)\n    \
             a ↦ a + κ * (2 * min(max(n, 0), max(k, 0)) + (max(n, 0) if k > 0 else 0)), \
             b ↦ b + κ * (max(n, 0) - min(max(n, 0), max(k, 0)))"
        ),
        "{out}"
    );
    let (code, out, err) = symdbg(&["run", "tests/data/fold_nested/no_branchy.py", "--templates"]);
    assert_eq!(code, 0, "{err}");
    for reason in [
        "no_branchy.py:6: while i < n:  no template: the inner loop branches on a tuple element \
         (`t[j] == x`): how many iterations take each path is a count over the tuple, not a \
         closed form (line 8)",
        "no_branchy.py:14: while i < n:  no template: the inner loop branches on `j == x`, which \
         is not an ordering",
        "no_branchy.py:22: while i < n:  no template: the inner loop has a condition that reads \
         `j`, which its two paths change by different steps",
        "no_branchy.py:31: while i < n:  no template: the inner loop branches on `j % 2 == 0`",
    ] {
        assert!(out.contains(reason), "{reason}\n{out}");
    }
}

/// Generated nested loops: the inner loop's start, condition and step (up and down,
/// strict and not, steps 1 and 2, bounds from inputs and from the outer counter's start),
/// its increments, and something after it in the outer body.
fn generated() -> Vec<String> {
    let inner = [
        ("j = 0", "j < n", "j += 1"),
        ("j = n", "j > 0", "j -= 1"),
        ("j = len(t)", "j >= 1", "j -= 2"),
        ("j = -1", "j <= n", "j += 2"),
        ("j = n - 1", "2 > j", "j += 1"),
        ("j = len(t) - n", "j + 1 <= len(t)", "j += 3"),
    ];
    let incs = ["s -= 2", "s += 3\n            c += 1"];
    let extras = [
        "",
        "        assert s != 4\n",
        "        if s > 5:\n            return s\n",
        "        c = c + 2\n",
    ];
    let mut out = Vec::new();
    let mut k = 0usize;
    for (init, guard, step) in inner {
        for inc in incs {
            for outer in ["i < len(t)", "i < n"] {
                k += 1;
                let extra = extras[k % extras.len()];
                out.push(format!(
                    "def f(t: tuple, n: int) -> int:\n    s = 0\n    c = 0\n    i = 0\n    \
                     while {outer}:\n        {init}\n        while {guard}:\n            {inc}\n            \
                     {step}\n{extra}        i += 1\n    return s * 100 + c * 10 + i\n"
                ));
            }
        }
    }
    out
}

/// Generated nested loops whose inner loop branches: each inner loop of [`generated`]
/// with a branch on its counter (a prefix or a suffix of the iterations), on a value it
/// keeps, or on a tuple element (not summed: the outer loop is unrolled).
fn generated_branching() -> Vec<String> {
    let inner = [
        ("j = 0", "j < n", "j += 1"),
        ("j = n", "j > 0", "j -= 1"),
        ("j = len(t)", "j >= 1", "j -= 2"),
        ("j = -1", "j <= n", "j += 2"),
        ("j = n - 1", "2 > j", "j += 1"),
        ("j = len(t) - n", "j + 1 <= len(t)", "j += 3"),
    ];
    let branches = [
        "j < 1",
        "j >= n - 1",
        "1 - j > n",
        "j + 2 <= len(t)",
        "n > 0",
        "t[0] > 0 if len(t) > 0 else False",
    ];
    let mut out = Vec::new();
    for (k, (init, guard, step)) in inner.iter().enumerate() {
        for (b, branch) in branches.iter().enumerate() {
            // (An outer loop over `t` that does not fold would reach --unroll 3.)
            let outer = if b == 5 {
                "i < n"
            } else {
                ["i < len(t)", "i < n"][(k + b) % 2]
            };
            out.push(format!(
                "def f(t: tuple, n: int) -> int:\n    s = 0\n    c = 0\n    i = 0\n    \
                 while {outer}:\n        {init}\n        while {guard}:\n            \
                 if {branch}:\n                s += 3\n            else:\n                \
                 c += 1\n            {step}\n        i += 1\n    return s * 100 + c * 10 + i\n"
            ));
        }
    }
    out
}

#[test]
fn generated_branching_nested_loops_agree_with_the_interpreter_and_python() {
    let (programs, folded, compared) = generated_agree("branching", generated_branching());
    // The branches on a tuple element have no closed count.
    assert!(
        folded * 6 >= programs * 4,
        "only {folded} of {programs} folded over the inner loop"
    );
    assert!(compared >= programs * 5, "only {compared} comparisons");
}

#[test]
fn generated_nested_loops_agree_with_the_interpreter_and_python() {
    let (programs, folded, compared) = generated_agree("plain", generated());
    assert!(
        folded * 4 >= programs * 3,
        "only {folded} of {programs} folded over the inner loop"
    );
    assert!(compared >= programs * 5, "only {compared} comparisons");
}

/// Each program of `progs` against the interpreter and classic unrolling on every 7th
/// input of the box, and every leaf's model (and random inputs) against python3: the
/// number of programs, of those with a nested fold, and of python3 comparisons.
fn generated_agree(what: &str, progs: Vec<String>) -> (usize, usize, usize) {
    let dir =
        std::env::temp_dir().join(format!("symdbg-fold-nested-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    let mut folded = 0;
    for (k, src) in progs.iter().enumerate() {
        // Every 7th input of the box (all tuple lengths, every n).
        let e = agree_on_box(src, "f", 7, false);
        folded += usize::from(nested_folds(&e) > 0);
        let path = dir.join(format!("nested_{k:03}.py"));
        std::fs::write(&path, src).unwrap();
        files.push(path);
    }
    let mut config = Config::default();
    config.fold = FoldMode::Auto;
    config.unroll = 3;
    let compared = crate::symbolic::differential_over_with(files, 20_000, config);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "generated nested loops ({what}): {} programs, {folded} with a nested fold, {compared} leaf and random runs compared with python3",
        progs.len()
    );
    (progs.len(), folded, compared)
}

/// `check` and `testgen --fold auto` on the nested folds: `check` finds each tree
/// exhaustive and precise (random inputs end as their leaf predicts, with κ-search through
/// the outer fold and the inner folds; every leaf's model replays), and the generated tests
/// name the folds' κs and pass under pytest.
#[test]
fn check_and_testgen_work_on_nested_folds() {
    let dir =
        std::env::temp_dir().join(format!("symdbg-fold-nested-testgen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (mut tests, mut files) = (0, Vec::new());
    for file in NESTED {
        let (src, entry) = read(file);
        let program = dir.join(file);
        std::fs::write(&program, &src).unwrap();
        let p = program.to_str().unwrap();
        let (code, out, err) = symdbg(&[
            "check", p, "--entry", &entry, "--fold", "auto", "--runs", "200",
        ]);
        assert_eq!(code, 0, "{file}: {out}{err}");
        assert!(out.contains("exhaustive: probably"), "{file}: {out}");
        assert!(out.contains("precise: probably"), "{file}: {out}");
        let test_file = dir.join(format!("test_{file}"));
        let (code, _, err) = symdbg(&[
            "testgen",
            p,
            "--entry",
            &entry,
            "--fold",
            "auto",
            "-o",
            test_file.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{file}: {err}");
        let text = std::fs::read_to_string(&test_file).unwrap();
        let n = text.matches("\ndef test_").count();
        assert!(n >= 2, "{file}: {text}");
        // A test below the nested fold says the outer loop's κ.
        let outer = src
            .lines()
            .position(|l| l.starts_with("    while "))
            .map(|i| i + 1)
            .unwrap();
        assert!(
            text.contains(&format!("# loop at line {outer}: κ")),
            "{file}: no κ of the outer loop (line {outer}):\n{text}"
        );
        assert!(!text.contains("but the concrete run"), "{file}: {text}");
        tests += n;
        files.push(test_file);
    }
    let (passed, failed, log) = crate::testgen::pytest(&files);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!((passed, failed), (tests, 0), "{log}");
}
