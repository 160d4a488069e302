//! Issue 31, one model path: a leaf that has a model in `run` has one in `testgen` and in
//! `check` (same queries, same order, same budget), and `check` names a leaf without one.

use std::collections::BTreeSet;

use crate::util::symdbg;

/// The nested-loop program of issue 31 and its options.
const ARGS: [&str; 7] = [
    "tests/data/fold/longest_run.py",
    "--entry",
    "f",
    "--unroll",
    "4",
    "--fold",
    "auto",
];

fn with(command: &str, more: &[&str]) -> Vec<String> {
    let mut args = vec![command.to_string()];
    args.extend(ARGS.iter().map(|s| s.to_string()));
    args.extend(more.iter().map(|s| s.to_string()));
    args
}

fn ran(args: &[String]) -> (i32, String, String) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    symdbg(&args)
}

/// `run --json`'s leaves that claim a result (normal, return, exception), and those of
/// them with a model.
fn run_leaves() -> (BTreeSet<u64>, BTreeSet<u64>) {
    let (code, out, err) = ran(&with("run", &["--json"]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("run --json");
    let nodes = v["nodes"].as_array().expect("a node list");
    let claiming: Vec<&serde_json::Value> = nodes
        .iter()
        .filter(|n| {
            matches!(
                n["outcome"].as_str(),
                Some("normal" | "return" | "exception")
            )
        })
        .collect();
    let ids = |keep: &dyn Fn(&serde_json::Value) -> bool| {
        claiming
            .iter()
            .filter(|n| keep(n))
            .map(|n| n["id"].as_u64().expect("an id"))
            .collect::<BTreeSet<u64>>()
    };
    (ids(&|_| true), ids(&|n| !n["model"].is_null()))
}

/// Every leaf that has a model in `run` gets a test from `testgen` and is replayed by
/// `check` (text and JSON): none is left out, none is "no model".
#[test]
fn run_testgen_and_check_give_the_same_leaves_a_model() {
    let (claiming, modelled) = run_leaves();
    assert!(claiming.len() >= 20, "{claiming:?}");
    assert_eq!(modelled, claiming, "run: every claiming leaf has a model");

    let (code, out, err) = ran(&with("testgen", &["--format", "jsonl"]));
    assert_eq!(code, 0, "{err}");
    let tested: BTreeSet<u64> = out
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            v["leaf"].as_u64().expect("a leaf id")
        })
        .collect();
    assert_eq!(
        tested, modelled,
        "testgen: a test for every leaf with a model"
    );
    assert!(!err.contains("no model"), "{err}");

    let (code, out, err) = ran(&with("check", &["--json"]));
    assert!(code == 0 || code == 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("check --json");
    assert_eq!(
        v["leaves_checked"].as_u64(),
        Some(claiming.len() as u64),
        "{out}"
    );
    assert_eq!(v["skipped"]["not_replayed"], serde_json::json!([]), "{out}");
    let (_, text, err) = ran(&with("check", &[]));
    assert!(
        text.contains(&format!("precise: probably ({} leaves", claiming.len())),
        "{text}\n{err}"
    );
    assert!(!text.contains("not replayed"), "{text}");
}

/// One program of `tests/data/model_path` under `extra` options: `run --json`'s claiming
/// leaves all have a model; `testgen` writes a test for exactly those leaves (each test's
/// inputs reach its leaf: no disagreement); `check` replays exactly those leaves (none
/// left out, none "not replayed", every model ends as its leaf says); `check --jobs 2
/// --json` prints what `--jobs 1` prints (a tree this small is checked on one thread:
/// [`jobs_2_is_jobs_1_on_larger_audit_trees`] has the workers run).
fn agree(file: &str, extra: &[&str]) -> usize {
    let src = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
        .unwrap();
    let mut common: Vec<&str> = vec![file];
    if src.contains("def f(") {
        common.extend(["--entry", "f"]);
    }
    common.extend(extra);
    let cmd = |c: &str, more: &[&str]| {
        let mut a = vec![c];
        a.extend(&common);
        a.extend(more);
        symdbg(&a)
    };
    let (code, out, err) = cmd("run", &["--json"]);
    assert_eq!(code, 0, "{file} {extra:?}: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let leaves = |keep: &dyn Fn(&serde_json::Value) -> bool| -> BTreeSet<u64> {
        v["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| {
                matches!(
                    n["outcome"].as_str(),
                    Some("normal" | "return" | "exception")
                ) && keep(n)
            })
            .map(|n| n["id"].as_u64().unwrap())
            .collect()
    };
    let claiming = leaves(&|_| true);
    let modelled = leaves(&|n| !n["model"].is_null());
    assert!(!claiming.is_empty(), "{file} {extra:?}");
    assert_eq!(
        modelled, claiming,
        "{file} {extra:?}: run gave every leaf a model"
    );

    let (code, out, err) = cmd("testgen", &["--format", "jsonl"]);
    assert_eq!(code, 0, "{file} {extra:?}: {err}");
    let mut tested = BTreeSet::new();
    for l in out.lines() {
        let t: serde_json::Value = serde_json::from_str(l).unwrap();
        assert!(t["disagreement"].is_null(), "{file} {extra:?}: {l}");
        tested.insert(t["leaf"].as_u64().unwrap());
    }
    assert_eq!(tested, modelled, "{file} {extra:?}: testgen\n{err}");
    assert!(!err.contains("no model"), "{file} {extra:?}: {err}");

    let (code1, json1, err1) = cmd("check", &["--json"]);
    assert!(code1 == 0 || code1 == 1, "{file} {extra:?}: {err1}");
    let c: serde_json::Value = serde_json::from_str(&json1).unwrap();
    assert_eq!(
        c["leaves_checked"].as_u64(),
        Some(claiming.len() as u64),
        "{file} {extra:?}: {json1}"
    );
    assert_eq!(
        c["skipped"]["not_replayed"],
        serde_json::json!([]),
        "{json1}"
    );
    assert_eq!(c["precise"]["ok"], true, "{file} {extra:?}: {json1}");
    assert_eq!(
        cmd("check", &["--json", "--jobs", "2"]),
        (code1, json1, err1),
        "{file} {extra:?}: --jobs 2 --json"
    );
    claiming.len()
}

/// Issue 31's audit corpus (backwards and reflected reads, nested loops, calls, a module
/// program): run, testgen and check agree on every leaf, unrolled and folded, and
/// `check --jobs 2` is `--jobs 1` (no model in it is near a time limit).
#[test]
fn run_testgen_and_check_agree_on_the_audit_corpus() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/model_path");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".py"))
        .map(|p| format!("tests/data/model_path/{p}"))
        .collect();
    files.sort();
    assert!(files.len() >= 15, "{files:?}");
    let mut leaves = 0;
    for f in &files {
        leaves += agree(f, &["--fold", "auto"]);
    }
    // Unrolled too: the backwards searches, a module program, calls, nested loops.
    for f in [
        "back_while",
        "module_back",
        "calls_loop",
        "nested_back",
        "reflected",
    ] {
        leaves += agree(&format!("tests/data/model_path/{f}.py"), &[]);
    }
    eprintln!("{} programs, {leaves} leaves", files.len());
}

/// `check --jobs 2` on trees past the one-thread size (more than 128 nodes: the workers
/// run): the same text and JSON as `--jobs 1`.
#[test]
fn jobs_2_is_jobs_1_on_larger_audit_trees() {
    for (file, unroll) in [
        ("tests/data/model_path/try_loop.py", "6"),
        ("tests/data/model_path/back_while.py", "40"),
    ] {
        let args = |jobs: &str, json: bool| {
            let mut a = vec![
                "check", file, "--entry", "f", "--unroll", unroll, "--jobs", jobs,
            ];
            if json {
                a.push("--json");
            }
            symdbg(&a)
        };
        for json in [false, true] {
            let one = args("1", json);
            assert!(one.0 == 0 || one.0 == 1, "{file}: {}", one.2);
            assert_eq!(args("2", json), one, "{file} json={json}");
        }
    }
}
