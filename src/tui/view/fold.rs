//! The `=` overlay (issue 15): a node's path condition and store with its fold's κ := n,
//! and whether n is feasible there.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::Frame;

use crate::tui::app::App;

/// The layout step: the overlay's scroll never past its end.
pub(super) fn fit(app: &mut App, area: Rect) {
    if let Some((lines, rect)) = lines(app, area) {
        let max_scroll = super::overlay::max_scroll(&lines, rect);
        app.fold.scroll = app.fold.scroll.min(max_scroll);
    }
}

pub(super) fn draw(f: &mut Frame, app: &App, area: Rect) {
    let (Some((node, info)), Some((lines, rect))) = (&app.fold.shown, lines(app, area)) else {
        return;
    };
    let max_scroll = super::overlay::max_scroll(&lines, rect);
    let lambda = match &info.lambda {
        Some((l, m)) => format!(", {l} = {m}"),
        None => String::new(),
    };
    let title = format!(
        " node {} with {} = {}{lambda} — {}any other key closes ",
        node.0,
        info.kappa,
        info.value,
        if max_scroll > 0 { "j/k scroll, " } else { "" }
    );
    super::overlay::scrolled_box(f, app, rect, title, lines, app.fold.scroll);
}

/// The overlay's lines and where it goes in `area` (`None`: not shown).
fn lines(app: &App, area: Rect) -> Option<(Vec<Line<'static>>, Rect)> {
    let (_, info) = app.fold.shown.as_ref()?;
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
                "{}{} the loop at line {} (fold node {}); the tree is unchanged",
                info.kappa,
                match &info.lambda {
                    Some((l, _)) => format!(" and {l} count the paths of"),
                    None => " is".to_string(),
                },
                info.loop_line,
                info.fold.0
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
    let rect = super::overlay::centred(area, w, h);
    Some((lines, rect))
}
