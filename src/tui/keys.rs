//! The keymap as data (as helix's keymaps): one table ([`ROWS`], in `keys/table.rs`) of
//! (keys, [`Action`], description, [`Context`]). The input handler looks a key up in it
//! ([`lookup`]) and applies the action (`App::act`); the help overlay lists its rows, the
//! hint line names the keys of [`HINTS`] from it, and a test checks that the README's key
//! tables are its rows, descriptions included.
//!
//! Descriptions are written as the README shows them: `code` in backticks (the help
//! overlay draws them without the backticks, [`plain`]).

mod table;

pub use table::{BREAKS_HINTS, HINTS, OVERLAY_HINTS, ROWS};

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::tui::app::Pane;

/// A key of the table: a key code and the modifiers it needs. A key without modifiers
/// matches whatever modifiers come with it (a terminal may send `G` with Shift), unless
/// a key of the same code with those modifiers is bound too (Shift-← is not ←).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

impl Key {
    /// A character key.
    pub const fn ch(c: char) -> Key {
        Key::of(KeyCode::Char(c))
    }

    /// Any other key, without modifiers.
    pub const fn of(code: KeyCode) -> Key {
        Key {
            code,
            mods: KeyModifiers::NONE,
        }
    }

    /// `code` with Shift held.
    pub const fn shift(code: KeyCode) -> Key {
        Key {
            code,
            mods: KeyModifiers::SHIFT,
        }
    }

    /// `c` with Ctrl held.
    pub const fn ctrl(c: char) -> Key {
        Key {
            code: KeyCode::Char(c),
            mods: KeyModifiers::CONTROL,
        }
    }

    /// How the help and the README write the key.
    pub fn name(self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Down => "↓".to_string(),
            KeyCode::Up => "↑".to_string(),
            KeyCode::Left => "←".to_string(),
            KeyCode::Right => "→".to_string(),
            KeyCode::PageDown => "PgDn".to_string(),
            KeyCode::PageUp => "PgUp".to_string(),
            KeyCode::Home => "Home".to_string(),
            KeyCode::End => "End".to_string(),
            KeyCode::Enter => "Enter".to_string(),
            KeyCode::Esc => "Esc".to_string(),
            KeyCode::Tab => "Tab".to_string(),
            KeyCode::BackTab => "S-Tab".to_string(),
            KeyCode::Delete => "Del".to_string(),
            KeyCode::Backspace => "Backspace".to_string(),
            other => format!("{other:?}"),
        };
        if self.mods.contains(KeyModifiers::CONTROL) {
            format!("Ctrl-{}", base.to_uppercase())
        } else if self.mods.contains(KeyModifiers::SHIFT) {
            format!("S-{base}")
        } else {
            base
        }
    }
}

/// Where a row's keys act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// In every mode (at a prompt and over the overlays too).
    Any,
    /// The panes, with no prompt or overlay open.
    Normal,
    /// The breakpoint list (`B`); any key it does not bind closes it.
    Breakpoints,
    /// A box over the panes that scrolls: the help, the message log, a failed reload's
    /// errors, the `=` view; any key it does not bind closes it.
    Overlay,
    /// Typing at a prompt in the hint line (`/`, `:`, `W`, `+`, `a` …); other printable
    /// keys are typed.
    Prompt,
    /// The mouse (no keys: the row documents it).
    Mouse,
}

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Quit,
    Help,
    Messages,
    /// Esc: interrupt long work, or forget the message.
    Interrupt,
    FocusNext,
    FocusPrev,
    Focus(Pane),
    Down,
    Up,
    PageDown,
    PageUp,
    First,
    Last,
    CollapseOrParent,
    ExpandOrChild,
    ToggleFrames,
    ScrollLeft,
    ScrollRight,
    FrameUp,
    FrameDown,
    Step,
    Unroll,
    /// At a call of a function with a contract: step into its body.
    Inline,
    /// At a call of a function with a contract: use the contract instead of the body.
    UseContract,
    Fold,
    Instantiate,
    StepOver,
    Finish,
    Continue,
    Run,
    RunToCursor,
    RunAll,
    Model,
    Replay,
    Tests,
    ToggleBreak,
    BreakAt,
    BreakList,
    ExcBreak,
    ExcClass,
    Catch,
    Pruned,
    Why,
    /// `O`: the origins of the store's values.
    Origins,
    Assume,
    Unassume,
    Evaluate,
    Watch,
    NextException,
    PrevException,
    Search,
    PrevMatch,
    Reload,
    Save,
    Theme,
    /// At a prompt.
    Submit,
    Cancel,
    DeleteBack,
    /// A box over the panes (help, message log, …).
    ScrollDown,
    ScrollUp,
    /// In the origins box: go to the picked origin's node.
    OriginJump,
    /// The breakpoint list's own keys.
    ListDown,
    ListUp,
    ListToggle,
    ListCondition,
    ListDelete,
}

impl Action {
    /// Does the action ask the worker for work (a step or run, a model, a replay, tests,
    /// an explanation, an evaluation, a precondition, reload, save or a fold)? While the
    /// worker is busy such a key is dropped with [`crate::tui::app::BUSY`], never queued:
    /// a save, reload or test write must not run later by surprise.
    pub const fn needs_worker(self) -> bool {
        use Action::*;
        matches!(
            self,
            Step | Unroll
                | Inline
                | UseContract
                | StepOver
                | Finish
                | Continue
                | Run
                | RunAll
                | RunToCursor
                | Model
                | Replay
                | Tests
                | Why
                | Assume
                | Unassume
                | Evaluate
                | Watch
                | Reload
                | Save
                | Fold
                | Instantiate
        )
    }

    /// Does the action work on the selected node (so a ghost row, a pruned branch that
    /// is no node, refuses it)?
    pub const fn needs_node(self) -> bool {
        use Action::*;
        matches!(
            self,
            Step | Unroll
                | Inline
                | UseContract
                | StepOver
                | Finish
                | Continue
                | Run
                | RunAll
                | RunToCursor
                | Model
                | Replay
                | Tests
                | ExpandOrChild
                | Fold
                | Instantiate
        )
    }

    /// Is the action a move (it forgets the last message; a move with news sets one)?
    pub const fn is_move(self) -> bool {
        use Action::*;
        matches!(
            self,
            Down | Up | PageDown | PageUp | First | Last | CollapseOrParent | ExpandOrChild
        )
    }
}

/// One row of the key table: keys (each bound to an action) and what they do.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub context: Context,
    pub keys: &'static [(Key, Action)],
    /// What the keys do, as the help and the README say it (`code` in backticks).
    pub what: &'static str,
}

impl Row {
    /// The keys' names, in the table's order; a run of three or more digits is one
    /// name (`1–6`); the mouse row: `mouse`.
    pub fn key_names(&self) -> Vec<String> {
        if self.context == Context::Mouse {
            return vec!["mouse".to_string()];
        }
        let digit = |k: &Key| match k.code {
            KeyCode::Char(c) if k.mods.is_empty() => c.to_digit(10),
            _ => None,
        };
        let mut out = Vec::new();
        let mut k = 0;
        while k < self.keys.len() {
            let mut end = k;
            while let (Some(a), Some(b)) = (
                digit(&self.keys[end].0),
                self.keys.get(end + 1).and_then(|(n, _)| digit(n)),
            ) {
                if b != a + 1 {
                    break;
                }
                end += 1;
            }
            if end >= k + 2 {
                out.push(format!(
                    "{}–{}",
                    self.keys[k].0.name(),
                    self.keys[end].0.name()
                ));
                k = end + 1;
            } else {
                out.push(self.keys[k].0.name());
                k += 1;
            }
        }
        out
    }

    /// The keys as the help shows them: `j k ↓ ↑`.
    pub fn label(&self) -> String {
        self.key_names().join(" ")
    }

    /// The row as a line of the README's key table: ``| `j` `k` | move … |``.
    pub fn markdown(&self) -> String {
        let keys = if self.context == Context::Mouse {
            "mouse".to_string()
        } else {
            self.key_names()
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!("| {keys} | {} |", self.what)
    }
}

/// The action `key` has in `context` (keys of [`Context::Any`] first), if any.
pub fn lookup(context: Context, key: &KeyEvent) -> Option<Action> {
    let rows = || {
        ROWS.iter()
            .filter(move |r| r.context == Context::Any || r.context == context)
            .flat_map(|r| r.keys.iter())
    };
    // A key with modifiers (Ctrl-C, Shift-←) before the same key without them.
    rows()
        .find(|(k, _)| !k.mods.is_empty() && k.code == key.code && key.modifiers.contains(k.mods))
        .or_else(|| rows().find(|(k, _)| k.mods.is_empty() && k.code == key.code))
        .map(|(_, a)| *a)
}

/// The name of the first key bound to `action` in `context` (for the hint line).
pub fn key_of(context: Context, action: Action) -> Option<String> {
    ROWS.iter()
        .filter(|r| r.context == context)
        .flat_map(|r| r.keys.iter())
        .find(|(_, a)| *a == action)
        .map(|(k, _)| k.name())
}

/// A hint: the first key of each action, and a word (`j k move`).
pub fn hint(context: Context, actions: &[Action], word: &'static str) -> (String, &'static str) {
    let keys: Vec<String> = actions.iter().filter_map(|a| key_of(context, *a)).collect();
    (keys.join(" "), word)
}

/// A description as the help overlay shows it: without the Markdown backticks.
pub fn plain(what: &str) -> String {
    what.replace('`', "")
}

#[cfg(test)]
mod tests;
