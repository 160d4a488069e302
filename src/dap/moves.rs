//! The requests that move a thread along its path: `stepIn` (the TUI's `s`: one node),
//! `next` (`n`: step over a call), `stepOut` (`f`: finish the frame), `continue` (`c`: the
//! next breakpoint hit on any path below), `stepBack` (the parent node) and
//! `reverseContinue` (the previous breakpoint hit on the path), and `symdbg/focus`. The
//! tree is history: a thread stopped at an inner node (after going back) goes forward
//! along its own path without stepping anything, up to its tip.
//!
//! Each answers at once, moves, then [`Adapter::report`] brings the threads up to date and
//! sends the events: `thread` (`started`, `exited`), `stopped`, `terminated` when no open
//! path is left, and `symdbg/treeChanged`.

use std::sync::atomic::Ordering;

use serde_json::{json, Value};

use super::adapter::Adapter;
use super::threads::path;
use super::wire::{error_response, event, output_event, response};
use crate::session::{Ended, Hit, Limits, NodeId, Policy, Stepped};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    StepIn,
    Next,
    StepOut,
    Continue,
    Back,
    ReverseContinue,
}

/// Where a move stopped and why.
struct Stop {
    node: Option<NodeId>,
    /// `stopped`'s reason: `step`, `breakpoint`, `exception`, `pause`, `entry`, `goto`.
    reason: &'static str,
    /// The status line's words (also an `output` event).
    text: Option<String>,
    /// The breakpoints hit.
    hit_ids: Vec<i64>,
}

impl Stop {
    fn at(node: NodeId, reason: &'static str) -> Stop {
        Stop {
            node: Some(node),
            reason,
            text: None,
            hit_ids: Vec::new(),
        }
    }
}

impl Adapter {
    pub(super) fn move_request(&mut self, seq: i64, command: &str, args: &Value) -> bool {
        if command == "symdbg/focus" {
            return self.focus(seq, args);
        }
        let (id, shown) = super::threads::thread_arg(args);
        let known = id.filter(|&id| {
            self.run
                .as_ref()
                .is_some_and(|r| r.threads.get(id).is_some())
        });
        let Some(id) = known else {
            self.send(error_response(
                seq,
                command,
                &format!("no thread {shown} (a path that ended has no thread)"),
            ));
            return true;
        };
        let body = match command {
            "continue" | "reverseContinue" => json!({"allThreadsContinued": false}),
            _ => Value::Null,
        };
        self.send(response(seq, command, body));
        let mv = match command {
            "next" => Move::Next,
            "stepIn" => Move::StepIn,
            "stepOut" => Move::StepOut,
            "continue" => Move::Continue,
            "stepBack" => Move::Back,
            _ => Move::ReverseContinue,
        };
        self.move_thread(id, mv);
        true
    }

    /// `continue` thread `id` (after `configurationDone` without `stopOnEntry`).
    pub(super) fn continue_thread(&mut self, id: i64) {
        self.move_thread(id, Move::Continue);
    }

    /// Move thread `id` and report.
    fn move_thread(&mut self, id: i64, mv: Move) {
        let Some(run) = &mut self.run else { return };
        let Some(t) = run.threads.get(id) else { return };
        run.refs.clear();
        run.frames.clear();
        let forward = !matches!(mv, Move::Back | Move::ReverseContinue);
        if forward && run.session.tree().node(t.pos).is_leaf() {
            // Its path ended: the thread goes.
            run.threads.remove(id);
            self.send(event("thread", json!({"reason": "exited", "threadId": id})));
            self.report(
                None,
                Stop {
                    node: None,
                    reason: "step",
                    text: Some(format!("path {id} ended")),
                    hit_ids: Vec::new(),
                },
            );
            return;
        }
        let stop = match mv {
            Move::Back => {
                let parent = run.session.tree().node(t.pos).parent;
                let mut s = Stop::at(parent.unwrap_or(t.pos), "step");
                if parent.is_none() {
                    s.text = Some("at the root: nothing before it".into());
                }
                s
            }
            Move::ReverseContinue => self.reverse_continue(t.pos),
            Move::Continue => self.resume(t.pos),
            _ if !run.session.tree().node(t.pos).is_open() => {
                self.forward_in_history(t.pos, t.tip, mv)
            }
            Move::StepIn => self.step_in(t.pos),
            _ => self.run_policy(t.pos, mv),
        };
        // What the path printed on the way forward.
        if forward {
            if let Some(to) = stop.node {
                for text in self.program_output(t.pos, to) {
                    self.send(output_event("stdout", &text));
                }
            }
        }
        self.report(Some(id), stop);
    }

    /// The limits of a run and the progress callback that turns a pending pause into the
    /// session's cancel flag.
    fn limits(&self) -> Limits {
        Limits {
            max_nodes: self.run.as_ref().map(|r| r.args.max_nodes),
            ..Limits::default()
        }
    }

    fn step_in(&mut self, pos: NodeId) -> Stop {
        let Some(run) = &mut self.run else {
            return Stop::at(pos, "step");
        };
        match run.session.step(pos, None) {
            Stepped::Children(c) => {
                let mut s = Stop::at(c[0], "step");
                if c.len() > 1 {
                    s.text = Some(format!("the path forks: {} branches", c.len()));
                }
                s
            }
            Stepped::Cancelled => {
                let mut s = Stop::at(pos, "pause");
                s.text = Some("interrupted (pause), not stepped".into());
                s
            }
            Stepped::NoSuccessors => {
                let mut s = Stop::at(pos, "step");
                s.text = Some("no feasible successor".into());
                s
            }
            Stepped::Leaf | Stepped::AlreadyStepped => Stop::at(pos, "step"),
        }
    }

    /// `next` and `stepOut` at an open node: the TUI's step over and finish.
    fn run_policy(&mut self, pos: NodeId, mv: Move) -> Stop {
        let limits = self.limits();
        let pending = self.flags.pending.clone();
        let Some(run) = &mut self.run else {
            return Stop::at(pos, "step");
        };
        let cancel = run.session.cancel_handle();
        let progress = |_: usize| {
            if pending.load(Ordering::SeqCst) {
                cancel.store(true, Ordering::SeqCst);
            }
        };
        let policy = if mv == Move::Next {
            Policy::StepOver
        } else {
            Policy::Finish
        };
        let ran = run.session.run(pos, policy, limits, &progress);
        let node = ran.select.unwrap_or(pos);
        let mut s = Stop::at(node, "step");
        s.text = ended_text(ran.ended);
        if ran.ended == Ended::Cancelled {
            s.reason = "pause";
        }
        s
    }

    /// Forward from an inner node (after going back): along the thread's own path, one
    /// node (`stepIn`), until back in the frame (`next`) or out of it (`stepOut`), at
    /// most to the tip.
    fn forward_in_history(&mut self, pos: NodeId, tip: NodeId, mv: Move) -> Stop {
        let Some(run) = &self.run else {
            return Stop::at(pos, "step");
        };
        let s = &run.session;
        let on_path = path(s, tip);
        let after: Vec<NodeId> = on_path
            .iter()
            .skip_while(|&&n| n != pos)
            .skip(1)
            .copied()
            .collect();
        let depth = s.row(pos).frames();
        let stop = after.iter().copied().find(|&n| match mv {
            Move::StepIn => true,
            Move::Next => s.row(n).frames() <= depth,
            _ => s.row(n).frames() < depth,
        });
        let mut st = Stop::at(stop.unwrap_or(tip), "step");
        if stop.is_none() {
            st.text = Some("at the end of the explored path".into());
        }
        st
    }

    /// `continue`: the next breakpoint hit below `pos` on any path (the TUI's `c`),
    /// skipping hits whose hit condition does not hold yet and, with only the
    /// `invariant` filter, exception leaves that are no broken invariant.
    fn resume(&mut self, pos: NodeId) -> Stop {
        let limits = self.limits();
        let mut stops = self.stops();
        let pending = self.flags.pending.clone();
        let only_invariants = !self.exceptions.uncaught && self.exceptions.invariant;
        let Some(run) = &mut self.run else {
            return Stop::at(pos, "step");
        };
        let cancel = run.session.cancel_handle();
        let progress = |_: usize| {
            if pending.load(Ordering::SeqCst) {
                cancel.store(true, Ordering::SeqCst);
            }
        };
        loop {
            let (ran, hit) = run.session.resume(pos, &stops, limits, &progress);
            let (Some(hit), Some(at)) = (hit, ran.select) else {
                let node = match ran.ended {
                    // Stopped short: at the first open node below (where it would go on).
                    Ended::Cancelled | Ended::NodeLimit | Ended::TimeLimit => {
                        Some(first_open(&run.session, pos).unwrap_or(pos))
                    }
                    _ => None,
                };
                let reason = if ran.ended == Ended::Cancelled {
                    "pause"
                } else {
                    "step"
                };
                let text = match ran.ended {
                    Ended::Done => {
                        Some("no more breakpoint hits below: the subtree is explored".to_string())
                    }
                    e => ended_text(e),
                };
                return Stop {
                    node,
                    reason,
                    text,
                    hit_ids: Vec::new(),
                };
            };
            run.seen.insert(at);
            stops.seen.insert(at);
            let mut hit_ids = Vec::new();
            match &hit {
                Hit::Line(line) | Hit::Conditional { line, .. } => {
                    let mut stops_here = false;
                    for b in self
                        .breakpoints
                        .iter_mut()
                        .filter(|b| b.verified && b.line == *line)
                    {
                        b.hits += 1;
                        if b.hit_condition.is_none_or(|h| h.stops(b.hits)) {
                            stops_here = true;
                            hit_ids.push(b.id);
                        }
                    }
                    if !stops_here {
                        continue;
                    }
                }
                Hit::Exception(_) if only_invariants && !run.session.view(at).invariant_failure => {
                    continue
                }
                _ => {}
            }
            let (reason, text) = match &hit {
                Hit::Line(line) => ("breakpoint", format!("breakpoint on line {line}")),
                Hit::Conditional { line, note } => {
                    let mut t = format!("breakpoint on line {line}: its condition can hold");
                    if let Some(n) = note {
                        t = format!("{t}; {n}");
                    }
                    ("breakpoint", t)
                }
                Hit::Exception(class) => ("exception", format!("{class} on this path")),
                Hit::Caught { class, raised } => (
                    "exception",
                    format!("caught: {class} raised on line {raised}, its handler is next"),
                ),
            };
            return Stop {
                node: Some(at),
                reason,
                text: Some(text),
                hit_ids,
            };
        }
    }

    /// `reverseContinue`: the nearest node above `pos` on its path that is a breakpoint
    /// hit, or the root.
    fn reverse_continue(&mut self, pos: NodeId) -> Stop {
        let mut stops = self.stops();
        stops.seen.clear();
        let Some(run) = &mut self.run else {
            return Stop::at(pos, "step");
        };
        let mut on = path(&run.session, pos);
        on.pop();
        while let Some(n) = on.pop() {
            if let Some(hit) = run.session.hit(n, &stops) {
                let line = match hit {
                    Hit::Line(l) | Hit::Conditional { line: l, .. } => l,
                    _ => run.session.statement_line(n).unwrap_or_default(),
                };
                let mut s = Stop::at(n, "breakpoint");
                s.hit_ids = self
                    .breakpoints
                    .iter()
                    .filter(|b| b.verified && b.line == line)
                    .map(|b| b.id)
                    .collect();
                s.text = Some(format!("back to the breakpoint on line {line}"));
                return s;
            }
        }
        let mut s = Stop::at(run.session.tree().root(), "entry");
        s.text = Some("no breakpoint hit before: at the start".into());
        s
    }

    /// `symdbg/focus {"node": id, "threadId"?: t}`: move thread `t` (or the thread whose
    /// path runs through the node, or a new thread) to any node.
    fn focus(&mut self, seq: i64, args: &Value) -> bool {
        let Some(run) = &mut self.run else {
            return true;
        };
        let n = run.session.tree().len();
        let node = args["node"].as_u64().filter(|&i| (i as usize) < n);
        let Some(node) = node.map(|i| NodeId(i as u32)) else {
            self.send(error_response(
                seq,
                "symdbg/focus",
                &format!("no node {} (the tree has {n})", args["node"]),
            ));
            return true;
        };
        let wanted = args["threadId"]
            .as_i64()
            .filter(|&t| run.threads.get(t).is_some());
        run.refs.clear();
        run.frames.clear();
        let settled = {
            let s = &run.session;
            let owner = wanted.or_else(|| {
                run.threads
                    .list
                    .iter()
                    .find(|t| {
                        super::threads::is_ancestor(s, node, t.tip)
                            || super::threads::is_ancestor(s, t.tip, node)
                    })
                    .map(|t| t.id)
            });
            run.threads.settle(s, owner, Some(node))
        };
        let thread = settled.stopped.unwrap_or(0);
        self.send(response(seq, "symdbg/focus", json!({"threadId": thread})));
        self.announce(&settled, Stop::at(node, "goto"));
        true
    }

    /// After a move of `actor`: settle the threads and send the events.
    fn report(&mut self, actor: Option<i64>, stop: Stop) {
        let Some(run) = &mut self.run else { return };
        let settled = run.threads.settle(&run.session, actor, stop.node);
        self.announce(&settled, stop);
    }

    fn announce(&mut self, settled: &super::threads::Settled, stop: Stop) {
        for &t in &settled.started {
            self.send(event("thread", json!({"reason": "started", "threadId": t})));
        }
        for &t in &settled.exited {
            self.send(event("thread", json!({"reason": "exited", "threadId": t})));
        }
        if let Some(text) = &stop.text {
            self.send(output_event("console", &format!("{text}\n")));
        }
        let Some(run) = &self.run else { return };
        let size = run.session.tree().len();
        let threads: Vec<Value> = run
            .threads
            .list
            .iter()
            .map(|t| json!({"id": t.id, "node": t.pos.0, "tip": t.tip.0}))
            .collect();
        self.send(event(
            "symdbg/treeChanged",
            json!({"nodes": size, "threads": threads}),
        ));
        if run.threads.list.is_empty() {
            self.send(event("terminated", Value::Null));
            return;
        }
        // A move whose path ended with nothing to stop at: the first open path is shown.
        let (thread, reason) = match settled.stopped {
            Some(t) => (t, stop.reason),
            None => (run.threads.list[0].id, "step"),
        };
        let mut body = json!({
            "reason": reason,
            "threadId": thread,
            "allThreadsStopped": true,
        });
        if let Some(text) = &stop.text {
            body["description"] = json!(text);
        }
        if reason == "exception" {
            body["text"] = json!(stop.text.clone().unwrap_or_default());
        }
        if !stop.hit_ids.is_empty() {
            body["hitBreakpointIds"] = json!(stop.hit_ids);
        }
        self.send(event("stopped", body));
    }

    /// The lines the program printed on the path from `from` down to `to` (nothing when `to`
    /// is not below `from`), each ending in `\n`, sent as `output` events of category
    /// `stdout`: the printed items as minipy expressions over the inputs
    /// ([`crate::session::Session::stdout_at`]), since a path stands for many inputs.
    fn program_output(&self, from: NodeId, to: NodeId) -> Vec<String> {
        let Some(run) = &self.run else {
            return Vec::new();
        };
        let s = &run.session;
        if !super::threads::is_ancestor(s, from, to) {
            return Vec::new();
        }
        let before = s.stdout_at(from).len();
        s.stdout_at(to)
            .into_iter()
            .skip(before)
            .map(|line| format!("{line}\n"))
            .collect()
    }
}

/// The first open node under `from` (depth-first).
fn first_open(s: &crate::session::Session, from: NodeId) -> Option<NodeId> {
    let tree = s.tree();
    tree.subtree(from)
        .into_iter()
        .find(|&n| tree.node(n).is_open())
}

/// What a run's end says, when it is not its goal.
fn ended_text(e: Ended) -> Option<String> {
    Some(match e {
        Ended::Done | Ended::Breakpoint(_) | Ended::BranchPoint { .. } => return None,
        Ended::PathEnded => "the path ended".into(),
        Ended::LoopChoice => "annotated loop: stepIn applies the invariant".into(),
        Ended::NoSuccessors => "no feasible successor".into(),
        Ended::NodeLimit => "stopped at the node limit (maxNodes)".into(),
        Ended::TimeLimit => "stopped at the time limit".into(),
        Ended::Cancelled => "interrupted (pause)".into(),
    })
}
