//! Differential tests: the concrete interpreter against CPython (`python3`).
//!
//! Every program in `tests/data/programs/` is pure Python (no verification statements). It
//! either declares its inputs at module level (`x: int`, `t: tuple`, `b: bool`) or starts
//! with a `# entry: f` line, in which case function `f` is run alone with its parameters as
//! inputs. For each program we generate input sets deterministically (edge combinations
//! first, then seeded random ones), run each set through `symdbg::concrete::run`, run all
//! programs and sets through `tests/py/run_python.py` in one `python3` process, and compare
//! outcome, exception class, return value and final store. A mismatch names the program,
//! the input (as `--input` arguments for `symdbg exec`) and both results.
//!
//! The examples in `examples/` must all load (parse + type-check); those without
//! verification statements are also run differentially on a few small inputs, the others
//! concretely. Random programs from the shared generator (`gen.rs`) are compared too.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::str::FromStr;

use num_bigint::BigInt;
use serde_json::Value as Json;
use symdbg::base::rng::SplitMix64;
use symdbg::base::SourceMap;
use symdbg::concrete::{self, Config, Outcome, Value};
use symdbg::lang::{self, Program, Stmt, StmtKind, Type};

/// Input sets per corpus program: edge combinations, then random ones.
const EDGE_SETS: usize = 25;
const RANDOM_SETS: usize = 36;
/// Input sets per example (small values only: some examples loop `idx - x` times).
const EXAMPLE_SETS: usize = 12;
/// Stack for the thread that runs the interpreter (the CLI uses the same).
pub(crate) const STACK_SIZE: usize = 512 << 20;

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn py_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    files.sort();
    files
}

pub(crate) fn name_of(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// A value on either side of the comparison, printed as a Python literal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Val {
    Int(BigInt),
    Bool(bool),
    Tuple(Vec<BigInt>),
}

impl fmt::Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Val::Int(n) => write!(f, "{n}"),
            Val::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
            Val::Tuple(items) => {
                f.write_str("(")?;
                for (i, n) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{n}")?;
                }
                f.write_str(if items.len() == 1 { ",)" } else { ")" })
            }
        }
    }
}

impl Val {
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Val::Int(n) => Value::Int(n.clone()),
            Val::Bool(b) => Value::Bool(*b),
            Val::Tuple(items) => Value::Tuple(items.clone().into()),
        }
    }

    pub(crate) fn from_value(v: &Value) -> Val {
        match v {
            Value::Int(n) => Val::Int(n.clone()),
            Value::Bool(b) => Val::Bool(*b),
            Value::Tuple(items) => Val::Tuple(items.to_vec()),
        }
    }

    /// JSON text for the request to run_python.py (written by hand so that big ints stay
    /// exact whatever serde_json's features are).
    pub(crate) fn json(&self) -> String {
        match self {
            Val::Int(n) => n.to_string(),
            Val::Bool(b) => b.to_string(),
            Val::Tuple(items) => {
                let parts: Vec<String> = items.iter().map(|n| n.to_string()).collect();
                format!("[{}]", parts.join(", "))
            }
        }
    }

    pub(crate) fn from_json(j: &Json) -> Result<Val, String> {
        fn int(j: &Json) -> Result<BigInt, String> {
            match j {
                Json::Number(n) => BigInt::from_str(&n.to_string()).map_err(|_| {
                    format!("python printed {n}: not an exact int (serde_json needs the `arbitrary_precision` feature)")
                }),
                other => Err(format!("expected an int in a tuple, got {other}")),
            }
        }
        match j {
            Json::Bool(b) => Ok(Val::Bool(*b)),
            Json::Number(_) => int(j).map(Val::Int),
            Json::Array(items) => items
                .iter()
                .map(int)
                .collect::<Result<_, _>>()
                .map(Val::Tuple),
            other => Err(format!("unexpected JSON value {other}")),
        }
    }
}

/// One run's observable result, the same shape for both sides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Observed {
    /// `normal`, `return`, `exception`, ... (python may also say `timeout`).
    pub(crate) outcome: String,
    pub(crate) exception: Option<String>,
    pub(crate) return_value: Option<Val>,
    pub(crate) store: BTreeMap<String, Val>,
    /// What the run printed (issue 25's `print`), byte for byte.
    pub(crate) stdout: String,
}

impl fmt::Display for Observed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.outcome)?;
        if let Some(e) = &self.exception {
            write!(f, " {e}")?;
        }
        if let Some(v) = &self.return_value {
            write!(f, ", returned {v}")?;
        }
        f.write_str(", store {")?;
        for (i, (k, v)) in self.store.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{k}: {v}")?;
        }
        f.write_str("}")?;
        if !self.stdout.is_empty() {
            write!(f, ", stdout {:?}", self.stdout)?;
        }
        Ok(())
    }
}

impl Observed {
    pub(crate) fn from_python(j: &Json) -> Result<Observed, String> {
        let field = |k: &str| {
            j.get(k)
                .ok_or_else(|| format!("python result lacks `{k}`: {j}"))
        };
        let outcome = field("outcome")?
            .as_str()
            .ok_or("outcome is not a string")?
            .to_string();
        let exception = match field("exception")? {
            Json::Null => None,
            Json::String(s) => Some(s.clone()),
            other => return Err(format!("bad exception {other}")),
        };
        let return_value = match j.get("return_value") {
            None | Some(Json::Null) => None,
            Some(v) => Some(Val::from_json(v)?),
        };
        let mut store = BTreeMap::new();
        if let Some(s) = j.get("store") {
            let obj = s.as_object().ok_or("store is not an object")?;
            for (k, v) in obj {
                store.insert(k.clone(), Val::from_json(v)?);
            }
        }
        // (a timeout has no output)
        let stdout = j
            .get("stdout")
            .and_then(Json::as_str)
            .unwrap_or_default()
            .to_string();
        Ok(Observed {
            outcome,
            exception,
            return_value,
            store,
            stdout,
        })
    }

    pub(crate) fn from_symdbg(r: &concrete::RunResult) -> Observed {
        // (the JSON names: `normal`, `exception`, `step_limit`, ...)
        let (outcome, exception) = (
            r.outcome.name(),
            r.outcome.exception().map(|c| c.name().to_string()),
        );
        Observed {
            outcome: outcome.to_string(),
            exception,
            return_value: r.return_value.as_ref().map(Val::from_value),
            store: r
                .store
                .iter()
                .map(|(k, v)| (k.clone(), Val::from_value(v)))
                .collect(),
            stdout: r.stdout.clone(),
        }
    }
}

/// splitmix64: small, deterministic, good enough to spread test inputs.
struct Rng(SplitMix64);

impl Rng {
    fn seeded(name: &str) -> Rng {
        // Each program gets its own stream.
        Rng(SplitMix64::from_name(name))
    }

    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn small(&mut self) -> BigInt {
        BigInt::from(self.below(13) as i64 - 6)
    }
}

/// Large values: far beyond any loop bound or recursion depth in the corpus, and beyond
/// 64 bits (no value near the recursion limit of 1000, where CPython's exact depth
/// accounting would matter).
fn large_values() -> Vec<BigInt> {
    let p20 = BigInt::from(10u64).pow(20);
    vec![
        p20.clone(),
        -p20,
        BigInt::from(1u8) << 64u32,
        -(BigInt::from(1u8) << 63u32),
        BigInt::from_str("123456789012345678901234567890").unwrap(),
    ]
}

fn edge_values(ty: Type) -> Vec<Val> {
    let ints = |xs: &[i64]| xs.iter().map(|&n| BigInt::from(n)).collect::<Vec<_>>();
    match ty {
        Type::Int => ints(&[0, 1, -1, 5, -7]).into_iter().map(Val::Int).collect(),
        Type::Bool => vec![Val::Bool(false), Val::Bool(true)],
        Type::Tuple => vec![
            Val::Tuple(vec![]),
            Val::Tuple(ints(&[3])),
            Val::Tuple(ints(&[0, -2])),
            Val::Tuple(ints(&[1, -1, 2])),
            Val::Tuple(ints(&[-5, 4, 0, 4, 1])),
        ],
    }
}

fn random_value(ty: Type, rng: &mut Rng, large: bool) -> Val {
    let large_values = large_values();
    let int = |rng: &mut Rng| -> BigInt {
        match rng.below(100) {
            0..=69 => rng.small(),
            70..=87 => BigInt::from(rng.below(3) as i64 - 1),
            _ if large => large_values[rng.below(large_values.len() as u64) as usize].clone(),
            _ => rng.small(),
        }
    };
    match ty {
        Type::Int => Val::Int(int(rng)),
        Type::Bool => Val::Bool(rng.below(2) == 1),
        Type::Tuple => {
            let len = rng.below(6);
            let items = (0..len)
                .map(|_| {
                    if rng.below(10) == 0 {
                        int(rng)
                    } else {
                        rng.small()
                    }
                })
                .collect();
            Val::Tuple(items)
        }
    }
}

pub(crate) type Inputs = Vec<(String, Val)>;

/// Edge combinations first, then random sets. The leading inputs take every combination of
/// their edge values as long as that fits in `edges` sets (with two ints: every sign
/// combination and zero); the inputs after them cycle through their edge values at
/// different rates, so every input varies.
pub(crate) fn generate(
    params: &[(String, Type)],
    name: &str,
    edges: usize,
    randoms: usize,
    large: bool,
) -> Vec<Inputs> {
    let mut rng = Rng::seeded(name);
    let tables: Vec<Vec<Val>> = params.iter().map(|(_, t)| edge_values(*t)).collect();
    let combos = tables
        .iter()
        .try_fold(1usize, |acc, t| acc.checked_mul(t.len()))
        .unwrap_or(usize::MAX);
    let n_edges = combos.min(edges);
    let mut sets = Vec::new();
    for j in 0..n_edges {
        let mut stride = 1usize;
        let set = params
            .iter()
            .zip(&tables)
            .enumerate()
            .map(|(k, ((n, _), table))| {
                let len = table.len();
                let index = if stride.saturating_mul(len) <= n_edges {
                    let i = (j / stride) % len;
                    stride *= len;
                    i
                } else {
                    stride = usize::MAX;
                    (j * (2 * k + 1) + k) % len
                };
                (n.clone(), table[index].clone())
            })
            .collect();
        sets.push(set);
    }
    while sets.len() < n_edges + randoms {
        sets.push(
            params
                .iter()
                .map(|(n, t)| (n.clone(), random_value(*t, &mut rng, large)))
                .collect(),
        );
    }
    sets
}

/// `--input` arguments reproducing this input with `symdbg exec`.
pub(crate) fn show_inputs(inputs: &Inputs) -> String {
    if inputs.is_empty() {
        return "(no inputs)".to_string();
    }
    inputs
        .iter()
        .map(|(n, v)| format!("--input \"{n}={v}\""))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `# entry: f` on the first line selects an entry function.
pub(crate) fn entry_of(src: &str) -> Option<String> {
    let first = src.lines().next()?;
    let rest = first
        .trim()
        .strip_prefix("#")?
        .trim()
        .strip_prefix("entry:")?;
    Some(rest.trim().to_string())
}

pub(crate) fn load(path: &Path, src: &str) -> Result<(Program, lang::TypeInfo), String> {
    lang::load(src).map_err(|ds| {
        let map = SourceMap::new(name_of(path), src.to_string());
        ds.iter()
            .map(|d| d.render(&map, false))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

pub(crate) fn params_of(
    program: &Program,
    entry: Option<&str>,
) -> Result<Vec<(String, Type)>, String> {
    match entry {
        None => Ok(program
            .inputs()
            .map(|(id, ty)| (id.name.clone(), ty))
            .collect()),
        Some(f) => {
            let def = program
                .function(f)
                .ok_or_else(|| format!("`# entry: {f}` but no function {f}"))?;
            Ok(def
                .params
                .iter()
                .map(|p| (p.name.name.clone(), p.ty))
                .collect())
        }
    }
}

/// The JSON request for run_python.py (written by hand: big ints stay exact).
pub(crate) fn request(
    path: &Path,
    entry: Option<&str>,
    sets: &[Inputs],
    time_limit: Option<f64>,
) -> String {
    let inputs: Vec<String> = sets
        .iter()
        .map(|set| {
            let fields: Vec<String> = set
                .iter()
                .map(|(n, v)| format!("{}: {}", Json::String(n.clone()), v.json()))
                .collect();
            format!("{{{}}}", fields.join(", "))
        })
        .collect();
    let limit = time_limit.map_or(String::new(), |t| format!(", \"time_limit\": {t}"));
    format!(
        "{{\"file\": {}, \"entry\": {}, \"inputs\": [{}]{limit}}}",
        Json::String(path.display().to_string()),
        entry.map_or(Json::Null, |e| Json::String(e.to_string())),
        inputs.join(", ")
    )
}

pub(crate) fn spawn_oracle(request: &str) -> Child {
    let oracle = root().join("tests/py/run_python.py");
    let mut child = Command::new("python3")
        .arg(&oracle)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start python3 (the differential tests need CPython 3)");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(request.as_bytes()).unwrap();
    drop(stdin);
    child
}

pub(crate) fn python_output(child: Child) -> Result<Json, String> {
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "run_python.py failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())
}

pub(crate) fn parse_results(json: &Json, expected: usize) -> Result<Vec<Observed>, String> {
    let list = json
        .as_array()
        .ok_or("run_python.py did not print a list")?;
    if list.len() != expected {
        return Err(format!("{} results for {expected} inputs", list.len()));
    }
    list.iter().map(Observed::from_python).collect()
}

/// One program prepared for comparison: its inputs, symdbg's results and the request for
/// the oracle.
struct Prepared {
    /// How to reproduce a run: `symdbg exec FILE [--entry F]`.
    how: String,
    sets: Vec<Inputs>,
    ours: Vec<Result<Observed, String>>,
    request: String,
}

/// Load a program, generate its inputs and run them through symdbg.
fn prepare(path: &Path, edges: usize, randoms: usize, large: bool) -> Result<Prepared, String> {
    let name = name_of(path);
    let src = std::fs::read_to_string(path).unwrap();
    let (program, info) = load(path, &src).map_err(|e| format!("{name}: does not load:\n{e}"))?;
    let entry = entry_of(&src);
    let params = params_of(&program, entry.as_deref()).map_err(|e| format!("{name}: {e}"))?;
    let file_name = path.file_name().unwrap().to_string_lossy().to_string();
    let sets = generate(&params, &file_name, edges, randoms, large);
    // The interpreter recurses in Rust: deep minipy recursion (RecursionError programs)
    // needs a big stack, as the CLI gives it.
    let ours: Vec<Result<Observed, String>> = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, || {
                let config = Config::default();
                sets.iter()
                    .map(|set| {
                        let inputs: BTreeMap<String, Value> =
                            set.iter().map(|(n, v)| (n.clone(), v.to_value())).collect();
                        concrete::run(&program, &info, entry.as_deref(), &inputs, &config)
                            .map(|r| Observed::from_symdbg(&r))
                            .map_err(|d| {
                                d.render(&SourceMap::new(name.clone(), src.clone()), false)
                            })
                    })
                    .collect()
            })
            .expect("cannot spawn a thread with a big stack")
            .join()
            .expect("symdbg panicked")
    });
    let how = match &entry {
        Some(f) => format!("symdbg exec {name} --entry {f}"),
        None => format!("symdbg exec {name}"),
    };
    let request = request(path, entry.as_deref(), &sets, None);
    Ok(Prepared {
        how,
        sets,
        ours,
        request,
    })
}

/// Compare symdbg's results with python's answer; returns mismatch messages.
fn compare(p: &Prepared, answer: &Json) -> Vec<String> {
    let theirs = match parse_results(answer, p.sets.len()) {
        Ok(r) => r,
        Err(e) => return vec![format!("{}: {e}", p.how)],
    };
    let mut failures = Vec::new();
    for ((set, ours), theirs) in p.sets.iter().zip(&p.ours).zip(theirs) {
        let problem = match ours {
            Err(e) => Some(format!("symdbg refused the input: {e}")),
            Ok(_) if theirs.outcome == "timeout" => {
                Some("python3 timed out: corpus programs must terminate".to_string())
            }
            Ok(ours) if *ours != theirs => Some(format!("python3: {theirs}\n  symdbg:  {ours}")),
            Ok(_) => None,
        };
        if let Some(problem) = problem {
            failures.push(format!("{} {}\n  {problem}", p.how, show_inputs(set)));
        }
    }
    failures
}

/// Run every program on its inputs on both sides (one python3 process for all of them);
/// returns (runs, mismatch messages).
fn differential(
    files: &[PathBuf],
    edges: usize,
    randoms: usize,
    large: bool,
) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let prepared: Vec<Prepared> = files
        .iter()
        .filter_map(|path| {
            prepare(path, edges, randoms, large)
                .map_err(|e| failures.push(e))
                .ok()
        })
        .collect();
    let batch: Vec<&str> = prepared.iter().map(|p| p.request.as_str()).collect();
    let answer = python_output(spawn_oracle(&format!("[{}]", batch.join(", "))))
        .expect("run_python.py failed on the batch");
    let answers = answer.as_array().expect("run_python.py: a list of answers");
    assert_eq!(answers.len(), prepared.len(), "one answer per program");
    let mut runs = 0;
    for (p, answer) in prepared.iter().zip(answers) {
        runs += p.sets.len();
        failures.extend(compare(p, answer));
    }
    (runs, failures)
}

fn report(what: &str, programs: usize, runs: usize, failures: &[String]) {
    eprintln!(
        "{what}: {programs} programs, {runs} runs, {} mismatches",
        failures.len()
    );
    if !failures.is_empty() {
        let shown: Vec<&String> = failures.iter().take(25).collect();
        panic!(
            "{} mismatches between python3 and symdbg ({what}); first {}:\n\n{}",
            failures.len(),
            shown.len(),
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n\n")
        );
    }
}

#[test]
fn corpus_agrees_with_python() {
    let files = py_files(&root().join("tests/data/programs"));
    assert!(files.len() >= 45, "only {} corpus programs", files.len());
    let (runs, failures) = differential(&files, EDGE_SETS, RANDOM_SETS, true);
    report("tests/data/programs", files.len(), runs, &failures);
}

fn block_has_verification(body: &[Stmt]) -> bool {
    body.iter().any(|s| match &s.kind {
        StmtKind::Havoc(_)
        | StmtKind::Assume(_)
        | StmtKind::MethodFrame { .. }
        | StmtKind::LoopScope { .. } => true,
        StmtKind::FunctionDef(f) => {
            f.predicate || !f.contract.is_empty() || block_has_verification(&f.body)
        }
        StmtKind::While {
            invariants,
            body,
            orelse,
            ..
        } => {
            !invariants.is_empty()
                || block_has_verification(body)
                || orelse.as_deref().is_some_and(block_has_verification)
        }
        StmtKind::If { branches, orelse } => {
            branches.iter().any(|(_, b)| block_has_verification(b))
                || orelse.as_deref().is_some_and(block_has_verification)
        }
        StmtKind::Try { body, handlers } => {
            block_has_verification(body) || handlers.iter().any(|h| block_has_verification(&h.body))
        }
        _ => false,
    })
}

/// Whether CPython can run the program: the verification statements, `invariant` lines
/// and `@predicate` functions (an undefined decorator in Python) are not Python.
fn is_python(program: &Program) -> bool {
    !block_has_verification(&program.body)
}

#[test]
fn examples_load() {
    let files = py_files(&root().join("examples"));
    assert!(files.len() >= 8, "only {} examples", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let src = std::fs::read_to_string(path).unwrap();
        if let Err(e) = load(path, &src) {
            failures.push(format!("{}:\n{e}", name_of(path)));
        }
    }
    assert!(
        failures.is_empty(),
        "examples that do not load:\n{}",
        failures.join("\n")
    );
}

#[test]
fn python_examples_agree_with_python() {
    let python: Vec<PathBuf> = py_files(&root().join("examples"))
        .into_iter()
        .filter(|path| {
            let src = std::fs::read_to_string(path).unwrap();
            // Loading errors are examples_load's business.
            load(path, &src).is_ok_and(|(program, _)| is_python(&program))
        })
        .collect();
    assert!(
        python.len() >= 5,
        "only {} examples without verification statements",
        python.len()
    );
    let (runs, failures) = differential(&python, EXAMPLE_SETS / 2, EXAMPLE_SETS / 2, false);
    report("examples", python.len(), runs, &failures);
}

/// The generator itself: deterministic, edge combinations first, enough sets.
#[test]
fn input_generation_is_deterministic_and_covers_signs() {
    let params = vec![("x".to_string(), Type::Int), ("y".to_string(), Type::Int)];
    let a = generate(&params, "p.py", EDGE_SETS, RANDOM_SETS, true);
    let b = generate(&params, "p.py", EDGE_SETS, RANDOM_SETS, true);
    assert_eq!(a, b);
    assert!(a.len() >= 30);
    let sign = |v: &Val| match v {
        Val::Int(n) => n.sign(),
        _ => unreachable!(),
    };
    let mut combos: Vec<_> = a.iter().map(|s| (sign(&s[0].1), sign(&s[1].1))).collect();
    combos.sort();
    combos.dedup();
    assert_eq!(combos.len(), 9, "every sign combination, zero included");
}

/// Examples with verification statements cannot run in CPython; run them concretely on
/// small inputs: every run must be accepted and end (no step limit), and the examples whose
/// loop invariants are correct must end normally on every input (a failing invariant is an
/// AssertionError).
#[test]
fn verification_examples_run_concretely() {
    const CORRECT: &[&str] = &["product.py", "filter_nonnegative.py", "find_invariant.py"];
    let mut failures = Vec::new();
    let mut seen = Vec::new();
    for path in py_files(&root().join("examples")) {
        let src = std::fs::read_to_string(&path).unwrap();
        let Ok((program, info)) = load(&path, &src) else {
            continue;
        };
        if is_python(&program) {
            continue;
        }
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let params = params_of(&program, None).unwrap();
        let sets = generate(&params, &file, EDGE_SETS, RANDOM_SETS, false);
        let results: Vec<_> = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(STACK_SIZE)
                .spawn_scoped(scope, || {
                    sets.iter()
                        .map(|set| {
                            let inputs =
                                set.iter().map(|(n, v)| (n.clone(), v.to_value())).collect();
                            concrete::run(&program, &info, None, &inputs, &Config::default())
                                .map(|r| (r.outcome, Observed::from_symdbg(&r)))
                                .map_err(|d| d.message)
                        })
                        .collect()
                })
                .unwrap()
                .join()
                .unwrap()
        });
        for (set, r) in sets.iter().zip(results) {
            let how = format!("symdbg exec {} {}", name_of(&path), show_inputs(set));
            match r {
                Err(e) => failures.push(format!("{how}\n  refused: {e}")),
                Ok((Outcome::StepLimit, _)) => {
                    failures.push(format!("{how}\n  hit the step limit"))
                }
                Ok((outcome, seen))
                    if CORRECT.contains(&file.as_str()) && outcome != Outcome::Normal =>
                {
                    failures.push(format!("{how}\n  {seen}"))
                }
                Ok(_) => {}
            }
        }
        seen.push(file);
    }
    for c in CORRECT {
        assert!(
            seen.iter().any(|s| s == c),
            "example {c} is missing or not a verification example"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Random well-typed programs from the shared generator (`tests/it/gen.rs`: assignments,
/// augmented assignments, asserts, if/elif, bounded while loops with break/continue,
/// try/except, functions, quantifiers over `range`), pretty-printed to files and compared
/// like the corpus: as modules, and with `--entry f0` when they define `f0` (which also
/// checks the entry prelude rule). Inputs on which symdbg needs more than `MAX_STEPS` (a
/// generated assignment may reset a loop counter) are not compared: neither side would
/// finish.
#[test]
fn generated_programs_agree_with_python() {
    generated_agree_with_python("generated programs", crate::gen::Options::default(), 200);
}

/// [`generated_programs_agree_with_python`] with the generator's `options`: `programs`
/// programs from the seed named `seed`. Returns the programs and the runs compared.
pub(crate) fn generated_agree_with_python(
    seed: &str,
    options: crate::gen::Options,
    programs: usize,
) -> (usize, usize) {
    const MAX_STEPS: u64 = 100_000;
    let dir = std::env::temp_dir().join(format!(
        "symdbg-differential-{}-{}",
        std::process::id(),
        seed.replace(' ', "-")
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng::seeded(seed);
    struct Case {
        path: PathBuf,
        src: String,
        entry: Option<&'static str>,
        sets: Vec<Inputs>,
        ours: Vec<Observed>,
    }
    let mut cases = Vec::new();
    let mut rejected = Vec::new();
    let mut skipped = 0;
    for k in 0..programs {
        let len = 20 + rng.below(100) as usize;
        let choices: Vec<u32> = (0..len).map(|_| rng.next() as u32).collect();
        let src = lang::pretty::program(&crate::gen::program_with(&choices, options));
        let path = dir.join(format!("gen_{k:03}.py"));
        let (program, info) = match load(&path, &src) {
            Ok(x) => x,
            Err(e) => {
                rejected.push(format!("{e}\n{src}"));
                continue;
            }
        };
        std::fs::write(&path, &src).unwrap();
        let mut entries = vec![None];
        if program.function("f0").is_some() {
            entries.push(Some("f0"));
        }
        for entry in entries {
            let params = params_of(&program, entry).unwrap();
            let all_sets = generate(&params, &format!("gen_{k}_{entry:?}"), 4, 6, true);
            let results: Vec<Option<Observed>> = std::thread::scope(|scope| {
                std::thread::Builder::new()
                    .stack_size(STACK_SIZE)
                    .spawn_scoped(scope, || {
                        let config = Config {
                            max_steps: MAX_STEPS,
                            ..Config::default()
                        };
                        all_sets
                            .iter()
                            .map(|set| {
                                let inputs =
                                    set.iter().map(|(n, v)| (n.clone(), v.to_value())).collect();
                                let r = concrete::run(&program, &info, entry, &inputs, &config)
                                    .expect("generated inputs match the declarations");
                                (r.outcome != Outcome::StepLimit).then(|| Observed::from_symdbg(&r))
                            })
                            .collect()
                    })
                    .unwrap()
                    .join()
                    .expect("symdbg panicked")
            });
            let mut sets = Vec::new();
            let mut ours = Vec::new();
            for (set, r) in all_sets.into_iter().zip(results) {
                match r {
                    Some(r) => {
                        sets.push(set);
                        ours.push(r);
                    }
                    None => skipped += 1,
                }
            }
            cases.push(Case {
                path: path.clone(),
                src: src.clone(),
                entry,
                sets,
                ours,
            });
        }
    }
    assert!(
        rejected.is_empty(),
        "generated programs that do not load:\n{}",
        rejected.join("\n\n")
    );
    // One python3 process for the whole batch.
    let batch: Vec<String> = cases
        .iter()
        .map(|c| request(&c.path, c.entry, &c.sets, Some(5.0)))
        .collect();
    let answer = python_output(spawn_oracle(&format!("[{}]", batch.join(", "))));
    let _ = std::fs::remove_dir_all(&dir);
    let answer = answer.expect("run_python.py on the generated batch");
    let answers = answer.as_array().expect("a list of answers");
    assert_eq!(answers.len(), cases.len());
    let mut runs = 0;
    let mut failures = Vec::new();
    for (case, answer) in cases.iter().zip(answers) {
        let theirs = parse_results(answer, case.sets.len()).unwrap();
        for ((set, ours), theirs) in case.sets.iter().zip(&case.ours).zip(theirs) {
            runs += 1;
            if *ours != theirs {
                let entry = case
                    .entry
                    .map_or(String::new(), |f| format!(" --entry {f}"));
                failures.push(format!(
                    "generated program {}{entry}, {}\n  python3: {theirs}\n  symdbg:  {ours}\n{}",
                    case.path.file_name().unwrap().to_string_lossy(),
                    show_inputs(set),
                    case.src
                ));
            }
        }
    }
    let entries = cases.iter().filter(|c| c.entry.is_some()).count();
    eprintln!(
        "{seed}: {} programs ({entries} also as entry runs), {runs} runs, {skipped} skipped (step limit)",
        cases.len() - entries
    );
    report(seed, cases.len(), runs, &failures);
    (cases.len() - entries, runs)
}
