//! The message log (`M`): every message the status line showed this session, so a long one
//! (a restored session's notes, an explanation) is never only in a cut-off status line.
//!
//! The status line shows [`App::message`], which many keys and replies set. The log takes
//! it whenever it may have changed: around every key, paste, click and reply
//! ([`App::log_message`]) and before long work clears it. A message equal to the newest
//! entry is not repeated. The overlay lists the entries newest first, wrapped whole.

use ratatui::crossterm::event::KeyEvent;

use super::{App, Mode};
use crate::tui::keys::{lookup, Action, Context};

/// The log keeps at most this many messages (the oldest go first).
pub const LOG_MAX: usize = 500;

/// The session's messages, oldest first, and the overlay's scroll.
#[derive(Clone, Debug, Default)]
pub struct MessageLog {
    pub entries: std::collections::VecDeque<String>,
    /// First row of the overlay shown, and the most it can scroll (set when drawn).
    pub scroll: usize,
    pub max_scroll: usize,
}

impl MessageLog {
    /// Add `message` unless it is empty or the newest entry already.
    pub fn push(&mut self, message: &str) {
        if message.is_empty() || self.entries.back().is_some_and(|m| m == message) {
            return;
        }
        if self.entries.len() >= LOG_MAX {
            self.entries.pop_front();
        }
        self.entries.push_back(message.to_string());
    }

    /// The messages, newest first.
    pub fn newest_first(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().rev().map(String::as_str)
    }
}

impl App {
    /// Put the status line's message in the log (if it is new).
    pub fn log_message(&mut self) {
        self.log.push(&self.message);
    }

    /// `M`: open the message log.
    pub(super) fn open_log(&mut self) {
        self.log.scroll = 0;
        self.mode = Mode::Messages;
    }

    /// Keys over the message log: j/k scroll, any other key closes it.
    pub(super) fn log_key(&mut self, key: KeyEvent) {
        let log = &mut self.log;
        match lookup(Context::Overlay, &key) {
            Some(Action::ScrollDown) => log.scroll = (log.scroll + 1).min(log.max_scroll),
            Some(Action::ScrollUp) => log.scroll = log.scroll.saturating_sub(1),
            _ => self.mode = Mode::Normal,
        }
    }
}
