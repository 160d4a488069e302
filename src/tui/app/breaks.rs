//! Breakpoints: line breakpoints (enabled or not), the exception breakpoint, the list
//! overlay (`B`), and resume (`c`, `r`), which stops at the first hit on any path.
//!
//! `+` sets a breakpoint at a line number or a function typed at a prompt (gdb's `break
//! 12`, `break f`), `H` runs to the code cursor's line, `!` also stops where a handler
//! catches an exception (gdb's `catch throw`).
//!
//! `c` continues the last search: from the node where it started, walking past the hits
//! already shown, so pressing `c` again goes to the next hit on any path. `r` starts a
//! search from the selected node; `C` runs the subtree through every breakpoint.
//!
//! A breakpoint may carry a condition (`c` in the list): a minipy `bool` expression read
//! in the frame of its line; the search stops at a node on that line only where the
//! condition can hold on the node's path (`Session::condition_at`). The worker checks the
//! condition when it is set (`Cmd::CheckCondition`) and the list shows an error.

use ratatui::crossterm::event::KeyEvent;

use super::{App, Mode, Pane, PromptKind};
use crate::base::ExcClass;
use crate::session::{ExcStop, NodeId};
use crate::tui::keys::{lookup, Action, Context};
use crate::tui::protocol::Cmd;

/// A breakpoint's condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    pub text: String,
    /// Why it does not parse or type-check on its line (`None`: valid, or not checked yet).
    pub error: Option<String>,
}

/// A search that `c` continues: where it started and the hits shown so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    pub origin: NodeId,
    pub seen: Vec<NodeId>,
}

impl App {
    /// The enabled breakpoint lines.
    pub fn enabled_breakpoints(&self) -> Vec<usize> {
        self.breakpoints
            .iter()
            .filter(|(_, on)| **on)
            .map(|(l, _)| *l)
            .collect()
    }

    /// Does anything stop a resume (an enabled line or the exception breakpoint)?
    pub fn has_stops(&self) -> bool {
        self.breakpoints.values().any(|on| *on)
            || self.exc_break != ExcStop::Off
            || self.catch_caught
    }

    /// `b`: toggle a breakpoint on the line under the code cursor. With the tree focused,
    /// the code cursor is the selected node's line first (the `▶` line), so the breakpoint
    /// goes where the user looks.
    pub(super) fn break_key(&mut self) {
        if self.focus != Pane::Code {
            if let Some(line) = self.tree.get(self.selected).and_then(|n| n.info.place()) {
                self.code_cursor = line;
            }
        }
        self.toggle_breakpoint(self.code_cursor);
    }

    pub(super) fn toggle_breakpoint(&mut self, line: usize) {
        let text = self.line_text(line).trim().to_string();
        if self.breakpoints.remove(&line).is_none() {
            self.breakpoints.insert(line, true);
            self.message = format!(
                "breakpoint on line {line}: {text} (c runs to it on any path; B, c: a condition)"
            );
        } else {
            self.conditions.remove(&line);
            self.message = format!("breakpoint on line {line} removed");
        }
        self.search = None;
    }

    /// `x`: stop at every exception leaf, or no longer.
    pub(super) fn toggle_exception_break(&mut self) {
        self.exc_break = match self.exc_break {
            ExcStop::Off => ExcStop::Any,
            _ => ExcStop::Off,
        };
        self.search = None;
        self.message = match self.exc_break {
            ExcStop::Off => "exception breakpoint off".to_string(),
            _ => "exception breakpoint: c stops at every exception leaf".to_string(),
        };
    }

    /// Set the exception breakpoint from a class name typed at the `X` prompt (empty: any).
    pub(super) fn set_exception_class(&mut self, name: &str) {
        let name = name.trim();
        if name.is_empty() {
            self.exc_break = ExcStop::Any;
            self.message = "exception breakpoint: every exception leaf".to_string();
        } else if let Some(c) = ExcClass::from_name(name) {
            self.exc_break = ExcStop::Class(c);
            self.message = format!("exception breakpoint: {c} leaves (and its subclasses)");
        } else {
            let names: Vec<_> = ExcClass::ALL.iter().map(|c| c.name()).collect();
            self.message = format!("no exception class `{name}`; one of: {}", names.join(", "));
            return;
        }
        self.search = None;
    }

    /// `c`: the next hit of the current search (a new search from the selected node if the
    /// selection moved away from the last hit).
    pub(super) fn resume_key(&mut self) {
        let search = match &self.search {
            Some(s) if s.seen.last() == Some(&self.selected) => s.clone(),
            _ => Search {
                origin: self.selected,
                seen: Vec::new(),
            },
        };
        self.send_resume(search, "continue");
    }

    /// `r`: run the selected node's subtree, stopping at the first hit.
    pub(super) fn run_key(&mut self) {
        if !self.has_stops() {
            return self.work("run", Cmd::Run(self.selected));
        }
        let search = Search {
            origin: self.selected,
            seen: Vec::new(),
        };
        self.send_resume(search, "run");
    }

    /// `H`: run to the code cursor's line: the first node on any path below the selected
    /// one about to run it (breakpoints on the way stop too, as in gdb and pudb).
    pub(super) fn run_to_cursor(&mut self) {
        let search = Search {
            origin: self.selected,
            seen: Vec::new(),
        };
        self.send_resume_until(search, "run to cursor", Some(self.code_cursor));
    }

    /// `!`: exceptions stop `c` and `r` where a handler catches them too (gdb's `catch
    /// throw`), of the exception breakpoint's class (`X`) or any.
    pub(super) fn toggle_catch(&mut self) {
        self.catch_caught = !self.catch_caught;
        self.search = None;
        self.message = if self.catch_caught {
            let what = match self.exc_break {
                ExcStop::Class(c) => format!("a {c} (or subclass)"),
                _ => "an exception".to_string(),
            };
            format!("catch: c and r stop where a handler catches {what}, before it runs")
        } else {
            "catch off: caught exceptions do not stop".to_string()
        };
    }

    /// Which caught exceptions stop a resume (`!`): the exception breakpoint's class, or
    /// any.
    pub fn caught_stop(&self) -> ExcStop {
        match (self.catch_caught, self.exc_break) {
            (false, _) => ExcStop::Off,
            (true, ExcStop::Class(c)) => ExcStop::Class(c),
            (true, _) => ExcStop::Any,
        }
    }

    /// `+` prompt, Enter: ask the worker where the text (a line number or a function's
    /// name) puts a breakpoint.
    pub(super) fn break_at(&mut self, text: &str) {
        self.outbox.push(Cmd::Locate(text.trim().to_string()));
    }

    /// The worker's answer to `+`: set (or enable) the breakpoint, or say why not.
    pub(super) fn located(&mut self, at: Result<crate::session::Location, String>) {
        let loc = match at {
            Ok(loc) => loc,
            Err(why) => return self.message = why,
        };
        let text = self.line_text(loc.line).trim().to_string();
        let was = self.breakpoints.insert(loc.line, true);
        self.search = None;
        self.message = match was {
            Some(true) => format!("already a breakpoint on {}: {text}", loc.what),
            _ => format!(
                "breakpoint on {}: {text} (c runs to it on any path)",
                loc.what
            ),
        };
    }

    fn send_resume(&mut self, search: Search, what: &'static str) {
        self.send_resume_until(search, what, None)
    }

    fn send_resume_until(&mut self, search: Search, what: &'static str, until: Option<usize>) {
        let cmd = Cmd::Resume {
            from: search.origin,
            lines: self.enabled_breakpoints(),
            conditions: self
                .conditions
                .iter()
                .map(|(l, c)| (*l, c.text.clone()))
                .collect(),
            exceptions: self.exc_break,
            caught: self.caught_stop(),
            until,
            seen: search.seen.clone(),
            bfs: self.bfs,
        };
        self.resuming = Some(search);
        self.send_work(what, cmd);
        if self.busy.is_none() {
            self.resuming = None;
        }
    }

    /// A resume finished: remember the hit for the next `c`.
    pub(super) fn resumed(&mut self, select: Option<NodeId>) {
        let Some(mut search) = self.resuming.take() else {
            return;
        };
        self.search = match select {
            Some(id) if self.has_stops() => {
                search.seen.push(id);
                Some(search)
            }
            // No new hit: keep the search, so `c` on the last hit says so again instead of
            // starting over below it.
            _ => (!search.seen.is_empty()).then_some(search),
        };
    }

    /// Set (or with empty text remove) the condition of the breakpoint on `line`; the
    /// worker checks it. Back to the list afterwards.
    pub(super) fn set_condition(&mut self, line: usize, text: &str) {
        let text = text.trim();
        self.mode = Mode::Breakpoints;
        self.search = None;
        if text.is_empty() {
            self.conditions.remove(&line);
            self.message = format!("breakpoint on line {line}: no condition");
            return;
        }
        self.conditions.insert(
            line,
            Condition {
                text: text.to_string(),
                error: None,
            },
        );
        self.message = format!("breakpoint on line {line} stops only where {text} can hold");
        self.outbox.push(Cmd::CheckCondition {
            line,
            text: text.to_string(),
        });
    }

    /// The worker's verdict on a condition (ignored if it changed meanwhile).
    pub(super) fn condition_checked(&mut self, line: usize, text: String, error: Option<String>) {
        let Some(c) = self.conditions.get_mut(&line).filter(|c| c.text == text) else {
            return;
        };
        if let Some(e) = &error {
            self.message = format!("condition on line {line}: {e}");
        }
        c.error = error;
    }

    /// Keys in the breakpoint list (`B`, the table's `Context::Breakpoints` rows); a key
    /// the list does not bind closes it.
    pub(super) fn breaks_key(&mut self, key: KeyEvent) {
        let lines: Vec<usize> = self.breakpoints.keys().copied().collect();
        let n = lines.len();
        match lookup(Context::Breakpoints, &key) {
            Some(Action::ListDown) => {
                self.breaks_cursor = (self.breaks_cursor + 1).min(n.saturating_sub(1))
            }
            Some(Action::ListUp) => self.breaks_cursor = self.breaks_cursor.saturating_sub(1),
            Some(Action::ListToggle) => {
                if let Some(l) = lines.get(self.breaks_cursor) {
                    if let Some(on) = self.breakpoints.get_mut(l) {
                        *on = !*on;
                    }
                    self.search = None;
                }
            }
            Some(Action::ListCondition) => {
                if let Some(&l) = lines.get(self.breaks_cursor) {
                    let text = self
                        .conditions
                        .get(&l)
                        .map_or(String::new(), |c| c.text.clone());
                    self.mode = Mode::Prompt(PromptKind::Condition(l), text);
                }
            }
            Some(Action::ListDelete) => {
                if let Some(l) = lines.get(self.breaks_cursor) {
                    self.breakpoints.remove(l);
                    self.conditions.remove(l);
                    self.breaks_cursor = self.breaks_cursor.min(n.saturating_sub(2));
                    self.search = None;
                }
            }
            Some(Action::ExcBreak) => self.toggle_exception_break(),
            _ => self.mode = Mode::Normal,
        }
    }
}
