//! The concrete interpreter: one run of a minipy program on one input, with CPython's
//! semantics (DESIGN §1) plus the verification statements' concrete meaning.
//!
//! [`run`] executes a module (its declared inputs bound to the given values) or, with an
//! entry function `f`, does what `import module; module.f(args)` does: the whole top level
//! runs (declared inputs stay unbound, as in Python), then `f` is called with the inputs
//! as its arguments (see [`crate::lang::entry`]). The result says how the run ended
//! ([`Outcome`]), where an uncaught exception was raised, the final variables, the return
//! value and the trace of executed statements.
//!
//! The interpreter is recursive in Rust: a minipy call nests a few Rust frames (about
//! 20 KiB of stack per call in a debug build), so deep minipy recursion (up to
//! [`Config::recursion_limit`]) needs a thread with a big stack: 32 MiB suffice for the
//! default limit in a debug build; the CLI runs on one with 512 MiB, which also covers
//! deeply nested expressions. It does no IO and never panics on a parsed program;
//! operator rules come from [`crate::semantics`]. Ill-typed programs (which the type
//! checker rejects) raise `TypeError` instead of crashing.

mod inputs;
mod interp;
mod names;
mod value;

use std::collections::BTreeMap;

pub use inputs::{article, check_inputs, describe, expected_inputs, InputSpec};
pub use names::assigned_names;
pub use value::Value;

use crate::base::Span;
use crate::diagnostics::Diagnostic;
use crate::lang::{Program, TypeInfo};
use interp::{Abrupt, Interp};

/// How a run ended: the crate's one [`Outcome`] (a run never ends `Bound` or `Unknown`).
pub use crate::base::Outcome;

/// What an outcome means, for people (the JSON names are [`Outcome::name`]).
pub fn outcome_text(outcome: Outcome) -> String {
    match outcome {
        Outcome::Infeasible => "infeasible (an `assume` did not hold)".to_string(),
        Outcome::Halt => "halt (a loop scope's invariant held)".to_string(),
        Outcome::StepLimit => format!(
            "the run used up its step budget ({} steps), built a too large value or nested \
             calls and expressions too deeply (see the README's Limits)",
            Config::default().max_steps
        ),
        Outcome::Exception(c) => format!("exception {c}"),
        o => o.name().to_string(),
    }
}

/// The result of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunResult {
    pub outcome: Outcome,
    /// Where the uncaught exception was raised (innermost frame): the expression CPython
    /// 3.11's traceback marks (the operator's whole expression, the subscript, the call, the
    /// name, an `assert`'s condition), or the statement for other raises.
    pub exception_at: Option<Span>,
    /// At the end: the module variables (module run, or an entry run whose top level did
    /// not complete) or the entry function's locals (entry run; at the moment an
    /// exception left the function, if one did).
    pub store: BTreeMap<String, Value>,
    /// Entry runs: the returned value (`None` for a procedure or an abrupt end).
    pub return_value: Option<Value>,
    /// The run ended in a loop invariant's failure (`outcome` is its exception, usually
    /// `AssertionError`, `exception_at` the failing `invariant` line): a verdict no
    /// `except` of the program catches.
    pub invariant_failure: bool,
    /// The run ended because a contract line did not hold (an invariant-like failure of
    /// `requires` at a call or `ensures` at a return, or, `outcome` infeasible, the
    /// entry call's `requires`).
    pub contract_failure: Option<crate::lang::ContractFailure>,
    /// At an uncaught exception: the frames it passed through, outermost first, as
    /// CPython's traceback lists them (module code, or the entry function of an entry run,
    /// at its call; ...; the raising frame at the raise). Empty otherwise.
    pub traceback: Vec<TracebackFrame>,
    /// At an uncaught exception raised in a function: that frame's locals when it raised.
    pub raising_locals: Option<BTreeMap<String, Value>>,
    /// The spans of executed statements in order (also `elif` guards, `except` lines,
    /// `invariant` lines and every evaluation of a `while` guard, like CPython's line
    /// events); at most [`TRACE_LIMIT`] entries.
    pub trace: Vec<Span>,
    /// What the run printed, byte for byte what CPython writes to stdout (every line
    /// ends with `\n`), up to where it ended.
    pub stdout: String,
    /// The calls of contracted functions made outside every other contracted function's
    /// body (the entry function's own frame aside), in call order: the calls a tree
    /// explored with `--calls contract` uses the contracts for, so `check` can give each
    /// use's fresh result `f@n` the value the body really returned (issue 28).
    pub contract_calls: Vec<ContractCall>,
}

/// A call of a contracted function and how it ended ([`RunResult::contract_calls`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractCall {
    pub function: String,
    pub end: CallEnd,
}

/// How a [`ContractCall`] ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallEnd {
    /// The precondition held and the call returned (the value; `None` for a procedure),
    /// the postcondition held too.
    Returned(Option<Value>),
    /// A `requires` line did not hold for the arguments (the caller's fault).
    PreconditionFailed,
    /// The precondition held, but the call raised (in its body, or a false `ensures`): the
    /// function broke its contract, which promises a normal return.
    Raised,
    /// Anything else: a `halt`, the step budget, or the run stopped inside it.
    Other,
}

/// One frame of a traceback: the function (`None`: module code) and where it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TracebackFrame {
    pub function: Option<String>,
    pub at: Span,
}

/// Limits of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Maximal call depth counting the module frame, as CPython's `sys.getrecursionlimit()`:
    /// a call that would exceed it raises `RecursionError`.
    pub recursion_limit: usize,
    /// Work budget: one unit per executed statement, guard and quantifier iteration, plus
    /// one per 64 bits of every computed int and per 16 elements of every built tuple.
    /// When it is used up the run ends with [`Outcome::StepLimit`].
    pub max_steps: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            recursion_limit: 1000,
            max_steps: 10_000_000,
        }
    }
}

/// The trace keeps at most this many entries (the run goes on after that).
pub const TRACE_LIMIT: usize = 100_000;

/// Run `program` on `inputs` (see the module docs). `Err` when the inputs do not match
/// what the program expects (missing, unknown or badly typed), when `entry` names no
/// function, or when the program has a `break`/`continue`/`return` outside its construct.
pub fn run(
    program: &Program,
    info: &TypeInfo,
    entry: Option<&str>,
    inputs: &BTreeMap<String, Value>,
    config: &Config,
) -> Result<RunResult, Diagnostic> {
    let expected = expected_inputs(program, entry)?;
    check_inputs(&expected, inputs)?;
    let mut it = Interp::new(program, info, config);
    let mut result = RunResult {
        outcome: Outcome::Normal,
        exception_at: None,
        store: BTreeMap::new(),
        return_value: None,
        invariant_failure: false,
        contract_failure: None,
        traceback: Vec::new(),
        raising_locals: None,
        trace: Vec::new(),
        stdout: String::new(),
        contract_calls: Vec::new(),
    };
    let ended = match entry {
        None => {
            it.globals = inputs.clone();
            // `--assume`: the first statements of the module.
            let ended = it
                .exec_block(&program.preconditions)
                .and_then(|()| it.exec_block(&program.body));
            result.store = std::mem::take(&mut it.globals);
            ended
        }
        // `import module; module.f(args)`: the whole top level first (see
        // [`crate::lang::entry`]); if it raises, the import fails and that is the outcome.
        Some(name) => match it.exec_block(&program.body) {
            Ok(()) => {
                let args = expected.iter().map(|s| inputs[&s.name].clone()).collect();
                let (ended, locals) = it.call_entry(name, args);
                result.store = locals;
                ended.map(|v| {
                    result.return_value = v;
                    result.outcome = Outcome::Return;
                })
            }
            Err(e) => {
                result.store = std::mem::take(&mut it.globals);
                Err(e)
            }
        },
    };
    result.trace = std::mem::take(&mut it.trace);
    result.stdout = std::mem::take(&mut it.stdout);
    result.contract_calls = std::mem::take(&mut it.contract_calls);
    if let Err(Abrupt::Exception(_, at) | Abrupt::Invariant(_, at)) = &ended {
        result.traceback = traceback(&mut it, *at);
        result.raising_locals = it.raising_locals.take();
    }
    if matches!(ended, Err(Abrupt::Invariant(..) | Abrupt::Infeasible)) {
        result.contract_failure = it.contract_failure.take();
    }
    match ended {
        Ok(()) => {}
        Err(Abrupt::Exception(class, at)) => {
            result.outcome = Outcome::Exception(class);
            result.exception_at = Some(at);
        }
        Err(Abrupt::Invariant(class, at)) => {
            result.outcome = Outcome::Exception(class);
            result.exception_at = Some(at);
            result.invariant_failure = true;
        }
        Err(Abrupt::Halt) => result.outcome = Outcome::Halt,
        Err(Abrupt::Infeasible) => result.outcome = Outcome::Infeasible,
        Err(Abrupt::StepLimit) => result.outcome = Outcome::StepLimit,
        Err(Abrupt::Break(at)) => return Err(stray("break", at)),
        Err(Abrupt::Continue(at)) => return Err(stray("continue", at)),
        Err(Abrupt::Stray(what, at)) => return Err(stray(what, at)),
        Err(Abrupt::Return(_, at)) => {
            return Err(Diagnostic::error("`return` outside a function", at)
                .with_label("not inside a function or method frame"))
        }
    }
    Ok(result)
}

/// The traceback of the exception raised at `raised` that ended the run, outermost first.
/// (An entry run's outermost frame is the entry function, see `Interp::call_entry`.)
fn traceback(it: &mut Interp, raised: Span) -> Vec<TracebackFrame> {
    let mut frames = std::mem::take(&mut it.traceback);
    if frames.is_empty() {
        // Raised in module code, or by the entry call itself (a wrong argument count).
        frames.push(TracebackFrame {
            function: None,
            at: raised,
        });
    }
    frames.reverse();
    frames
}

fn stray(what: &str, at: Span) -> Diagnostic {
    Diagnostic::error(format!("`{what}` outside a loop"), at).with_label(format!(
        "`{what}` must be inside a loop of the same function"
    ))
}

#[cfg(test)]
mod tests;
