//! The position audit: random programs (as text, `audit_positions/gen.rs`) run through
//! `symdbg exec --json` and `symdbg run --json`, every result replayed in python3
//! (`tests/py/run_python.py`, one process for the whole batch) and compared:
//!
//! - `exec` on random inputs: outcome, exception class, return value (`--entry`) and, for an
//!   exception, `exception_line`/`exception_column` against where CPython 3.11's traceback
//!   marks the raise (the innermost frame's instruction: line and start column);
//! - `run`: every `normal`/`return`/`exception` leaf's model, the same comparison with the
//!   leaf's prediction.
//!
//! Three flavours of programs: modules with declared inputs, modules whose `f` is the
//! `--entry` (the whole top level runs first, as `import m; m.f(args)`), and modules with
//! `@predicate`s called from code. The CI test runs a fixed seed on a small batch; the
//! campaign (`audit_campaign`, ignored) takes `AUDIT_PROGRAMS` and `AUDIT_SEED` from the
//! environment:
//!
//! ```text
//! AUDIT_PROGRAMS=3000 AUDIT_SEED=1 cargo test --release --test it audit_campaign -- --ignored --nocapture
//! ```
//!
//! `regressions` holds one minimal program per root cause the campaign found.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::Value as Json;

use crate::differential::{python_output, spawn_oracle};

pub(crate) mod gen;
mod regressions;

use gen::{Flavour, Gen, Generated, Rng, Ty};

/// What symdbg said about one run (an `exec`, or a `run` leaf under its model).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Said {
    outcome: String,
    exception: Option<String>,
    line: Option<u64>,
    col: Option<u64>,
    /// Compared only for `--entry` runs that return.
    return_value: Option<Json>,
}

impl Said {
    fn from_json(j: &Json, line: &str, col: &str, ret: &str) -> Said {
        Said {
            outcome: j["outcome"].as_str().unwrap_or("?").to_string(),
            exception: j["exception"].as_str().map(str::to_string),
            line: j[line].as_u64(),
            col: j[col].as_u64(),
            return_value: Some(j[ret].clone()).filter(|v| !v.is_null()),
        }
    }

    /// Differences from python3's answer, as text (empty: they agree).
    fn differences(&self, py: &Said, entry: bool) -> Vec<String> {
        let mut out = Vec::new();
        if self.outcome != py.outcome || self.exception != py.exception {
            out.push(format!(
                "outcome: symdbg {} {:?}, python3 {} {:?}",
                self.outcome, self.exception, py.outcome, py.exception
            ));
        } else if self.outcome == "exception" && (self.line, self.col) != (py.line, py.col) {
            out.push(format!(
                "position: symdbg {:?}:{:?}, python3 {:?}:{:?}",
                self.line, self.col, py.line, py.col
            ));
        } else if entry && self.outcome == "return" && self.return_value != py.return_value {
            out.push(format!(
                "return value: symdbg {:?}, python3 {:?}",
                self.return_value, py.return_value
            ));
        }
        out
    }
}

/// One program's runs to replay in python3.
struct Case {
    name: String,
    path: PathBuf,
    src: String,
    entry: Option<String>,
    /// (what it is, the inputs as JSON, what symdbg said).
    runs: Vec<(String, Json, Said)>,
}

/// Campaign figures.
#[derive(Debug, Default)]
pub(crate) struct Figures {
    pub programs: usize,
    pub rejected: usize,
    /// The diagnostics of rejected programs (the generator's or the type checker's fault).
    pub rejections: Vec<String>,
    pub exec_runs: usize,
    pub leaves: usize,
    pub exceptions: usize,
    pub disagreements: Vec<String>,
    /// RecursionErrors both sides raise, at different positions: where CPython 3.11 raises
    /// at its recursion limit depends on its adaptive interpreter (an unspecialised
    /// comparison of ints of 2^30 or more checks the C recursion limit in the deepest frame
    /// before its next call does); symdbg raises at the call that exceeds the limit.
    pub tolerated: Vec<String>,
    pub crashes: Vec<String>,
}

fn symdbg(args: &[&str], timeout_s: u32) -> (i32, String, String) {
    let bin = env!("CARGO_BIN_EXE_symdbg");
    let out = Command::new("timeout")
        .arg(timeout_s.to_string())
        .arg(bin)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run symdbg");
    super::util::triple(out)
}

/// A random value of `ty`: small ones mostly (so `//` by 0 and short tuples happen),
/// around the recursion limit sometimes.
fn value(rng: &mut Rng, ty: Ty) -> (String, Json) {
    match ty {
        Ty::Int => {
            let n: i64 = match rng.below(10) {
                0 => rng.pick(&[997, 998, 999, 1000, -1000, 1 << 40]),
                1..=2 => rng.below(41) as i64 - 20,
                _ => rng.below(7) as i64 - 3,
            };
            (n.to_string(), Json::from(n))
        }
        Ty::Bool => {
            let b = rng.chance(50);
            (if b { "True" } else { "False" }.into(), Json::Bool(b))
        }
        Ty::Tuple => {
            let items: Vec<i64> = (0..rng.below(5)).map(|_| rng.below(7) as i64 - 3).collect();
            let text = match items.len() {
                1 => format!("({},)", items[0]),
                _ => format!(
                    "({})",
                    items
                        .iter()
                        .map(i64::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            (text, Json::from(items))
        }
    }
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("symdbg-audit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Generate program `seed` of `flavour` and run it through symdbg: `exec` on `sets` random
/// inputs and `run --json`. `None`: symdbg rejected the program (its diagnostic is in
/// `figures.crashes` if it was not a clean exit 2).
fn prepare(seed: u64, flavour: Flavour, sets: usize, dir: &Path, f: &mut Figures) -> Option<Case> {
    let g: Generated = Gen::new(seed).program(flavour);
    let name = format!("{flavour:?} seed {seed}");
    let path = dir.join(format!("p{seed}_{flavour:?}.py"));
    std::fs::write(&path, &g.src).unwrap();
    let file = path.to_str().unwrap().to_string();
    f.programs += 1;
    let mut case = Case {
        name,
        path: path.clone(),
        src: g.src.clone(),
        entry: g.entry.clone(),
        runs: Vec::new(),
    };
    let mut rng = Rng::new(seed ^ 0x5eed);
    for _ in 0..sets {
        let mut args = vec!["exec".to_string(), file.clone(), "--json".into()];
        if let Some(e) = &g.entry {
            args.extend(["--entry".into(), e.clone()]);
        }
        let mut inputs = serde_json::Map::new();
        for (n, ty) in &g.inputs {
            let (text, json) = value(&mut rng, *ty);
            args.extend(["--input".into(), format!("{n}={text}")]);
            inputs.insert(n.clone(), json);
        }
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = symdbg(&argv, 20);
        if code == 2 {
            f.rejected += 1;
            f.rejections
                .push(format!("{}: {err}\n{}", case.name, show(&g.src)));
            if err.contains("panick") || !err.contains("error") {
                f.crashes
                    .push(format!("{}: exit 2 {err}\n{}", case.name, g.src));
            }
            return None;
        }
        if code != 0 {
            f.crashes.push(format!(
                "{}: {argv:?} exit {code}: {err}\n{}",
                case.name, g.src
            ));
            continue;
        }
        let Ok(j) = serde_json::from_str::<Json>(&out) else {
            f.crashes.push(format!("{}: bad JSON {out}", case.name));
            continue;
        };
        f.exec_runs += 1;
        let said = Said::from_json(&j, "exception_line", "exception_column", "return_value");
        case.runs
            .push((format!("exec {argv:?}"), Json::Object(inputs), said));
    }
    let mut args = vec![
        "run",
        &file,
        "--json",
        "--max-nodes",
        "4000",
        "--timeout-ms",
        "3000",
    ];
    if let Some(e) = &g.entry {
        args.extend(["--entry", e]);
    }
    let (code, out, err) = symdbg(&args, 60);
    if code != 0 {
        f.crashes.push(format!(
            "{}: {args:?} exit {code}: {err}\n{}",
            case.name, g.src
        ));
        return Some(case);
    }
    let doc: Json = serde_json::from_str(&out).expect("run --json prints JSON");
    for n in doc["nodes"].as_array().unwrap() {
        let outcome = n["outcome"].as_str().unwrap_or("");
        if !matches!(outcome, "normal" | "return" | "exception") || n["model"].is_null() {
            continue;
        }
        f.leaves += 1;
        let said = Said::from_json(
            n,
            "exception_line",
            "exception_column",
            "model_return_value",
        );
        case.runs
            .push((format!("run leaf {}", n["id"]), n["model"].clone(), said));
    }
    Some(case)
}

/// Replay every case's runs in one python3 process and record the disagreements.
fn replay(cases: &[Case], f: &mut Figures) {
    let requests: Vec<String> = cases
        .iter()
        .map(|c| {
            let inputs: Vec<String> = c.runs.iter().map(|r| r.1.to_string()).collect();
            format!(
                "{{\"file\": {}, \"entry\": {}, \"inputs\": [{}], \"time_limit\": 5}}",
                Json::String(c.path.display().to_string()),
                c.entry
                    .as_ref()
                    .map_or(Json::Null, |e| Json::String(e.clone())),
                inputs.join(", ")
            )
        })
        .collect();
    let answer = python_output(spawn_oracle(&format!("[{}]", requests.join(", "))))
        .unwrap_or_else(|e| panic!("{e}"));
    for (c, results) in cases.iter().zip(answer.as_array().unwrap()) {
        for ((what, inputs, said), py) in c.runs.iter().zip(results.as_array().unwrap()) {
            let py = Said::from_json(py, "line", "col", "return_value");
            if py.outcome == "timeout" {
                continue;
            }
            if said.outcome == "exception" {
                f.exceptions += 1;
            }
            let diffs = said.differences(&py, c.entry.is_some());
            let recursion = said.exception.as_deref() == Some("RecursionError")
                && py.exception.as_deref() == Some("RecursionError");
            if !diffs.is_empty() {
                let list = if recursion {
                    &mut f.tolerated
                } else {
                    &mut f.disagreements
                };
                list.push(format!(
                    "{} ({what}), inputs {inputs}: {}\n{}",
                    c.name,
                    diffs.join("; "),
                    show(&c.src)
                ));
            }
        }
    }
}

/// The source with line numbers and invisible characters made visible.
pub(crate) fn show(src: &str) -> String {
    src.lines()
        .enumerate()
        .map(|(i, l)| {
            let l = l.replace('\x0c', "\\f").replace('\t', "\\t");
            format!("{:3} | {l}\n", i + 1)
        })
        .collect()
}

/// Run `programs` programs from `seed` (flavours in turn) with `sets` exec inputs each.
pub(crate) fn campaign(seed: u64, programs: usize, sets: usize) -> Figures {
    let dir = temp_dir();
    let mut f = Figures::default();
    let flavours = [Flavour::Module, Flavour::Entry, Flavour::Predicate];
    // Batches keep the python request and the memory small.
    for batch in (0..programs).collect::<Vec<_>>().chunks(50) {
        let mut cases = Vec::new();
        for &i in batch {
            let s = seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
            if let Some(c) = prepare(s, flavours[i % 3], sets, &dir, &mut f) {
                cases.push(c);
            }
        }
        replay(&cases, &mut f);
    }
    let _ = std::fs::remove_dir_all(&dir);
    f
}

fn report(f: &Figures, elapsed: f64) -> String {
    let mut classes: BTreeMap<String, usize> = BTreeMap::new();
    for d in &f.disagreements {
        let key = d.split(": ").nth(1).unwrap_or("").to_string();
        *classes.entry(key).or_default() += 1;
    }
    format!(
        "{} programs ({} rejected), {} exec runs, {} run leaves replayed, {} exceptions; \
         {} disagreements, {} crashes, {} RecursionError positions tolerated; \
         {elapsed:.1} s\n{classes:?}",
        f.programs,
        f.rejected,
        f.exec_runs,
        f.leaves,
        f.exceptions,
        f.disagreements.len(),
        f.crashes.len(),
        f.tolerated.len()
    )
}

/// The CI test: a fixed seed, a small batch.
#[test]
fn generated_positions_agree_with_python() {
    let start = Instant::now();
    let f = campaign(20261123, 60, 3);
    let summary = report(&f, start.elapsed().as_secs_f64());
    assert!(
        f.disagreements.is_empty() && f.crashes.is_empty(),
        "{summary}\n{}\n{}",
        f.disagreements
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n"),
        f.crashes
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The batch must exercise what it is about: exceptions, compared positions.
    assert!(f.exceptions >= 80, "{summary}");
    assert!(f.rejected * 10 <= f.programs, "{summary}");
}

/// The campaign: `AUDIT_PROGRAMS` programs (default 3000) from `AUDIT_SEED` (default 1).
#[test]
#[ignore]
fn audit_campaign() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let start = Instant::now();
    let f = campaign(
        env("AUDIT_SEED", 1),
        env("AUDIT_PROGRAMS", 3000) as usize,
        3,
    );
    let summary = report(&f, start.elapsed().as_secs_f64());
    for d in f.disagreements.iter().take(40) {
        println!("{d}");
    }
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for r in &f.rejections {
        let first = r.lines().next().unwrap_or("");
        let reason = first.split(": error: ").nth(1).unwrap_or(first);
        *reasons.entry(reason.to_string()).or_default() += 1;
    }
    for r in f
        .rejections
        .iter()
        .take(std::env::var("AUDIT_SHOW_REJECTED").map_or(0, |v| v.parse().unwrap_or(0)))
    {
        println!("REJECTED {r}");
    }
    println!("rejections: {reasons:#?}");
    for c in f.crashes.iter().take(20) {
        println!("CRASH {c}");
    }
    println!("{summary}");
    assert!(
        f.disagreements.is_empty() && f.crashes.is_empty(),
        "{summary}"
    );
}

/// Write program `AUDIT_ONE` (a seed as the reports name it) of flavour `AUDIT_FLAVOUR`
/// (Module, Entry, Predicate) to `AUDIT_OUT` (default /tmp/audit_one.py), for a look.
#[test]
#[ignore]
fn audit_one() {
    let seed: u64 = std::env::var("AUDIT_ONE").unwrap().parse().unwrap();
    let flavour = match std::env::var("AUDIT_FLAVOUR").as_deref() {
        Ok("Entry") => Flavour::Entry,
        Ok("Predicate") => Flavour::Predicate,
        _ => Flavour::Module,
    };
    let g = Gen::new(seed).program(flavour);
    let out = std::env::var("AUDIT_OUT").unwrap_or("/tmp/audit_one.py".into());
    std::fs::write(&out, &g.src).unwrap();
    println!("{}{:?} {:?}", show(&g.src), g.entry, g.inputs);
}
