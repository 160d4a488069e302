//! The origins box (`O`): per variable of the store, its origin chain — each link the
//! assignment's line, node and statement, indented by how many assignments it lies behind
//! the variable; the picked link is reversed.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use crate::base::escape::escape_text;
use crate::tui::app::App;

pub(super) fn draw(f: &mut Frame, app: &App, area: Rect) {
    let Some(b) = &app.origins else {
        return;
    };
    let p = app.palette;
    let mut lines = Vec::new();
    // (the line of the picked link, to keep it in view)
    let mut picked_line = 0;
    let mut k = 0;
    for (name, chain) in &b.chains {
        lines.push(Line::styled(
            format!(" {}", escape_text(name)),
            Style::default().add_modifier(Modifier::BOLD),
        ));
        if chain.is_empty() {
            lines.push(Line::styled("   (no origin)", Style::default().fg(p.dim)));
        }
        for link in chain {
            let mut style = Style::default();
            if k == b.cursor {
                style = style.add_modifier(Modifier::REVERSED);
                picked_line = lines.len();
            }
            let indent = "  ".repeat(link.level + 1);
            lines.push(Line::from(vec![
                Span::raw(indent),
                Span::styled(
                    format!(
                        "{} ← line {} · node {} · {}",
                        escape_text(&link.name),
                        link.origin.line,
                        link.origin.node.0,
                        escape_text(&link.statement)
                    ),
                    style,
                ),
                Span::styled(
                    format!("  ({})", link.origin.kind),
                    Style::default().fg(p.dim),
                ),
            ]));
            k += 1;
        }
    }
    lines.push(Line::styled(
        " j k pick · Enter go to its node · other keys close",
        Style::default().fg(p.dim),
    ));
    let widest = lines.iter().map(|l| l.width()).max().unwrap_or(0) as u16;
    let w = (widest + 3).min(area.width);
    let h = (lines.len() as u16 + 2).min(area.height);
    let rect = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    // Scrolled so the picked link shows.
    let room = h.saturating_sub(2) as usize;
    let scroll = picked_line.saturating_sub(room.saturating_sub(2));
    f.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(p.focus_border))
        .title(format!(" origins at node {} ", b.node.0))
        .style(Style::default().bg(p.bg).fg(p.fg));
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .scroll((scroll as u16, 0)),
        rect,
    );
}
