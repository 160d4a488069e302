//! The code pane: the source with line numbers, breakpoints (`●`; `◆` with a condition) and the selected node's
//! statement (`▶`, highlighted line); the code cursor (reversed line number when the pane has
//! the focus, underlined otherwise); in the breakpoint's column of a line without one, once
//! the tree has a leaf, the line's symbolic coverage (issue 29, [`coverage_style`]: `✓`
//! reached, `!` exception-only, `✗` unreachable, `?` unexplored; the help has the legend).

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::{block, follow};
use crate::base::escape::escape_text;
use crate::session::LineCoverage;
use crate::tui::app::{App, Pane};

/// The gutter's columns besides the line number: breakpoint (or coverage), `▶`, a space.
const GUTTER: usize = 3;

/// The coverage mark of a line and its colour (` ` for a line that is not counted, and
/// before the tree has a leaf: then every line is only unexplored).
fn coverage_mark(app: &App, line: usize) -> (&'static str, Style) {
    match app.stats.coverage.get(&line) {
        Some(c) if app.stats.leaves > 0 => coverage_style(app, *c),
        _ => (" ", Style::default()),
    }
}

/// The gutter's mark of a coverage status and its colour (also the help's legend).
pub(super) fn coverage_style(app: &App, c: LineCoverage) -> (&'static str, Style) {
    let p = app.palette;
    match c {
        LineCoverage::Reached => ("✓", Style::default().fg(p.normal_leaf)),
        LineCoverage::ExceptionOnly => ("!", Style::default().fg(p.exception_leaf)),
        LineCoverage::Unreachable => ("✗", Style::default().fg(p.infeasible_leaf)),
        LineCoverage::Unexplored => ("?", Style::default().fg(p.dim)),
    }
}

/// The layout step: the code cursor's line in view, the sideways scroll never past the
/// longest line on screen, the gutter's width (for clicks).
pub(super) fn fit(app: &mut App, rect: Rect) {
    let inner = block(app, Pane::Code, String::new()).inner(rect);
    let height = inner.height as usize;
    let lines = app.line_count();
    let scroll = follow(app.scroll_of(Pane::Code), app.code_cursor - 1, height);
    let scroll = scroll.min(lines.saturating_sub(height));
    app.scroll.insert(Pane::Code, scroll);
    let digits = lines.to_string().len();
    app.areas.gutter = (digits + GUTTER) as u16;
    // Sideways: never past the longest line (its text, after the gutter).
    let room = (inner.width as usize).saturating_sub(digits + GUTTER);
    let longest = (scroll + 1..=lines)
        .take(height)
        .map(|l| {
            // (a tab is drawn as four spaces)
            let text = app.source.shown_line(l);
            text.chars().count() + 3 * text.matches('\t').count()
        })
        .max()
        .unwrap_or(0);
    let h = app
        .hscroll_of(Pane::Code)
        .min(longest.saturating_sub(room.saturating_sub(1)));
    app.hscroll.insert(Pane::Code, h);
}

pub(super) fn draw(f: &mut Frame, app: &App, rect: Rect) {
    let title = format!(" code: {} ", app.source.name);
    let b = block(app, Pane::Code, title);
    let inner = b.inner(rect);
    f.render_widget(b, rect);
    let height = inner.height as usize;
    let lines = app.line_count();
    let scroll = app.scroll_of(Pane::Code);
    let digits = lines.to_string().len();
    let p = app.palette;
    let current = app.marked_line();
    let focused = app.focus == Pane::Code;
    let h = app.hscroll_of(Pane::Code);
    let mut out = Vec::with_capacity(height);
    for line in (scroll + 1..=lines).take(height) {
        let bp = app.breakpoints.get(&line).copied();
        let here = current == Some(line);
        let conditional = app.conditions.contains_key(&line);
        let bp_style = Style::default().fg(p.breakpoint);
        let (mark, mark_style) = match (bp, conditional) {
            (Some(true), false) => ("●", bp_style),
            (Some(false), false) => ("○", bp_style),
            (Some(true), true) => ("◆", bp_style),
            (Some(false), true) => ("◇", bp_style),
            (None, _) => coverage_mark(app, line),
        };
        let mut spans = vec![
            Span::styled(mark, mark_style),
            Span::styled(if here { "▶" } else { " " }, Style::default().fg(p.accent)),
        ];
        let mut num = Style::default().fg(p.dim);
        // The code cursor shows in every focus (`b` acts on it): reversed when the pane has
        // the focus, underlined otherwise.
        if line == app.code_cursor {
            num = num.fg(p.accent).add_modifier(if focused {
                Modifier::REVERSED
            } else {
                Modifier::UNDERLINED
            });
        }
        spans.push(Span::styled(format!("{line:>digits$}"), num));
        spans.push(Span::raw(" "));
        match app.code.get(line - 1) {
            Some(parts) => spans.extend(
                parts
                    .iter()
                    // (control characters in comments shown escaped, as everywhere)
                    .map(|(style, text)| {
                        Span::styled(escape_text(text).replace('\t', "    "), *style)
                    }),
            ),
            None => spans.push(Span::raw(app.source.shown_line(line).into_owned())),
        }
        // Scrolled sideways (`<` `>`): the gutter stays, the text moves.
        let text = spans.split_off(4);
        spans.extend(super::tree::shift_spans(
            text,
            h,
            Style::default().fg(p.dim),
        ));
        // A line wider than the pane ends in `…`.
        let len: usize = spans.iter().map(|s| s.content.chars().count()).sum();
        let mut l = Line::from(super::tree::clip_spans(spans, inner.width as usize, len));
        if here {
            l = l.style(Style::default().bg(p.current_line));
        }
        out.push(l);
    }
    f.render_widget(Paragraph::new(out), inner);
}
