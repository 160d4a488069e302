//! Prompts typed in the hint line: the exception class of the exception breakpoint (`X`).

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{App, Mode};
use crate::base::escape::is_printable;

/// What a prompt asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    /// The exception breakpoint's class (empty: any exception).
    Exception,
    /// `=`: the number of iterations κ stands for.
    Kappa,
}

impl PromptKind {
    /// The text before what the user types.
    pub fn label(self) -> &'static str {
        match self {
            PromptKind::Exception => "stop at exception class (empty: any): ",
            PromptKind::Kappa => "κ = ",
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
        match key.code {
            KeyCode::Esc => self.mode = Mode::Normal,
            KeyCode::Enter => {
                let text = std::mem::take(text);
                self.mode = Mode::Normal;
                match kind {
                    PromptKind::Exception => self.set_exception_class(&text),
                    PromptKind::Kappa => self.instantiate(&text),
                }
            }
            // Backspace pops a character (in the guard); on an empty prompt it leaves it.
            KeyCode::Backspace if text.pop().is_none() => self.mode = Mode::Normal,
            KeyCode::Char(c) if is_printable(c) && text.chars().count() < PROMPT_MAX => {
                text.push(c)
            }
            _ => {}
        }
    }
}
