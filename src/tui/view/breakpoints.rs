//! The breakpoint list (`B`): every line breakpoint with its source text, enabled (`●`) or
//! disabled (`○`; `◆`/`◇` with a condition, shown after the line), and the exception breakpoint; the row under the cursor is reversed.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use crate::base::escape::escape_text;
use crate::session::ExcStop;
use crate::tui::app::App;

pub(super) fn draw(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let mut lines = Vec::new();
    let digits = app.line_count().to_string().len();
    for (row, (&line, &on)) in app.breakpoints.iter().enumerate() {
        let mut style = Style::default();
        if row == app.breaks_cursor {
            style = style.add_modifier(Modifier::REVERSED);
        }
        let cond = app.conditions.get(&line);
        let mark = match (on, cond.is_some()) {
            (true, false) => " ● ",
            (false, false) => " ○ ",
            (true, true) => " ◆ ",
            (false, true) => " ◇ ",
        };
        let mut spans = vec![
            Span::styled(mark, Style::default().fg(p.breakpoint)),
            Span::styled(
                format!(
                    "line {line:>digits$}  {}",
                    app.source.shown_line(line).trim()
                ),
                style,
            ),
        ];
        if let Some(c) = cond {
            spans.push(Span::styled(
                format!("  if {}", escape_text(&c.text)),
                Style::default().fg(p.accent),
            ));
            if let Some(e) = &c.error {
                spans.push(Span::styled(
                    format!("  ⚠ {}", escape_text(e)),
                    Style::default().fg(p.exception_leaf),
                ));
            }
        }
        lines.push(Line::from(spans));
    }
    if lines.is_empty() {
        lines.push(Line::styled(
            " no line breakpoints (b sets one on the code cursor's line)",
            Style::default().fg(p.dim),
        ));
    }
    let exc = match app.exc_break {
        ExcStop::Off => "off".to_string(),
        ExcStop::Any => "every exception leaf".to_string(),
        ExcStop::Class(c) => format!("{c} leaves (and subclasses)"),
    };
    lines.push(Line::raw(""));
    lines.push(Line::raw(format!(" exceptions: {exc}")));
    if app.catch_caught {
        let which = match app.caught_stop() {
            ExcStop::Class(c) => format!("{c} (and subclasses)"),
            _ => "every exception".to_string(),
        };
        lines.push(Line::raw(format!(
            " caught (!): {which} where a handler catches it"
        )));
    }
    // (the hint line's words, from the key table)
    let hints: Vec<String> = super::status::breaks_hints()
        .into_iter()
        .map(|(k, word)| format!("{k} {word}"))
        .collect();
    lines.push(Line::styled(
        format!(" {} · other keys close", hints.join(" · ")),
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
    f.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(p.focus_border))
        .title(format!(" breakpoints ({}) ", app.breakpoints.len()))
        .style(Style::default().bg(p.bg).fg(p.fg));
    f.render_widget(Paragraph::new(lines).block(block), rect);
}
