//! Overlays: the help (every key, from `tui::keys`) and the too-small-terminal message.

use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::{MIN_HEIGHT, MIN_WIDTH};
use crate::tui::app::App;
use crate::tui::keys::KEYS;

pub(super) fn help(f: &mut Frame, app: &mut App, area: Rect) {
    let p = app.palette;
    let key_w = KEYS
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let mut lines = vec![
        Line::styled(
            "symdbg walks the symbolic execution tree (SET) of a minipy program.",
            Style::default().add_modifier(Modifier::BOLD),
        ),
        Line::raw("Select a node in the tree; its statement is marked ▶ in the code."),
        legend(app),
        Line::raw("→ f  a call enters f's frame   ←  back in the caller   (cond)  the only way on"),
        Line::raw(
            "x!1  a value a loop with invariants forgot (havoc)   here  the value under the model",
        ),
        Line::raw(""),
    ];
    for (k, what) in KEYS {
        lines.push(Line::from(vec![
            Span::styled(
                format!("  {k:<key_w$}  "),
                Style::default().fg(p.accent).add_modifier(Modifier::BOLD),
            ),
            Span::raw(*what),
        ]));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "To find a bug: r (run), e (next exception leaf), m (its inputs), R (replay).",
        Style::default().fg(p.dim),
    ));
    let w = (lines.iter().map(|l| l.width()).max().unwrap_or(0) as u16 + 4).min(area.width);
    let h = (lines.len() as u16 + 2).min(area.height);
    let rect = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    // A terminal too short for the whole help scrolls it (the title says how).
    let rows = Paragraph::new(lines.clone())
        .wrap(Wrap { trim: false })
        .line_count(w.saturating_sub(2));
    app.help_max_scroll = rows.saturating_sub(h.saturating_sub(2) as usize);
    app.help_scroll = app.help_scroll.min(app.help_max_scroll);
    let title = if app.help_max_scroll == 0 {
        " help — any key closes ".to_string()
    } else {
        let below = app.help_max_scroll - app.help_scroll;
        let lines = if below == 1 { "line" } else { "lines" };
        format!(" help — j/k scroll ({below} more {lines} below), any other key closes ")
    };
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
            .scroll((app.help_scroll as u16, 0)),
        rect,
    );
}

/// `○ open  • stepped  ▸ collapsed  ● normal ● exception ...` in the theme's colours.
fn legend(app: &App) -> Line<'static> {
    use crate::tui::protocol::LeafKind as L;
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
        (L::Exception, "exception"),
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
