//! Issue 25, `print(...)`: generated programs that print on every path against python3 (the
//! interpreter's stdout, every leaf's stdout under its model, `check`), `run --json`'s
//! `stdout` items evaluated by python3, `exec`'s output, diagnostics, folds and sessions.
//! (The debugger's pane and testgen's `capsys` tests are in `print_views.rs`.)

use std::path::PathBuf;

use symdbg::base::rng::SplitMix64;
use symdbg::base::SourceMap;
use symdbg::check::{self, Undecided};
use symdbg::concrete::{self, Config as RunConfig, Outcome as RunOutcome};
use symdbg::engine::{Config, Limits};
use symdbg::lang::{self, pretty};
use symdbg::session::{Loaded, Policy, Session};

use crate::differential::{
    generate, params_of, parse_results, python_output, request, spawn_oracle, Observed, STACK_SIZE,
};
use crate::gen;
use crate::util::symdbg;

const OPTIONS: gen::Options = gen::Options {
    assume: false,
    for_loops: true,
};

/// `print` arguments over the module's inputs (`x` is always declared; `y`, `t`, `b` when
/// the program declares them): every printed form (negative ints, bools, `()`, `(1,)`,
/// slices, conditional expressions) and arguments that raise (`t[x]`, `x // y`).
fn module_items(declared: &[&str]) -> Vec<&'static str> {
    let mut items = vec![
        "x", "-x", "x + 1", "(x, 2)", "(x,)", "()", "x > 0", "x == 0",
    ];
    if declared.contains(&"y") {
        items.extend(["y", "(x, y)", "x // y", "y if x > y else -y"]);
    }
    if declared.contains(&"t") {
        items.extend([
            "t", "t[1:]", "t[::-1]", "t[x]", "len(t)", "t[:x]", "x in t", "t + (x,)",
        ]);
    }
    if declared.contains(&"b") {
        items.extend(["b", "not b", "x if b else -x"]);
    }
    items
}

/// `print` arguments inside the generated functions (parameters `a: int`, `u: tuple`).
const FUNCTION_ITEMS: &[&str] = &["a", "u", "a - 1", "u[:a]", "(a,)", "a < 0", "u[a]", "()"];

/// `src` (a pretty-printed generated program) with `print` lines: one after the inputs'
/// declarations and one at the end of the module (so every path of a module run prints),
/// one at the top of each function, and more before other statements (one in three).
pub fn with_prints(src: &str, seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut below = |n: u64| rng.next_u64() % n;
    let declared: Vec<&str> = ["x", "y", "t", "b"]
        .into_iter()
        .filter(|v| src.lines().any(|l| l.starts_with(&format!("{v}: "))))
        .collect();
    let module = module_items(&declared);
    let pick = |items: &[&str], below: &mut dyn FnMut(u64) -> u64| {
        let n = below(4);
        let args: Vec<&str> = (0..n)
            .map(|_| items[below(items.len() as u64) as usize])
            .collect();
        format!("print({})", args.join(", "))
    };
    let mut out = String::new();
    let lines: Vec<&str> = src.lines().collect();
    let mut in_def = false;
    let mut after_def = false;
    let mut declarations_done = false;
    for line in &lines {
        let text = line.trim_start();
        let indent = &line[..line.len() - text.len()];
        if indent.is_empty() && !text.is_empty() {
            in_def = text.starts_with("def ");
            after_def = in_def;
            if !declarations_done && !is_declaration(text) {
                declarations_done = true;
                out.push_str(&format!("print({})\n", declared.join(", ")));
            }
        }
        let clause = ["else", "elif", "except", "finally"]
            .iter()
            .any(|k| text.starts_with(k));
        if !text.is_empty() && !indent.is_empty() && after_def {
            after_def = false;
            out.push_str(&format!("{indent}print(a, u)\n"));
        } else if !text.is_empty() && !clause && !is_declaration(text) && below(3) == 0 {
            let items = if in_def && !indent.is_empty() {
                FUNCTION_ITEMS
            } else {
                &module
            };
            out.push_str(&format!("{indent}{}\n", pick(items, &mut below)));
        }
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&format!("{}\n", pick(&module, &mut below)));
    out
}

fn is_declaration(text: &str) -> bool {
    ["x: ", "y: ", "t: ", "b: "]
        .iter()
        .any(|d| text.starts_with(d) && !text.contains('='))
}

/// The `k`-th generated program with prints (fixed seed).
pub fn generated(k: u64) -> String {
    let mut rng = SplitMix64::new(0x9e1e_0025 + k);
    let len = 40 + (rng.next_u64() % 120) as usize;
    let choices: Vec<u32> = (0..len).map(|_| rng.next_u64() as u32).collect();
    let src = pretty::program(&gen::program_with(&choices, OPTIONS));
    with_prints(&src, k)
}

/// The generated programs load, print on every path, and use every form of item.
#[test]
fn the_generator_prints_everywhere() {
    let sources: Vec<String> = (0..200).map(generated).collect();
    for s in &sources {
        lang::load(s).unwrap_or_else(|d| panic!("{d:?}\n{s}"));
        let first = s.lines().position(|l| l.starts_with("print("));
        assert!(first.is_some(), "no module-level print:\n{s}");
    }
    let count = |pat: &str| sources.iter().filter(|s| s.contains(pat)).count();
    for pat in [
        "print()",
        "print(a, u)",
        "t[x]",
        "x // y",
        "t[::-1]",
        "if b else",
        "    print(",
        "for ",
    ] {
        assert!(
            count(pat) >= 10,
            "only {} programs with {pat:?}",
            count(pat)
        );
    }
}

/// How many generated programs the differential tests compare (`SYMDBG_PRINT_PROGRAMS`).
fn programs(default: u64) -> u64 {
    std::env::var("SYMDBG_PRINT_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The concrete interpreter against python3 on generated programs that print (as modules,
/// and `--entry f0`): outcome, exception, store, return value and stdout byte for byte.
#[test]
fn generated_print_programs_agree_with_python() {
    let dir = std::env::temp_dir().join(format!("symdbg-print-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let count = programs(150);
    let mut cases = Vec::new();
    for k in 0..count {
        let src = generated(k);
        let path = dir.join(format!("print_{k:04}.py"));
        std::fs::write(&path, &src).unwrap();
        let (program, info) = lang::load(&src).unwrap();
        let mut entries = vec![None];
        if program.function("f0").is_some() {
            entries.push(Some("f0"));
        }
        for entry in entries {
            let params = params_of(&program, entry).unwrap();
            let sets = generate(&params, &format!("print_{k}_{entry:?}"), 4, 6, false);
            let ours: Vec<Option<Observed>> = std::thread::scope(|scope| {
                std::thread::Builder::new()
                    .stack_size(STACK_SIZE)
                    .spawn_scoped(scope, || {
                        let config = RunConfig {
                            max_steps: 100_000,
                            ..RunConfig::default()
                        };
                        sets.iter()
                            .map(|set| {
                                let inputs =
                                    set.iter().map(|(n, v)| (n.clone(), v.to_value())).collect();
                                let r = concrete::run(&program, &info, entry, &inputs, &config)
                                    .expect("generated inputs match the declarations");
                                (r.outcome != RunOutcome::StepLimit)
                                    .then(|| Observed::from_symdbg(&r))
                            })
                            .collect()
                    })
                    .unwrap()
                    .join()
                    .unwrap()
            });
            cases.push((path.clone(), entry, sets, ours));
        }
    }
    let requests: Vec<String> = cases
        .iter()
        .map(|(p, e, sets, _)| request(p, *e, sets, Some(10.0)))
        .collect();
    let answer = python_output(spawn_oracle(&format!("[{}]", requests.join(", "))))
        .expect("run_python.py failed");
    let answers = answer.as_array().expect("a list of answers");
    let (mut runs, mut module_runs, mut printed, mut failures) = (0, 0, 0, Vec::new());
    for ((path, entry, sets, ours), a) in cases.iter().zip(answers) {
        let theirs = parse_results(a, sets.len()).unwrap();
        for ((set, ours), theirs) in sets.iter().zip(ours).zip(theirs) {
            let Some(ours) = ours else { continue };
            if theirs.outcome == "timeout" {
                continue;
            }
            runs += 1;
            // (entry runs: the import reads the unbound inputs, as python3 does)
            if entry.is_none() {
                module_runs += 1;
                printed += usize::from(!theirs.stdout.is_empty());
            }
            if *ours != theirs {
                failures.push(format!(
                    "{} {entry:?} {set:?}\n  python3: {theirs}\n  symdbg:  {ours}\n{}",
                    path.display(),
                    std::fs::read_to_string(path).unwrap()
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "print, interpreter: {count} programs, {runs} runs ({printed} of {module_runs} module runs printed), {} disagreements",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(3)].join("\n\n")
    );
    assert!(runs as u64 >= 5 * count, "{runs} runs");
    // Every path of a module run prints (the first print follows the declarations).
    assert_eq!(printed, module_runs);
}

/// The engine against python3 (`tests/it/symbolic.rs`): every leaf's model replayed, and
/// random inputs each hitting one leaf, with each leaf's outcome, store, return value and
/// stdout (its printed terms evaluated under the model) compared; module runs and
/// `--entry f0`.
#[test]
fn engine_agrees_with_python_on_generated_print_programs() {
    let dir = std::env::temp_dir().join(format!("symdbg-print-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files: Vec<PathBuf> = Vec::new();
    for k in 0..programs(80) {
        let src = generated(k);
        let path = dir.join(format!("print_{k:04}.py"));
        std::fs::write(&path, &src).unwrap();
        files.push(path);
        if src.contains("def f0(") {
            let path = dir.join(format!("print_{k:04}_f0.py"));
            std::fs::write(&path, format!("# entry: f0\n{src}")).unwrap();
            files.push(path);
        }
    }
    let n = files.len();
    let compared = crate::symbolic::differential_over(files, 5_000);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("print, engine: {n} programs (module and entry runs), {compared} comparisons");
    assert!(compared > 400, "only {compared} comparisons");
}

/// `check` (random inputs against the leaves, every leaf's model against a concrete run,
/// stdout included) finds no counterexample on generated programs that print.
#[test]
fn check_is_exhaustive_and_precise_on_generated_print_programs() {
    let count = programs(50);
    let failures = std::thread::Builder::new()
        .stack_size(STACK_SIZE)
        .spawn(move || {
            let mut failures = Vec::new();
            let (mut leaves, mut runs) = (0, 0);
            for k in 0..count {
                let src = generated(500 + k);
                let loaded = Loaded::new(SourceMap::new("gen.py", &src)).unwrap();
                let mut entries = vec![None];
                if loaded.program.function("f0").is_some() {
                    entries.push(Some("f0"));
                }
                for entry in entries {
                    let mut config = Config::default();
                    config.timeout_ms = Some(2_000);
                    let mut session = Session::new(loaded.clone(), entry, config).unwrap();
                    let root = session.tree().root();
                    let limits = Limits {
                        max_nodes: Some(3_000),
                        ..Limits::default()
                    };
                    session.run(root, Policy::Subtree, limits, &|_| {});
                    let options = check::Options {
                        runs: 40,
                        seed: 25,
                        undecided: Undecided::Skip,
                    };
                    let report = check::check_with(&mut session, &options);
                    leaves += report.leaves_checked;
                    runs += report.runs;
                    for (what, c) in [
                        ("not exhaustive", &report.exhaustive),
                        ("not precise", &report.precise),
                    ] {
                        if let Some(c) = c {
                            failures.push(format!("{what} ({entry:?}): {c:?}\n{src}"));
                        }
                    }
                }
            }
            eprintln!("print, check: {count} programs, {leaves} leaves, {runs} runs");
            assert!(leaves as u64 >= 2 * count, "{leaves} leaves checked");
            failures
        })
        .unwrap()
        .join()
        .expect("check panicked");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `run --json`: at every leaf with a model, python3 evaluates the `stdout` items (minipy
/// expressions over the inputs) with the model's inputs bound and prints them: that is
/// the leaf's `model_stdout`, and what python3 prints running the program on them.
#[test]
fn run_json_stdout_items_evaluate_to_python_output() {
    let dir = std::env::temp_dir().join(format!("symdbg-print-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checks = Vec::new();
    let mut leaves = 0;
    for k in 0..programs(40) {
        let src = generated(2000 + k);
        let path = dir.join(format!("print_{k:04}.py"));
        std::fs::write(&path, &src).unwrap();
        let p = path.to_str().unwrap();
        let (code, out, err) = symdbg(&["run", p, "--json", "--max-nodes", "2000"]);
        assert!(code == 0 || code == 3, "{err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        for n in json["nodes"].as_array().unwrap() {
            let stdout = &n["stdout"];
            if n["kind"] != "leaf" {
                assert!(stdout.is_null(), "{n}");
                continue;
            }
            let (Some(model), Some(expected)) =
                (n["model"].as_object(), n["model_stdout"].as_str())
            else {
                continue;
            };
            if !matches!(n["outcome"].as_str(), Some("normal" | "exception")) {
                continue;
            }
            leaves += 1;
            checks.push(serde_json::json!({
                "file": p,
                "inputs": model,
                "lines": stdout,
                "expected": expected,
            }));
        }
    }
    assert!(leaves >= 60, "only {leaves} leaves");
    // One python3 process: evaluate each leaf's items, and run the program, on its model.
    let script = r#"
import contextlib, io, json, sys
bad = []
for c in json.load(sys.stdin):
    env = {k: tuple(v) if isinstance(v, list) else v for k, v in c["inputs"].items()}
    text = "".join(" ".join(str(eval(i, dict(env))) for i in line) + "\n" for line in c["lines"])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(open(c["file"]).read(), c["file"], "exec"), dict(env, __name__="__main__"))
        except Exception:
            pass
    if not (text == c["expected"] == out.getvalue()):
        bad.append([c["file"], c["inputs"], text, c["expected"], out.getvalue()])
print(json.dumps(bad))
"#;
    let mut child = std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::Value::Array(checks).to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success());
    let bad: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    eprintln!(
        "print, run --json: {leaves} leaves, {} disagreements",
        bad.len()
    );
    assert!(bad.is_empty(), "{bad:#?}");
}
