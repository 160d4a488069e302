//! Prompts typed in the hint line: the exception class of the exception breakpoint (`X`),
//! an expression to evaluate (`:`) or watch (`W`), a breakpoint's condition (`c` in `B`),
//! a precondition to add (`a`) or remove (`A`), a breakpoint's place (`+`).

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{App, Mode};
use crate::base::escape::is_printable;
use crate::tui::keys::{lookup, Action, Context};

/// What a prompt asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    /// The exception breakpoint's class (empty: any exception).
    Exception,
    /// A precondition to add (`a`).
    Assume,
    /// Which precondition to remove (`A`): its number, or `all`.
    Unassume,
    /// A minipy expression to evaluate at the selected node (`:`).
    Evaluate,
    /// An expression to watch (empty: clear the watches).
    Watch,
    /// The condition of the breakpoint on this line (empty: none).
    Condition(usize),
    /// `=`: the number of iterations κ stands for.
    Kappa,
    /// `+`: a breakpoint at a line number or a function's name.
    BreakAt,
}

impl PromptKind {
    /// The text before what the user types.
    pub fn label(self) -> String {
        match self {
            PromptKind::Exception => "stop at exception class (empty: any): ".to_string(),
            PromptKind::Assume => "assume (a condition over the inputs): ".to_string(),
            PromptKind::Unassume => "remove assumption # (or all): ".to_string(),
            PromptKind::Evaluate => "evaluate: ".to_string(),
            PromptKind::Watch => "watch (a watched one: remove it; empty: clear all): ".to_string(),
            PromptKind::Condition(line) => format!("line {line} stops only if (empty: always): "),
            PromptKind::Kappa => "κ = ".to_string(),
            PromptKind::BreakAt => "break at (a line number or a function's name): ".to_string(),
        }
    }
}

/// A prompt takes at most this many characters.
pub const PROMPT_MAX: usize = 256;

impl App {
    /// Keys at a prompt: text, Backspace, Enter (apply), Esc (cancel).
    pub(super) fn prompt_key(&mut self, key: KeyEvent) {
        let Mode::Prompt(kind, text) = &mut self.mode else {
            return;
        };
        let kind = *kind;
        match (lookup(Context::Prompt, &key), key.code) {
            (Some(Action::Cancel), _) => self.mode = Mode::Normal,
            (Some(Action::Submit), _) => {
                let text = std::mem::take(text);
                self.mode = Mode::Normal;
                match kind {
                    PromptKind::Exception => self.set_exception_class(&text),
                    PromptKind::Assume => self.add_assumption(&text),
                    PromptKind::Unassume => self.remove_assumption(&text),
                    PromptKind::Evaluate => self.evaluate_prompt(&text),
                    PromptKind::Watch => self.watch_prompt(&text),
                    PromptKind::Condition(line) => self.set_condition(line, &text),
                    PromptKind::Kappa => self.instantiate(&text),
                    PromptKind::BreakAt => self.break_at(&text),
                }
            }
            // Backspace pops a character (in the guard); on an empty prompt it leaves it.
            (Some(Action::DeleteBack), _) if text.pop().is_none() => self.mode = Mode::Normal,
            (None, KeyCode::Char(c)) if is_printable(c) && text.chars().count() < PROMPT_MAX => {
                text.push(c)
            }
            _ => {}
        }
    }
}
