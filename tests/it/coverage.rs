//! Issue 29, symbolic coverage: generated programs against CPython's own line tracing
//! (`tests/py/trace_lines.py`, `sys.settrace`), `run --coverage`, `run --json`'s
//! `"coverage"`, `run --lcov` read back by a parser.
//!
//! For every generated program (random choices, fixed seeds), explored in full:
//! - no line marked `unreachable` is executed by python3 on any input: the leaves' models,
//!   random inputs and bounded-exhaustive inputs (every x, y in -2..=2, b, and small
//!   tuples t);
//! - every line marked `reached` or `exception-only` is executed by some leaf's model;
//! - a line marked `exception-only` is executed only by runs that end in an exception;
//! - a branch direction `then`/`enter` marked `unreachable` never goes from the statement
//!   to the first line of its block in python3; one marked reached does for some model.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value as Json};
use symdbg::base::SourceMap;
use symdbg::lang::{pretty, Stmt, StmtKind};
use symdbg::session::{
    Config, Coverage, Limits, LineCoverage, Outcome, Policy, Session, Type, Value,
};

use crate::gen;
use crate::util::symdbg;

/// One explored program: its source, coverage, the inputs to run.
#[derive(Clone)]
pub(crate) struct Case {
    src: String,
    /// The entry function (`--entry`), or the module.
    entry: Option<String>,
    coverage: Coverage,
    /// (line, first line of the then-block / loop body) of every `if`/`elif`/`while`/`for`.
    first_lines: BTreeMap<usize, usize>,
    /// The leaves' models, then random and bounded-exhaustive inputs.
    models: Vec<Json>,
    others: Vec<Json>,
    /// How many of the models run a folded path at least once (`--fold auto`).
    witnesses: usize,
}

fn value_json(v: &Value) -> Json {
    match v {
        Value::Int(i) => serde_json::from_str(&i.to_string()).unwrap(),
        Value::Bool(b) => json!(b),
        Value::Tuple(t) => Json::Array(
            t.iter()
                .map(|i| serde_json::from_str(&i.to_string()).unwrap())
                .collect(),
        ),
    }
}

fn line_of(src: &str, offset: usize) -> usize {
    src[..offset].matches('\n').count() + 1
}

fn first_lines(src: &str, stmts: &[Stmt], out: &mut BTreeMap<usize, usize>) {
    let first = |b: &[Stmt]| b.first().map(|s| line_of(src, s.span.start));
    for s in stmts {
        match &s.kind {
            StmtKind::If { branches, orelse } => {
                for (k, (cond, body)) in branches.iter().enumerate() {
                    let at = if k == 0 {
                        s.span.start
                    } else {
                        cond.span.start
                    };
                    if let Some(f) = first(body) {
                        out.insert(line_of(src, at), f);
                    }
                    first_lines(src, body, out);
                }
                if let Some(o) = orelse {
                    first_lines(src, o, out);
                }
            }
            StmtKind::While { body, orelse, .. } | StmtKind::For { body, orelse, .. } => {
                if let Some(f) = first(body) {
                    out.insert(line_of(src, s.span.start), f);
                }
                first_lines(src, body, out);
                if let Some(o) = orelse {
                    first_lines(src, o, out);
                }
            }
            StmtKind::Try { body, handlers } => {
                first_lines(src, body, out);
                for h in handlers {
                    first_lines(src, &h.body, out);
                }
            }
            StmtKind::FunctionDef(f) => first_lines(src, &f.body, out),
            _ => {}
        }
    }
}

/// Small values of each type (the bounded-exhaustive domain).
fn small(ty: &Type) -> Vec<Json> {
    match ty {
        Type::Int => (-2..=2).map(|i| json!(i)).collect(),
        Type::Bool => vec![json!(false), json!(true)],
        Type::Tuple => vec![
            json!([]),
            json!([0]),
            json!([-1]),
            json!([1, 0]),
            json!([0, 2, -1]),
        ],
    }
}

fn explore(src: String, rng: &mut symdbg::base::rng::SplitMix64, fold: bool) -> Case {
    let mut config = Config::default();
    if fold {
        config.fold = symdbg::engine::fold::FoldMode::Auto;
    }
    explore_with(src, None, config, 20_000, rng)
}

/// Explore `src` (from `entry` if given) under `config` up to `max_nodes` nodes, and
/// collect its coverage and the inputs to run in python3.
pub(crate) fn explore_with(
    src: String,
    entry: Option<&str>,
    config: Config,
    max_nodes: usize,
    rng: &mut symdbg::base::rng::SplitMix64,
) -> Case {
    let mut session = Session::open(SourceMap::new("gen.py", src.clone()), entry, config)
        .unwrap_or_else(|d| panic!("{d:?}\n{src}"));
    let root = session.tree().root();
    session.run(
        root,
        Policy::Subtree,
        Limits {
            max_nodes: Some(max_nodes),
            ..Limits::default()
        },
        &|_| {},
    );
    let coverage = session.coverage();
    let inputs = session.inputs();
    let leaves: Vec<_> = session
        .tree()
        .nodes()
        .filter(|n| {
            matches!(
                n.outcome(),
                Some(
                    Outcome::Normal
                        | Outcome::Return
                        | Outcome::Halt
                        | Outcome::Exception(_)
                        | Outcome::Bound
                )
            )
        })
        .map(|n| n.id)
        .collect();
    let mut models = Vec::new();
    for leaf in leaves {
        if let Ok(m) = session.try_model(leaf) {
            let obj: serde_json::Map<String, Json> = inputs
                .iter()
                .filter_map(|(n, _)| Some((n.clone(), value_json(m.inputs.get(n)?))))
                .collect();
            models.push(Json::Object(obj));
        }
    }
    // Under `--fold auto`: the inputs that run a folded path at least once (what a
    // folded loop body's `reached` rests on).
    let witnesses = session.fold_witnesses();
    for w in &witnesses {
        let obj: serde_json::Map<String, Json> = inputs
            .iter()
            .filter_map(|(n, _)| Some((n.clone(), value_json(w.get(n)?))))
            .collect();
        models.push(Json::Object(obj));
    }
    // Bounded-exhaustive: the product of the small domains.
    let mut others: Vec<serde_json::Map<String, Json>> = vec![serde_json::Map::new()];
    for (name, ty) in &inputs {
        others = others
            .into_iter()
            .flat_map(|o| {
                small(ty).into_iter().map(move |v| {
                    let mut o = o.clone();
                    o.insert(name.clone(), v);
                    o
                })
            })
            .collect();
    }
    let mut others: Vec<Json> = others.into_iter().map(Json::Object).collect();
    // Random inputs.
    for _ in 0..20 {
        let obj: serde_json::Map<String, Json> = inputs
            .iter()
            .map(|(n, ty)| {
                let mut int = || (rng.next_u64() % 41) as i64 - 20;
                let v = match ty {
                    Type::Int => json!(int()),
                    Type::Bool => json!(rng.next_u64().is_multiple_of(2)),
                    Type::Tuple => {
                        let len = rng.next_u64() % 5;
                        Json::Array(
                            (0..len)
                                .map(|_| json!((rng.next_u64() % 9) as i64 - 4))
                                .collect(),
                        )
                    }
                };
                (n.clone(), v)
            })
            .collect();
        others.push(Json::Object(obj));
    }
    let mut fl = BTreeMap::new();
    first_lines(&src, &session.program().body, &mut fl);
    Case {
        src,
        entry: entry.map(str::to_string),
        coverage,
        first_lines: fl,
        models,
        others,
        witnesses: witnesses.len(),
    }
}

impl Case {
    pub(crate) fn coverage(&self) -> &Coverage {
        &self.coverage
    }

    /// How many inputs run a folded path at least once.
    pub(crate) fn witnesses(&self) -> usize {
        self.witnesses
    }
}

/// What python3 executed on one input.
pub(crate) struct Traced {
    lines: BTreeSet<usize>,
    pairs: BTreeSet<(usize, usize)>,
    exception: bool,
}

pub(crate) fn trace(cases: &[Case]) -> Vec<Vec<Traced>> {
    let sources: Vec<&str> = cases.iter().map(|c| c.src.as_str()).collect();
    let entries: Vec<Option<&str>> = cases.iter().map(|c| c.entry.as_deref()).collect();
    let mut runs = Vec::new();
    for (k, c) in cases.iter().enumerate() {
        for i in c.models.iter().chain(&c.others) {
            runs.push(json!([k, i]));
        }
    }
    let request = json!({"sources": sources, "entries": entries, "cases": runs}).to_string();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/py/trace_lines.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(request.as_bytes()));
    let out = child.wait_with_output().expect("python3 output");
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "trace_lines.py failed");
    let all: Vec<Json> = serde_json::from_slice(&out.stdout).unwrap();
    let mut all = all.into_iter();
    cases
        .iter()
        .map(|c| {
            (0..c.models.len() + c.others.len())
                .map(|_| {
                    let r = all.next().unwrap();
                    let nums = |v: &Json| v.as_u64().unwrap() as usize;
                    Traced {
                        lines: r["lines"].as_array().unwrap().iter().map(nums).collect(),
                        pairs: r["pairs"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|p| (nums(&p[0]), nums(&p[1])))
                            .collect(),
                        exception: r["exception"].as_bool().unwrap(),
                    }
                })
                .collect()
        })
        .collect()
}

/// The failures of one program's coverage against python3's traces.
pub(crate) fn compare(c: &Case, traced: &[Traced]) -> Vec<String> {
    let mut failures = Vec::new();
    let (models, _) = traced.split_at(c.models.len());
    let by_models: BTreeSet<usize> = models.iter().flat_map(|t| t.lines.clone()).collect();
    let pairs_by_models: BTreeSet<(usize, usize)> =
        models.iter().flat_map(|t| t.pairs.clone()).collect();
    for (&line, &cov) in &c.coverage.lines {
        match cov {
            LineCoverage::Unreachable => {
                if let Some(k) = traced.iter().position(|t| t.lines.contains(&line)) {
                    failures.push(format!(
                        "line {line} unreachable, python3 runs it (input {k})"
                    ));
                }
            }
            LineCoverage::Reached | LineCoverage::ExceptionOnly => {
                if !by_models.contains(&line) {
                    failures.push(format!("line {line} {}, no model runs it", cov.name()));
                }
                if cov == LineCoverage::ExceptionOnly
                    && traced
                        .iter()
                        .any(|t| t.lines.contains(&line) && !t.exception)
                {
                    failures.push(format!("line {line} exception-only, a run ends normally"));
                }
            }
            LineCoverage::Unexplored => {}
        }
    }
    for b in &c.coverage.branches {
        let Some(&first) = c.first_lines.get(&b.line) else {
            continue;
        };
        let pair = (b.line, first);
        let d = b.directions[0];
        if d == LineCoverage::Unreachable && traced.iter().any(|t| t.pairs.contains(&pair)) {
            failures.push(format!(
                "{} at {} unreachable, python3 takes it",
                b.kind, b.line
            ));
        }
        if d.is_reached() && !pairs_by_models.contains(&pair) {
            failures.push(format!(
                "{} at {} reached, no model takes it",
                b.kind, b.line
            ));
        }
    }
    failures
}

fn campaign(
    options: gen::Options,
    seed: u64,
    count: usize,
) -> (usize, BTreeMap<&'static str, usize>) {
    campaign_in(options, seed, count, false)
}

pub(crate) fn campaign_in(
    options: gen::Options,
    seed: u64,
    count: usize,
    fold: bool,
) -> (usize, BTreeMap<&'static str, usize>) {
    let cases: Vec<Case> = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || {
            let mut rng = symdbg::base::rng::SplitMix64::new(seed);
            (0..count)
                .map(|_| {
                    let choices: Vec<u32> = (0..160).map(|_| rng.next_u64() as u32).collect();
                    let src = pretty::program(&gen::program_with(&choices, options));
                    explore(src, &mut rng, fold)
                })
                .collect()
        })
        .unwrap()
        .join()
        .expect("exploration panicked");
    let traced = trace(&cases);
    let mut failures = Vec::new();
    let mut tally: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut runs = 0;
    for (c, t) in cases.iter().zip(&traced) {
        runs += t.len();
        *tally.entry("fold witnesses").or_default() += c.witnesses;
        for cov in c.coverage.lines.values() {
            *tally.entry(cov.name()).or_default() += 1;
        }
        for f in compare(c, t) {
            failures.push(format!("{f}\n{}", c.src));
        }
    }
    eprintln!(
        "coverage vs python3 (fold {fold}): {count} programs, {runs} traced runs, lines {tally:?}"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n---\n")
    );
    (runs, tally)
}

#[test]
fn generated_programs_coverage_agrees_with_python3() {
    let (runs, tally) = campaign(gen::Options::default(), 0xc0_0029, 40);
    assert!(runs > 5_000, "{runs} runs");
    // The campaign says something: programs have lines of several kinds.
    assert!(
        tally.get("reached").copied().unwrap_or(0) > 100,
        "{tally:?}"
    );
    assert!(
        tally.get("unreachable").copied().unwrap_or(0) > 0,
        "{tally:?}"
    );
}

#[test]
fn generated_for_loops_coverage_agrees_with_python3() {
    let options = gen::Options {
        assume: false,
        for_loops: true,
    };
    let (_, tally) = campaign(options, 0xc0_0129, 30);
    assert!(tally.get("reached").copied().unwrap_or(0) > 50, "{tally:?}");
}

/// A program with each kind of line: `run --coverage` and `run --json` say the same.
const KINDS: &str = "x: int

def f(a: int) -> int:
    if a > 0:
        return 1 // (a - a)
    return 2


if x > 5:
    if x < 3:
        y = 0
    y = f(x)
else:
    y = f(0)
i = 0
while i < x:
    i = i + 1
";

fn write_temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("symdbg-coverage-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn run_coverage_and_json_agree_on_each_kind() {
    let path = write_temp("kinds.py", KINDS);
    let p = path.to_str().unwrap();
    let (code, out, err) = symdbg(&["run", p, "--coverage", "--unroll", "2"]);
    assert_eq!(code, 0, "{err}");
    let status = |line: usize| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(&line.to_string()))
            .and_then(|l| l.split_whitespace().nth(1))
            .map(str::to_string)
    };
    // f's `if` runs on both paths (f(0) returns 2); only x > 5 raises, in f.
    assert_eq!(status(4).as_deref(), Some("reached"), "{out}");
    assert_eq!(status(5).as_deref(), Some("exception-only"), "{out}");
    assert_eq!(status(10).as_deref(), Some("exception-only"), "{out}");
    assert_eq!(status(12).as_deref(), Some("exception-only"), "{out}");
    assert_eq!(status(11).as_deref(), Some("unreachable"), "{out}");
    assert_eq!(status(14).as_deref(), Some("reached"), "{out}");
    // The loop is cut by --unroll 2: its body is reached, nothing after it is unreachable.
    assert_eq!(status(17).as_deref(), Some("reached"), "{out}");
    assert!(
        out.contains("   10  if     then: unreachable, else: exception-only"),
        "{out}"
    );
    assert!(
        out.contains("    4  if     then: exception-only, else: reached"),
        "{out}"
    );
    let (code, json, err) = symdbg(&["run", p, "--json", "--unroll", "2"]);
    assert_eq!(code, 0, "{err}");
    let v: Json = serde_json::from_str(&json).unwrap();
    let cov = v["coverage"].as_object().expect("coverage object");
    for (line, status_text) in cov {
        assert_eq!(
            status(line.parse().unwrap()).as_deref(),
            status_text.as_str(),
            "line {line}"
        );
    }
    // In line order, every statement line (not `def`, not the declaration).
    let raw = json.split("\"coverage\":{").nth(1).unwrap();
    let raw = &raw[..raw.find('}').unwrap()];
    let lines: Vec<usize> = raw
        .split(',')
        .map(|kv| kv.split('"').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(lines, [4, 5, 6, 9, 10, 11, 12, 14, 15, 16, 17]);
}

/// An lcov record, parsed: `DA` (line → hits) and `BRDA` (line, block, branch → taken).
#[derive(Debug, Default)]
struct Lcov {
    source: String,
    da: BTreeMap<usize, u64>,
    brda: BTreeMap<(usize, usize, usize), Option<u64>>,
    lf: usize,
    lh: usize,
    brf: usize,
    brh: usize,
}

/// A strict parser of one lcov record (geninfo's tracefile format).
fn parse_lcov(text: &str) -> Result<Lcov, String> {
    let mut l = Lcov::default();
    let mut ended = false;
    for line in text.lines() {
        if ended {
            return Err(format!("text after end_of_record: {line}"));
        }
        if line == "end_of_record" {
            ended = true;
            continue;
        }
        let (key, val) = line.split_once(':').ok_or(format!("no key: {line}"))?;
        let nums = |v: &str| -> Result<Vec<String>, String> {
            Ok(v.split(',').map(str::to_string).collect())
        };
        let int = |s: &str| s.parse::<u64>().map_err(|e| format!("{s}: {e}"));
        match key {
            "TN" => {}
            "SF" => l.source = val.to_string(),
            "DA" => {
                let f = nums(val)?;
                if f.len() != 2 {
                    return Err(format!("DA: {val}"));
                }
                if l.da.insert(int(&f[0])? as usize, int(&f[1])?).is_some() {
                    return Err(format!("DA twice: {val}"));
                }
            }
            "BRDA" => {
                let f = nums(val)?;
                if f.len() != 4 {
                    return Err(format!("BRDA: {val}"));
                }
                let taken = if f[3] == "-" { None } else { Some(int(&f[3])?) };
                let key = (
                    int(&f[0])? as usize,
                    int(&f[1])? as usize,
                    int(&f[2])? as usize,
                );
                l.brda.insert(key, taken);
            }
            "LF" => l.lf = int(val)? as usize,
            "LH" => l.lh = int(val)? as usize,
            "BRF" => l.brf = int(val)? as usize,
            "BRH" => l.brh = int(val)? as usize,
            _ => return Err(format!("unknown record {key}")),
        }
    }
    if !ended {
        return Err("no end_of_record".into());
    }
    Ok(l)
}

#[test]
fn lcov_reads_back_and_matches_the_summary() {
    let path = write_temp("lcov.py", KINDS);
    let p = path.to_str().unwrap();
    let out = path.with_extension("info");
    let o = out.to_str().unwrap();
    let (code, _, err) = symdbg(&["run", p, "--coverage", "--unroll", "2", "--lcov", o]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let l = parse_lcov(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(l.source, p);
    assert_eq!(l.lf, l.da.len());
    assert_eq!(l.lh, l.da.values().filter(|h| **h > 0).count());
    assert_eq!(l.brf, l.brda.len());
    assert_eq!(
        l.brh,
        l.brda
            .values()
            .filter(|t| matches!(t, Some(n) if *n > 0))
            .count()
    );
    assert_eq!(l.da.get(&11), Some(&0), "{text}");
    assert_eq!(l.da.get(&14), Some(&1), "{text}");
    assert_eq!(l.brda.get(&(10, 0, 0)), Some(&Some(0)), "{text}");
    assert_eq!(l.brda.get(&(10, 0, 1)), Some(&Some(1)), "{text}");
    assert_eq!(l.brda.get(&(16, 0, 0)), Some(&Some(1)), "{text}");
    // The JSON's coverage in lcov's terms (unexplored lines have no DA).
    let (_, json, _) = symdbg(&["run", p, "--json", "--unroll", "2"]);
    let v: Json = serde_json::from_str(&json).unwrap();
    for (line, s) in v["coverage"].as_object().unwrap() {
        let hits = l.da.get(&line.parse::<usize>().unwrap()).copied();
        let want = match s.as_str().unwrap() {
            "reached" | "exception-only" => Some(1),
            "unreachable" => Some(0),
            _ => None,
        };
        assert_eq!(hits, want, "line {line}");
    }
    // Written again over its own file; never over the program or a file symdbg did not write.
    let (code, _, err) = symdbg(&["run", p, "--lcov", o]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = symdbg(&["run", p, "--lcov", p]);
    assert_eq!(code, 2);
    assert!(err.contains("not writing"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), KINDS);
    let other = path.with_extension("txt");
    std::fs::write(&other, "my notes\n").unwrap();
    let (code, _, err) = symdbg(&["run", p, "--lcov", other.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "my notes\n");
}

/// The examples: coverage is computed on every example tree without a panic, and lines of
/// `@predicate` bodies and `invariant`s are never counted.
#[test]
fn examples_count_no_predicate_or_invariant_lines() {
    for ex in crate::util::examples() {
        let (code, json, err) = symdbg(&["run", &ex, "--json", "-q"]);
        assert_eq!(code, 0, "{ex}: {err}");
        let v: Json = serde_json::from_str(&json).unwrap();
        let src =
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&ex))
                .unwrap();
        let lines: Vec<&str> = src.lines().collect();
        let cov = v["coverage"].as_object().unwrap();
        // The predicate's body (`return all(...)` under `@predicate`) is no statement.
        for (k, l) in lines.iter().enumerate() {
            if l.starts_with("@predicate") {
                assert!(!cov.contains_key(&(k + 3).to_string()), "{ex}:{}", k + 3);
            }
        }
        for (line, _) in cov {
            let text = lines[line.parse::<usize>().unwrap() - 1].trim_start();
            for bad in [
                "invariant ",
                "def ",
                "@predicate",
                "assume ",
                "try:",
                "except",
                "#",
            ] {
                assert!(!text.starts_with(bad), "{ex}:{line} counted: {text}");
            }
        }
    }
}

/// The debugger's code pane: once the tree has a leaf, each counted line's coverage mark
/// in the gutter (where no breakpoint is); the help's legend names the marks.
#[test]
fn tui_gutter_shows_coverage() {
    let mut h = crate::tui::open_source("kinds.py", KINDS, None, 100, 70);
    // Nothing explored yet: no marks (every line would only be unexplored).
    let before = h.screen();
    assert!(!before.contains("✗") && !before.contains("✓"), "{before}");
    h.keys("r");
    let screen = h.screen();
    for (mark, line) in [
        ("✓", 4),
        ("!", 5),
        ("✗", 11),
        ("!", 12),
        ("✓", 14),
        ("✓", 17),
    ] {
        assert!(
            screen.contains(&format!("{mark} {line:>2} ")),
            "line {line} not marked {mark}:\n{screen}"
        );
    }
    // The `def` line and the declaration are not counted: no mark.
    assert!(screen.contains("   3 def f(a: int) -> int:"), "{screen}");
    insta::assert_snapshot!("tui_coverage_gutter", screen);
    h.keys("?");
    let help = h.screen();
    assert!(
        help.contains("code gutter: ✓ reached  ! only on paths that raise"),
        "{help}"
    );
    assert!(
        help.contains("✗ no input reaches it  ? not so far"),
        "{help}"
    );
}

/// An `elif` is a branch point of its own, named `elif` (its span is its condition's), with
/// both directions; lcov has a BRDA pair for it and for a `for`'s enter and leave.
#[test]
fn elif_and_for_branches_are_named_and_have_both_directions() {
    let src = "x: int\nt: tuple\nif x > 0:\n    y = 1\nelif (x < -5):\n    y = 1 // 0\nelse:\n    y = 2\nfor v in t:\n    y = v\n";
    let path = write_temp("elif.py", src);
    let p = path.to_str().unwrap();
    let (code, out, err) = symdbg(&["run", p, "--coverage"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("    3  if     then: reached, else: reached"),
        "{out}"
    );
    assert!(
        out.contains("    5  elif   then: exception-only, else: reached"),
        "{out}"
    );
    assert!(
        out.contains("    9  for    enter: reached, leave: reached"),
        "{out}"
    );
    let info = path.with_extension("info");
    let (code, _, err) = symdbg(&["run", p, "--lcov", info.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let l = parse_lcov(&std::fs::read_to_string(&info).unwrap()).unwrap();
    for line in [3, 5, 9] {
        for branch in [0, 1] {
            assert_eq!(
                l.brda.get(&(line, 0, branch)),
                Some(&Some(1)),
                "{line}.{branch}"
            );
        }
    }
}
