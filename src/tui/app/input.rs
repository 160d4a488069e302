//! Keys and mouse → actions on the [`App`].

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Position;

use super::{App, Mode, Pane, PromptKind, BUSY};
use crate::base::escape::is_printable;

/// A search prompt takes at most this many characters from a paste.
const PASTE_MAX: usize = 256;
use crate::session::{LoopMode, NodeKind};
use crate::tui::keys::{lookup, Action, Context};
use crate::tui::protocol::Cmd;

impl App {
    /// Handle one key press.
    pub fn key(&mut self, key: KeyEvent) {
        self.log_message();
        self.key_inner(key);
        self.log_message();
    }

    fn key_inner(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        // (Ctrl-C quits whatever is open)
        if lookup(Context::Any, &key) == Some(Action::Quit) {
            self.quit = true;
            return;
        }
        if self.instance_key(key) {
            return;
        }
        match &mut self.mode {
            Mode::Help => {
                // The overlay keys scroll a help that does not fit; any other key closes it.
                match lookup(Context::Overlay, &key) {
                    Some(Action::ScrollDown) => {
                        self.help_scroll = (self.help_scroll + 1).min(self.help_max_scroll)
                    }
                    Some(Action::ScrollUp) => self.help_scroll = self.help_scroll.saturating_sub(1),
                    _ => self.mode = Mode::Normal,
                }
                return;
            }
            Mode::Search(text) => {
                match (lookup(Context::Prompt, &key), key.code) {
                    (Some(Action::Cancel), _) => self.mode = Mode::Normal,
                    (Some(Action::Submit), _) => {
                        let text = std::mem::take(text);
                        self.mode = Mode::Normal;
                        self.search(&text, true);
                    }
                    (Some(Action::DeleteBack), _) => {
                        // Backspace on an empty prompt leaves it.
                        let was_empty = text.pop().is_none();
                        if was_empty {
                            self.mode = Mode::Normal;
                        }
                    }
                    // (a key can be a format character too: U+202E would reorder the line)
                    (None, KeyCode::Char(c)) if is_printable(c) => text.push(c),
                    _ => {}
                }
                return;
            }
            Mode::Breakpoints => return self.breaks_key(key),
            Mode::Prompt(..) => return self.prompt_key(key),
            Mode::Errors => return self.errors_key(key),
            Mode::Messages => return self.log_key(key),
            Mode::Origins => return self.origins_box_key(key),
            Mode::Normal => {}
        }
        if let Some(action) = lookup(Context::Normal, &key) {
            self.act(action);
        }
    }

    /// Do what a key of the normal mode's table does.
    fn act(&mut self, action: Action) {
        // While the worker is busy, a key that needs it is dropped with a word (never
        // queued: a save, reload or test write must not run later by surprise); moving
        // around, panes, search and breakpoints keep working.
        if self.busy.is_some() && action.needs_worker() {
            self.message = BUSY.to_string();
            return;
        }
        // Moving around forgets the last message (a move that has news sets a new one).
        if action.is_move() {
            self.message.clear();
        }
        // A ghost row (a pruned branch) is not a node: nothing to step, run or model there.
        if action.needs_node() && self.focus == Pane::Tree && self.selected_ghost().is_some() {
            self.message = "a pruned branch: w explains it".to_string();
            return;
        }
        match action {
            Action::Quit => self.quit = true,
            Action::Help => {
                self.mode = Mode::Help;
                self.help_scroll = 0;
            }
            Action::Interrupt => {
                // (an evaluation the solver is slow on is interrupted too)
                if self.busy.is_some() || self.watch.has_pending() {
                    self.interrupt();
                } else {
                    self.message.clear();
                }
            }
            Action::FocusNext => self.cycle_focus(1),
            Action::FocusPrev => self.cycle_focus(Pane::ALL.len() - 1),
            // pudb's habit: a number focuses a pane.
            Action::Focus(pane) => {
                self.focus_pane(pane);
                self.message = format!("focus: {}", pane.title());
            }
            Action::Down => self.move_by(1),
            Action::Up => self.move_by(-1),
            Action::PageDown => self.move_by(self.page() as isize),
            Action::PageUp => self.move_by(-(self.page() as isize)),
            Action::First => self.move_by(isize::MIN / 2),
            Action::Last => self.move_by(isize::MAX / 2),
            Action::CollapseOrParent => self.collapse_or_parent(),
            Action::ExpandOrChild => self.expand_or_child(),
            Action::ToggleFrames => self.toggle_all_frames(),
            // Sideways scrolling only moves the view: never queued behind the worker.
            Action::ScrollLeft => self.scroll_sideways(-(super::hscroll::STEP as isize)),
            Action::ScrollRight => self.scroll_sideways(super::hscroll::STEP as isize),
            Action::Step => self.step(LoopMode::Invariant),
            Action::Unroll => {
                if self.tree.node(self.selected).info.at_annotated_loop {
                    self.step(LoopMode::UnrollOnce);
                } else {
                    self.message = "u unrolls at an annotated loop only".to_string();
                }
            }
            Action::Inline | Action::UseContract => {
                let mode = if action == Action::Inline {
                    crate::session::CallMode::Inline
                } else {
                    crate::session::CallMode::Contract
                };
                let id = self.selected;
                if self.tree.node(id).info.view.call_choice {
                    self.work("step", Cmd::StepCall(id, mode));
                } else {
                    self.message =
                        "i/o choose at a call of a function with a contract only".to_string();
                }
            }
            Action::StepOver => self.work("step over", Cmd::StepOver(self.selected)),
            Action::Finish => self.work("finish frame", Cmd::Finish(self.selected)),
            Action::Continue => self.resume_key(),
            Action::Run => self.run_key(),
            Action::RunAll => self.work("run", Cmd::Run(self.selected)),
            Action::RunToCursor => self.run_to_cursor(),
            Action::BreakList => {
                self.mode = Mode::Breakpoints;
                self.breaks_cursor = 0;
            }
            Action::ExcBreak => self.toggle_exception_break(),
            Action::ExcClass => self.mode = Mode::Prompt(PromptKind::Exception, String::new()),
            Action::Evaluate => self.mode = Mode::Prompt(PromptKind::Evaluate, String::new()),
            Action::Watch => self.mode = Mode::Prompt(PromptKind::Watch, String::new()),
            Action::BreakAt => self.mode = Mode::Prompt(PromptKind::BreakAt, String::new()),
            Action::Model => {
                // (the model pane again, not the replay that replaced it)
                self.replays.remove(&self.selected);
                self.request(Cmd::Model(self.selected));
                self.show_detail(Pane::Model);
            }
            Action::Replay => {
                self.request(Cmd::Replay(self.selected));
                self.show_detail(Pane::Model);
            }
            Action::Tests => self.work("write tests", Cmd::Tests(self.selected)),
            Action::ToggleBreak => self.break_key(),
            Action::NextException => self.next_exception(true),
            Action::PrevException => self.next_exception(false),
            Action::Search => self.mode = Mode::Search(String::new()),
            Action::PrevMatch => match self.last_search.clone() {
                Some(s) => self.search(&s, false),
                None => self.message = "no search yet: / starts one".to_string(),
            },
            Action::Theme => self.next_theme(),
            Action::Pruned => self.toggle_pruned(),
            Action::Why => self.why(),
            Action::Origins => self.origins_key(),
            Action::Assume => self.assume_key(),
            Action::Unassume => self.unassume_key(),
            Action::Reload => self.reload_key(),
            Action::Save => self.save_key(),
            Action::Fold => self.refold_key(),
            Action::Instantiate => self.instantiate_key(),
            Action::Messages => self.open_log(),
            Action::Catch => self.toggle_catch(),
            // gdb's `up`/`down` (pudb's u/d), in any pane: the frame the store, `:` and
            // the watches read; the call stack pane marks it.
            Action::FrameUp => self.move_frame(1),
            Action::FrameDown => self.move_frame(-1),
            // (the breakpoint list's keys: `App::breaks_key`; a prompt's and an overlay's:
            // their own)
            Action::Submit
            | Action::Cancel
            | Action::DeleteBack
            | Action::ScrollDown
            | Action::OriginJump
            | Action::ScrollUp
            | Action::ListDown
            | Action::ListUp
            | Action::ListToggle
            | Action::ListCondition
            | Action::ListDelete => {}
        }
    }

    /// Handle a paste (bracketed paste): in the search prompt or a prompt (`a`, `X`) its text is typed
    /// (non-printable characters dropped, at most [`PASTE_MAX`] characters); elsewhere it is ignored with a
    /// message, so pasted text never runs as commands.
    pub fn paste(&mut self, text: &str) {
        self.log_message();
        match &mut self.mode {
            Mode::Search(prompt) | Mode::Prompt(_, prompt) => {
                let room = PASTE_MAX.saturating_sub(prompt.chars().count());
                prompt.extend(text.chars().filter(|&c| is_printable(c)).take(room));
            }
            _ => {
                self.message = format!(
                    "paste ignored ({} characters): commands are typed keys; / opens a search that takes a paste",
                    text.chars().count()
                );
            }
        }
        self.log_message();
    }

    /// Handle a mouse event: a left click selects a tree row or a code line (a click in
    /// the code gutter toggles a breakpoint); the wheel scrolls the pane under it.
    pub fn mouse(&mut self, ev: MouseEvent) {
        self.log_message();
        self.mouse_inner(ev);
        self.log_message();
    }

    fn mouse_inner(&mut self, ev: MouseEvent) {
        let at = Position::new(ev.column, ev.row);
        let Some((pane, rect)) = self
            .areas
            .panes
            .iter()
            .copied()
            .find(|(_, r)| r.contains(at))
        else {
            return;
        };
        if self.mode != Mode::Normal {
            self.mode = Mode::Normal;
        }
        // Row inside the pane's border.
        let row = ev.row.saturating_sub(rect.y + 1) as usize;
        match ev.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                self.focus_pane(pane);
                if ev.row == rect.y || ev.row + 1 >= rect.y + rect.height {
                    return; // the border
                }
                let index = self.scroll_of(pane) + row;
                match pane {
                    Pane::Tree => {
                        self.select_row(index);
                    }
                    Pane::Code => {
                        let line = index + 1;
                        if line <= self.line_count() {
                            self.code_cursor = line;
                            if ev.column < rect.x + 1 + self.areas.gutter {
                                self.toggle_breakpoint(line);
                            }
                        }
                    }
                    _ => {}
                }
            }
            MouseEventKind::ScrollDown => self.wheel(pane, 3),
            MouseEventKind::ScrollUp => self.wheel(pane, -3),
            _ => {}
        }
    }

    fn cycle_focus(&mut self, by: usize) {
        let next = Pane::ALL[(self.focus.index() + by) % Pane::ALL.len()];
        self.focus_pane(next);
    }

    fn focus_pane(&mut self, pane: Pane) {
        self.focus = pane;
        if !matches!(pane, Pane::Code | Pane::Tree) {
            self.detail = pane;
        }
    }

    /// Show a detail pane (in the narrow layout, where only one is visible).
    pub(super) fn show_detail(&mut self, pane: Pane) {
        self.detail = pane;
    }

    /// Rows of the focused pane (for PgUp/PgDn).
    fn page(&self) -> usize {
        self.area(self.focus)
            .map_or(10, |r| r.height.saturating_sub(2) as usize)
            .max(1)
    }

    /// The wheel moves the selection (tree), the cursor (code) or the text (other panes).
    fn wheel(&mut self, pane: Pane, by: isize) {
        let focus = std::mem::replace(&mut self.focus, pane);
        self.move_by(by);
        self.focus = focus;
    }

    fn step(&mut self, mode: LoopMode) {
        let id = self.selected;
        let node = self.tree.node(id);
        match &node.info.kind() {
            NodeKind::Open => {
                let cmd = if node.info.at_annotated_loop {
                    Cmd::StepWith(id, mode)
                } else {
                    Cmd::Step(id)
                };
                self.work("step", cmd);
            }
            NodeKind::Inner => {
                // Already stepped: stepping moves along the tree.
                if let Some(&c) = node.children.first() {
                    self.select(c);
                }
            }
            NodeKind::Leaf(_) => self.message = "a leaf: the path ended here".to_string(),
        }
    }

    pub(super) fn work(&mut self, what: &'static str, cmd: Cmd) {
        if let Some(node) = self.tree.get(self.selected) {
            if node.info.kind() != NodeKind::Open && matches!(cmd, Cmd::StepOver(_)) {
                // Step over on a stepped node: move along like `s`.
                return self.step(LoopMode::Invariant);
            }
        }
        self.send_work(what, cmd);
    }
}
