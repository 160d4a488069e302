//! Reload (`L`), save (`S`), restore (`--session`) and the "changed on disk" note: the UI's
//! side. The worker does the file work (`worker/reload.rs`); the app sends it the settings
//! to carry ([`App::carry`]) and takes back what it restored ([`App::apply_carry`]).
//!
//! The event loop tells the app the program file's stamp a few times a second
//! ([`App::disk_stamp`]); when it differs from the stamp of the text loaded, the status
//! line says so and `L` reloads. A reload that loads starts a new tree: the worker replays
//! the explored steps that still apply and selects the node at the same path of branch
//! choices (or its deepest existing ancestor); breakpoints follow their lines
//! (`carry::remap`), the exception breakpoint stays. A reload that does not load shows
//! the diagnostics ([`Mode::Errors`]) and changes nothing.

use ratatui::crossterm::event::KeyEvent;

use super::{App, Mode};
use crate::base::SourceMap;
use crate::session::NodeId;
use crate::tui::carry::{Breakpoint, Carry};
use crate::tui::highlight::Highlighter;
use crate::tui::keys::{lookup, Action, Context};
use crate::tui::program_file::Stamp;
use crate::tui::protocol::{Cmd, Delta};
use crate::tui::tree::Mirror;

/// The program file as the UI knows it.
#[derive(Clone, Debug, Default)]
pub struct ReloadState {
    /// The program comes from a file that is watched.
    pub watching: bool,
    /// Its stamp when the text shown was read.
    pub loaded: Option<Stamp>,
    /// Its stamp now (as the event loop saw it last).
    pub on_disk: Option<Stamp>,
    /// The diagnostics of the last reload that did not load ([`Mode::Errors`] shows them).
    pub errors: String,
    /// First line of the diagnostics shown.
    pub errors_scroll: usize,
}

impl App {
    /// The settings a reload keeps and a session file saves.
    pub fn carry(&self) -> Carry {
        Carry {
            breakpoints: self
                .breakpoints
                .iter()
                .map(|(&line, &enabled)| Breakpoint {
                    line,
                    enabled,
                    condition: self.conditions.get(&line).map(|c| c.text.clone()),
                })
                .collect(),
            exceptions: self.exc_break,
            watches: self.watch.list.clone(),
            assumptions: self.source.assumptions.clone(),
        }
    }

    /// Take settings restored or carried over a reload.
    pub fn apply_carry(&mut self, carry: Carry) {
        self.breakpoints = carry
            .breakpoints
            .iter()
            .map(|b| (b.line, b.enabled))
            .collect();
        self.conditions = carry
            .breakpoints
            .iter()
            .filter_map(|b| {
                let text = b.condition.clone()?;
                Some((b.line, super::breaks::Condition { text, error: None }))
            })
            .collect();
        self.exc_break = carry.exceptions;
        // Answers belong to the old tree's nodes: the watches are asked again.
        self.watch = super::Watches::default();
        self.watch.list = carry.watches;
        self.source.assumptions = carry.assumptions;
        self.search = None;
        self.breaks_cursor = 0;
    }

    /// Watch the program file (`stamp`: when it was read), if there is one.
    pub fn watch_file(&mut self, stamp: Option<Stamp>, watching: bool) {
        self.reload.watching = watching;
        self.reload.loaded = stamp;
        self.reload.on_disk = stamp;
    }

    /// The program file's stamp now (`None`: it cannot be read). Returns whether the
    /// screen changes.
    pub fn disk_stamp(&mut self, now: Option<Stamp>) -> bool {
        let before = self.disk_note();
        self.reload.on_disk = now;
        self.disk_note() != before
    }

    /// What the status line says about the program file, if it changed on disk.
    pub fn disk_note(&self) -> Option<&'static str> {
        let r = &self.reload;
        if !r.watching || r.on_disk == r.loaded {
            None
        } else if r.on_disk.is_none() {
            Some("program file gone")
        } else {
            Some("program changed on disk: L reloads")
        }
    }

    /// `L`: reload the program from its file.
    pub(super) fn reload_key(&mut self) {
        let cmd = Cmd::Reload {
            selected: self.selected,
            carry: self.carry(),
        };
        self.send_work("reload", cmd);
    }

    /// `S`: save the session.
    pub(super) fn save_key(&mut self) {
        let cmd = Cmd::Save {
            selected: self.selected,
            carry: self.carry(),
        };
        self.send_work("save session", cmd);
    }

    /// Restore the session file given with `--session` (at the start).
    pub fn restore_session(&mut self) {
        self.send_work("restore session", Cmd::Restore);
    }

    /// A reload loaded: a new program text, a new tree (its root in `delta`).
    pub(super) fn reloaded(
        &mut self,
        text: String,
        stamp: Option<Stamp>,
        carry: Carry,
        delta: Delta,
    ) {
        self.source = SourceMap::new(self.source.name.clone(), text);
        self.code = Highlighter::new(&self.themes, self.theme).highlight(&self.source.text);
        self.tree = Mirror::default();
        self.tree.set_show_ghosts(self.show_pruned);
        self.tree.apply(&delta);
        self.stats = delta.stats;
        self.forget_answers();
        self.scroll.clear();
        self.apply_carry(carry);
        self.reload.loaded = stamp;
        self.reload.on_disk = stamp;
        self.reload.errors.clear();
        if self.mode == Mode::Errors {
            self.mode = Mode::Normal;
        }
        self.code_cursor = self.code_cursor.clamp(1, self.line_count());
        self.select(NodeId(0));
    }

    /// A reload did not load: show why.
    pub(super) fn load_errors(&mut self, text: String) {
        self.reload.errors = text;
        self.reload.errors_scroll = 0;
        self.mode = Mode::Errors;
    }

    /// Keys over the diagnostics of a failed reload: j/k scroll, any other key closes.
    pub(super) fn errors_key(&mut self, key: KeyEvent) {
        let max = self.reload.errors.lines().count().saturating_sub(1);
        match lookup(Context::Overlay, &key) {
            Some(Action::ScrollDown) => {
                self.reload.errors_scroll = (self.reload.errors_scroll + 1).min(max)
            }
            Some(Action::ScrollUp) => {
                self.reload.errors_scroll = self.reload.errors_scroll.saturating_sub(1)
            }
            _ => self.mode = Mode::Normal,
        }
    }
}
