//! Horizontal scrolling of long rows (`<` `>`, Shift-← Shift-→): the tree pane's rows
//! (deep prefixes, long conditions) and the code pane's lines. Each pane keeps its own
//! column; drawing clamps it to the longest row on screen.

use super::{App, Pane};

/// Columns one key press scrolls.
pub const STEP: usize = 8;

impl App {
    /// The pane sideways keys scroll: the code pane when it has the focus, else the tree.
    fn sideways_pane(&self) -> Pane {
        if self.focus == Pane::Code {
            Pane::Code
        } else {
            Pane::Tree
        }
    }

    /// First column shown of `pane`'s rows.
    pub fn hscroll_of(&self, pane: Pane) -> usize {
        self.hscroll.get(&pane).copied().unwrap_or(0)
    }

    /// Scroll the tree (or the focused code pane) `by` columns (negative: left).
    pub(super) fn scroll_sideways(&mut self, by: isize) {
        let pane = self.sideways_pane();
        let next = self.hscroll_of(pane).saturating_add_signed(by);
        self.hscroll.insert(pane, next);
        // (the tree's title shows the column it starts at, once drawn)
        self.message = match (by < 0, next) {
            (_, 0) => format!("{}: rows from their start", pane.title()),
            (true, _) => format!("{}: scrolled left", pane.title()),
            (false, _) => format!("{}: scrolled right (< back)", pane.title()),
        };
    }
}
