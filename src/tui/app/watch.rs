//! Evaluate at a node (`:`) and watches (`W`).
//!
//! `:` asks the worker to evaluate one minipy expression at the selected node, in the frame
//! the call stack pane has picked (`Session::evaluate`); the answer shows in the store pane
//! and in one line in the status line, an error (parse, unknown name, type) in the status
//! line. `W` adds an expression to the watches, evaluated at every node selected (and for
//! every frame picked), shown under the store; `W` with a watched expression removes it,
//! `W` and Enter on an empty prompt clears them all.
//! Answers are kept per (node, frame, expression): a node's state never changes, so moving
//! back to a node costs nothing, and only the missing answers are asked for, all of a node's
//! in one command that the worker answers between other commands (the UI never waits).

use std::collections::{HashMap, HashSet};

use super::{App, Pane};
use crate::session::{Evaluation, NodeId};
use crate::tui::protocol::Cmd;

/// (node, frame counted from the innermost, expression).
pub type EvalKey = (NodeId, usize, String);

/// At most this many watches.
pub const MAX_WATCHES: usize = 16;

/// The watches and every answer received.
#[derive(Clone, Debug, Default)]
pub struct Watches {
    /// The watched expressions, in the order they were added.
    pub list: Vec<String>,
    /// Answers per (node, frame, expression).
    pub results: HashMap<EvalKey, Result<Evaluation, String>>,
    /// Asked for and not answered yet.
    pending: HashSet<EvalKey>,
    /// The last expression evaluated with `:` (shown while its node and frame are).
    pub shown: Option<EvalKey>,
}

impl Watches {
    /// Is an answer for `key` on its way?
    pub fn is_pending(&self, key: &EvalKey) -> bool {
        self.pending.contains(key)
    }

    /// Is any evaluation on its way?
    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Forget the answers (they name the old tree's nodes), keep the watched expressions.
    pub fn forget_answers(&mut self) {
        self.results.clear();
        self.pending.clear();
        self.shown = None;
    }
}

impl App {
    /// The frame evaluations use: the one picked in the call stack pane (0: innermost).
    pub fn eval_frame(&self) -> usize {
        self.picked_frame().unwrap_or(0)
    }

    /// The key of `expr` at the selected node and frame.
    pub fn eval_key(&self, expr: &str) -> EvalKey {
        (self.selected, self.eval_frame(), expr.trim().to_string())
    }

    /// Ask for the evaluations of `exprs` at the selected node and frame that are neither
    /// known nor on their way.
    fn ask(&mut self, exprs: Vec<String>) {
        let (node, up) = (self.selected, self.eval_frame());
        let missing: Vec<String> = exprs
            .into_iter()
            .filter(|e| {
                let key = (node, up, e.clone());
                let known = self
                    .watch
                    .results
                    .get(&key)
                    .is_some_and(|r| !interrupted(r));
                !known && self.watch.pending.insert(key)
            })
            .collect();
        if !missing.is_empty() {
            self.outbox.push(Cmd::Evaluate {
                node,
                up,
                exprs: missing,
            });
        }
    }

    /// Evaluate the watches at the selected node and frame (what is not known yet).
    pub(super) fn request_watches(&mut self) {
        if !self.watch.list.is_empty() && self.tree.get(self.selected).is_some() {
            self.ask(self.watch.list.clone());
        }
    }

    /// Enter at the `:` prompt.
    pub(super) fn evaluate_prompt(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            self.watch.shown = None;
            self.message = "nothing to evaluate".to_string();
            return;
        }
        let key = self.eval_key(text);
        self.watch.shown = Some(key.clone());
        self.show_detail(Pane::Store);
        match self.watch.results.get(&key).filter(|r| !interrupted(r)) {
            Some(r) => self.message = eval_message(r),
            None => {
                self.message = format!("evaluating {text} at node {}…", self.selected.0);
                self.ask(vec![key.2]);
            }
        }
    }

    /// Enter at the `W` prompt: add a watch, remove it (typed again), or clear them all
    /// (empty).
    pub(super) fn watch_prompt(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            let n = self.watch.list.len();
            self.watch.list.clear();
            self.message = format!("{} removed", crate::diagnostics::count(n, "watch"));
            return;
        }
        // The same expression again removes it.
        if let Some(k) = self.watch.list.iter().position(|w| w == text) {
            self.watch.list.remove(k);
            self.message = format!("watch removed: {text}");
            return;
        }
        // What `:` would say about it: a watch that does not parse is refused here, one
        // that type-checks in no scope (an unknown name) when the worker answers.
        if let Err(m) = crate::session::parse_expression(text) {
            self.message = format!("cannot watch: {m}");
            return;
        }
        if self.watch.list.len() >= MAX_WATCHES {
            self.message = format!("at most {MAX_WATCHES} watches: W and a watched one removes it, W Enter clears them");
            return;
        }
        self.message = format!("checking {text}…");
        self.outbox.push(Cmd::CheckWatch {
            text: text.to_string(),
        });
    }

    /// The worker's answer to `W`: watch `text`, or say why not.
    pub(super) fn watch_checked(&mut self, text: String, error: Option<String>) {
        if let Some(e) = error {
            self.message = format!("cannot watch: {e}");
            return;
        }
        if self.watch.list.contains(&text) || self.watch.list.len() >= MAX_WATCHES {
            return;
        }
        let text = text.as_str();
        self.watch.list.push(text.to_string());
        self.message = format!(
            "watching {text} ({}, under the store; W {text} again removes it)",
            crate::diagnostics::count(self.watch.list.len(), "watch")
        );
        self.show_detail(Pane::Store);
        self.request_watches();
    }

    /// Answers from the worker.
    pub(super) fn evaluated(
        &mut self,
        node: NodeId,
        up: usize,
        results: Vec<(String, Result<Evaluation, String>)>,
    ) {
        for (expr, r) in results {
            let key = (node, up, expr);
            self.watch.pending.remove(&key);
            if self.watch.shown.as_ref() == Some(&key) {
                self.message = eval_message(&r);
            }
            // (an interrupted answer is shown, and asked again when the node is selected)
            self.watch.results.insert(key, r);
        }
    }
}

/// Was the answer cut short by Esc?
fn interrupted(r: &Result<Evaluation, String>) -> bool {
    matches!(r, Ok(e) if e.interrupted())
}

/// The status line's words for an evaluation.
fn eval_message(r: &Result<Evaluation, String>) -> String {
    match r {
        Ok(e) => e.summary(),
        Err(m) => format!("cannot evaluate: {m}"),
    }
}
