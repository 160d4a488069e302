//! Keys and mouse → actions on the [`App`].

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Position;

use super::{App, Mode, Pane, PromptKind, BUSY};
use crate::base::escape::is_printable;

/// A search prompt takes at most this many characters from a paste.
const PASTE_MAX: usize = 256;
use crate::session::{LoopMode, NodeKind};
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
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c')) {
            self.quit = true;
            return;
        }
        if self.instance_key(key) {
            return;
        }
        match &mut self.mode {
            Mode::Help => {
                // Arrows and j/k scroll a help that does not fit; any other key closes it.
                match key.code {
                    KeyCode::Char('j') | KeyCode::Down | KeyCode::PageDown | KeyCode::Char(' ') => {
                        self.help_scroll = (self.help_scroll + 1).min(self.help_max_scroll)
                    }
                    KeyCode::Char('k') | KeyCode::Up | KeyCode::PageUp => {
                        self.help_scroll = self.help_scroll.saturating_sub(1)
                    }
                    _ => self.mode = Mode::Normal,
                }
                return;
            }
            Mode::Search(text) => {
                match key.code {
                    KeyCode::Esc => self.mode = Mode::Normal,
                    KeyCode::Enter => {
                        let text = std::mem::take(text);
                        self.mode = Mode::Normal;
                        self.search(&text, true);
                    }
                    KeyCode::Backspace => {
                        // Backspace on an empty prompt leaves it.
                        let was_empty = text.pop().is_none();
                        if was_empty {
                            self.mode = Mode::Normal;
                        }
                    }
                    // (a key can be a format character too: U+202E would reorder the line)
                    KeyCode::Char(c) if is_printable(c) => text.push(c),
                    _ => {}
                }
                return;
            }
            Mode::Breakpoints => return self.breaks_key(key),
            Mode::Prompt(..) => return self.prompt_key(key),
            Mode::Errors => return self.errors_key(key),
            Mode::Messages => return self.log_key(key),
            Mode::Normal => {}
        }
        // Sideways scrolling only moves the view: never queued behind the worker.
        if let Some(by) = super::hscroll::sideways(&key) {
            return self.scroll_sideways(by);
        }
        // While the worker is busy, a key that needs it is dropped with a word (never
        // queued: a save, reload or test write must not run later by surprise); moving
        // around, panes, search and breakpoints keep working.
        if self.busy.is_some() && needs_worker(&key) {
            self.message = BUSY.to_string();
            return;
        }
        // Moving around forgets the last message (a move that has news sets a new one).
        if matches!(
            key.code,
            KeyCode::Char('j' | 'k' | 'h' | 'l' | 'g' | 'G')
                | KeyCode::Up
                | KeyCode::Down
                | KeyCode::Left
                | KeyCode::Right
                | KeyCode::PageUp
                | KeyCode::PageDown
                | KeyCode::Home
                | KeyCode::End
        ) {
            self.message.clear();
        }
        // A ghost row (a pruned branch) is not a node: nothing to step, run or model there.
        if self.focus == Pane::Tree
            && self.selected_ghost().is_some()
            && matches!(
                key.code,
                KeyCode::Char(
                    's' | 'u' | 'n' | 'f' | 'c' | 'r' | 'C' | 'm' | 'R' | 'T' | 'l' | 'F' | '='
                ) | KeyCode::Char('H')
                    | KeyCode::Enter
                    | KeyCode::Right
            )
        {
            self.message = "a pruned branch: w explains it".to_string();
            return;
        }
        match key.code {
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Char('?') => {
                self.mode = Mode::Help;
                self.help_scroll = 0;
            }
            KeyCode::Esc => {
                // (an evaluation the solver is slow on is interrupted too)
                if self.busy.is_some() || self.watch.has_pending() {
                    self.interrupt();
                } else {
                    self.message.clear();
                }
            }
            KeyCode::Tab => self.cycle_focus(1),
            // pudb's habit: a number focuses a pane (1 code, 2 tree, 3 path, 4 store, 5
            // call stack, 6 model).
            KeyCode::Char(c @ '1'..='6') => {
                let pane = Pane::ALL[c as usize - '1' as usize];
                self.focus_pane(pane);
                self.message = format!("focus: {}", pane.title());
            }
            KeyCode::BackTab => self.cycle_focus(Pane::ALL.len() - 1),
            KeyCode::Char('j') | KeyCode::Down => self.move_by(1),
            KeyCode::Char('k') | KeyCode::Up => self.move_by(-1),
            KeyCode::PageDown => self.move_by(self.page() as isize),
            KeyCode::PageUp => self.move_by(-(self.page() as isize)),
            KeyCode::Char('g') | KeyCode::Home => self.move_by(isize::MIN / 2),
            KeyCode::Char('G') | KeyCode::End => self.move_by(isize::MAX / 2),
            KeyCode::Char('h') | KeyCode::Left => self.collapse_or_parent(),
            KeyCode::Char('l') | KeyCode::Right => self.expand_or_child(),
            KeyCode::Char('z') => self.toggle_all_frames(),
            KeyCode::Char('s') | KeyCode::Enter => self.step(LoopMode::Invariant),
            KeyCode::Char('u') => {
                if self.tree.node(self.selected).info.at_annotated_loop {
                    self.step(LoopMode::UnrollOnce);
                } else {
                    self.message = "u unrolls at an annotated loop only".to_string();
                }
            }
            KeyCode::Char('n') => self.work("step over", Cmd::StepOver(self.selected)),
            KeyCode::Char('f') => self.work("finish frame", Cmd::Finish(self.selected)),
            KeyCode::Char('c') => self.resume_key(),
            KeyCode::Char('r') => self.run_key(),
            KeyCode::Char('C') => self.work("run", Cmd::Run(self.selected)),
            KeyCode::Char('B') => {
                self.mode = Mode::Breakpoints;
                self.breaks_cursor = 0;
            }
            KeyCode::Char('x') => self.toggle_exception_break(),
            KeyCode::Char('X') => self.mode = Mode::Prompt(PromptKind::Exception, String::new()),
            KeyCode::Char(':') => self.mode = Mode::Prompt(PromptKind::Evaluate, String::new()),
            KeyCode::Char('W') => self.mode = Mode::Prompt(PromptKind::Watch, String::new()),
            KeyCode::Char('m') => {
                // (the model pane again, not the replay that replaced it)
                self.replays.remove(&self.selected);
                self.request(Cmd::Model(self.selected));
                self.show_detail(Pane::Model);
            }
            KeyCode::Char('R') => {
                self.request(Cmd::Replay(self.selected));
                self.show_detail(Pane::Model);
            }
            KeyCode::Char('T') => self.work("write tests", Cmd::Tests(self.selected)),
            KeyCode::Char('b') => self.break_key(),
            KeyCode::Char('e') => self.next_exception(true),
            KeyCode::Char('E') => self.next_exception(false),
            KeyCode::Char('/') => self.mode = Mode::Search(String::new()),
            KeyCode::Char('N') => match self.last_search.clone() {
                Some(s) => self.search(&s, false),
                None => self.message = "no search yet: / starts one".to_string(),
            },
            KeyCode::Char('t') => self.next_theme(),
            KeyCode::Char('p') => self.toggle_pruned(),
            KeyCode::Char('w') => self.why(),
            KeyCode::Char('a') => self.assume_key(),
            KeyCode::Char('A') => self.unassume_key(),
            KeyCode::Char('L') => self.reload_key(),
            KeyCode::Char('S') => self.save_key(),
            KeyCode::Char('F') => self.refold_key(),
            KeyCode::Char('=') => self.instantiate_key(),
            KeyCode::Char('M') => self.open_log(),
            KeyCode::Char('+') => self.mode = Mode::Prompt(PromptKind::BreakAt, String::new()),
            KeyCode::Char('H') => self.run_to_cursor(),
            KeyCode::Char('!') => self.toggle_catch(),
            // gdb's `up`/`down` (pudb's u/d), in any pane: the frame the store, `:` and
            // the watches read; the call stack pane marks it.
            KeyCode::Char('U') => self.move_frame(1),
            KeyCode::Char('D') => self.move_frame(-1),
            _ => {}
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

/// Does `key` (in the normal mode) ask the worker for work: a step or run, a model, a
/// replay, tests, an explanation, an evaluation, a precondition, reload, save or a fold?
fn needs_worker(key: &KeyEvent) -> bool {
    matches!(
        key.code,
        KeyCode::Enter
            | KeyCode::Char(
                's' | 'u'
                    | 'n'
                    | 'f'
                    | 'c'
                    | 'r'
                    | 'C'
                    | 'm'
                    | 'R'
                    | 'T'
                    | 'w'
                    | 'a'
                    | 'A'
                    | ':'
                    | 'W'
                    | 'L'
                    | 'S'
                    | 'F'
                    | '='
                    | 'H'
            )
    )
}
