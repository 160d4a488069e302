//! What several debugger tests read off the harness: the status line, the message.

use symdbg::tui::harness::Harness;

/// The status line: the screen's line above the key hints.
pub fn status_line(h: &Harness) -> String {
    h.screen()
        .lines()
        .rev()
        .nth(1)
        .unwrap_or_default()
        .to_string()
}

/// The debugger's message (the status line's text) says `needle`.
#[track_caller]
pub fn assert_message(h: &Harness, needle: &str) {
    assert!(
        h.app.message.contains(needle),
        "{needle:?} not in the message: {}",
        h.app.message
    );
}
