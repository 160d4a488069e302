//! Under the store: the last `:` evaluation (while its node and frame are selected) and the
//! watches (`W`), each with its symbolic value, its verdict on the path and its value under
//! the node's model.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::base::escape::escape;
use crate::session::{Evaluation, Truth};
use crate::tui::app::App;

/// The `:` evaluation shown: the last one, while its node and frame are selected.
fn shown_key(app: &App) -> Option<&crate::tui::app::EvalKey> {
    app.watch
        .shown
        .as_ref()
        .filter(|k| k.0 == app.selected && k.1 == app.eval_frame())
}

/// Is there anything to show under the store?
pub(super) fn shown(app: &App) -> bool {
    shown_key(app).is_some() || !app.watch.list.is_empty()
}

/// The lines to append to the store pane (none without an evaluation or a watch).
pub(super) fn lines(app: &App) -> Vec<Line<'static>> {
    let p = app.palette;
    let dim = Style::default().fg(p.dim);
    let head = Style::default().fg(p.dim).add_modifier(Modifier::BOLD);
    let mut out = Vec::new();
    if let Some(key) = shown_key(app) {
        out.push(Line::styled(format!("─ : {}", escape(&key.2)), head));
        match app.watch.results.get(key) {
            None => out.push(Line::styled("  evaluating…", dim)),
            Some(Err(m)) => out.push(Line::styled(
                format!("  ⚠ {}", escape(m)),
                Style::default().fg(p.exception_leaf),
            )),
            Some(Ok(e)) => {
                match &e.value {
                    Some(v) if *v != key.2 => out.push(Line::raw(format!("  = {v}"))),
                    Some(_) => {}
                    None => out.push(Line::styled("  (no value: it raises)", dim)),
                }
                let verdict = e.verdict();
                if !verdict.is_empty() {
                    out.push(Line::styled(format!("  {verdict}"), verdict_style(app, e)));
                }
                out.push(Line::styled(
                    format!("  here {} · frame {}", here(e), e.frame),
                    dim,
                ));
            }
        }
    }
    if !app.watch.list.is_empty() {
        out.push(Line::styled(
            format!("─ watches (W) · frame {}", frame_name(app)),
            head,
        ));
        for w in &app.watch.list {
            let key = app.eval_key(w);
            // A watch read from a session file may hold any character: shown escaped.
            let shown = escape(w);
            let line = match app.watch.results.get(&key) {
                None => Line::from(vec![
                    Span::raw(format!("{shown}  ")),
                    Span::styled("…", dim),
                ]),
                Some(Err(m)) => Line::from(vec![
                    Span::raw(format!("{shown}  ")),
                    Span::styled(
                        format!("⚠ {}", escape(m)),
                        Style::default().fg(p.exception_leaf),
                    ),
                ]),
                Some(Ok(e)) => {
                    let mut spans = vec![Span::raw(shown.into_owned())];
                    if let Some(v) = e.value.as_ref().filter(|v| *v != w) {
                        spans.push(Span::raw(format!(" = {v}")));
                    }
                    let verdict = e.verdict();
                    if !verdict.is_empty() {
                        spans.push(Span::styled(format!("  {verdict}"), verdict_style(app, e)));
                    }
                    // (an exception on every input: "here" would only repeat it)
                    if !e.raises.iter().any(|r| r.truth == Truth::Always) {
                        spans.push(Span::styled(format!("  here {}", here(e)), dim));
                    }
                    Line::from(spans)
                }
            };
            out.push(line);
        }
    }
    out
}

/// The picked frame's name, as the call stack shows it.
fn frame_name(app: &App) -> String {
    let Some(d) = app.details.get(&app.selected) else {
        return "…".to_string();
    };
    let up = app.eval_frame();
    d.frames
        .len()
        .checked_sub(1 + up)
        .and_then(|k| d.frames.get(k))
        .map_or("?".to_string(), |(name, _)| name.clone())
}

fn here(e: &Evaluation) -> String {
    match &e.here {
        Ok(v) => v.clone(),
        Err(why) => format!("(no model: {why})"),
    }
}

/// Always true: the "normal leaf" colour; always false or raising: the exception colour;
/// either: the accent; unknown: dim.
fn verdict_style(app: &App, e: &Evaluation) -> Style {
    let p = app.palette;
    let always_raises = e.raises.iter().any(|r| r.truth == Truth::Always);
    let color = match (&e.truth, always_raises) {
        (_, true) | (Some(Truth::Never), _) => p.exception_leaf,
        (Some(Truth::Always), _) => p.normal_leaf,
        (Some(Truth::Unknown(_)), _) => p.dim,
        _ => p.accent,
    };
    Style::default().fg(color)
}
