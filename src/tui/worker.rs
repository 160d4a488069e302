//! The engine worker: owns the [`Engine`] (and so Z3) and answers [`Cmd`]s with plain data.
//!
//! [`Worker`] is synchronous: [`Worker::handle`] runs one command and reports through a
//! callback, so tests drive it inline on their own thread. [`spawn`] puts it on a thread of
//! its own for the real UI, which never blocks: it sends commands through a channel and
//! polls the replies. Long commands report [`Reply::Progress`] at most every 100 ms; Esc
//! sets the engine's cancel flag ([`Worker::cancel_handle`]), which stops them at the next
//! step (the nodes reached so far stay, the rest stay open).

mod describe;
mod replay;
mod tests_file;

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::protocol::{Cmd, Delta, Kind, Reply};
use super::Setup;
use crate::base::SourceMap;
use crate::diagnostics::Diagnostic;
use crate::engine::{Engine, Limits, LoopMode, Node, NodeId, Stop};
use crate::lang::{Program, TypeInfo};

/// How often long work reports progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Stack of the worker thread: the concrete interpreter (replay) recurses in Rust.
const STACK_SIZE: usize = 256 << 20;

pub struct Worker {
    engine: Engine,
    program: Program,
    types: TypeInfo,
    source: SourceMap,
    max_nodes: usize,
    /// Nodes `0..sent` have been sent to the UI.
    sent: usize,
    /// Sent nodes that were open then (their kind may change).
    open_sent: Vec<u32>,
}

impl Worker {
    /// Load the program and build the engine (diagnostics if the program is malformed or
    /// the entry function does not exist).
    pub fn new(setup: &Setup) -> Result<Worker, Vec<Diagnostic>> {
        let (program, types, ir) = crate::transform::load(&setup.source.text)?;
        let engine = Engine::new(
            &program,
            types.clone(),
            Rc::clone(&ir),
            setup.entry.as_deref(),
            setup.config.clone(),
        )
        .map_err(|d| vec![d])?;
        Ok(Worker {
            engine,
            program,
            types,
            source: setup.source.clone(),
            max_nodes: setup.max_nodes,
            sent: 0,
            open_sent: Vec::new(),
        })
    }

    pub fn cancel_handle(&self) -> Arc<AtomicBool> {
        self.engine.cancel_handle()
    }

    /// The first reply: the tree as it is (the root).
    pub fn ready(&mut self) -> Reply {
        Reply::Ready(self.delta())
    }

    /// Run one command; `out` receives the replies in order.
    pub fn handle(&mut self, cmd: Cmd, out: &mut dyn FnMut(Reply)) {
        let out = RefCell::new(out);
        let emit = |r: Reply| (out.borrow_mut())(r);
        match cmd {
            Cmd::Details(id) => emit(Reply::Details(describe::details(
                &self.engine,
                &self.source,
                NodeId(id),
            ))),
            Cmd::Model(id) => {
                let m = self.engine.try_model(NodeId(id)).map(describe::model);
                emit(Reply::Model(id, m));
            }
            Cmd::Replay(id) => {
                let r = replay::replay(
                    &mut self.engine,
                    &self.program,
                    &self.types,
                    &self.source,
                    NodeId(id),
                );
                emit(Reply::Replay(id, r));
            }
            Cmd::Tests(id) => {
                let (e, p, t, s) = (&mut self.engine, &self.program, &self.types, &self.source);
                let message = tests_file::write(e, p, t, s, NodeId(id));
                emit(Reply::Done {
                    select: None,
                    message,
                });
            }
            Cmd::Step(id) => self.step(id, None, &emit),
            Cmd::StepWith(id, mode) => self.step(id, Some(mode), &emit),
            Cmd::StepOver(id) | Cmd::Finish(id) => {
                let over = matches!(cmd, Cmd::StepOver(_));
                let node = NodeId(id);
                let depth = self.engine.tree().node(node).state.frames.len();
                let limits = self.limits();
                let progress = Progress::new(&emit);
                let stop = self.engine.run_until(node, limits, &|n: &Node| {
                    progress.tick(n);
                    let d = n.state.frames.len();
                    if over {
                        d <= depth
                    } else {
                        d < depth
                    }
                });
                let select = self.first_stop(node);
                let done = if over {
                    "step over: every path is back in this frame or has ended"
                } else {
                    "finish: every path has left the frame or ended"
                };
                self.finish(&emit, select, stop_message(stop, self.max_nodes, done));
            }
            Cmd::Run(id) => {
                let limits = self.limits();
                let progress = Progress::new(&emit);
                let stop = self.engine.run_until(NodeId(id), limits, &|n: &Node| {
                    progress.tick(n);
                    false
                });
                let done = "run: the subtree is explored";
                self.finish(&emit, Some(id), stop_message(stop, self.max_nodes, done));
            }
            Cmd::Continue { from, breakpoints } => {
                let (select, message) = self.continue_from(NodeId(from), &breakpoints, &emit);
                self.finish(&emit, Some(select.0), message);
            }
        }
    }

    fn limits(&self) -> Limits {
        Limits {
            max_nodes: Some(self.max_nodes),
            ..Limits::default()
        }
    }

    fn step(&mut self, id: u32, mode: Option<LoopMode>, emit: &dyn Fn(Reply)) {
        let node = NodeId(id);
        if !self.engine.tree().node(node).is_open() {
            let what = if self.engine.tree().node(node).is_leaf() {
                "a leaf"
            } else {
                "already stepped"
            };
            return self.finish(emit, None, format!("node {id} is {what}"));
        }
        let children = match mode {
            Some(mode) => describe::step_with(&mut self.engine, node, mode),
            None => self.engine.step(node),
        };
        let message = match children.len() {
            // Esc inside a Z3 check: the node stays open.
            0 if self.engine.tree().node(node).is_open() => {
                format!("node {id}: interrupted (Esc), not stepped")
            }
            0 => format!("stepped node {id}: no feasible successor"),
            1 => format!("stepped node {id}"),
            k => format!("stepped node {id}: {k} branches"),
        };
        self.finish(emit, children.first().map(|c| c.0), message);
    }

    /// Step along one path from `from` until it branches, ends, reaches an annotated loop
    /// (the user picks the transition) or a node at a breakpoint line.
    fn continue_from(
        &mut self,
        from: NodeId,
        breakpoints: &[usize],
        emit: &dyn Fn(Reply),
    ) -> (NodeId, String) {
        let cancel = self.engine.cancel_handle();
        cancel.store(false, Ordering::Relaxed);
        let progress = Progress::new(emit);
        let mut cur = from;
        let mut moved = false;
        loop {
            let node = self.engine.tree().node(cur);
            progress.tick(node);
            if moved {
                if let Some(line) = describe::statement_line(&self.engine, &self.source, cur) {
                    if breakpoints.contains(&line) {
                        return (cur, format!("stopped at the breakpoint on line {line}"));
                    }
                }
            }
            if node.is_leaf() {
                return (cur, "the path ended".to_string());
            }
            if node.children.len() > 1 {
                let what = if moved {
                    "branch point"
                } else {
                    "branch point: select a branch (j) and press c again to go on"
                };
                return (cur, what.to_string());
            }
            if let [only] = node.children.as_slice() {
                cur = *only;
                moved = true;
                continue;
            }
            if describe::loop_choice(&self.engine, cur) {
                return (cur, "annotated loop: pick the transition".to_string());
            }
            if cancel.load(Ordering::Relaxed) {
                return (cur, "interrupted (Esc)".to_string());
            }
            if self.engine.tree().len() >= self.max_nodes {
                return (
                    cur,
                    format!("stopped at the node limit ({})", self.max_nodes),
                );
            }
            let children = self.engine.step(cur);
            match children.as_slice() {
                [] if self.engine.tree().node(cur).is_open() => {
                    return (cur, "interrupted (Esc)".to_string())
                }
                [] => return (cur, "no feasible successor".to_string()),
                [only] => {
                    cur = *only;
                    moved = true;
                }
                _ => return (cur, "branch point".to_string()),
            }
        }
    }

    /// After step over / finish: the first node under `from` (depth-first) where a path
    /// stopped (open) or ended.
    fn first_stop(&self, from: NodeId) -> Option<u32> {
        let tree = self.engine.tree();
        tree.subtree(from)
            .into_iter()
            .skip(1)
            .find(|&n| tree.node(n).children.is_empty())
            .map(|n| n.0)
    }

    fn finish(&mut self, emit: &dyn Fn(Reply), select: Option<u32>, message: String) {
        emit(Reply::Delta(self.delta()));
        emit(Reply::Done { select, message });
    }

    /// New nodes and changed kinds since the last delta.
    fn delta(&mut self) -> Delta {
        let tree = self.engine.tree();
        let mut changed = Vec::new();
        self.open_sent.retain(|&id| {
            let node = tree.node(NodeId(id));
            if node.is_open() {
                true
            } else {
                changed.push((id, describe::kind(node)));
                false
            }
        });
        let nodes: Vec<_> = (self.sent..tree.len())
            .map(|i| describe::node_info(&self.engine, &self.source, NodeId(i as u32)))
            .collect();
        for n in &nodes {
            if n.kind == Kind::Open {
                self.open_sent.push(n.id);
            }
        }
        self.sent = tree.len();
        Delta {
            nodes,
            changed,
            stats: describe::stats(&self.engine),
        }
    }
}

fn stop_message(stop: Stop, max_nodes: usize, done: &str) -> String {
    match stop {
        Stop::Done => done.to_string(),
        Stop::NodeLimit => format!("stopped at the node limit ({max_nodes})"),
        Stop::TimeLimit => "stopped at the time limit".to_string(),
        Stop::Cancelled => "interrupted (Esc)".to_string(),
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

    fn tick(&self, newest: &Node) {
        if self.last.get().elapsed() >= PROGRESS_EVERY {
            self.last.set(Instant::now());
            (self.emit)(Reply::Progress {
                nodes: newest.id.index() + 1,
            });
        }
    }
}

/// The UI's end of a worker thread.
pub struct Handle {
    pub commands: Sender<Cmd>,
    pub replies: Receiver<Reply>,
    pub cancel: Arc<AtomicBool>,
}

/// Start the worker thread; returns once the engine is built (or the program rejected).
pub fn spawn(setup: Setup) -> Result<Handle, Vec<Diagnostic>> {
    let (cmd_tx, cmd_rx) = channel::<Cmd>();
    let (reply_tx, reply_rx) = channel::<Reply>();
    let (ready_tx, ready_rx) = channel();
    let spawned = std::thread::Builder::new()
        .name("symdbg-engine".into())
        .stack_size(STACK_SIZE)
        .spawn(move || {
            let mut worker = match Worker::new(&setup) {
                Ok(w) => w,
                Err(d) => {
                    let _ = ready_tx.send(Err(d));
                    return;
                }
            };
            let _ = ready_tx.send(Ok(worker.cancel_handle()));
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
        Ok(Ok(cancel)) => Ok(Handle {
            commands: cmd_tx,
            replies: reply_rx,
            cancel,
        }),
        Ok(Err(d)) => Err(d),
        Err(_) => Err(vec![Diagnostic::global(
            "the engine thread stopped while loading the program",
        )]),
    }
}
