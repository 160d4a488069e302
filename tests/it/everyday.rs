//! Issue 23 ("everyday trust"), the command line: misspelt commands, modules without
//! module-level code, `check`'s exit code and minimal counterexamples, `exec`'s traceback,
//! `run`'s progress line, loops with a constant guard, natural order, DOT leaves.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::util::symdbg;

/// A program in a temporary file (removed by the caller).
fn program(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("symdbg-everyday-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write the program");
    path
}

fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Item 11: `symdbg runn gcd.py` names the unknown command and the one meant (it said
/// "the subcommand 'gcd.py' cannot be used with '[FILE]'").
#[test]
fn a_misspelt_command_is_named_with_the_one_meant() {
    let (code, out, err) = symdbg(&["runn", "examples/inversion.py"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("unknown command `runn`; did you mean `run`?"),
        "{err}"
    );
    let (code, _, err) = symdbg(&["chekc", "examples/inversion.py", "--runs", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `check`?"), "{err}");
    // A file name that does not exist is still a file the user meant.
    let (code, _, err) = symdbg(&["no_such_program.py"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
    assert!(!err.contains("unknown command"), "{err}");
}

/// Item 12: a module that only defines functions runs no code; `run` says so and names
/// the `--entry` to give (it said only "no exception leaf (1 node explored)").
#[test]
fn a_module_of_definitions_suggests_entry() {
    let p = program(
        "gcd.py",
        "def gcd(a: int, b: int) -> int:\n    while b != 0:\n        t = b\n        b = a % b\n        a = t\n    return a\n\n\
         def lcm(a: int, b: int) -> int:\n    return a * b // gcd(a, b)\n",
    );
    for args in [
        vec!["run", s(&p), "--counterexamples"],
        vec!["run", s(&p)],
        vec!["check", s(&p), "--runs", "3"],
    ] {
        let (code, _, err) = symdbg(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            err.contains("no code runs at module level"),
            "{args:?}: {err}"
        );
        assert!(err.contains("--entry gcd"), "{args:?}: {err}");
        assert!(err.contains("`lcm`"), "{args:?}: {err}");
    }
    // With --entry, or with code at module level, no such note.
    let (_, _, err) = symdbg(&["run", s(&p), "--entry", "lcm"]);
    assert!(!err.contains("no code runs"), "{err}");
    let (_, _, err) = symdbg(&["run", "examples/inversion.py"]);
    assert!(!err.contains("no code runs"), "{err}");
    let _ = std::fs::remove_file(&p);
}

/// Item 13: `check` exits 1 when a check says no (0 passes, 2 errors), and `--runs 0`
/// claims nothing about exhaustiveness (it said "exhaustive: probably").
#[test]
fn check_exits_1_when_a_check_fails_and_runs_0_tests_nothing() {
    let (code, out, _) = symdbg(&["check", "examples/while_program.py", "--unroll", "2"]);
    assert!(out.contains("exhaustive: no"), "{out}");
    assert_eq!(code, 1, "{out}");
    let (code, out, _) = symdbg(&["check", "examples/if_program.py"]);
    assert!(out.contains("exhaustive: probably"), "{out}");
    assert_eq!(code, 0, "{out}");
    assert_eq!(symdbg(&["check", "no_such_program.py"]).0, 2);
    let (code, out, _) = symdbg(&["check", "examples/while_program.py", "--runs", "0"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("exhaustive: not tested"), "{out}");
    assert!(!out.contains("exhaustive: probably"), "{out}");
    let (_, out, _) = symdbg(&[
        "check",
        "examples/while_program.py",
        "--runs",
        "0",
        "--json",
    ]);
    let j: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(j["exhaustive"]["ok"], Value::Null, "{j}");
}

/// Item 19: `check`'s counterexample to exhaustiveness is the minimal model of the leaf the
/// random input reached, as `run` gives it (it was the random `idx = 201, x = 185`), and
/// `--jobs 2` prints the same.
#[test]
fn check_counterexamples_are_minimal() {
    let args = [
        "check",
        "examples/while_program.py",
        "--unroll",
        "2",
        "--json",
    ];
    let (code, out, err) = symdbg(&args);
    assert_eq!(code, 1, "{err}");
    let j: Value = serde_json::from_str(&out).expect("JSON");
    let cx = &j["exhaustive"]["counterexample"];
    assert_eq!(cx["symbolic"]["outcome"], "bound", "{j}");
    let leaf = cx["leaf"].as_u64().expect("a leaf");
    // `run`'s model of that leaf.
    let (_, tree, _) = symdbg(&[
        "run",
        "examples/while_program.py",
        "--unroll",
        "2",
        "--json",
    ]);
    let tree: Value = serde_json::from_str(&tree).expect("JSON");
    let node = tree["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"].as_u64() == Some(leaf))
        .expect("the leaf");
    assert_eq!(cx["inputs"], node["model"], "{j}");
    for v in cx["inputs"].as_object().unwrap().values() {
        assert!(v.as_i64().unwrap().abs() <= 2, "not minimal: {j}");
    }
    // The concrete run is that of the minimal input.
    let (_, ran, _) = symdbg(&[
        "exec",
        "examples/while_program.py",
        "--json",
        "--input",
        &format!("x={}", cx["inputs"]["x"]),
        "--input",
        &format!("idx={}", cx["inputs"]["idx"]),
    ]);
    let ran: Value = serde_json::from_str(&ran).expect("JSON");
    assert_eq!(cx["concrete"]["store"], ran["store"], "{j}");
    let mut jobs = args.to_vec();
    jobs.extend(["--jobs", "2"]);
    assert_eq!(symdbg(&jobs), (code, out, err));
}

/// Items 17 and 18: `run --tree` lists a store in natural order (`a2` before `a10`), as
/// the debugger does, and `--dot` leaves show the final store.
#[test]
fn stores_are_in_natural_order_and_dot_leaves_show_them() {
    let p = program(
        "natural.py",
        "x: int\na10 = 1\na2 = x\na1 = 3\nif x > 0:\n    a2 = 5\n",
    );
    let (_, out, _) = symdbg(&["run", s(&p)]);
    assert!(
        out.contains("normal  a1 = 3, a2 = 5, a10 = 1, x = x"),
        "{out}"
    );
    let (_, dot, _) = symdbg(&["run", s(&p), "--dot"]);
    assert!(
        dot.contains("label=\"normal\\na1 = 3\\na2 = 5\\na10 = 1\\nx = x\""),
        "{dot}"
    );
    let _ = std::fs::remove_file(&p);
}
