//! `testgen`'s preference checks reuse what earlier ones of the same leaf found
//! (`solver/prefer.rs`): the tests written are those of asking every preference set on
//! its own (`SYMDBG_PREFER_REUSE=0`), byte for byte, on folded programs of the mutation
//! corpus.

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

#[test]
fn preference_reuse_writes_the_same_tests_as_asking_each_set_alone() {
    for (program, entry, format, least) in [
        ("tuple_max.py", "largest", "pytest", 15),
        ("window.py", "best_pair", "jsonl", 30),
    ] {
        let alone = testgen(program, entry, format, false);
        let reused = testgen(program, entry, format, true);
        let n = match format {
            "pytest" => alone.matches("\ndef test_").count(),
            _ => alone.lines().count(),
        };
        assert!(n >= least, "{program}: {n} tests\n{alone}");
        assert_eq!(reused, alone, "{program}");
    }
}
