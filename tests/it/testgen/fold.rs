//! `testgen --fold auto` (issue 15): tests from folded trees. A leaf below a fold carries
//! its κ (a comment in the pytest file, `model_params` in jsonl); the expected results
//! still come from the concrete interpreter, and the κ must equal the run's real count.

use super::{entries, plain_programs, pytest, repo, testgen, Scratch};
use crate::util::symdbg;

/// A bug 100 iterations deep: found at `--unroll 3` only with `--fold auto`; its test
/// passes on the program and fails once the bug is moved one iteration further.
#[test]
fn a_bug_100_iterations_deep_gets_a_test_at_unroll_3() {
    let scratch = Scratch::new("fold-deep");
    let program = scratch.0.join("deep.py");
    let original = std::fs::read_to_string(repo("tests/data/fold/deep.py")).unwrap();
    std::fs::write(&program, &original).unwrap();
    let p = program.to_str().unwrap();

    // Classic unrolling at --unroll 3: no test raises.
    let off = scratch.0.join("test_off.py");
    testgen(&[p, "--entry", "deep", "--unroll", "3"], &off);
    let text = std::fs::read_to_string(&off).unwrap();
    assert!(!text.contains("AssertionError"), "{text}");
    assert!(!text.contains("κ1"), "{text}");

    let test_file = scratch.0.join("test_deep.py");
    let n = testgen(
        &[p, "--entry", "deep", "--unroll", "3", "--fold", "auto"],
        &test_file,
    );
    let text = std::fs::read_to_string(&test_file).unwrap();
    assert!(
        text.contains("(--unroll 3 --recursion 5 --fold auto)"),
        "{text}"
    );
    // The assertion's test: 101 elements, the match at index 100, κ1 = 100.
    let raising = text
        .split("\n\ndef ")
        .find(|t| t.contains("pytest.raises(AssertionError)"))
        .unwrap_or_else(|| panic!("no AssertionError test:\n{text}"));
    assert!(
        raising.contains("# loop at line 4: κ1 = 100\n"),
        "{raising}"
    );
    assert!(raising.contains("raised_at(excinfo) == 6"), "{raising}");
    assert_eq!(raising.matches(", 3").count() + 1, 100, "{raising}");
    assert!(!text.contains("but the concrete run"), "{text}");
    let (passed, failed, log) = pytest(std::slice::from_ref(&test_file));
    assert_eq!((passed, failed), (n, 0), "{log}");

    // The bug one iteration later: exactly the deep test fails.
    std::fs::write(
        &program,
        original.replace("assert i < 100", "assert i < 101"),
    )
    .unwrap();
    // (The deep leaf's tests: the first and its boundary tests at κ1 = 100, issue 31.)
    let (passed, failed, log) = pytest(std::slice::from_ref(&test_file));
    assert!(failed >= 1 && passed + failed == n && passed >= 1, "{log}");
    // (Counted on pytest's `E` lines: its short summary repeats the reason, whole only
    // when the environment says CI, else cut to the terminal's width.)
    let not_raised = log
        .lines()
        .filter(|l| l.starts_with("E ") && l.contains("DID NOT RAISE"))
        .count();
    assert_eq!(not_raised, failed, "{log}");
}

/// Every plain program of tests/data/fold (module and each entry) with `--fold auto`:
/// exit 0 (no leaf disagrees with its concrete run, no κ differs from the real count), all
/// tests pass under pytest, and the leaves below folds say their κ.
#[test]
fn fold_programs_pass_under_pytest_with_their_kappas() {
    let scratch = Scratch::new("fold-all");
    let mut files = Vec::new();
    let (mut tests, mut with_kappa) = (0, 0);
    for p in plain_programs("tests/data/fold") {
        let file = p.to_str().unwrap();
        let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
        let mut runs = vec![(None, stem.clone())];
        runs.extend(
            entries(&p)
                .into_iter()
                .map(|f| (Some(f.clone()), format!("{stem}_{f}"))),
        );
        for (entry, tag) in runs {
            let mut args = vec![file, "--fold", "auto", "--unroll", "2"];
            if let Some(f) = &entry {
                args.extend_from_slice(&["--entry", f]);
            }
            let out = scratch.0.join(format!("test_{tag}.py"));
            tests += testgen(&args, &out);
            with_kappa += std::fs::read_to_string(&out)
                .unwrap()
                .matches("\n    # loop at line ")
                .count();
            files.push(out);
        }
    }
    assert!(tests >= 40, "only {tests} tests");
    assert!(with_kappa >= 20, "only {with_kappa} tests below folds");
    let (passed, failed, log) = pytest(&files);
    eprintln!("testgen --fold auto: tests/data/fold, {tests} tests ({with_kappa} κ lines): {passed} passed, {failed} failed");
    assert_eq!((passed, failed), (tests, 0), "{log}");
}

/// jsonl: `model_params` at leaves below folds, absent elsewhere; `exec --replay` agrees.
#[test]
fn jsonl_has_model_params_below_folds() {
    let scratch = Scratch::new("fold-jsonl");
    let j = scratch.0.join("t.jsonl");
    let p = repo("tests/data/fold/count_if.py");
    let p = p.to_str().unwrap();
    testgen(
        &[
            p, "--entry", "count_if", "--fold", "auto", "--format", "jsonl",
        ],
        &j,
    );
    let text = std::fs::read_to_string(&j).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!lines.is_empty());
    for l in &lines {
        let params = l["model_params"]
            .as_object()
            .unwrap_or_else(|| panic!("{l}"));
        assert!(params.contains_key("κ1"), "{l}");
    }
    let (code, stdout, _) = symdbg(&["exec", p, "--replay", j.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}");
    let off = scratch.0.join("off.jsonl");
    testgen(&[p, "--entry", "count_if", "--format", "jsonl"], &off);
    assert!(!std::fs::read_to_string(&off)
        .unwrap()
        .contains("model_params"));
}

/// Two-parameter folds (issue 27): every program of tests/data/fold_multi with `--fold
/// auto` gets tests that pass under pytest on the original, every test below the fold
/// names both κ1 and λ1, and the non-degenerate models run both paths where the leaf
/// allows (κ1 ≥ 1 and λ1 ≥ 1; before, only κ was preferred ≥ 1 and λ1 was 0).
#[test]
fn two_parameter_folds_get_tests_with_both_counts_that_pass_under_pytest() {
    let scratch = Scratch::new("fold-multi");
    let mut files = Vec::new();
    let (mut tests, mut both_run) = (0, 0);
    for p in plain_programs("tests/data/fold_multi") {
        let src = std::fs::read_to_string(&p).unwrap();
        let entry = src
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# entry: "))
            .expect("an `# entry:` line")
            .trim()
            .to_string();
        let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
        let out = scratch.0.join(format!("test_{stem}.py"));
        let file = p.to_str().unwrap();
        tests += testgen(&[file, "--entry", &entry, "--fold", "auto"], &out);
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(!text.contains("but the concrete run"), "{stem}:\n{text}");
        for test in text.split("\n\ndef ").skip(1) {
            let count = |name: &str| -> Option<i64> {
                let at = test.find(&format!(": {name} = "))? + name.len() + 5;
                test[at..].split('\n').next()?.trim().parse().ok()
            };
            if let (Some(k), Some(l)) = (count("κ1"), count("λ1")) {
                both_run += usize::from(k >= 1 && l >= 1);
            } else if test.contains(": κ1 = ") && stem != "no_multi" {
                panic!("{stem}: a test below a two-parameter fold without λ1:\n{test}");
            }
        }
        // Both paths run, and not as often as each other (`κ1 != λ1`: a test with as many
        // of each tells no `if` from its negation).
        if stem == "count_if" {
            assert!(
                text.contains("# loop at line 6: κ1 = 1\n    # loop at line 6: λ1 = 2\n"),
                "{text}"
            );
        }
        files.push(out);
    }
    assert!(tests >= 12, "only {tests} tests");
    assert!(both_run >= 6, "only {both_run} tests run both paths");
    let (passed, failed, log) = pytest(&files);
    eprintln!("testgen --fold auto: tests/data/fold_multi, {tests} tests ({both_run} with κ1, λ1 ≥ 1): {passed} passed, {failed} failed");
    assert_eq!((passed, failed), (tests, 0), "{log}");
}
