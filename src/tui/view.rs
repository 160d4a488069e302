//! Drawing the [`App`] with ratatui, into any backend (a `TestBackend` in tests).
//!
//! Layouts: wide (≥ 110 columns): code and path condition on the left; tree, store and call
//! stack, model on the right. Narrow (≥ 60 columns): code, tree, and one detail pane (the
//! last focused of path condition, store, call stack and model; Tab cycles). Smaller than
//! [`MIN_WIDTH`]×[`MIN_HEIGHT`]: a message instead of a garbled layout. Every pane draws
//! only the rows on screen.

mod breakpoints;
mod code;
mod details;
mod fold;
mod origins;
mod overlay;
mod reload;
mod status;
mod tree;
mod watch;
mod why;

use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::Style;
use ratatui::widgets::{Block, BorderType, Borders};
use ratatui::Frame;

use super::app::{App, Areas, Mode, Pane};

pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 16;
/// From this width on, all six panes are shown at once.
pub const WIDE: u16 = 110;

/// Draw the whole screen, in the terminal's colour depth: first the layout step ([`fit`]),
/// the only part that changes the [`App`], then the panes, which draw from `&App`.
pub fn draw(f: &mut Frame, app: &mut App) {
    fit(app, f.area());
    draw_frame(f, app);
    super::color::fit_buffer(f.buffer_mut(), app.colors);
}

/// The three rows of the screen: the panes, the status line, the hint line.
fn rows(area: Rect) -> [Rect; 3] {
    Layout::vertical([
        Constraint::Min(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area)
}

/// The layout step: where the panes go (kept for the mouse and page sizes), and each
/// scroll (rows, columns, the overlays') made to fit what will be drawn: the selection
/// and the code cursor in view, never past the end.
pub fn fit(app: &mut App, area: Rect) {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        app.areas = Areas::default();
        return;
    }
    let [main, _, _] = rows(area);
    let panes = layout(main, app);
    app.areas.panes = panes.clone();
    for (pane, rect) in panes {
        match pane {
            Pane::Code => code::fit(app, rect),
            Pane::Tree => tree::fit(app, rect),
            p => details::fit(app, p, rect),
        }
    }
    match &app.mode {
        Mode::Help => overlay::fit_help(app, area),
        Mode::Messages => overlay::fit_messages(app, area),
        _ => {}
    }
    fold::fit(app, area);
}

fn draw_frame(f: &mut Frame, app: &App) {
    let area = f.area();
    let base = Style::default().bg(app.palette.bg).fg(app.palette.fg);
    f.buffer_mut().set_style(area, base);
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return overlay::too_small(f, app, area);
    }
    let [_, status_area, hints_area] = rows(area);
    for &(pane, rect) in &app.areas.panes {
        match pane {
            Pane::Code => code::draw(f, app, rect),
            Pane::Tree => tree::draw(f, app, rect),
            p => details::draw(f, app, p, rect),
        }
    }
    status::status(f, app, status_area);
    status::hints(f, app, hints_area);
    match &app.mode {
        Mode::Help => overlay::help(f, app, area),
        Mode::Breakpoints => breakpoints::draw(f, app, area),
        Mode::Errors => reload::errors(f, app, area),
        Mode::Messages => overlay::messages(f, app, area),
        Mode::Origins => origins::draw(f, app, area),
        Mode::Search(_) | Mode::Prompt(..) | Mode::Normal => {}
    }
    fold::draw(f, app, area);
}

/// Where each pane goes.
fn layout(main: Rect, app: &App) -> Vec<(Pane, Rect)> {
    if main.width >= WIDE {
        let [left, right] =
            Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)])
                .areas(main);
        let [code, path] =
            Layout::vertical([Constraint::Percentage(62), Constraint::Percentage(38)]).areas(left);
        // An evaluation or watches under the store: the store and call stack get more room.
        let (tree_h, mid_h) = if watch::shown(app) {
            (38, 40)
        } else {
            (52, 26)
        };
        let [tree, mid, model] = Layout::vertical([
            Constraint::Percentage(tree_h),
            Constraint::Percentage(mid_h),
            Constraint::Percentage(22),
        ])
        .areas(right);
        let store_w = if watch::shown(app) { 60 } else { 50 };
        let [store, stack] = Layout::horizontal([
            Constraint::Percentage(store_w),
            Constraint::Percentage(100 - store_w),
        ])
        .areas(mid);
        vec![
            (Pane::Code, code),
            (Pane::Path, path),
            (Pane::Tree, tree),
            (Pane::Store, store),
            (Pane::Stack, stack),
            (Pane::Model, model),
        ]
    } else {
        let chunks = Layout::default()
            .direction(Direction::Vertical)
            .constraints([
                Constraint::Percentage(34),
                Constraint::Percentage(38),
                Constraint::Percentage(28),
            ])
            .split(main);
        vec![
            (Pane::Code, chunks[0]),
            (Pane::Tree, chunks[1]),
            (app.detail, chunks[2]),
        ]
    }
}

/// A pane's frame: its title, highlighted when focused.
fn block<'a>(app: &App, pane: Pane, title: String) -> Block<'a> {
    let focused = app.focus == pane;
    let color = if focused {
        app.palette.focus_border
    } else {
        app.palette.border
    };
    Block::default()
        .borders(Borders::ALL)
        .border_type(if focused {
            BorderType::Thick
        } else {
            BorderType::Plain
        })
        .border_style(Style::default().fg(color))
        .title(title)
}

/// Keep `row` inside the window `[scroll, scroll + height)` with a margin of a few rows
/// above and below where there is room; returns the new scroll.
fn follow(scroll: usize, row: usize, height: usize) -> usize {
    if height == 0 {
        return scroll;
    }
    let margin = (height / 4).min(3);
    if row < scroll + margin {
        row.saturating_sub(margin)
    } else if row + margin >= scroll + height {
        row + margin + 1 - height
    } else {
        scroll
    }
}

/// Cut `s` to at most `width` characters (with `…` when cut).
fn clip(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        return s.to_string();
    }
    let mut out: String = s.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follow_keeps_the_row_in_view() {
        assert_eq!(follow(0, 3, 10), 0);
        // Two rows of margin below row 12 in a window of 10.
        assert_eq!(follow(0, 12, 10), 5);
        assert_eq!(follow(5, 2, 10), 0);
        assert_eq!(follow(5, 9, 10), 5);
    }

    #[test]
    fn clip_marks_cut_text() {
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("abc", 4), "abc");
    }
}
