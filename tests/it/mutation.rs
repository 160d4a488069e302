//! The mutation score of `testgen` (issue 31): one-token mutants of generated programs
//! that python3 tells apart from the original on random inputs must fail some generated
//! test. Score = killed / (killed + python3-distinguishable survivors), over a fixed set of
//! generated programs (gen.rs, module runs), in unroll mode and in `--fold auto`.
//!
//! A mutant changes one token: an arithmetic or comparison operator (`+` ↔ `-`, `*` → `+`,
//! `//` ↔ `%`, `<` ↔ `<=`, `>` ↔ `>=`, `==` ↔ `!=`) or an integer literal (`n` → `n + 1`).
//! The driver (`mutation/driver.py`, python3 with pytest) runs the original and each mutant
//! on the same random inputs, and each generated test function with the test module's
//! `SOURCE` pointed at the mutant; runs have a budget of executed lines (a mutated loop may
//! not end). The long campaign is `#[ignore]`d:
//! `MUTATION_SEEDS=200 cargo test --test it mutation::campaign -- --ignored --nocapture`.

use std::path::{Path, PathBuf};
use std::process::Command;

use symdbg::base::rng::SplitMix64;
use symdbg::base::SourceMap;
use symdbg::lang::Type;
use symdbg::session::{Config, Loaded, Session};

use crate::util::{python_with_pytest, triple};

mod corpus;

const DRIVER: &str = include_str!("mutation/driver.py");

/// Random inputs per program for telling mutants apart.
const RANDOM_INPUTS: usize = 60;

/// The figures of one mode.
#[derive(Default, Debug)]
struct Score {
    programs: usize,
    tests: usize,
    mutants: usize,
    distinguishable: usize,
    killed: usize,
    /// Distinguishable mutants that no test kills: (program, mutant line).
    survivors: Vec<(u64, String)>,
}

impl Score {
    fn value(&self) -> f64 {
        let denominator = self.killed + self.survivors.len();
        if denominator == 0 {
            1.0
        } else {
            self.killed as f64 / denominator as f64
        }
    }

    fn report(&self, mode: &str) -> String {
        format!(
            "{mode}: {} programs, {} tests, {} mutants ({} python3-distinguishable): {} killed, {} distinguishable survivors, score {:.3}",
            self.programs,
            self.tests,
            self.mutants,
            self.distinguishable,
            self.killed,
            self.survivors.len(),
            self.value()
        )
    }
}

/// Deterministic choices for the generator, as testgen.rs draws them.
fn choices(seed: u64, len: usize) -> Vec<u32> {
    let mut rng = SplitMix64::new(seed);
    (0..len)
        .map(|_| ((rng.next_u64() & 0xff) as u32) << 24)
        .collect()
}

/// Every one-token mutant of `text` (see the module docs), with the mutated line.
pub(crate) fn mutants(text: &str) -> Vec<(String, String)> {
    let re = regex::Regex::new(r"->|//|<=|>=|==|!=|\+=|-=|\*=|[+\-*%<>]|\b\d+\b").unwrap();
    let mut out = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let code = line.split('#').next().unwrap_or("");
        for m in re.find_iter(code) {
            let replacements: Vec<String> = match m.as_str() {
                "->" => vec![],
                "+" => vec!["-".into()],
                "-" => vec!["+".into()],
                "*" => vec!["+".into()],
                "//" => vec!["%".into()],
                "%" => vec!["//".into()],
                "+=" => vec!["-=".into()],
                "-=" => vec!["+=".into()],
                "*=" => vec!["+=".into()],
                "<" => vec!["<=".into()],
                "<=" => vec!["<".into()],
                ">" => vec![">=".into()],
                ">=" => vec![">".into()],
                "==" => vec!["!=".into()],
                "!=" => vec!["==".into()],
                n => match n.parse::<u64>() {
                    Ok(v) => vec![(v + 1).to_string()],
                    Err(_) => vec![],
                },
            };
            for r in replacements {
                let start = offset + m.start();
                let end = offset + m.end();
                let mutant = format!("{}{r}{}", &text[..start], &text[end..]);
                let mutated_line = format!("{}{r}{}", &line[..m.start()], &line[m.end()..]);
                out.push((mutant, mutated_line.trim_end().to_string()));
            }
        }
        offset += line.len();
    }
    out
}

/// Random inputs for the program's inputs, as JSON (tuples as lists).
fn random_inputs(inputs: &[(String, Type)], seed: u64) -> Vec<serde_json::Value> {
    let mut rng = SplitMix64::new(seed ^ 0x5eed);
    let small = move || {
        let r = rng.next_u64();
        if r.is_multiple_of(5) {
            (r >> 8) as i64 % 100 - 50
        } else {
            (r >> 8) as i64 % 13 - 6
        }
    };
    input_objects(inputs, RANDOM_INPUTS, small)
}

/// `n` input objects (tuples as lists of 0 to 4 elements), each value drawn from `value`.
pub(crate) fn input_objects(
    inputs: &[(String, Type)],
    n: usize,
    mut value: impl FnMut() -> i64,
) -> Vec<serde_json::Value> {
    (0..n)
        .map(|_| {
            let mut o = serde_json::Map::new();
            for (name, ty) in inputs {
                let v = match ty {
                    Type::Int => serde_json::json!(value()),
                    Type::Bool => serde_json::json!(value() % 2 == 0),
                    Type::Tuple => {
                        let len = value().unsigned_abs() % 5;
                        serde_json::json!((0..len).map(|_| value()).collect::<Vec<_>>())
                    }
                };
                o.insert(name.clone(), v);
            }
            serde_json::Value::Object(o)
        })
        .collect()
}

/// One program of a measurement.
pub(crate) struct Subject {
    pub name: String,
    pub text: String,
    /// `--entry`, or `None` for a module run.
    pub entry: Option<String>,
}

/// How a measurement runs.
#[derive(Clone, Copy)]
struct Measure {
    /// `testgen --thorough`.
    thorough: bool,
    /// The corpus's mutants and inputs ([`corpus::mutants`], [`corpus::inputs_for`]: more
    /// operators, boundary values) instead of this module's.
    rich: bool,
    /// Which modes: unroll, `--fold auto`.
    modes: [bool; 2],
}

/// The generated programs of `seeds` (gen.rs, module runs).
fn generated(seeds: impl Iterator<Item = u64>) -> Vec<(u64, Subject)> {
    seeds
        .map(|seed| {
            let program = crate::gen::program(&choices(seed, 60 + (seed as usize % 5) * 60));
            let text = symdbg::lang::pretty::program(&program);
            (
                seed,
                Subject {
                    name: format!("gen{seed}"),
                    text,
                    entry: None,
                },
            )
        })
        .collect()
}

/// The scores of `seeds`' generated programs: (unroll mode, `--fold auto`).
fn measure(seeds: impl Iterator<Item = u64>, thorough: bool, dir: &Path) -> (Score, Score) {
    let how = Measure {
        thorough,
        rich: false,
        modes: [true, true],
    };
    measure_subjects(&generated(seeds), how, dir)
}

/// The scores of `subjects` (each with its seed for the random inputs): (unroll mode,
/// `--fold auto`); a survivor names its subject by seed.
fn measure_subjects(subjects: &[(u64, Subject)], how: Measure, dir: &Path) -> (Score, Score) {
    let driver = dir.join("driver.py");
    std::fs::write(&driver, DRIVER).unwrap();
    let mut scores = (Score::default(), Score::default());
    for (seed, subject) in subjects {
        let seed = *seed;
        let text = &subject.text;
        let loaded = Loaded::new(SourceMap::new("gen.py", text.as_str())).expect("loads");
        let session =
            Session::new(loaded, subject.entry.as_deref(), Config::default()).expect("session");
        let inputs = session.inputs();
        let pdir = dir.join(&subject.name);
        std::fs::create_dir_all(&pdir).unwrap();
        let path = pdir.join(format!("{}.py", subject.name));
        std::fs::write(&path, text).unwrap();
        let all = if how.rich {
            corpus::mutants(text)
        } else {
            mutants(text)
        };
        let random = if how.rich {
            corpus::inputs_for(text, &inputs, seed, 3 * RANDOM_INPUTS)
        } else {
            random_inputs(&inputs, seed)
        };
        let mut files = Vec::new();
        for (k, (m, _)) in all.iter().enumerate() {
            let f = pdir.join(format!("mutant{k}.py"));
            std::fs::write(&f, m).unwrap();
            files.push(f);
        }
        for (fold, score) in [(false, &mut scores.0), (true, &mut scores.1)] {
            if !how.modes[usize::from(fold)] {
                continue;
            }
            let tests = pdir.join(format!(
                "test_gen_{}.py",
                if fold { "fold" } else { "unroll" }
            ));
            let mut args = vec![
                "testgen",
                path.to_str().unwrap(),
                "--max-nodes",
                "3000",
                "-o",
                tests.to_str().unwrap(),
            ];
            if how.rich {
                // The corpus's bounded loops run up to three times, tuples have up to four
                // elements: a bound that reaches every iteration count of the inputs.
                args.extend(["--unroll", "4"]);
            }
            if let Some(e) = &subject.entry {
                args.extend(["--entry", e.as_str()]);
            }
            if fold {
                args.extend(["--fold", "auto"]);
            }
            if how.thorough {
                args.push("--thorough");
            }
            // Models minimised whatever the load (MINIMIZE_MS).
            let bin = std::env::var("MUTATION_BIN")
                .unwrap_or_else(|_| env!("CARGO_BIN_EXE_symdbg").to_string());
            let out = Command::new(bin)
                .args(&args)
                .env("SYMDBG_MINIMIZE_MS", MINIMIZE_MS)
                .output()
                .expect("run symdbg");
            let (code, _, stderr) = triple(out);
            assert_eq!(code, 0, "symdbg {args:?}:\n{stderr}");
            let n_tests = std::fs::read_to_string(&tests)
                .unwrap()
                .matches("\ndef test_")
                .count();
            let job = serde_json::json!({
                "original": path,
                "mutants": files,
                "tests": [tests],
                "entry": subject.entry,
                "inputs": random,
            });
            let job_file = pdir.join("job.json");
            std::fs::write(&job_file, job.to_string()).unwrap();
            let out = Command::new(python_with_pytest())
                .arg(&driver)
                .arg(&job_file)
                .env("PYTHONDONTWRITEBYTECODE", "1")
                .output()
                .expect("python3");
            let (pcode, stdout, stderr) = triple(out);
            assert_eq!(pcode, 0, "driver on {}:\n{stdout}\n{stderr}", subject.name);
            let v: serde_json::Value = serde_json::from_str(stdout.trim()).expect("driver JSON");
            assert_eq!(
                v["original_fails"],
                serde_json::json!(false),
                "{}: a generated test fails on the original program\n{text}",
                subject.name
            );
            score.programs += 1;
            score.tests += n_tests;
            for (k, r) in v["mutants"].as_array().unwrap().iter().enumerate() {
                let (differs, killed) = (r[0].as_bool().unwrap(), r[1].as_bool().unwrap());
                score.mutants += 1;
                score.distinguishable += usize::from(differs);
                if killed {
                    score.killed += 1;
                } else if differs {
                    score
                        .survivors
                        .push((seed, format!("{}: {}", subject.name, all[k].1)));
                }
            }
        }
    }
    scores
}

/// A scratch directory (removed on drop).
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("symdbg-mutation-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// testgen's minimisation budget here: cut short by the 250 ms default on a loaded
/// machine, a model below a fold kept Z3's first tuple (36,045 elements on parity_sum),
/// whose test ran past the driver's line budget and "failed on the original program".
/// 20 times the default (a minute made `--thorough --fold auto` on parity_sum run for
/// many minutes at load 13).
const MINIMIZE_MS: &str = "5000";

/// The goal of issue 31 on a fixed set of generated programs (the CI measurement).
const GOAL: f64 = 0.98;

/// `testgen --thorough` reaches the goal in both modes (the default's figure is the
/// campaign's).
#[test]
fn generated_tests_kill_distinguishable_mutants() {
    let scratch = Scratch::new("ci");
    let (unroll, fold) = measure(0..12, true, &scratch.0);
    eprintln!(
        "{}\n{}",
        unroll.report("unroll"),
        fold.report("--fold auto")
    );
    assert!(unroll.distinguishable >= 15, "{}", unroll.report("unroll"));
    for (mode, s) in [("unroll", &unroll), ("--fold auto", &fold)] {
        assert!(
            s.value() >= GOAL,
            "{}\nsurvivors: {:#?}",
            s.report(mode),
            s.survivors
        );
    }
}

#[test]
fn one_token_mutants_change_one_token() {
    let m = mutants("x: int\ny = x // 3 - 1\n");
    let lines: Vec<&str> = m.iter().map(|(_, l)| l.as_str()).collect();
    assert_eq!(
        lines,
        [
            "y = x % 3 - 1",
            "y = x // 4 - 1",
            "y = x // 3 + 1",
            "y = x // 3 - 2"
        ]
    );
    assert!(m.iter().all(|(t, _)| t.starts_with("x: int\n")));
}

/// The long campaign, by hand (`MUTATION_SEEDS`, default 200).
#[test]
#[ignore]
fn campaign() {
    let n: u64 = std::env::var("MUTATION_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let scratch = Scratch::new("campaign");
    for thorough in [false, true] {
        let (unroll, fold) = measure(0..n, thorough, &scratch.0);
        let t = if thorough { " --thorough" } else { "" };
        eprintln!(
            "{}\n{}",
            unroll.report(&format!("unroll{t}")),
            fold.report(&format!("--fold auto{t}"))
        );
        for (seed, line) in unroll.survivors.iter().chain(&fold.survivors) {
            eprintln!("survivor{t}: seed {seed}: {line}");
        }
    }
}

/// The real corpus: every hand-written program and `templates` template programs, each
/// with its seed for the random inputs.
fn corpus_subjects(templates: std::ops::Range<u64>) -> Vec<(u64, Subject)> {
    let mut out: Vec<(u64, Subject)> = corpus::hand_written()
        .into_iter()
        .enumerate()
        .map(|(k, s)| (k as u64, s))
        .collect();
    out.extend(templates.map(|seed| (seed, corpus::template_program(seed))));
    out
}

/// The default mode's campaign on the real corpus, by hand: every hand-written program
/// and `MUTATION_TEMPLATES` (default 150) template programs, unroll mode and `--fold auto`.
/// `MUTATION_ONLY=NAME` measures one subject, `MUTATION_TEMPLATES_ONLY=1` the template
/// programs only, `MUTATION_MODE=unroll` or `fold` one mode, `MUTATION_THOROUGH=1`
/// `testgen --thorough`, `MUTATION_BIN=PATH` another symdbg binary (a release build).
#[test]
#[ignore]
fn corpus_campaign() {
    let n: u64 = std::env::var("MUTATION_TEMPLATES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(150);
    let only = std::env::var("MUTATION_ONLY").ok();
    let templates_only = std::env::var("MUTATION_TEMPLATES_ONLY").is_ok();
    let thorough = std::env::var("MUTATION_THOROUGH").is_ok();
    let mode = std::env::var("MUTATION_MODE").ok();
    let subjects: Vec<_> = corpus_subjects(0..n)
        .into_iter()
        .filter(|(_, s)| only.as_ref().is_none_or(|o| *o == s.name))
        .filter(|(_, s)| !templates_only || s.name.starts_with("template"))
        .collect();
    let scratch = Scratch::new("corpus");
    let how = Measure {
        thorough,
        rich: true,
        modes: [
            mode.as_deref() != Some("fold"),
            mode.as_deref() != Some("unroll"),
        ],
    };
    let started = std::time::Instant::now();
    let (unroll, fold) = measure_subjects(&subjects, how, &scratch.0);
    eprintln!(
        "{}\n{}\n({:.0} s)",
        unroll.report("unroll"),
        fold.report("--fold auto"),
        started.elapsed().as_secs_f64()
    );
    for (mode, s) in [("unroll", &unroll), ("fold", &fold)] {
        for (_, line) in &s.survivors {
            eprintln!("survivor ({mode}): {line}");
        }
    }
}

/// The default mode (no `--thorough`) on a fixed third of the hand-written corpus
/// (`tests/data/mutation`), unroll mode and `--fold auto`: one-token mutants (operators,
/// constants ± 1, comparison flips, swapped operands) that python3 tells apart on random
/// and boundary inputs fail a generated test. The whole corpus and the template programs
/// are [`corpus_campaign`]'s.
#[test]
fn default_tests_kill_corpus_mutants() {
    let subjects: Vec<_> = corpus_subjects(0..0)
        .into_iter()
        .enumerate()
        .filter(|(k, _)| k % 3 == 0)
        .map(|(_, s)| s)
        .collect();
    let scratch = Scratch::new("corpus-ci");
    let how = Measure {
        thorough: false,
        rich: true,
        modes: [true, true],
    };
    let (unroll, fold) = measure_subjects(&subjects, how, &scratch.0);
    eprintln!(
        "{}\n{}",
        unroll.report("unroll"),
        fold.report("--fold auto")
    );
    assert!(unroll.distinguishable >= 100, "{}", unroll.report("unroll"));
    for (mode, s, floor) in [
        ("unroll", &unroll, UNROLL_FLOOR),
        ("--fold auto", &fold, FOLD_FLOOR),
    ] {
        assert!(
            s.value() >= floor,
            "{}\nsurvivors: {:#?}",
            s.report(mode),
            s.survivors
        );
    }
}

/// The floors of the CI third: just below its measured scores, 1.000 in unroll mode and
/// in `--fold auto` (134 python3-distinguishable mutants: one survivor is 0.993), above
/// issue 31's goal ([`GOAL`]). What keeps them: the boundary tests per comparison, the
/// loop body's comparisons at their flip in a fold's first iteration, a second count
/// below a fold, the two paths' counts apart (`parity_sum`), `min`/`max` decided by
/// either operand. The floors are the goal, 0.98 (a margin of two mutants): a model the
/// load leaves unminimised (a solver limit) may change a test, and 0.99 left one.
const UNROLL_FLOOR: f64 = GOAL;
const FOLD_FLOOR: f64 = GOAL;

/// `--fold auto` on template programs whose tests missed one-token bugs before issue 31's
/// second round (`min(r, a - 2)` taking the other operand, `while k < b and k < 3` never
/// at its bound with `b > 3`, a search's `i = 0` → `i = 1`, tuples of zeros; 24 of their
/// python3-distinguishable mutants survived then, about 0.79): measured 0.991 (one
/// survivor in template 13, `v > a` → `v < a` or `a > v`), floor 0.95 (a model the load
/// leaves unminimised may change a test). The 40 template programs are [`corpus_campaign`]'s.
#[test]
fn fold_tests_kill_template_mutants() {
    let subjects: Vec<_> = [0, 11, 13, 30]
        .into_iter()
        .map(|seed| (seed, corpus::template_program(seed)))
        .collect();
    let scratch = Scratch::new("templates-ci");
    let how = Measure {
        thorough: false,
        rich: true,
        modes: [false, true],
    };
    let (_, fold) = measure_subjects(&subjects, how, &scratch.0);
    eprintln!("{}", fold.report("--fold auto"));
    assert!(fold.distinguishable >= 80, "{}", fold.report("--fold auto"));
    assert!(
        fold.value() >= 0.95,
        "{}\nsurvivors: {:#?}",
        fold.report("--fold auto"),
        fold.survivors
    );
}
