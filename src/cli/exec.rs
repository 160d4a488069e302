//! `symdbg exec FILE [--entry F] [--input name=value ...] [--json]`: one concrete run
//! (`--replay T.jsonl`: the runs of a testgen file, in [`super::testgen`]).

use std::collections::BTreeMap;

use serde::Serialize;

use super::{ExecArgs, Failure};
use crate::base::bindings::{binding, binding_list};
use crate::base::span::{line_number, Line};
use crate::base::SourceMap;
use crate::session::program::{
    article, check_inputs, describe, outcome_text, parse_literal, ConcreteConfig, InputSpec,
    RunResult,
};
use crate::session::{Outcome, Type, Value};

pub(super) fn exec(args: &ExecArgs) -> Result<i32, Failure> {
    if let Some(tests) = &args.replay {
        return super::testgen::replay(&args.file, tests);
    }
    let mut loaded = super::load(&args.file)?;
    let entry = args.entry.as_deref();
    super::assume(&mut loaded, entry, &args.assume)?;
    let source = loaded.source.clone();
    if let Some(w) = loaded.entry_warning(entry) {
        eprintln!("symdbg: warning: {w}");
    }
    let expected = loaded
        .expected_inputs(entry)
        .map_err(|d| Failure::diagnostics(&[d], &source))?;
    let inputs = parse_inputs(&args.inputs, &expected, &source.name, entry)?;
    check_inputs(&expected, &inputs).map_err(|mut d| {
        d.notes.push(format!(
            "help: give every input with `--input NAME=VALUE`; the inputs are {}",
            describe(&expected)
        ));
        Failure::diagnostics(&[d], &source)
    })?;
    let result = loaded
        .run_concrete(entry, &inputs, &ConcreteConfig::default())
        .map_err(|d| Failure::diagnostics(&[d], &source))?;
    let text = if args.json {
        json(&result, &source)
    } else {
        human(&result, &source, entry.is_some())
    };
    super::print(text.as_bytes())?;
    let raised = matches!(result.outcome, Outcome::Exception(_));
    Ok(if args.fail_on_exception && raised {
        super::run::EXIT_EXCEPTION
    } else {
        0
    })
}

/// Parse `NAME=VALUE` arguments; values are Python literals of the input's type.
fn parse_inputs(
    raw: &[String],
    expected: &[InputSpec],
    file: &str,
    entry: Option<&str>,
) -> Result<BTreeMap<String, Value>, Failure> {
    let mut inputs = BTreeMap::new();
    for arg in raw {
        let Some((name, text)) = arg.split_once('=') else {
            return Err(Failure::plain(
                format!("invalid `--input {arg}`: expected NAME=VALUE, e.g. `--input x=3`"),
                &[],
            ));
        };
        let name = name.trim();
        let Some(spec) = expected.iter().find(|s| s.name == name) else {
            let note = match (entry, expected.is_empty()) {
                (Some(f), true) => format!("`{f}` has no parameters"),
                (Some(f), false) => format!("the parameters of `{f}` are {}", describe(expected)),
                (None, true) => format!("`{file}` declares no inputs"),
                (None, false) => {
                    format!("the inputs declared in `{file}` are {}", describe(expected))
                }
            };
            return Err(Failure::plain(format!("unknown input `{name}`"), &[note]));
        };
        if inputs.contains_key(name) {
            return Err(Failure::plain(
                format!("input `{name}` is given more than once"),
                &[],
            ));
        }
        let value = parse_value(spec, text.trim())?;
        inputs.insert(name.to_string(), value);
    }
    Ok(inputs)
}

fn parse_value(spec: &InputSpec, text: &str) -> Result<Value, Failure> {
    let wanted = format!(
        "input `{}` expects {} literal such as {}",
        spec.name,
        article(spec.ty),
        examples(spec.ty)
    );
    let literal = match parse_literal(text) {
        Ok(v) => v,
        Err(diags) => {
            let origin = SourceMap::new(format!("--input {}", spec.name), text);
            let mut out = Failure::plain(
                format!("invalid value `{}` for input `{}`", shown(text), spec.name),
                &[wanted],
            )
            .0;
            out.push_str(&Failure::diagnostics(&diags, &origin).0);
            return Err(Failure(out));
        }
    };
    match literal {
        Some(v) if v.ty() == spec.ty => Ok(v),
        Some(v) => Err(Failure::plain(
            format!(
                "input `{}` must be {}, got {} `{}`",
                spec.name,
                article(spec.ty),
                article(v.ty()),
                shown(&v.to_string())
            ),
            &[wanted],
        )),
        None => Err(Failure::plain(
            format!(
                "invalid value `{}` for input `{}`: not a literal",
                shown(text),
                spec.name
            ),
            &[wanted],
        )),
    }
}

/// A value as an error message quotes it: whole up to 80 characters, else its start and
/// its length (a 5,000-digit `--input` filled the terminal).
fn shown(text: &str) -> String {
    let n = text.chars().count();
    if n <= 80 {
        return text.to_string();
    }
    let start: String = text.chars().take(40).collect();
    format!("{start}… ({n} characters)")
}

fn examples(ty: Type) -> &'static str {
    match ty {
        Type::Int => "`3` or `-2`",
        Type::Bool => "`True` or `False`",
        Type::Tuple => "`(1, 2)`, `(5,)` or `()`",
    }
}

/// The `--json` object (DESIGN §3), fields in this order.
#[derive(Serialize)]
struct ExecJson {
    outcome: &'static str,
    exception: Option<&'static str>,
    store: BTreeMap<String, serde_json::Value>,
    return_value: Option<serde_json::Value>,
    trace: Vec<usize>,
    /// Addition to §3: the exception is a loop invariant's failure (no `except` catches it).
    invariant_failure: bool,
    /// Addition (issue 28): `"requires"` or `"ensures"` when a contract line did not hold
    /// (a failure, or an infeasible entry call), else null.
    contract_failure: Option<&'static str>,
    /// Additions to §3, as in `run --json`: where the exception was raised (1-based line
    /// and column in characters, where CPython 3.11's traceback marks it), else null.
    exception_line: Option<usize>,
    exception_column: Option<usize>,
    /// Addition to §3: at an uncaught exception, the frames it passed through, outermost
    /// first, as CPython's traceback lists them: `{"function": "f", "line": 4}` (function
    /// null: module code; line null: an `--assume` precondition). Empty otherwise.
    traceback: Vec<serde_json::Value>,
    /// Addition to §3: what the program printed, byte for byte CPython's stdout.
    stdout: String,
}

fn json(r: &RunResult, source: &SourceMap) -> String {
    let at = r
        .exception_at
        .filter(|_| r.outcome.exception().is_some())
        .map(|at| source.line_col(at.start));
    let obj = ExecJson {
        outcome: r.outcome.name(),
        exception: r.outcome.exception().map(|c| c.name()),
        store: r
            .store
            .iter()
            .map(|(k, v)| (k.clone(), v.to_json()))
            .collect(),
        return_value: r.return_value.as_ref().map(Value::to_json),
        // Lines of the file (an `--assume` precondition has none).
        trace: r
            .trace
            .iter()
            .map(|s| source.line(s.start))
            .filter_map(|l| Line::of(l).in_file())
            .collect(),
        invariant_failure: r.invariant_failure,
        contract_failure: r.contract_failure.as_ref().map(|c| c.clause.name()),
        exception_line: at.map(|(line, _)| line),
        exception_column: at.map(|(_, col)| col),
        traceback: r
            .traceback
            .iter()
            .map(|f| {
                let line = source.line(f.at.start);
                serde_json::json!({
                    "function": f.function,
                    "line": Line::of(line).in_file(),
                })
            })
            .collect(),
        stdout: r.stdout.clone(),
    };
    let mut text =
        serde_json::to_string(&obj).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}

/// The program's output exactly as CPython prints it, then the report. (The report's
/// lines cannot be mistaken for output: minipy prints only ints, bools and tuples, and
/// the report starts at its `outcome:` line.)
fn human(r: &RunResult, source: &SourceMap, entry: bool) -> String {
    let mut out = r.stdout.clone();
    let outcome = match r.outcome {
        Outcome::Normal => "normal (the module ran to its end)".to_string(),
        Outcome::Return => "return (the function returned)".to_string(),
        Outcome::Exception(c) if r.contract_failure.is_some() => format!(
            "exception {c} ({}: no `except` catches that)",
            r.contract_failure.as_ref().expect("checked")
        ),
        Outcome::Infeasible if r.contract_failure.is_some() => {
            let c = r.contract_failure.as_ref().expect("checked");
            format!(
                "infeasible (the {} of {} does not hold: the arguments are outside the contract)",
                c.clause.noun(),
                c.function
            )
        }
        Outcome::Exception(c) if r.invariant_failure => {
            format!("exception {c} (a loop invariant does not hold: no `except` catches that)")
        }
        Outcome::Exception(c) => format!("exception {c}"),
        Outcome::Infeasible => "infeasible (an `assume` did not hold)".to_string(),
        Outcome::Halt => "halt (a loop scope's invariant held at `continue`)".to_string(),
        Outcome::StepLimit => format!("stopped: {}", outcome_text(Outcome::StepLimit)),
        // (engine outcomes: a concrete run never ends so)
        Outcome::Bound | Outcome::Unknown => r.outcome.name().to_string(),
    };
    out.push_str(&format!("outcome: {outcome}\n"));
    if !r.stdout.is_empty() {
        let lines = r.stdout.matches('\n').count();
        let s = if lines == 1 { "" } else { "s" };
        out.push_str(&format!("printed: {lines} line{s} (above)\n"));
    }
    if let (Some(class), Some(at)) = (r.outcome.exception(), r.exception_at) {
        let (line, col) = source.line_col(at.start);
        let place = match Line::of(line) {
            Line::Assume(k) => format!("--assume #{k}, column {col}"),
            Line::File(_) => format!("{}:{line}:{col}", source.name),
        };
        out.push_str(&format!(
            "exception: {class} at {place}\n    {} | {}\n",
            line_number(line),
            source.shown_line(line).trim()
        ));
    }
    if r.outcome.exception().is_some() && !r.traceback.is_empty() {
        out.push_str(&traceback(r, source));
    }
    if entry && r.outcome == Outcome::Return {
        let v = r
            .return_value
            .as_ref()
            .map_or("None".to_string(), Value::to_string);
        out.push_str(&format!("return value: {v}\n"));
    }
    if r.store.is_empty() {
        out.push_str("store: (empty)\n");
    } else {
        out.push_str("store:\n");
        for (k, v) in natural(&r.store) {
            out.push_str(&format!("    {}\n", binding(k, v)));
        }
    }
    out
}

/// `(name, value)` pairs in natural order (`a2` before `a10`), as every store is listed.
fn natural(store: &BTreeMap<String, Value>) -> Vec<(String, &Value)> {
    let mut pairs: Vec<(String, &Value)> = store.iter().map(|(k, v)| (k.clone(), v)).collect();
    crate::base::natural::sort(&mut pairs);
    pairs
}

/// A traceback as CPython prints one (outermost frame first, each with its line; a line
/// repeated more than three times in a row is summarised as CPython does), then the
/// raising function's locals:
///
/// ```text
/// Traceback (most recent call last):
///   File "p.py", line 9, in <module>
///     r = f(3)
///   File "p.py", line 4, in f
///     return 10 // (n - 3)
/// ZeroDivisionError
/// locals of f: n = 3
/// ```
fn traceback(r: &RunResult, source: &SourceMap) -> String {
    let mut out = String::from("Traceback (most recent call last):\n");
    let name = crate::base::escape::escape(&source.name);
    let mut previous: Option<(Option<&str>, usize)> = None;
    let mut repeated = 0;
    let flush = |out: &mut String, repeated: usize| {
        // (`repeated` more after the first: CPython shows three in all)
        if repeated >= 3 {
            let more = repeated - 2;
            let s = if more == 1 { "" } else { "s" };
            out.push_str(&format!("  [Previous line repeated {more} more time{s}]\n"));
        }
    };
    for frame in &r.traceback {
        let line = source.line(frame.at.start);
        let func = frame.function.as_deref();
        if previous == Some((func, line)) {
            repeated += 1;
            if repeated >= 3 {
                continue;
            }
        } else {
            flush(&mut out, repeated);
            repeated = 0;
            previous = Some((func, line));
        }
        let place = match Line::of(line) {
            Line::Assume(k) => format!("  --assume #{k}"),
            Line::File(_) => format!("  File \"{name}\", line {line}"),
        };
        let func = func.unwrap_or("<module>");
        out.push_str(&format!(
            "{place}, in {func}\n    {}\n",
            source.shown_line(line).trim()
        ));
    }
    flush(&mut out, repeated);
    if let Some(class) = r.outcome.exception() {
        out.push_str(&format!("{class}\n"));
    }
    if let (Some(locals), Some(func)) = (
        &r.raising_locals,
        r.traceback.last().and_then(|f| f.function.as_deref()),
    ) {
        let shown = binding_list(natural(locals));
        let shown = if shown.is_empty() {
            "(none)".to_string()
        } else {
            shown.join(", ")
        };
        out.push_str(&format!("locals of {func}: {shown}\n"));
    }
    out
}
