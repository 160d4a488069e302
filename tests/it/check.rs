//! `symdbg check`: the book's exhaustiveness and precision results (chapter 001).

use std::process::Command;

fn check(args: &[&str]) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_symdbg"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("check")
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.push("--json");
    let (out, code) = check(&a);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    // Exit 1 exactly when a check says no (issue 23 item 13).
    let failed = j["exhaustive"]["ok"] == false || j["precise"]["ok"] == false;
    assert_eq!(code, i32::from(failed), "{out}");
    j
}

/// The book: if_program is probably exhaustive and precise.
#[test]
fn if_program_is_exhaustive_and_precise() {
    let j = json(&["examples/if_program.py", "--runs", "200"]);
    assert_eq!(j["exhaustive"]["ok"], true, "{j}");
    assert_eq!(j["precise"]["ok"], true, "{j}");
    assert_eq!(j["runs"], 200);
    assert!(j["leaves_checked"].as_u64().unwrap() >= 4);
}

/// The book: while_program with unroll 2 is not exhaustive (a concrete run goes past the
/// bound; here it meets our `bound` leaf) but precise.
#[test]
fn while_program_unroll_two_is_precise_not_exhaustive() {
    let j = json(&["examples/while_program.py", "--unroll", "2"]);
    assert_eq!(j["exhaustive"]["ok"], false, "{j}");
    let cx = &j["exhaustive"]["counterexample"];
    assert!(cx["inputs"].is_object());
    assert_eq!(cx["symbolic"]["outcome"], "bound", "{j}");
    assert_eq!(j["precise"]["ok"], true, "{j}");
    // The human form names the counterexample and why.
    let (text, code) = check(&["examples/while_program.py", "--unroll", "2"]);
    assert_eq!(code, 1, "a check that says no exits 1: {text}");
    assert!(text.contains("exhaustive: no"), "{text}");
    assert!(text.contains("counterexample:"), "{text}");
    assert!(text.contains("precise: probably"), "{text}");
}

/// Every example without loops past the bound is exhaustive and precise; every example is
/// precise (the engine never claims a result that a concrete run contradicts).
#[test]
fn examples_are_precise() {
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/examples")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "py") {
            continue; // (examples/showme/ is a folder of its own)
        }
        let p = path.to_str().unwrap();
        let j = json(&[p, "--runs", "50", "--unroll", "6"]);
        assert_eq!(j["precise"]["ok"], true, "{p}: {j}");
    }
}

#[test]
fn bad_programs_and_options_exit_2() {
    assert_eq!(check(&["/nonexistent.py"]).1, 2);
    assert_eq!(check(&["examples/find.py", "--runs", "many"]).1, 2);
}

/// A leaf whose model is too large to run (a tuple of 2^32 + 1 elements) is not replayed:
/// `check` names it as not replayed and claims nothing about precision from zero replays
/// (it said "probably (1 leaf, each leaf's model replayed concretely)").
#[test]
fn a_model_too_large_to_replay_is_named_not_claimed() {
    let (text, code) = check(&["tests/data/check/huge_model.py"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("precise: not tested"), "{text}");
    assert!(!text.contains("precise: probably"), "{text}");
    assert!(
        text.contains("leaf 2 not replayed: its model is too large"),
        "{text}"
    );
    assert!(!text.contains("in Rust"), "{text}");
    let j = json(&["tests/data/check/huge_model.py"]);
    assert_eq!(j["precise"]["ok"], serde_json::Value::Null, "{j}");
    assert_eq!(j["skipped"]["not_replayed"][0]["leaf"], 2, "{j}");
    assert_eq!(j["skipped"]["not_replayed"][0]["why"], "unevaluated", "{j}");
}
