//! The adversarial rounds' shared checks (fuzz5, fuzz6, ...): a corpus of hand-written
//! programs in `tests/data/NAME/` run through the product's commands and compared with
//! python3: every leaf model replayed (`--fold off` and `--fold auto`), `check` in both modes,
//! `testgen`'s files under pytest, `diff` on one-token mutants (every reported input behaves
//! differently in python3), and coverage (no line `run --coverage` calls unreachable runs in
//! python3). Names in a corpus: `k*.py` have contracts, invariants, `assume` or `havoc`
//! (python3 cannot run them), `a*`/`f*.py` are also replayed under `--fold auto` in CI,
//! `g*.py` have dead lines coverage must find.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;
use symdbg::engine::fold::FoldMode;
use symdbg::engine::Config;

use crate::differential::{
    entry_of, generate, load, params_of, parse_results, py_files, python_output, request, root,
    spawn_oracle, Inputs, Val,
};
use crate::util::symdbg;

/// One round's corpus, `tests/data/{name}/`.
pub struct Round {
    pub name: &'static str,
}

pub fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// Does the program have a `havoc` statement? (`check` refuses it.)
pub fn has_havoc(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .any(|l| l.trim_start().starts_with("havoc "))
}

pub fn run_symdbg(args: &[String]) -> (i32, String, String) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    symdbg(&args)
}

/// `--fold auto` with a hang guard, not a measurement: a loaded machine must not turn checks
/// into `unknown`.
fn folded() -> Config {
    let mut config = Config::default();
    config.fold = FoldMode::Auto;
    config.timeout_ms = Some(120_000);
    config
}

impl Round {
    pub fn corpus(&self) -> Vec<PathBuf> {
        let files = py_files(&root().join("tests/data").join(self.name));
        assert!(files.len() >= 60, "the corpus has {} programs", files.len());
        files
    }

    /// The programs python3 can run (all but `k*.py`).
    pub fn python_programs(&self) -> Vec<PathBuf> {
        self.corpus()
            .into_iter()
            .filter(|p| !stem(p).starts_with('k'))
            .collect()
    }

    /// Every leaf model of every python program (module and `# entry:` runs) and random
    /// inputs, replayed in python3: outcome, exception, return value, store and stdout.
    /// Returns how many runs were compared.
    pub fn agrees_unrolled(&self) -> usize {
        let compared = crate::symbolic::differential_over(self.python_programs(), 20_000);
        eprintln!(
            "{} unrolled: {compared} runs compared with python3",
            self.name
        );
        compared
    }

    /// The same under `--fold auto`, on `a*`/`f*` (`whole`: every python program).
    pub fn agrees_folded(&self, whole: bool) -> usize {
        let files: Vec<PathBuf> = self
            .python_programs()
            .into_iter()
            .filter(|p| whole || stem(p).starts_with('f') || stem(p).starts_with('a'))
            .collect();
        let compared = crate::symbolic::differential_over_with(files, 20_000, folded());
        eprintln!(
            "{} folded: {compared} runs compared with python3",
            self.name
        );
        compared
    }

    /// `symdbg check --json` on every program `check` accepts (contracts too; not `havoc`),
    /// `--fold off` and `--fold auto`: every leaf's model replays to its leaf (precise), and
    /// every random run ends as the leaf its input reaches predicts, unless that leaf is a cut
    /// (`bound`) one. Panics with every failure; returns the concrete runs.
    pub fn check_finds_no_disagreement(&self) -> u64 {
        let mut failures = Vec::new();
        let mut runs = 0;
        for path in self.corpus().into_iter().filter(|p| !has_havoc(p)) {
            let (rel, entry) = args_of(&path);
            for fold in ["off", "auto"] {
                let mut args = vec!["check".to_string(), rel.clone()];
                args.extend(entry.iter().cloned());
                args.extend(["--fold", fold, "--json"].map(String::from));
                let (code, stdout, stderr) = run_symdbg(&args);
                let what = format!("symdbg {}", args.join(" "));
                let Ok(report) = serde_json::from_str::<Value>(&stdout) else {
                    failures.push(format!("{what}: exit {code}, no JSON:\n{stdout}{stderr}"));
                    continue;
                };
                runs += report["runs"].as_u64().unwrap_or(0);
                if report["precise"]["ok"] != true {
                    failures.push(format!("{what}: not precise: {}", report["precise"]));
                }
                let cex = &report["exhaustive"]["counterexample"];
                if report["exhaustive"]["ok"] != true && cex["symbolic"]["outcome"] != "bound" {
                    failures.push(format!("{what}: not exhaustive: {cex}"));
                }
                if !matches!(code, 0 | 1) {
                    failures.push(format!("{what}: exit {code}\n{stderr}"));
                }
            }
        }
        eprintln!("{} check: {runs} concrete runs", self.name);
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
        runs
    }

    /// `symdbg testgen` on every python program: pytest runs each written file and every
    /// test passes (python3 behaves as each leaf says). Returns the tests written.
    pub fn testgen_files_pass_under_pytest(&self) -> usize {
        let dir = tempfile::tempdir().unwrap();
        let mut files = Vec::new();
        let mut written = 0;
        for path in self.python_programs() {
            let (rel, entry) = args_of(&path);
            let out = dir.path().join(format!("test_{}.py", stem(&path)));
            let mut args = vec!["testgen".to_string(), rel];
            args.extend(entry);
            args.extend(["-o".to_string(), out.to_string_lossy().into_owned()]);
            let (code, _, stderr) = run_symdbg(&args);
            assert_eq!(code, 0, "symdbg {}:\n{stderr}", args.join(" "));
            written += std::fs::read_to_string(&out)
                .unwrap()
                .matches("\ndef test_")
                .count();
            files.push(out);
        }
        let (passed, failed, output) = crate::testgen::pytest(&files);
        eprintln!(
            "{} testgen: {written} tests, {passed} passed under pytest",
            self.name
        );
        assert_eq!(failed, 0, "{output}");
        assert_eq!(passed, written, "{output}");
        written
    }

    /// `symdbg diff OLD NEW --json` on one-token mutants (`swaps`) of the python programs:
    /// for every reported input python3 runs OLD and NEW differently, and as `diff` says OLD
    /// does. Returns (mutant pairs, differences replayed).
    pub fn diff_witnesses_differ_in_python(&self, swaps: &[(&str, &str)]) -> (usize, usize) {
        let dir = tempfile::tempdir().unwrap();
        let mut failures = Vec::new();
        let mut requests = Vec::new();
        // (old, new, input, diff's old outcome)
        let mut claims: Vec<(String, String, Inputs, Value)> = Vec::new();
        let mut pairs = 0;
        for path in self.python_programs() {
            let src = std::fs::read_to_string(&path).unwrap();
            let entry = entry_of(&src);
            let (program, _) = load(&path, &src).unwrap();
            let params = params_of(&program, entry.as_deref()).unwrap();
            for (k, mutant) in mutants(&src, swaps).into_iter().enumerate() {
                let new = dir.path().join(format!("{}_m{k}.py", stem(&path)));
                std::fs::write(&new, &mutant).unwrap();
                if load(&new, &mutant).is_err() {
                    continue;
                }
                pairs += 1;
                let mut args = vec![
                    "diff".to_string(),
                    path.to_string_lossy().into_owned(),
                    new.to_string_lossy().into_owned(),
                    "--json".to_string(),
                ];
                if let Some(f) = &entry {
                    args.extend(["--entry".to_string(), f.clone()]);
                }
                let (code, stdout, stderr) = run_symdbg(&args);
                let Ok(report) = serde_json::from_str::<Value>(&stdout) else {
                    failures.push(format!("symdbg {args:?}: exit {code}\n{stdout}{stderr}"));
                    continue;
                };
                for d in report["differences"].as_array().into_iter().flatten() {
                    let set: Inputs = params
                        .iter()
                        .map(|(n, _)| (n.clone(), Val::from_json(&d["input"][n]).unwrap()))
                        .collect();
                    let old = path.to_string_lossy().into_owned();
                    let newp = new.to_string_lossy().into_owned();
                    for p in [&old, &newp] {
                        requests.push(request(
                            Path::new(p),
                            entry.as_deref(),
                            std::slice::from_ref(&set),
                            Some(10.0),
                        ));
                    }
                    claims.push((old, newp, set, d["old"].clone()));
                }
            }
        }
        let answer = python_output(spawn_oracle(&format!("[{}]", requests.join(", ")))).unwrap();
        let answers = answer.as_array().unwrap();
        for (k, (old, new, set, said)) in claims.iter().enumerate() {
            let a = &parse_results(&answers[2 * k], 1).unwrap()[0];
            let b = &parse_results(&answers[2 * k + 1], 1).unwrap()[0];
            let what = format!("symdbg diff {old} {new} on {set:?}");
            if a == b {
                failures.push(format!("{what}: python3 runs both the same: {a}"));
            }
            if said["outcome"] != a.outcome.as_str() {
                failures.push(format!("{what}: diff says old is {said}, python3: {a}"));
            }
        }
        eprintln!(
            "{} diff: {pairs} mutant pairs, {} differences replayed",
            self.name,
            claims.len()
        );
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
        (pairs, claims.len())
    }

    /// `run --coverage`: a line it calls unreachable runs on no input in python3 (edge and
    /// random inputs), and `g*.py`'s dead lines are found. Returns the unreachable lines.
    pub fn unreachable_lines_never_run_in_python(&self) -> usize {
        let mut unreachable: Vec<(PathBuf, BTreeSet<u64>)> = Vec::new();
        let mut requests = Vec::new();
        for path in self.python_programs() {
            let (rel, entry) = args_of(&path);
            let mut args = vec!["run".to_string(), rel, "--coverage".to_string()];
            args.extend(entry);
            let (code, stdout, stderr) = run_symdbg(&args);
            assert_eq!(code, 0, "symdbg {args:?}:\n{stderr}");
            let lines: BTreeSet<u64> = stdout
                .lines()
                .filter_map(|l| {
                    let mut w = l.split_whitespace();
                    let n = w.next()?.parse().ok()?;
                    (w.next()? == "unreachable").then_some(n)
                })
                .collect();
            let src = std::fs::read_to_string(&path).unwrap();
            let entry = entry_of(&src);
            let (program, _) = load(&path, &src).unwrap();
            let params = params_of(&program, entry.as_deref()).unwrap();
            let sets = generate(&params, &stem(&path), 40, 160, false);
            let inputs: Vec<Value> = sets
                .iter()
                .map(|set| {
                    let text = set
                        .iter()
                        .map(|(n, v)| format!("{}: {}", Value::String(n.clone()), v.json()))
                        .collect::<Vec<_>>()
                        .join(", ");
                    serde_json::from_str(&format!("{{{text}}}")).unwrap()
                })
                .collect();
            requests.push(serde_json::json!({
                "file": path.to_string_lossy(),
                "entry": entry,
                "inputs": inputs,
            }));
            unreachable.push((path, lines));
        }
        let mut child = Command::new("python3")
            .arg(root().join("tests/it/adversarial/trace_lines.py"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3");
        let request = serde_json::to_string(&requests).unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(request.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "trace_lines.py failed");
        let ran: Vec<BTreeSet<u64>> = serde_json::from_slice(&out.stdout).unwrap();
        let mut failures = Vec::new();
        let mut dead = 0;
        for ((path, lines), ran) in unreachable.iter().zip(&ran) {
            dead += lines.len();
            let both: Vec<&u64> = lines.intersection(ran).collect();
            if !both.is_empty() {
                failures.push(format!(
                    "{}: lines {both:?} are `unreachable` but ran in python3",
                    path.display()
                ));
            }
            if stem(path).starts_with('g') && lines.is_empty() {
                failures.push(format!("{}: its dead lines were not found", path.display()));
            }
        }
        eprintln!(
            "{} coverage: {dead} unreachable lines, none ran in python3",
            self.name
        );
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        dead
    }
}

/// `tests/data/NAME/FILE.py` relative to the repository root, and its `--entry` arguments.
pub fn args_of(path: &Path) -> (String, Vec<String>) {
    let rel = path
        .strip_prefix(root())
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let src = std::fs::read_to_string(path).unwrap();
    let entry = entry_of(&src).map_or(Vec::new(), |f| vec!["--entry".to_string(), f]);
    (rel, entry)
}

/// One-token mutants of a program: each swap's first occurrence replaced (not in the
/// `# entry:` line or a `def` line).
pub fn mutants(src: &str, swaps: &[(&str, &str)]) -> Vec<String> {
    swaps
        .iter()
        .filter_map(|(a, b)| {
            let at = src.match_indices(a).map(|(i, _)| i).find(|&i| {
                let line = src[..i].rsplit('\n').next().unwrap_or("");
                !line.starts_with('#') && !line.trim_start().starts_with("def ")
            })?;
            Some(format!("{}{b}{}", &src[..at], &src[at + a.len()..]))
        })
        .collect()
}
