//! The `=` overlay (issue 15): a node's path condition and store with its fold's κ := n,
//! and whether n is feasible there.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use crate::tui::app::App;

pub(super) fn draw(f: &mut Frame, app: &mut App, area: Rect) {
    let Some(info) = &app.fold.shown else {
        return;
    };
    let p = app.palette;
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let verdict_color = match info.feasible {
        Some(true) => p.normal_leaf,
        Some(false) => p.exception_leaf,
        None => p.unknown_leaf,
    };
    let mut lines = vec![
        Line::styled(info.verdict.clone(), Style::default().fg(verdict_color)),
        Line::styled(
            format!(
                "{} is the loop at line {} (fold node {}); the tree is unchanged",
                info.kappa, info.loop_line, info.fold
            ),
            Style::default().fg(p.dim),
        ),
        Line::raw(""),
        Line::styled("path condition", bold),
    ];
    if info.pc.is_empty() {
        lines.push(Line::raw("  True"));
    }
    for c in &info.pc {
        lines.push(Line::raw(format!("  {c}")));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("store", bold));
    if info.store.is_empty() {
        lines.push(Line::styled("  (no variables)", Style::default().fg(p.dim)));
    }
    for (k, v) in &info.store {
        lines.push(Line::from(vec![
            Span::styled(format!("  {k}"), Style::default().fg(p.accent)),
            Span::raw(format!(" = {v}")),
        ]));
    }
    if let Some(rv) = &info.return_value {
        lines.push(Line::raw(""));
        lines.push(Line::from(vec![
            Span::styled("returns ", bold),
            Span::raw(rv.clone()),
        ]));
    }
    let w = area.width.saturating_sub(8).max(20).min(area.width);
    let h = (lines.len() as u16 + 2)
        .min(area.height.saturating_sub(4).max(5))
        .min(area.height);
    let rect = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    let rows = Paragraph::new(lines.clone())
        .wrap(Wrap { trim: false })
        .line_count(w.saturating_sub(2));
    let max_scroll = rows.saturating_sub(h.saturating_sub(2) as usize);
    app.fold.scroll = app.fold.scroll.min(max_scroll);
    let title = format!(
        " node {} with {} = {} — {}any other key closes ",
        info.node,
        info.kappa,
        info.value,
        if max_scroll > 0 { "j/k scroll, " } else { "" }
    );
    f.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(p.focus_border))
        .title(title)
        .style(Style::default().bg(p.bg).fg(p.fg));
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false })
            .scroll((app.fold.scroll as u16, 0)),
        rect,
    );
}
