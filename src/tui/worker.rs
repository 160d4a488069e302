//! The engine worker: owns the [`Engine`] (and so Z3) and answers [`Cmd`]s with plain data.
//!
//! [`Worker`] is synchronous: [`Worker::handle`] runs one command and reports through a
//! callback, so tests drive it inline on their own thread. [`spawn`] puts it on a thread of
//! its own for the real UI, which never blocks: it sends commands through a channel and
//! polls the replies. Long commands report [`Reply::Progress`] at most every 100 ms; Esc
//! sets the engine's cancel flag ([`Worker::cancel_handle`]), which stops them at the next
//! step (the nodes reached so far stay, the rest stay open).

mod assume;
mod describe;
mod fold;
mod reload;
pub use reload::MAX_PAIRS;
mod replay;
mod tests_file;
mod why;

use std::cell::{Cell, RefCell};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::protocol::{Cmd, Delta, Reply};
use super::{Files, Setup};
use crate::diagnostics::Diagnostic;
use crate::session::{
    Ended, ExcStop, Hit, Limits, LoopMode, NodeId, NodeKind, Policy, Session, Stepped, Stops,
};

/// How often long work reports progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Stack of the worker thread: the concrete interpreter (replay) recurses in Rust.
const STACK_SIZE: usize = 256 << 20;

pub struct Worker {
    session: Session,
    max_nodes: usize,
    /// Nodes `0..sent` have been sent to the UI.
    sent: usize,
    /// Sent nodes that were open then (their kind may change).
    open_sent: Vec<NodeId>,
    /// The program's file and the session file (reload, save, restore).
    pub files: Files,
    /// `--calls` was given on the command line (else a session file's mode applies).
    calls_given: bool,
}

impl Worker {
    /// Load the program and build the session (diagnostics if the program is malformed or
    /// the entry function does not exist).
    pub fn new(setup: &Setup) -> Result<Worker, Vec<Diagnostic>> {
        let session = assume::open(
            setup.source.clone(),
            setup.entry.as_deref(),
            setup.config.clone(),
            &setup.source.assumptions,
        )?;
        Ok(Worker {
            session,
            max_nodes: setup.max_nodes,
            sent: 0,
            open_sent: Vec::new(),
            files: Files::default(),
            calls_given: setup.config.calls.is_some(),
        })
    }

    /// With `--entry f`: the warning when the module's top level reads a declared input (an
    /// import leaves it unbound), for the status line at the start.
    pub fn entry_warning(&self) -> Option<String> {
        self.session.entry_warning()
    }

    pub fn cancel_handle(&self) -> Arc<AtomicBool> {
        self.session.cancel_handle()
    }

    /// The first reply: the tree as it is (the root).
    pub fn ready(&mut self) -> Reply {
        Reply::Ready(self.delta())
    }

    /// Run one command; `out` receives the replies in order.
    pub fn handle(&mut self, cmd: Cmd, out: &mut dyn FnMut(Reply)) {
        let out = RefCell::new(out);
        let emit = |r: Reply| (out.borrow_mut())(r);
        if let Some(reply) = self.stale(&cmd) {
            return reply.into_iter().for_each(emit);
        }
        match cmd {
            Cmd::Details(id) => emit(Reply::Details(self.session.details(id))),
            Cmd::Model(id) => {
                // (the store pane's frame: at an exception leaf, the raising one)
                let m = self
                    .session
                    .model_in_frame(id)
                    .map(|m| describe::model(&self.session, id, m));
                emit(Reply::Model(id, m));
            }
            Cmd::Replay(id) => {
                let r = replay::replay(&mut self.session, id);
                emit(Reply::Replay(id, r));
            }
            Cmd::Tests(id) => {
                let message = tests_file::write(&mut self.session, id);
                emit(Reply::Done {
                    select: None,
                    message,
                });
            }
            Cmd::Why { node, pruned } => {
                let message = match why::explain(&mut self.session, node, pruned) {
                    Ok(info) => {
                        let message = info.summary.clone();
                        emit(Reply::Why { node, pruned, info });
                        message
                    }
                    Err(e) => e,
                };
                emit(Reply::Done {
                    select: None,
                    message,
                });
            }
            Cmd::Origins(id) => emit(Reply::Origins(id, self.session.origin_chains(id))),
            Cmd::Pruned(ids) => emit(Reply::Pruned(
                ids.into_iter()
                    .map(|id| (id, self.session.pruned_shown(id)))
                    .collect(),
            )),
            Cmd::Assume { texts, rerun } => self.assume(texts, rerun, &emit),
            Cmd::Evaluate { node, up, exprs } => {
                let cancel = self.session.cancel_handle();
                cancel.store(false, std::sync::atomic::Ordering::Relaxed);
                let results = exprs
                    .into_iter()
                    .map(|e| {
                        let r = self.session.evaluate(node, up, &e);
                        (e, r)
                    })
                    .collect();
                emit(Reply::Evaluated { node, up, results });
            }
            Cmd::CheckCondition { line, text } => emit(Reply::Condition {
                line,
                error: self.session.check_condition(line, &text).err(),
                text,
            }),
            Cmd::CheckWatch { text } => emit(Reply::WatchChecked {
                error: self.session.compiles_somewhere(&text).err(),
                text,
            }),
            Cmd::Reload { selected, carry } => self.reload(selected, carry, &emit),
            Cmd::Save { selected, carry } => self.save(selected, carry, &emit),
            Cmd::Restore => self.restore(&emit),
            Cmd::Step(id) => self.step(id, None, &emit),
            Cmd::StepWith(id, mode) => self.step(id, Some(mode), &emit),
            Cmd::StepCall(id, mode) => {
                let stepped = self.session.step_call(id, mode);
                self.stepped(id, stepped, &emit)
            }
            Cmd::Refold(id) => {
                let (select, message) = fold::refold(&mut self.session, id);
                self.finish(&emit, select, message);
            }
            Cmd::Instantiate(id, n) => {
                let message = match fold::instantiate(&mut self.session, id, &n) {
                    Ok(info) => {
                        let message = info.verdict.clone();
                        emit(Reply::Instance(id, info));
                        message
                    }
                    Err(e) => e,
                };
                emit(Reply::Done {
                    select: None,
                    message,
                });
            }
            Cmd::StepOver(id) | Cmd::Finish(id) | Cmd::Run(id) => {
                let (policy, done) = match cmd {
                    Cmd::StepOver(_) => (
                        Policy::StepOver,
                        "step over: every path is back in this frame or has ended",
                    ),
                    Cmd::Finish(_) => (
                        Policy::Finish,
                        "finish: every path has left the frame or ended",
                    ),
                    _ => (Policy::Subtree, "run: the subtree is explored"),
                };
                let progress = Progress::new(&emit);
                let ran = self
                    .session
                    .run(id, policy, self.limits(), &|n| progress.tick(n));
                let message = self.message(ran.ended, done);
                self.finish(&emit, ran.select, message);
            }
            Cmd::FirstException(id) => {
                let progress = Progress::new(&emit);
                let ran = self
                    .session
                    .run(id, Policy::FirstException, self.limits(), &|n| {
                        progress.tick(n)
                    });
                let message = match (ran.ended, ran.select) {
                    (Ended::Done, Some(_)) => "the first exception leaf (depth-first); \
                        the paths before it that cannot raise stay open"
                        .to_string(),
                    (Ended::Done, None) => "no exception leaf: the tree is explored".to_string(),
                    (ended, _) => self.message(ended, ""),
                };
                self.finish(&emit, ran.select, message);
            }
            Cmd::Locate(text) => emit(Reply::Located(self.session.locate(&text))),
            Cmd::Resume {
                from,
                mut lines,
                conditions,
                exceptions,
                caught,
                until,
                seen,
                bfs,
            } => {
                // Run to cursor: the line is a stop that is no breakpoint.
                let to_cursor = until.filter(|l| !lines.contains(l));
                lines.extend(to_cursor);
                let stops = Stops {
                    lines,
                    conditions,
                    exceptions,
                    caught,
                    seen: seen.into_iter().collect(),
                    bfs,
                };
                let progress = Progress::new(&emit);
                let (ran, hit) = self
                    .session
                    .resume(from, &stops, self.limits(), &|n| progress.tick(n));
                let message = match hit {
                    Some(Hit::Line(line)) if Some(line) == to_cursor => format!(
                        "ran to line {line} (the code cursor's), the first time a path reaches it"
                    ),
                    Some(Hit::Line(line)) => {
                        format!(
                            "breakpoint on line {line} (hit {}); c: next hit on any path",
                            stops.seen.len() + 1
                        )
                    }
                    Some(Hit::Conditional { line, note }) => {
                        let cond = stops
                            .conditions
                            .iter()
                            .find(|(l, _)| *l == line)
                            .map_or("", |(_, c)| c.as_str());
                        let mut m = format!(
                            "breakpoint on line {line} where {cond} can hold (hit {}); c: next hit on any path",
                            stops.seen.len() + 1
                        );
                        if let Some(n) = note {
                            m = format!("{m}; {n}");
                        }
                        m
                    }
                    Some(Hit::Exception(class)) => format!(
                        "exception breakpoint: {class} leaf (hit {}); c: next hit on any path",
                        stops.seen.len() + 1
                    ),
                    Some(Hit::Caught { class, raised }) => format!(
                        "caught: {class} raised on line {raised}, its handler is next (hit {}); c: next hit on any path",
                        stops.seen.len() + 1
                    ),
                    None if to_cursor.is_some() => self.message(
                        ran.ended,
                        "run to cursor: no path reaches the line (the subtree is explored)",
                    ),
                    None if stops.lines.is_empty()
                        && stops.exceptions == ExcStop::Off
                        && stops.caught == ExcStop::Off =>
                    {
                        self.message(ran.ended, "no breakpoints set: the subtree is explored")
                    }
                    None => self.message(
                        ran.ended,
                        "no more breakpoint hits: the subtree is explored",
                    ),
                };
                self.finish(&emit, ran.select, message);
            }
        }
    }

    /// A command about a node this session does not have: it was sent for the tree before
    /// a reload (`L`) and reached the worker after it. Answered with a message (tree
    /// commands, so the UI stops waiting) or dropped (requests: the reload reset them).
    fn stale(&self, cmd: &Cmd) -> Option<Vec<Reply>> {
        let n = self.session.tree().len();
        let ids: Vec<NodeId> = match cmd {
            Cmd::Step(id)
            | Cmd::StepWith(id, _)
            | Cmd::StepCall(id, _)
            | Cmd::StepOver(id)
            | Cmd::Finish(id)
            | Cmd::Run(id)
            | Cmd::FirstException(id)
            | Cmd::Tests(id)
            | Cmd::Details(id)
            | Cmd::Origins(id)
            | Cmd::Model(id)
            | Cmd::Replay(id)
            | Cmd::Why { node: id, .. }
            | Cmd::Evaluate { node: id, .. }
            | Cmd::Refold(id)
            | Cmd::Instantiate(id, _) => vec![*id],
            Cmd::Resume { from, seen, .. } => seen.iter().chain([from]).copied().collect(),
            Cmd::Pruned(ids) => ids.clone(),
            Cmd::Reload { .. }
            | Cmd::Save { .. }
            | Cmd::Restore
            | Cmd::Assume { .. }
            | Cmd::CheckCondition { .. }
            | Cmd::CheckWatch { .. }
            | Cmd::Locate(_) => Vec::new(),
        };
        let gone = ids.into_iter().find(|id| id.index() >= n)?;
        Some(match cmd {
            Cmd::Details(_)
            | Cmd::Origins(_)
            | Cmd::Model(_)
            | Cmd::Replay(_)
            | Cmd::Pruned(_)
            | Cmd::Evaluate { .. } => Vec::new(),
            _ => vec![Reply::Done {
                select: None,
                message: format!("node {} is gone (the program was reloaded)", gone.0),
            }],
        })
    }

    fn limits(&self) -> Limits {
        Limits {
            max_nodes: Some(self.max_nodes),
            ..Limits::default()
        }
    }

    fn step(&mut self, id: NodeId, mode: Option<LoopMode>, emit: &dyn Fn(Reply)) {
        let stepped = self.session.step(id, mode);
        self.stepped(id, stepped, emit)
    }

    /// Answer a step: the message, and the first child selected.
    fn stepped(&mut self, id: NodeId, stepped: Stepped, emit: &dyn Fn(Reply)) {
        let id = id.0;
        let message = match &stepped {
            Stepped::Leaf => format!("node {id} is a leaf"),
            Stepped::AlreadyStepped => format!("node {id} is already stepped"),
            // Esc inside a Z3 check: the node stays open.
            Stepped::Cancelled => format!("node {id}: interrupted (Esc), not stepped"),
            Stepped::NoSuccessors => format!("stepped node {id}: no feasible successor"),
            Stepped::Children(c) if c.len() == 1 => format!("stepped node {id}"),
            Stepped::Children(c) => format!("stepped node {id}: {} branches", c.len()),
        };
        let select = match &stepped {
            Stepped::Children(c) => c.first().copied(),
            _ => None,
        };
        self.finish(emit, select, message);
    }

    /// The status line's message for how a run ended (`done`: its goal reached).
    fn message(&self, ended: Ended, done: &str) -> String {
        match ended {
            Ended::Done => done.to_string(),
            Ended::Breakpoint(line) => format!("stopped at the breakpoint on line {line}"),
            Ended::PathEnded => "the path ended".to_string(),
            Ended::BranchPoint { at_start: true } => {
                "branch point: select a branch (j) and press c again to go on".to_string()
            }
            Ended::BranchPoint { at_start: false } => "branch point".to_string(),
            Ended::LoopChoice => "annotated loop: pick the transition".to_string(),
            Ended::NoSuccessors => "no feasible successor".to_string(),
            Ended::NodeLimit => format!("stopped at the node limit ({})", self.max_nodes),
            Ended::TimeLimit => "stopped at the time limit".to_string(),
            Ended::Cancelled => "interrupted (Esc)".to_string(),
        }
    }

    fn finish(&mut self, emit: &dyn Fn(Reply), select: Option<NodeId>, mut message: String) {
        // A run that explored everything says which bounds cut paths.
        if message.ends_with("the subtree is explored") {
            // (the --recursion cuts' replays: does one raise RecursionError?)
            self.session.replay_cuts();
            if let Some(w) = self.session.cuts_warning() {
                message = format!("{message}; {w}");
            }
        }
        emit(Reply::Delta(self.delta()));
        emit(Reply::Done { select, message });
    }

    /// New nodes and changed kinds since the last delta.
    fn delta(&mut self) -> Delta {
        let tree = self.session.tree();
        let mut changed = Vec::new();
        let mut updated = Vec::new();
        self.open_sent.retain(|&id| {
            let node = tree.node(id);
            if node.is_open() {
                true
            } else {
                changed.push((id, node.kind));
                // A loop head that folded has a label now (issue 15).
                if self.session.is_fold_node(id) {
                    updated.push(self.session.row(id));
                }
                false
            }
        });
        let nodes: Vec<_> = (self.sent..tree.len())
            .map(|i| self.session.row(NodeId(i as u32)))
            .collect();
        for n in &nodes {
            if n.kind() == NodeKind::Open {
                self.open_sent.push(n.id());
            }
        }
        self.sent = tree.len();
        Delta {
            nodes,
            changed,
            updated,
            stats: self.session.tree_stats(),
        }
    }
}

/// Reports the node count of long work at most every [`PROGRESS_EVERY`].
struct Progress<'a> {
    emit: &'a dyn Fn(Reply),
    last: Cell<Instant>,
}

impl<'a> Progress<'a> {
    fn new(emit: &'a dyn Fn(Reply)) -> Self {
        Progress {
            emit,
            last: Cell::new(Instant::now()),
        }
    }

    fn tick(&self, nodes: usize) {
        if self.last.get().elapsed() >= PROGRESS_EVERY {
            self.last.set(Instant::now());
            (self.emit)(Reply::Progress { nodes });
        }
    }
}

/// The UI's end of a worker thread.
pub struct Handle {
    pub commands: Sender<Cmd>,
    pub replies: Receiver<Reply>,
    pub cancel: Arc<AtomicBool>,
    /// See [`Worker::entry_warning`].
    pub entry_warning: Option<String>,
}

/// Start the worker thread; returns once the engine is built (or the program rejected).
pub fn spawn(setup: Setup, files: Files) -> Result<Handle, Vec<Diagnostic>> {
    let (cmd_tx, cmd_rx) = channel::<Cmd>();
    let (reply_tx, reply_rx) = channel::<Reply>();
    let (ready_tx, ready_rx) = channel();
    let spawned = std::thread::Builder::new()
        .name("symdbg-engine".into())
        .stack_size(STACK_SIZE)
        .spawn(move || {
            let mut worker = match Worker::new(&setup) {
                Ok(w) => Worker { files, ..w },
                Err(d) => {
                    let _ = ready_tx.send(Err(d));
                    return;
                }
            };
            let _ = ready_tx.send(Ok((worker.cancel_handle(), worker.entry_warning())));
            let _ = reply_tx.send(worker.ready());
            // Ends when the UI drops its sender (quit).
            while let Ok(cmd) = cmd_rx.recv() {
                worker.handle(cmd, &mut |r| {
                    let _ = reply_tx.send(r);
                });
            }
        });
    if let Err(e) = spawned {
        return Err(vec![Diagnostic::global(format!(
            "cannot start the engine thread: {e}"
        ))]);
    }
    match ready_rx.recv() {
        Ok(Ok((cancel, entry_warning))) => Ok(Handle {
            commands: cmd_tx,
            replies: reply_rx,
            cancel,
            entry_warning,
        }),
        Ok(Err(d)) => Err(d),
        Err(_) => Err(vec![Diagnostic::global(
            "the engine thread stopped while loading the program",
        )]),
    }
}
