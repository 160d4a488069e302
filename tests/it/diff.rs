//! Issue 29, `symdbg diff`: one-token mutants of the examples and of generated programs
//! against python3 (`tests/py/run_python.py`):
//! - every reported witness behaves differently in python3 (outcome, exception class or
//!   line, return value, a variable both programs have, printed output);
//! - for bounded-exhaustive inputs (each int in -2..=2, both bools, five small tuples),
//!   every input on which python3 sees the two programs differ falls in a reported class
//!   (the pair of leaves whose path conditions hold), unless a cut leaf holds (beyond the
//!   bounds);
//! - a program against itself: no difference;
//! - the command line: text, `--json`, exit codes 0/1/2.
//! (Printing programs and `--pytest`: `diff_print.rs`.)

use std::collections::BTreeMap;

use serde_json::Value as Json;
use symdbg::base::SourceMap;
use symdbg::lang::pretty;
use symdbg::session::{
    diff, Config, Limits, LoopMode, NodeId, Outcome, Policy, Session, Type, Value,
};

use crate::differential::{python_output, request, spawn_oracle, Val};
use crate::gen;
use crate::util::symdbg;

pub(crate) fn explored(name: &str, src: &str) -> Option<Session> {
    let mut config = Config::default();
    config.loops = LoopMode::Unroll;
    // (a generous hang guard: a loaded machine must not turn a query `unknown`)
    config.timeout_ms = Some(120_000);
    let mut s = Session::open(SourceMap::new(name, src), None, config).ok()?;
    let root = s.tree().root();
    s.run(
        root,
        Policy::Subtree,
        Limits {
            max_nodes: Some(5_000),
            ..Limits::default()
        },
        &|_| {},
    );
    Some(s)
}

/// Every one-token mutant of `src` (operators swapped, an int literal plus one), as texts.
pub(crate) fn mutants(src: &str) -> Vec<String> {
    let swaps = [
        (" < ", " <= "),
        (" <= ", " < "),
        (" > ", " >= "),
        (" >= ", " > "),
        (" == ", " != "),
        (" != ", " == "),
        (" + ", " - "),
        (" - ", " + "),
        (" and ", " or "),
        (" or ", " and "),
        (" // ", " % "),
    ];
    let mut out = Vec::new();
    // (comments left alone: only code lines)
    let code_lines: Vec<(usize, &str)> = {
        let mut at = 0;
        src.split_inclusive('\n')
            .map(|l| {
                let start = at;
                at += l.len();
                (start, l)
            })
            .filter(|(_, l)| !l.trim_start().starts_with('#'))
            .collect()
    };
    for (start, line) in &code_lines {
        for (from, to) in swaps {
            for (k, _) in line.match_indices(from) {
                let at = start + k;
                out.push(format!("{}{to}{}", &src[..at], &src[at + from.len()..]));
            }
        }
        let bytes = line.as_bytes();
        for (k, c) in bytes.iter().enumerate() {
            let prev_ok = k == 0 || !(bytes[k - 1].is_ascii_alphanumeric() || bytes[k - 1] == b'_');
            if c.is_ascii_digit() && prev_ok {
                let end = (k..bytes.len())
                    .find(|&j| !bytes[j].is_ascii_digit())
                    .unwrap_or(bytes.len());
                if end < bytes.len() && (bytes[end].is_ascii_alphabetic() || bytes[end] == b'_') {
                    continue;
                }
                let n: i64 = line[k..end].parse().unwrap_or(0);
                let at = start + k;
                out.push(format!("{}{}{}", &src[..at], n + 1, &src[start + end..]));
            }
        }
    }
    out
}

/// Small values of each type (the bounded-exhaustive domain), at most `cap` sets.
fn exhaustive(inputs: &[(String, Type)], cap: usize) -> Vec<BTreeMap<String, Value>> {
    let small = |ty: &Type| -> Vec<Value> {
        match ty {
            Type::Int => (-2..=2).map(|i: i64| Value::Int(i.into())).collect(),
            Type::Bool => vec![Value::Bool(false), Value::Bool(true)],
            Type::Tuple => [vec![], vec![0], vec![-1], vec![1, 0], vec![0, 2, -1]]
                .into_iter()
                .map(|v: Vec<i64>| Value::Tuple(v.into_iter().map(Into::into).collect()))
                .collect(),
        }
    };
    let mut out = vec![BTreeMap::new()];
    for (name, ty) in inputs {
        out = out
            .into_iter()
            .flat_map(|o| {
                small(ty).into_iter().map(move |v| {
                    let mut o = o.clone();
                    o.insert(name.clone(), v);
                    o
                })
            })
            .take(cap)
            .collect();
    }
    out
}

/// python3's observable result: (outcome, exception, line, return value, store, stdout).
type Py = (
    String,
    Option<String>,
    Option<u64>,
    Json,
    BTreeMap<String, Json>,
    String,
);

fn py_of(j: &Json) -> Py {
    (
        j["outcome"].as_str().unwrap_or("").to_string(),
        j["exception"].as_str().map(str::to_string),
        j["line"].as_u64(),
        j["return_value"].clone(),
        j["store"]
            .as_object()
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default(),
        j["stdout"].as_str().unwrap_or("").to_string(),
    )
}

/// Do the two python3 results differ as `diff` compares them (printed output included) (one-token mutants keep
/// every line where it was)?
fn py_differ(a: &Py, b: &Py) -> bool {
    a.0 != b.0
        || a.1 != b.1
        || (a.1.is_some() && a.2 != b.2)
        || a.3 != b.3
        || a.4.iter().any(|(k, v)| b.4.get(k).is_some_and(|w| w != v))
        || a.5 != b.5
}

type Inputs = BTreeMap<String, Value>;

/// One mutation pair, explored and compared.
struct Pair {
    name: String,
    old_path: std::path::PathBuf,
    new_path: std::path::PathBuf,
    witnesses: Vec<BTreeMap<String, Value>>,
    /// Witnesses whose runs differ only in what they print.
    stdout_only: usize,
    /// Bounded-exhaustive inputs with their class: (old leaf, new leaf) whose path
    /// conditions hold, `None` when a cut leaf holds or none decides.
    sets: Vec<(Inputs, Option<(NodeId, NodeId)>)>,
    reported: Vec<(NodeId, NodeId)>,
    /// Classes the solver did not decide (`diff` says how many: not a silent miss).
    undecided: Vec<(NodeId, NodeId)>,
}

fn class_of(s: &Session, inputs: &BTreeMap<String, Value>) -> Option<NodeId> {
    let leaves: Vec<_> = s
        .tree()
        .nodes()
        .filter(|n| n.is_leaf() || n.is_open())
        .map(|n| s.candidate(n.id))
        .collect();
    let hits = s.holding(&leaves, &s.input_model(inputs), 1_000);
    let [(id, _)] = hits.all.as_slice() else {
        return None;
    };
    let ends = matches!(
        s.tree().node(*id).outcome(),
        Some(Outcome::Normal | Outcome::Return | Outcome::Exception(_))
    );
    ends.then_some(*id)
}

fn values_json(set: &BTreeMap<String, Value>) -> Vec<(String, Val)> {
    set.iter()
        .map(|(k, v)| (k.clone(), Val::from_value(v)))
        .collect()
}

/// Every mutation pair of `programs` (at most `per_program` mutants each, spread over
/// `mutate`'s list) against python3; returns (pairs, witnesses, differing inputs,
/// witnesses that differ in nothing but their printed output).
pub(crate) fn check_pairs(
    tag: &str,
    programs: Vec<(String, String)>,
    per_program: usize,
    mutate: fn(&str) -> Vec<String>,
) -> (usize, usize, usize, usize) {
    let dir = std::env::temp_dir().join(format!("symdbg-diff-{tag}-{}", std::process::id()));
    let keep = dir.clone();
    std::fs::create_dir_all(&dir).unwrap();
    let pairs: Vec<Pair> = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || {
            let mut pairs = Vec::new();
            for (k, (name, src)) in programs.iter().enumerate() {
                let Some(mut old) = explored(name, src) else {
                    continue;
                };
                let ms = mutate(src);
                let step = (ms.len() / per_program).max(1);
                for (j, m) in ms.iter().step_by(step).take(per_program).enumerate() {
                    let Some(mut new) = explored(name, m) else {
                        continue;
                    };
                    let Ok(report) = diff::diff(&mut old, &mut new) else {
                        continue;
                    };
                    let old_path = dir.join(format!("p{k}_{j}_old.py"));
                    let new_path = dir.join(format!("p{k}_{j}_new.py"));
                    std::fs::write(&old_path, src).unwrap();
                    std::fs::write(&new_path, m).unwrap();
                    let sets = exhaustive(&old.inputs(), 250)
                        .into_iter()
                        .map(|i| {
                            let class = class_of(&old, &i).zip(class_of(&new, &i));
                            (i, class)
                        })
                        .collect();
                    pairs.push(Pair {
                        name: format!("{name} mutant {j}"),
                        old_path,
                        new_path,
                        stdout_only: report
                            .differences
                            .iter()
                            .filter(|d| d.what == ["stdout"])
                            .count(),
                        witnesses: report
                            .differences
                            .iter()
                            .map(|d| d.inputs.clone())
                            .collect(),
                        sets,
                        reported: report
                            .differences
                            .iter()
                            .map(|d| (d.old_leaf, d.new_leaf))
                            .collect(),
                        undecided: report.undecided_pairs.clone(),
                    });
                }
            }
            pairs
        })
        .unwrap()
        .join()
        .expect("exploration panicked");
    // One python3 process: per pair, the old and the new program on every input.
    let mut requests = Vec::new();
    for p in &pairs {
        let all: Vec<Vec<(String, Val)>> = p
            .witnesses
            .iter()
            .chain(p.sets.iter().map(|(i, _)| i))
            .map(values_json)
            .collect();
        requests.push(request(&p.old_path, None, &all, Some(10.0)));
        requests.push(request(&p.new_path, None, &all, Some(10.0)));
    }
    let answer =
        python_output(spawn_oracle(&format!("[{}]", requests.join(", ")))).expect("run_python.py");
    let answers = answer.as_array().unwrap();
    let mut failures = Vec::new();
    let (mut witnesses, mut differing_inputs, mut beyond, mut undecided) = (0, 0, 0, 0);
    for (k, p) in pairs.iter().enumerate() {
        let old: Vec<Py> = answers[2 * k]
            .as_array()
            .unwrap()
            .iter()
            .map(py_of)
            .collect();
        let new: Vec<Py> = answers[2 * k + 1]
            .as_array()
            .unwrap()
            .iter()
            .map(py_of)
            .collect();
        let src = std::fs::read_to_string(&p.new_path).unwrap();
        for (j, w) in p.witnesses.iter().enumerate() {
            witnesses += 1;
            if !py_differ(&old[j], &new[j]) {
                failures.push(format!(
                    "{}: witness {w:?} runs the same in python3\n{src}",
                    p.name
                ));
            }
        }
        let n = p.witnesses.len();
        for (j, (inputs, class)) in p.sets.iter().enumerate() {
            if !py_differ(&old[n + j], &new[n + j]) {
                continue;
            }
            differing_inputs += 1;
            let Some(class) = class else {
                beyond += 1;
                continue;
            };
            if p.undecided.contains(class) {
                undecided += 1;
                continue;
            }
            if !p.reported.contains(class) {
                failures.push(format!(
                    "{}: python3 differs on {inputs:?} (leaves {} and {}), no class reported: {} vs {}\n{:?} {:?}\n{src}",
                    p.name, class.0 .0, class.1 .0, p.old_path.display(), p.new_path.display(), old[n + j], new[n + j]
                ));
            }
        }
    }
    if failures.is_empty() {
        let _ = std::fs::remove_dir_all(&keep);
    }
    eprintln!(
        "diff vs python3: {} mutation pairs, {witnesses} witnesses, {differing_inputs} differing bounded-exhaustive inputs ({beyond} beyond the bounds: a cut leaf holds; {undecided} in a class the solver did not decide), {} failures",
        pairs.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(4)].join("\n---\n")
    );
    let stdout_only = pairs.iter().map(|p| p.stdout_only).sum();
    (pairs.len(), witnesses, differing_inputs, stdout_only)
}

#[test]
fn mutants_of_generated_programs_against_python3() {
    let mut rng = symdbg::base::rng::SplitMix64::new(0xd1ff_0029);
    let programs: Vec<(String, String)> = (0..25)
        .map(|k| {
            let choices: Vec<u32> = (0..120).map(|_| rng.next_u64() as u32).collect();
            (
                format!("gen{k}.py"),
                pretty::program(&gen::program(&choices)),
            )
        })
        .collect();
    let (pairs, witnesses, differing, _) = check_pairs("gen", programs, 4, mutants);
    assert!(pairs >= 60, "{pairs} pairs");
    assert!(witnesses > 20, "{witnesses} witnesses");
    assert!(differing > 20, "{differing} differing inputs");
}

#[test]
fn mutants_of_the_examples_against_python3() {
    let programs: Vec<(String, String)> = crate::util::examples()
        .into_iter()
        .map(|e| {
            let text =
                std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&e))
                    .unwrap();
            (e, text)
        })
        // (python3 runs them: not the examples with verification statements)
        .filter(|(_, t)| {
            [
                "invariant ",
                "loop-scope",
                "method-frame",
                "assume ",
                "havoc ",
                "requires ",
                "ensures ",
                "@predicate",
            ]
            .iter()
            .all(|v| !t.lines().any(|l| l.trim_start().starts_with(v)))
        })
        .collect();
    let (pairs, witnesses, _, _) = check_pairs("examples", programs, 3, mutants);
    assert!(pairs >= 20, "{pairs} pairs");
    assert!(witnesses > 5, "{witnesses} witnesses");
}

#[test]
fn a_program_against_itself_has_no_difference() {
    for e in crate::util::examples() {
        let text =
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&e))
                .unwrap();
        let mut a = explored(&e, &text).unwrap();
        let mut b = explored(&e, &text).unwrap();
        let r = diff::diff(&mut a, &mut b).unwrap();
        assert!(r.differences.is_empty(), "{e}: {:?}", r.differences);
        let (code, out, err) = symdbg(&["diff", &e, &e]);
        assert_eq!(code, 0, "{e}: {out}{err}");
        assert!(out.contains("no difference"), "{out}");
    }
}

const OLD: &str = "x: int\nif x > 0:\n    r = 1\nelse:\n    r = 2 // (x + 5)\n";
const NEW: &str = "x: int\nif x > 0:\n    r = 1\nelse:\n    r = 2 // (x + 6)\n";

#[test]
fn diff_command_text_json_and_exit_codes() {
    let dir = std::env::temp_dir().join(format!("symdbg-diff-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (old, new) = (dir.join("old.py"), dir.join("new.py"));
    std::fs::write(&old, OLD).unwrap();
    std::fs::write(&new, NEW).unwrap();
    let (o, n) = (old.to_str().unwrap(), new.to_str().unwrap());
    let (code, out, err) = symdbg(&["diff", o, n]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("x = -5: old raises ZeroDivisionError at "),
        "{out}"
    );
    assert!(out.contains("new raises ZeroDivisionError at "), "{out}");
    let (code, json, _) = symdbg(&["diff", o, n, "--json"]);
    assert_eq!(code, 1);
    let v: Json = serde_json::from_str(&json).unwrap();
    assert_eq!(v["bounded"], Json::Bool(false));
    let ds = v["differences"].as_array().unwrap();
    assert_eq!(ds.len(), 3, "{json}");
    assert!(ds.iter().any(|d| d["input"]["x"] == -5
        && d["old"]["exception"] == "ZeroDivisionError"
        && d["old"]["line"] == 5
        && d["new"]["outcome"] == "normal"));
    // Bounded: a loop cut by --unroll says so.
    let looped = dir.join("loop.py");
    std::fs::write(&looped, "x: int\ni = 0\nwhile i < x:\n    i = i + 1\n").unwrap();
    let l = looped.to_str().unwrap();
    let (code, out, _) = symdbg(&["diff", l, l, "--unroll", "2"]);
    assert_eq!(code, 0);
    assert!(out.contains("equivalent only up to the bounds"), "{out}");
    // Different inputs, a missing file: exit 2.
    let other = dir.join("other.py");
    std::fs::write(&other, "y: int\nr = y\n").unwrap();
    let (code, _, err) = symdbg(&["diff", o, other.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("different inputs"), "{err}");
    let (code, _, _) = symdbg(&["diff", o, "no/such/file.py"]);
    assert_eq!(code, 2);
    let _ = std::fs::remove_dir_all(&dir);
}
