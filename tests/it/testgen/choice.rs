//! Issue 31: `testgen` chooses inputs that tell one-token bugs apart, in unroll mode and
//! under `--fold auto`. Each case is a mutant of a program of the mutation corpus
//! (`tests/data/mutation`) that python3 tells apart from the original and that the
//! default tests let through before: the tests pass on the program and some test fails
//! on the mutant.

use super::{pytest, repo, testgen, Scratch};

/// (program, entry, `--fold auto`, from, to).
const CASES: [(&str, &str, bool, &str, &str); 6] = [
    // `80 <= score < 90`: a boundary test at 80 and one at 89 (the comparisons cannot be
    // at their flips together).
    ("grade", "grade", false, "score >= 90", "score >= 89"),
    (
        "grade",
        "grade",
        true,
        "elif score >= 70",
        "elif score >= 69",
    ),
    // `0 <= k < len(t)` at `k == 0` with two elements (`t[0]` is not `t[-1]`).
    ("tuple_index", "pick", false, "0 <= k", "1 <= k"),
    // The out-of-range leaf on a 2-tuple with distinct elements.
    ("tuple_index", "pick", true, "t[-1]", "t[-0]"),
    // Below a fold: the loop body runs on non-degenerate elements (not only `t = (0,)`).
    ("parity_sum", "parity", true, "v % 2 == 0", "v % 2 != 0"),
    // `while n >= 10` at `n == 10`.
    ("digits", "digits", false, "n >= 10", "n > 10"),
];

#[test]
fn default_tests_kill_mutants_minimal_inputs_let_through() {
    let scratch = Scratch::new("choice");
    for (k, (name, entry, fold, from, to)) in CASES.into_iter().enumerate() {
        let dir = scratch.0.join(format!("{k}"));
        std::fs::create_dir_all(&dir).unwrap();
        let program = dir.join(format!("{name}.py"));
        let original =
            std::fs::read_to_string(repo(&format!("tests/data/mutation/{name}.py"))).unwrap();
        std::fs::write(&program, &original).unwrap();
        let test_file = dir.join(format!("test_{name}.py"));
        let mut args = vec![program.to_str().unwrap(), "--entry", entry, "--unroll", "4"];
        if fold {
            args.extend(["--fold", "auto"]);
        }
        let n = testgen(&args, &test_file);
        let (passed, failed, log) = pytest(std::slice::from_ref(&test_file));
        assert_eq!((passed, failed), (n, 0), "{name}: {log}");
        assert!(original.contains(from), "{name}: no `{from}`");
        std::fs::write(&program, original.replacen(from, to, 1)).unwrap();
        let (_, failed, log) = pytest(std::slice::from_ref(&test_file));
        assert!(
            failed >= 1,
            "{name} (fold {fold}) with `{to}`: no test fails\n{log}"
        );
    }
}

/// Below a fold the default tests run the loop body (κ ≥ 1 where the path allows it) and
/// a second test runs it more often: a linear search's tests see an index past 1.
#[test]
fn fold_leaves_get_a_test_at_a_larger_count() {
    let scratch = Scratch::new("choice-kappa");
    let test_file = scratch.0.join("test_linear_search.py");
    let program = repo("tests/data/mutation/linear_search.py");
    let p = program.to_str().unwrap();
    testgen(
        &[p, "--entry", "find", "--unroll", "4", "--fold", "auto"],
        &test_file,
    );
    let text = std::fs::read_to_string(&test_file).unwrap();
    let kappas: Vec<u64> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("# loop at line 4: κ1 = "))
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(kappas.iter().any(|&k| k >= 1), "{text}");
    assert!(kappas.iter().any(|&k| k >= 2), "{text}");
}
