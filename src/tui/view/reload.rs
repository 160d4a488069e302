//! The diagnostics of a reload that did not load (`L`), over the panes.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use crate::base::escape::escape_text;
use crate::tui::app::App;

pub(super) fn errors(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let lines: Vec<Line> = app
        .reload
        .errors
        .lines()
        .skip(app.reload.errors_scroll)
        .map(|l| Line::raw(escape_text(l).into_owned()))
        .collect();
    // As tall as the diagnostics (with room for the status and hint lines below).
    let height = (lines.len() as u16 + 2).clamp(3, area.height.saturating_sub(4).max(3));
    let rect = Rect {
        x: area.x + 2,
        y: area.y + 1,
        width: area.width.saturating_sub(4),
        height: height.min(area.height.saturating_sub(1)),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(p.focus_border))
        .title(" reload failed: the program on disk does not load; the old one stays ")
        .style(Style::default().bg(p.bg).fg(p.fg));
    f.render_widget(Clear, rect);
    f.render_widget(Paragraph::new(lines).block(block), rect);
}
