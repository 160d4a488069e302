//! Overlays: the help (every row of the key table, `tui::keys`), the message log (`M`) and the
//! too-small-terminal message.

use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::{MIN_HEIGHT, MIN_WIDTH};
use crate::tui::app::App;
use crate::tui::keys::{self, Action, Context, ROWS};

/// The help's lines (the key table's rows, descriptions wrapped under themselves) and
/// where it goes in `area`.
fn help_lines(app: &App, area: Rect) -> (Vec<Line<'static>>, Rect) {
    let p = app.palette;
    let rows: Vec<(String, String)> = ROWS
        .iter()
        .map(|r| (r.label(), keys::plain(r.what)))
        .collect();
    let key_w = rows
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let mut lines = vec![
        Line::styled(
            "symdbg walks the symbolic execution tree (SET) of a minipy program.",
            Style::default().add_modifier(Modifier::BOLD),
        ),
        Line::styled(
            "To find a bug: r (run), e (next exception leaf), m (its inputs), R (replay).",
            Style::default().fg(p.accent),
        ),
        Line::raw("Select a node in the tree; its statement is marked ▶ in the code."),
        legend(app),
        coverage_legend(app),
        Line::raw("→ f  a call enters f's frame   ←  back in the caller   (cond)  the only way on"),
        Line::raw("(depth N)  N calls are open (recursion)   here  the value under the model"),
        Line::raw("x!1  a value a loop with invariants forgot (havoc)"),
        Line::raw(""),
    ];
    let indent = key_w + 4;
    let widest = lines
        .iter()
        .map(|l| l.width())
        .chain(rows.iter().map(|(_, what)| indent + what.chars().count()))
        .max()
        .unwrap_or(0);
    let w = (widest as u16 + 4).min(area.width);
    // Descriptions wrap under themselves, not under the keys.
    let room = (w.saturating_sub(2) as usize)
        .saturating_sub(indent)
        .max(10);
    let list = keys::key_of(Context::Normal, Action::BreakList).unwrap_or_default();
    let mut context = Context::Normal;
    for (row, (k, what)) in ROWS.iter().zip(&rows) {
        // (the breakpoint list's and the overlays' rows come last, each under a heading)
        let heading = match row.context {
            _ if row.context == context => None,
            Context::Breakpoints => Some(format!(
                "In the breakpoint list ({list}), any other key closes it:"
            )),
            Context::Prompt => Some(
                "At a prompt (/ : W + a A X = and a condition), other keys are typed:".to_string(),
            ),
            Context::Overlay => Some(
                "Over the panes (this help, the message log, reload errors, =, origins O), any other key closes:"
                    .to_string(),
            ),
            _ => None,
        };
        if let Some(heading) = heading {
            lines.push(Line::raw(""));
            lines.push(Line::styled(
                heading,
                Style::default().add_modifier(Modifier::BOLD),
            ));
        }
        context = row.context;
        for (n, part) in wrap_words(what, room).into_iter().enumerate() {
            let key = if n == 0 { k.as_str() } else { "" };
            lines.push(Line::from(vec![
                Span::styled(
                    format!("  {key:<key_w$}  "),
                    Style::default().fg(p.accent).add_modifier(Modifier::BOLD),
                ),
                Span::raw(part),
            ]));
        }
    }
    let h = (lines.len() as u16 + 2).min(area.height);
    (lines, centred(area, w, h))
}

/// The layout step for the help: how far it can scroll (a terminal too short for it).
pub(super) fn fit_help(app: &mut App, area: Rect) {
    let (lines, rect) = help_lines(app, area);
    app.help_max_scroll = max_scroll(&lines, rect);
    app.help_scroll = app.help_scroll.min(app.help_max_scroll);
}

pub(super) fn help(f: &mut Frame, app: &App, area: Rect) {
    let (lines, rect) = help_lines(app, area);
    // A terminal too short for the whole help scrolls it (the title says how).
    let title = if app.help_max_scroll == 0 {
        " help — any key closes ".to_string()
    } else {
        let below = app.help_max_scroll - app.help_scroll;
        format!(" help — j/k scroll ({below} more below), other keys close ")
    };
    scrolled_box(f, app, rect, title, lines, app.help_scroll);
}

/// The message log's lines (newest first, each wrapped whole) and where it goes.
fn log_lines(app: &App, area: Rect) -> (Vec<Line<'static>>, Rect) {
    let p = app.palette;
    let mut lines = Vec::new();
    for (k, m) in app.log.newest_first().enumerate() {
        // (the newest stands out; each message starts with a mark so wrapped ones part)
        let style = if k == 0 {
            Style::default().fg(p.accent).add_modifier(Modifier::BOLD)
        } else {
            Style::default()
        };
        lines.push(Line::from(vec![
            Span::styled("• ", Style::default().fg(p.dim)),
            Span::styled(m.to_string(), style),
        ]));
    }
    if lines.is_empty() {
        lines.push(Line::styled(
            "(no messages yet)",
            Style::default().fg(p.dim),
        ));
    }
    let w = area.width.saturating_sub(4).max(10);
    let h = area.height.saturating_sub(4).max(3);
    (lines, centred(area, w, h))
}

/// The layout step for the message log: how far it can scroll.
pub(super) fn fit_messages(app: &mut App, area: Rect) {
    let (lines, rect) = log_lines(app, area);
    app.log.max_scroll = max_scroll(&lines, rect);
    app.log.scroll = app.log.scroll.min(app.log.max_scroll);
}

/// The message log (`M`): the session's messages, newest first, each wrapped whole.
pub(super) fn messages(f: &mut Frame, app: &App, area: Rect) {
    let (lines, rect) = log_lines(app, area);
    let n = app.log.entries.len();
    let title = if app.log.max_scroll == 0 {
        format!(" messages ({n}), newest first — any key closes ")
    } else {
        let below = app.log.max_scroll - app.log.scroll;
        format!(
            " messages ({n}), newest first — j/k scroll ({below} more below), other keys close "
        )
    };
    scrolled_box(f, app, rect, title, lines, app.log.scroll);
}

/// A `w`×`h` rectangle in the middle of `area`.
pub(super) fn centred(area: Rect, w: u16, h: u16) -> Rect {
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// How many rows `lines`, wrapped, can scroll in a bordered box at `rect`.
pub(super) fn max_scroll(lines: &[Line], rect: Rect) -> usize {
    let rows = Paragraph::new(lines.to_vec())
        .wrap(Wrap { trim: false })
        .line_count(rect.width.saturating_sub(2));
    rows.saturating_sub(rect.height.saturating_sub(2) as usize)
}

/// A bordered box over the panes at `rect` (the help, the fold's `=` view): `lines`
/// wrapped and scrolled down by `scroll` rows.
pub(super) fn scrolled_box(
    f: &mut Frame,
    app: &App,
    rect: Rect,
    title: String,
    lines: Vec<Line>,
    scroll: usize,
) {
    let p = app.palette;
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
            .scroll((scroll as u16, 0)),
        rect,
    );
}

/// `○ open  • stepped  ▸ collapsed  ● normal ● exception ...` in the theme's colours.
fn legend(app: &App) -> Line<'static> {
    use crate::base::ExcClass;
    use crate::tui::protocol::Outcome as L;
    let p = app.palette;
    let mut spans = vec![
        Span::styled("○", Style::default().fg(p.open_node)),
        Span::raw(" open  "),
        Span::styled("•", Style::default().fg(p.dim)),
        Span::raw(" stepped  "),
        Span::styled("▸", Style::default().fg(p.accent)),
        Span::raw(" folded  leaves:"),
    ];
    for (k, name) in [
        (L::Normal, "normal"),
        (L::Return, "return"),
        // (any class: the colour is the outcome's)
        (L::Exception(ExcClass::Exception), "exception"),
        (L::Infeasible, "infeasible"),
        (L::Halt, "halt"),
        (L::Bound, "bound"),
        (L::Unknown, "unknown"),
    ] {
        spans.push(Span::styled(
            " ●",
            Style::default().fg(super::tree::leaf_color(&p, k)),
        ));
        spans.push(Span::raw(format!(" {name}")));
    }
    Line::from(spans)
}

/// The code gutter's coverage marks (issue 29) in the theme's colours.
fn coverage_legend(app: &App) -> Line<'static> {
    use crate::session::LineCoverage as C;
    let mut spans = vec![Span::raw("code gutter:")];
    for (c, name) in [
        (C::Reached, "reached"),
        (C::ExceptionOnly, "only on paths that raise"),
        (C::Unreachable, "no input reaches it"),
        (C::Unexplored, "not so far (a cut path might)"),
    ] {
        let (mark, style) = super::code::coverage_style(app, c);
        spans.push(Span::raw(" "));
        spans.push(Span::styled(mark, style));
        spans.push(Span::raw(format!(" {name} ")));
    }
    Line::from(spans)
}

pub(super) fn too_small(f: &mut Frame, _app: &App, area: Rect) {
    let text = format!(
        "symdbg needs a terminal of at least {MIN_WIDTH}×{MIN_HEIGHT}; this one is {}×{}. \
         Enlarge it, or press q to quit.",
        area.width, area.height
    );
    let y = area.height / 2;
    let rect = Rect {
        x: area.x,
        y: area.y + y.saturating_sub(1),
        width: area.width,
        height: area.height - y.saturating_sub(1),
    };
    f.render_widget(
        Paragraph::new(text)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true }),
        rect,
    );
}

/// `text` in lines of at most `width` characters, broken between words (a longer word
/// gets a line of its own).
fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in text.split(' ') {
        let len = cur.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    out.push(cur);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn wrap_words_breaks_between_words() {
        assert_eq!(super::wrap_words("a bb ccc dd", 6), ["a bb", "ccc dd"]);
        assert_eq!(super::wrap_words("short", 80), ["short"]);
        assert_eq!(super::wrap_words("longword x", 4), ["longword", "x"]);
    }
}
