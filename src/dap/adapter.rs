//! The owner loop's state and the request dispatch: one [`Adapter`] answers every request
//! in the order read. Moves (`next`, `continue`, `stepBack`, ...) are in [`super::moves`],
//! the views (`stackTrace`, `scopes`, `variables`, `evaluate`, `exceptionInfo`) in
//! [`super::inspect`], the tree requests in [`super::tree`].

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;

use serde_json::{json, Value};

use super::launch::LaunchArgs;
use super::threads::Threads;
use super::values::Refs;
use super::wire::{error_response, event, output_event, response};
use super::{Incoming, PauseFlags};
use crate::session::{NodeId, Session};

/// A source breakpoint as set by `setBreakpoints`.
#[derive(Clone, Debug)]
pub struct Breakpoint {
    pub id: i64,
    /// The line asked for (1-based).
    pub line: usize,
    pub condition: Option<String>,
    pub hit_condition: Option<HitCondition>,
    /// On a line with a statement, with a condition and hit condition that are valid.
    pub verified: bool,
    pub message: Option<String>,
    /// How many times a continue found it (for the hit condition).
    pub hits: u64,
}

/// `hitCondition`: `N` or `== N` (the N-th hit), `>= N`, `> N`, `< N`, `<= N`, `% N` (every
/// N-th hit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HitCondition {
    Eq(u64),
    Ge(u64),
    Gt(u64),
    Lt(u64),
    Le(u64),
    Every(u64),
}

/// A [`HitCondition`] from its count.
type Make = fn(u64) -> HitCondition;

impl HitCondition {
    pub fn parse(text: &str) -> Result<HitCondition, String> {
        let t = text.trim();
        let ops: [(&str, Make); 7] = [
            (">=", HitCondition::Ge),
            ("<=", HitCondition::Le),
            ("==", HitCondition::Eq),
            (">", HitCondition::Gt),
            ("<", HitCondition::Lt),
            ("%", HitCondition::Every),
            ("=", HitCondition::Eq),
        ];
        let (make, rest): (Make, &str) = ops
            .iter()
            .find_map(|(op, f)| t.strip_prefix(op).map(|r| (*f, r)))
            .unwrap_or((HitCondition::Eq, t));
        match rest.trim().parse::<u64>() {
            Ok(0) if matches!(make(1), HitCondition::Every(_)) => {
                Err("hit condition `% 0`: every 0th hit is none".into())
            }
            Ok(n) => Ok(make(n)),
            Err(_) => Err(format!(
                "hit condition `{t}`: expected a count such as `3`, `>= 3` or `% 2`"
            )),
        }
    }

    /// Does the `n`-th hit (1-based) stop?
    pub fn stops(self, n: u64) -> bool {
        match self {
            HitCondition::Eq(k) => n == k,
            HitCondition::Ge(k) => n >= k,
            HitCondition::Gt(k) => n > k,
            HitCondition::Lt(k) => n < k,
            HitCondition::Le(k) => n <= k,
            HitCondition::Every(k) => n.is_multiple_of(k),
        }
    }
}

/// `setExceptionBreakpoints`' filters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExcFilters {
    /// Exception leaves (uncaught exceptions, failed asserts, broken invariants).
    pub uncaught: bool,
    /// A raise a handler catches: the `except` line, before the handler runs.
    pub caught: bool,
    /// Broken invariants only (also stop with `uncaught`).
    pub invariant: bool,
}

/// The program being debugged.
pub struct Run {
    pub session: Session,
    pub args: LaunchArgs,
    pub threads: Threads,
    /// Breakpoint hits reported (and hits skipped by hit conditions): a continue walks
    /// past them.
    pub seen: HashSet<NodeId>,
    pub refs: Refs,
    /// `frameId - 1` → (thread, node, frames out from the innermost).
    pub frames: Vec<(i64, NodeId, usize)>,
}

pub struct Adapter {
    out: Sender<Value>,
    pub flags: PauseFlags,
    pub breakpoints: Vec<Breakpoint>,
    pub(super) next_bp_id: i64,
    pub exceptions: ExcFilters,
    pub run: Option<Run>,
    /// `configurationDone` was answered: a second one is refused (it would move a thread).
    configured: bool,
}

/// The capabilities `initialize` answers.
fn capabilities() -> Value {
    json!({
        "supportsConfigurationDoneRequest": true,
        "supportsConditionalBreakpoints": true,
        "supportsHitConditionalBreakpoints": true,
        "supportsEvaluateForHovers": true,
        "supportsStepBack": true,
        "supportsRestartRequest": true,
        "supportsTerminateRequest": true,
        "supportsExceptionInfoRequest": true,
        "supportsSingleThreadExecutionRequests": false,
        "exceptionBreakpointFilters": [
            {"filter": "uncaught", "label": "Uncaught exceptions", "default": true,
             "description": "Stop at a path's uncaught exception (a failed assert, a broken invariant too)"},
            {"filter": "caught", "label": "Caught exceptions", "default": false,
             "description": "Stop where a handler catches an exception, before it runs"},
            {"filter": "invariant", "label": "Broken invariants", "default": false,
             "description": "Stop where a loop invariant fails"},
        ],
    })
}

impl Adapter {
    pub fn new(out: Sender<Value>, flags: PauseFlags) -> Adapter {
        Adapter {
            out,
            flags,
            breakpoints: Vec::new(),
            next_bp_id: 0,
            exceptions: ExcFilters {
                uncaught: true,
                caught: false,
                invariant: false,
            },
            run: None,
            configured: false,
        }
    }

    pub fn send(&self, msg: Value) {
        // (the writer ends only after the owner: a send cannot fail while it runs)
        let _ = self.out.send(msg);
    }

    /// A message of symdbg's for the user (the debug console).
    pub fn say(&self, text: &str) {
        self.send(output_event("console", &format!("{text}\n")));
    }

    /// Answer one message; `false` ends the session.
    pub fn handle(&mut self, msg: Incoming) -> bool {
        match msg {
            Incoming::Eof => false,
            Incoming::Bad { message, seq } => {
                match seq {
                    Some(seq) => self.send(error_response(seq, "unknown", &message)),
                    None => self.send(output_event("stderr", &format!("symdbg: {message}\n"))),
                }
                true
            }
            Incoming::Request(r) => {
                let seq = r["seq"].as_i64().unwrap_or(0);
                let command = r["command"].as_str().unwrap_or_default().to_string();
                let args = r.get("arguments").cloned().unwrap_or(Value::Null);
                self.request(seq, &command, &args)
            }
        }
    }

    fn request(&mut self, seq: i64, command: &str, args: &Value) -> bool {
        let before_launch = !matches!(
            command,
            "initialize" | "launch" | "disconnect" | "terminate" | "pause"
        );
        if before_launch && self.run.is_none() {
            let known = KNOWN.contains(&command);
            let message = if known {
                format!("`{command}` before `launch`: launch a program first")
            } else {
                format!("unknown command `{command}`")
            };
            self.send(error_response(seq, command, &message));
            return true;
        }
        let result: Result<Value, String> = match command {
            "initialize" => Ok(capabilities()),
            "launch" => return self.launch(seq, args),
            "disconnect" => {
                self.send(response(seq, command, Value::Null));
                return false;
            }
            "terminate" => {
                // The debuggee ends, the debug session does not: DAP clients (VS Code,
                // nvim-dap) send `disconnect` after `terminated` and wait for its answer.
                self.send(response(seq, command, Value::Null));
                // (the reader set the pause flags to interrupt a running move)
                self.flags.pending.store(false, Ordering::SeqCst);
                self.run = None;
                self.configured = false;
                self.send(event("terminated", Value::Null));
                return true;
            }
            "pause" => {
                // The reader already set the flags; a pause that found nothing running
                // must not cancel what comes next.
                self.flags.pending.store(false, Ordering::SeqCst);
                if let Some(run) = &self.run {
                    run.session.cancel_handle().store(false, Ordering::SeqCst);
                }
                Ok(Value::Null)
            }
            "configurationDone" if self.configured => Err(
                "`configurationDone` was sent already: the program runs (`restart` starts it again)"
                    .to_string(),
            ),
            "configurationDone" => {
                self.configured = true;
                self.send(response(seq, command, Value::Null));
                self.configuration_done();
                return true;
            }
            "setBreakpoints" => self.set_breakpoints(args),
            "setExceptionBreakpoints" => self.set_exception_breakpoints(args),
            "threads" => Ok(self.threads_body()),
            "restart" => return self.restart(seq, args),
            "stackTrace" => self.stack_trace(args),
            "scopes" => self.scopes(args),
            "variables" => self.variables(args),
            "evaluate" => self.evaluate(args),
            "locations" => self.locations(args),
            "exceptionInfo" => self.exception_info(args),
            "symdbg/tree" => Ok(self.tree_body()),
            "next" | "stepIn" | "stepOut" | "continue" | "stepBack" | "reverseContinue"
            | "symdbg/focus" => return self.move_request(seq, command, args),
            _ => Err(format!("unknown command `{command}`")),
        };
        match result {
            Ok(body) => self.send(response(seq, command, body)),
            Err(m) => self.send(error_response(seq, command, &m)),
        }
        true
    }

    fn launch(&mut self, seq: i64, args: &Value) -> bool {
        if self.run.is_some() {
            self.send(error_response(
                seq,
                "launch",
                "a program is launched already (`restart` reloads it)",
            ));
            return true;
        }
        match self.open(args) {
            Ok(run) => {
                self.install(run);
                self.send(response(seq, "launch", Value::Null));
                self.send(event("initialized", Value::Null));
            }
            Err(m) => {
                self.send(output_event("stderr", &format!("{m}\n")));
                self.send(error_response(seq, "launch", &m));
            }
        }
        true
    }

    /// Read the launch arguments and open the program (`Err`: the message, diagnostics
    /// rendered).
    fn open(&self, args: &Value) -> Result<Run, String> {
        let args = LaunchArgs::parse(Some(args))?;
        let mut notes = Vec::new();
        let session = args.open(&mut notes)?;
        for n in notes {
            self.say(&n);
        }
        let first = self.run.as_ref().map_or(1, |r| r.threads.next_id());
        let (threads, _) = Threads::start(&session, first);
        Ok(Run {
            session,
            args,
            threads,
            seen: HashSet::new(),
            refs: Refs::default(),
            frames: Vec::new(),
        })
    }

    /// Make `run` the program debugged (its cancel flag the one `pause` sets).
    fn install(&mut self, run: Run) {
        if let Ok(mut slot) = self.flags.cancel.lock() {
            *slot = Some(run.session.cancel_handle());
        }
        self.run = Some(run);
    }

    /// After `configurationDone` (and after a restart): announce the first thread, then
    /// stop at the entry or run as by `continue`.
    fn configuration_done(&mut self) {
        let Some(run) = &self.run else { return };
        let first = run.threads.list.first().map(|t| t.id).unwrap_or(1);
        self.send(event(
            "thread",
            json!({"reason": "started", "threadId": first}),
        ));
        if run.args.stop_on_entry {
            self.send(event(
                "stopped",
                json!({"reason": "entry", "threadId": first, "allThreadsStopped": true}),
            ));
        } else {
            self.continue_thread(first);
        }
    }

    fn restart(&mut self, seq: i64, args: &Value) -> bool {
        // A client may send the launch configuration again (`arguments.arguments`).
        let launch = match (args.get("arguments"), &self.run) {
            (Some(a), _) if a.is_object() => a.clone(),
            (_, Some(run)) => run_launch_value(&run.args),
            _ => Value::Null,
        };
        match self.open(&launch) {
            Ok(run) => {
                if let Some(old) = self.run.take() {
                    for t in &old.threads.list {
                        self.send(event(
                            "thread",
                            json!({"reason": "exited", "threadId": t.id}),
                        ));
                    }
                }
                self.install(run);
                for b in &mut self.breakpoints {
                    b.hits = 0;
                }
                self.reverify();
                self.send(response(seq, "restart", Value::Null));
                self.say("restart: the program was read again");
                self.configuration_done();
            }
            Err(m) => {
                self.send(output_event("stderr", &format!("{m}\n")));
                self.send(error_response(
                    seq,
                    "restart",
                    &format!("{m}\n(the old program stays loaded)"),
                ));
            }
        }
        true
    }

    fn threads_body(&self) -> Value {
        let Some(run) = &self.run else {
            return json!({"threads": []});
        };
        let threads: Vec<Value> = run
            .threads
            .list
            .iter()
            .map(|t| json!({"id": t.id, "name": self.thread_name(t.id)}))
            .collect();
        json!({ "threads": threads })
    }

    /// `path N: <the last branch condition on its path>`.
    pub fn thread_name(&self, id: i64) -> String {
        let Some(run) = &self.run else {
            return format!("path {id}");
        };
        let Some(t) = run.threads.get(id) else {
            return format!("path {id}");
        };
        let s = &run.session;
        let mut cur = Some(t.tip);
        while let Some(n) = cur {
            if let Some(b) = s.branch_shown(n) {
                return format!("path {id}: {b}");
            }
            cur = s.tree().node(n).parent;
        }
        format!("path {id}: (no branch yet)")
    }
}

/// Every command the adapter answers (an unknown one gets "unknown command").
const KNOWN: &[&str] = &[
    "initialize",
    "launch",
    "disconnect",
    "terminate",
    "pause",
    "configurationDone",
    "setBreakpoints",
    "setExceptionBreakpoints",
    "threads",
    "restart",
    "stackTrace",
    "scopes",
    "variables",
    "evaluate",
    "exceptionInfo",
    "next",
    "stepIn",
    "stepOut",
    "continue",
    "stepBack",
    "reverseContinue",
    "symdbg/tree",
    "symdbg/focus",
];

/// The launch configuration in force, as a `launch` request's arguments.
fn run_launch_value(a: &LaunchArgs) -> Value {
    json!({
        "program": a.program,
        "entry": a.entry,
        "unroll": a.unroll,
        "recursion": a.recursion,
        "fold": match a.fold { super::launch::FoldArg::Auto => "auto", super::launch::FoldArg::Off => "off" },
        "loops": match a.loops { super::launch::LoopsArg::Invariant => "invariant", super::launch::LoopsArg::Unroll => "unroll" },
        "assume": a.assume,
        "timeoutMs": a.timeout_ms,
        "stopOnEntry": a.stop_on_entry,
        "maxNodes": a.max_nodes,
    })
}
