//! `testgen`'s preference checks reuse what earlier ones of the same leaf found
//! (`solver/prefer.rs`): the tests written are those of asking every preference set on
//! its own (`SYMDBG_PREFER_REUSE=0`) — the same tests of the same leaves, with the same
//! outcomes, return values and loop counts — on folded programs of the mutation corpus,
//! and the same bytes every time. Inputs may differ where several models of the same size
//! meet a preference set: a model found earlier for the leaf is kept where the solver
//! would pick another (window.py: 2 of 43 tests, with mut32's search-exit preferences).

use std::path::Path;
use std::process::Command;

use crate::util::triple;

/// `symdbg testgen` of `program` (in tests/data/mutation) to standard output, in `--fold
/// auto` at `--unroll 4`, with the reuse on or off.
fn testgen(program: &str, entry: &str, format: &str, reuse: bool) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/mutation")
        .join(program);
    let out = Command::new(env!("CARGO_BIN_EXE_symdbg"))
        .args(["testgen", path.to_str().unwrap(), "--entry", entry])
        .args([
            "--unroll", "4", "--fold", "auto", "--format", format, "-o", "-",
        ])
        .env("SYMDBG_PREFER_REUSE", if reuse { "1" } else { "0" })
        .env("NO_COLOR", "1")
        .output()
        .expect("run symdbg");
    let (code, stdout, stderr) = triple(out);
    assert_eq!(code, 0, "{program}: {stderr}");
    stdout
}

/// What a JSON-lines test says apart from its inputs (and the path condition, which names
/// the same leaf): name, leaf, outcome, exception, return value, loop counts.
fn verdicts(jsonl: &str) -> Vec<String> {
    jsonl
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            [
                "test",
                "leaf",
                "outcome",
                "exception",
                "line",
                "return_value",
                "model_params",
            ]
            .map(|k| v[k].to_string())
            .join(" ")
        })
        .collect()
}

#[test]
fn preference_reuse_writes_the_same_tests_as_asking_each_set_alone() {
    for (program, entry, least) in [
        ("tuple_max.py", "largest", 15),
        ("window.py", "best_pair", 30),
    ] {
        let alone = testgen(program, entry, "jsonl", false);
        let reused = testgen(program, entry, "jsonl", true);
        let n = alone.lines().count();
        assert!(n >= least, "{program}: {n} tests\n{alone}");
        assert_eq!(verdicts(&reused), verdicts(&alone), "{program}");
        assert_eq!(
            testgen(program, entry, "jsonl", true),
            reused,
            "{program}: not deterministic"
        );
    }
}
