//! Preconditions in the debugger: `a` adds an `--assume` expression (a prompt), `A` lists
//! them and removes one; either starts the tree again at the root under the new list,
//! keeping the breakpoints (and re-exploring when the old tree had been explored). The
//! list is `source.assumptions` (shown in the path pane's title).

use super::{App, Mode, PromptKind};
use crate::session::NodeId;
use crate::tui::protocol::Cmd;
use crate::tui::tree::Mirror;

impl App {
    /// The `--assume` expressions in force, `#1` first.
    pub fn assumptions(&self) -> &[String] {
        &self.source.assumptions
    }

    /// `a`: the prompt for a new assumption.
    pub(super) fn assume_key(&mut self) {
        self.mode = Mode::Prompt(PromptKind::Assume, String::new());
    }

    /// `A`: list the assumptions and ask which to remove.
    pub(super) fn unassume_key(&mut self) {
        if self.assumptions().is_empty() {
            self.message = "no assumptions: a adds one".to_string();
            return;
        }
        self.message = self.assumptions_text();
        self.mode = Mode::Prompt(PromptKind::Unassume, String::new());
    }

    /// "assuming #1 x > 0 · #2 len(t) < 3".
    pub fn assumptions_text(&self) -> String {
        let items: Vec<String> = self
            .assumptions()
            .iter()
            .enumerate()
            .map(|(i, a)| format!("#{} {a}", i + 1))
            .collect();
        format!("assuming {}", items.join(" · "))
    }

    /// Enter at the `a` prompt.
    pub(super) fn add_assumption(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            self.message = "no assumption added".to_string();
            return;
        }
        let mut texts = self.assumptions().to_vec();
        texts.push(text.to_string());
        self.send_assumptions(texts);
    }

    /// Enter at the `A` prompt: a number removes that assumption, `all` every one.
    pub(super) fn remove_assumption(&mut self, text: &str) {
        let text = text.trim().trim_start_matches('#');
        let mut texts = self.assumptions().to_vec();
        if text == "all" || text == "*" {
            texts.clear();
        } else {
            match text.parse::<usize>() {
                Ok(k) if (1..=texts.len()).contains(&k) => {
                    texts.remove(k - 1);
                }
                _ => {
                    self.message = format!(
                        "no assumption #{text}: type a number from 1 to {}, or all",
                        texts.len()
                    );
                    return;
                }
            }
        }
        self.send_assumptions(texts);
    }

    fn send_assumptions(&mut self, texts: Vec<String>) {
        let rerun = self.tree.len() > 1;
        self.send_work("assume", Cmd::Assume { texts, rerun });
    }

    /// The worker accepted a new list: forget the old tree and all about its nodes (the
    /// breakpoints and the exception breakpoint stay). `Ready` brings the new root.
    pub(super) fn assumed(&mut self, texts: Vec<String>) {
        self.source.assumptions = texts;
        self.tree = Mirror::default();
        self.selected = NodeId(0);
        self.frame_up = 0;
        self.ghost = None;
        self.search = None;
        self.forget_answers();
    }
}
