//! The detail panes about the selected node: path condition (one conjunct per line), store
//! (innermost frame; with the model's and the replay's values once known), call stack
//! (innermost frame first, with locals) and model (inputs as Python literals, replay).

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::{block, clip};
use crate::session::{Details, NodeId, NodeKind, Outcome};
use crate::tui::app::{App, Pane};

/// The layout step: the pane's scroll never past its last line.
pub(super) fn fit(app: &mut App, pane: Pane, rect: Rect) {
    let inner = block(app, pane, String::new()).inner(rect);
    let max = lines(app, pane, inner.width as usize)
        .len()
        .saturating_sub(1);
    let scroll = app.scroll_of(pane).min(max);
    app.scroll.insert(pane, scroll);
}

/// The pane's lines, all of them (`width`: the pane's, for the store's table).
fn lines(app: &App, pane: Pane, width: usize) -> Vec<Line<'static>> {
    let id = app.selected;
    match pane {
        Pane::Path => path(app, id),
        Pane::Store => {
            let mut lines = store(app, id, width);
            lines.extend(super::watch::lines(app));
            lines
        }
        Pane::Stack => stack(app, id),
        _ => model(app, id),
    }
}

pub(super) fn draw(f: &mut Frame, app: &App, pane: Pane, rect: Rect) {
    let id = app.selected;
    // In a narrow terminal the detail panes share this slot: say how to reach the others.
    let others: Vec<&str> = [Pane::Path, Pane::Store, Pane::Stack, Pane::Model]
        .into_iter()
        .filter(|&p| p != pane && app.area(p).is_none())
        .map(Pane::title)
        .collect();
    let mut title = if others.is_empty() {
        format!(" {} [{}] ", pane.title(), id.0)
    } else {
        format!(" {} [{}] · Tab: {} ", pane.title(), id.0, others.join(", "))
    };
    // The preconditions every path starts from (`a` adds, `A` removes).
    if pane == Pane::Path && !app.assumptions().is_empty() {
        title = format!("{title}· {} ", app.assumptions_text());
    }
    let b = block(app, pane, title);
    let inner = b.inner(rect);
    f.render_widget(b, rect);
    let lines = lines(app, pane, inner.width as usize);
    let scroll = app.scroll_of(pane);
    let visible: Vec<Line> = lines
        .into_iter()
        .skip(scroll)
        .take(inner.height as usize)
        .collect();
    f.render_widget(Paragraph::new(visible).wrap(Wrap { trim: false }), inner);
}

fn dim(app: &App, s: impl Into<String>) -> Line<'static> {
    Line::styled(s.into(), Style::default().fg(app.palette.dim))
}

fn loading(app: &App) -> Vec<Line<'static>> {
    vec![dim(app, "…")]
}

fn path(app: &App, id: NodeId) -> Vec<Line<'static>> {
    let Some(d) = app.details.get(&id) else {
        return loading(app);
    };
    let mut out = Vec::new();
    for note in d.note.iter().flat_map(|n| n.lines()) {
        out.push(Line::styled(
            note.to_string(),
            Style::default()
                .fg(app.palette.accent)
                .add_modifier(Modifier::BOLD),
        ));
    }
    if d.pc.is_empty() {
        out.push(dim(app, "True  (no condition on this path yet)"));
    }
    out.extend(super::why::path_lines(app, id, d));
    out
}

fn store(app: &App, id: NodeId, width: usize) -> Vec<Line<'static>> {
    let Some(d) = app.details.get(&id) else {
        return loading(app);
    };
    // A frame picked in the call stack pane: its variables.
    if let Some((name, vars, _)) = app.picked_frame_info() {
        let mut out = vec![dim(app, format!("frame {name} (call stack: j/k)"))];
        out.extend(vars.iter().map(|(n, v)| Line::raw(format!("{n} = {v}"))));
        return out;
    }
    // Post-mortem at an exception leaf raised inside a call: the raising frame's variables.
    let mut out = Vec::new();
    let exception = app
        .tree
        .get(id)
        .is_some_and(|n| matches!(n.info.kind(), NodeKind::Leaf(Outcome::Exception(_))));
    match d.frames.last() {
        Some((name, _)) if exception && name != "<module>" => out.push(dim(
            app,
            format!("frame {name}, at the raise (call stack: j/k)"),
        )),
        _ => {}
    }
    out.extend(store_rows(app, id, d, width));
    out.extend(stdout_rows(app, id, d));
    out
}

/// Under the store: what the path printed so far, each line as the `print` that wrote it
/// (its arguments over the inputs) and, once the model is known, the text it printed
/// there (what python3 prints on the model's inputs).
fn stdout_rows(app: &App, id: NodeId, d: &Details) -> Vec<Line<'static>> {
    if d.stdout.is_empty() {
        return Vec::new();
    }
    let n = d.stdout.len();
    let mut out = vec![dim(
        app,
        format!("stdout so far ({n} line{}):", if n == 1 { "" } else { "s" }),
    )];
    let printed = app.models.get(&id).and_then(|m| m.as_ref().ok());
    for (k, args) in d.stdout.iter().enumerate() {
        out.push(Line::raw(format!("  print({args})")));
        if let Some(text) = printed.and_then(|m| m.stdout.get(k)) {
            out.push(Line::styled(
                format!("    → {text}"),
                Style::default().fg(app.palette.accent),
            ));
        }
    }
    out
}

/// The store's rows: `name = value`, or a table with the model's and the replay's values.
fn store_rows(app: &App, id: NodeId, d: &Details, width: usize) -> Vec<Line<'static>> {
    if d.store.is_empty() {
        return vec![dim(app, "(no variables yet)")];
    }
    if let Some(Ok(r)) = app.replays.get(&id) {
        let rows: Vec<[String; 4]> = r
            .vars
            .iter()
            .map(|v| {
                [
                    v.name.clone(),
                    v.symbolic.clone(),
                    v.here.clone().unwrap_or_else(|| "?".into()),
                    v.end.clone().unwrap_or_else(|| "-".into()),
                ]
            })
            .collect();
        return table(app, ["var", "symbolic", "here", "run end"], rows, width);
    }
    if let Some(Ok(m)) = app.models.get(&id) {
        let rows: Vec<[String; 3]> = d
            .store
            .iter()
            .map(|(k, v)| {
                let val = m
                    .store
                    .iter()
                    .find(|(n, _)| n == k)
                    .map_or("?".to_string(), |(_, x)| x.clone());
                [k.clone(), v.clone(), val]
            })
            .collect();
        return table(app, ["var", "symbolic", "here"], rows, width);
    }
    d.store
        .iter()
        .map(|(k, v)| Line::raw(format!("{k} = {v}")))
        .collect()
}

/// Columns padded to their widest cell; the symbolic column gets what is left.
fn table<const N: usize>(
    app: &App,
    head: [&str; N],
    rows: Vec<[String; N]>,
    width: usize,
) -> Vec<Line<'static>> {
    let mut widths = [0usize; N];
    for (k, h) in head.iter().enumerate() {
        widths[k] = h.chars().count();
    }
    for r in &rows {
        for k in 0..N {
            widths[k] = widths[k].max(r[k].chars().count());
        }
    }
    let others: usize = widths
        .iter()
        .enumerate()
        .filter(|(k, _)| *k != 1)
        .map(|(_, w)| w + 2)
        .sum();
    widths[1] = widths[1].min(width.saturating_sub(others).max(8));
    let fmt = |cells: Vec<String>| {
        cells
            .iter()
            .enumerate()
            .map(|(k, c)| format!("{:<w$}", clip(c, widths[k]), w = widths[k]))
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    let mut out = vec![Line::styled(
        fmt(head.iter().map(|h| h.to_string()).collect()),
        Style::default()
            .fg(app.palette.dim)
            .add_modifier(Modifier::UNDERLINED),
    )];
    out.extend(rows.into_iter().map(|r| Line::raw(fmt(r.to_vec()))));
    out
}

fn stack(app: &App, id: NodeId) -> Vec<Line<'static>> {
    let Some(d) = app.details.get(&id) else {
        return loading(app);
    };
    let mut out = Vec::new();
    let picked = app.picked_frame().unwrap_or(0);
    for (k, (name, vars)) in d.frames.iter().rev().enumerate() {
        let mark = if k == picked { "▸ " } else { "  " };
        out.push(Line::styled(
            format!("{mark}{name}"),
            Style::default().add_modifier(Modifier::BOLD),
        ));
        if vars.is_empty() {
            out.push(dim(app, "    (no variables)"));
        }
        for (n, v) in vars {
            out.push(Line::raw(format!("    {n} = {v}")));
        }
    }
    out
}

fn model(app: &App, id: NodeId) -> Vec<Line<'static>> {
    let p = app.palette;
    if let Some(r) = app.replays.get(&id) {
        return match r {
            Err(e) => vec![Line::raw(e.clone())],
            Ok(r) => {
                let mut out = vec![Line::raw(format!("inputs: {}", assignments(&r.inputs)))];
                out.push(Line::raw(format!("concrete run: {}", r.concrete_outcome)));
                let color = if r.follows {
                    p.infeasible_leaf
                } else {
                    p.exception_leaf
                };
                out.push(Line::styled(r.verdict.clone(), Style::default().fg(color)));
                for k in &r.kappas {
                    out.push(Line::raw(format!("fold: {k}")));
                }
                out.push(dim(
                    app,
                    "store pane: symbolic, here (model), run end (concrete)",
                ));
                // The model's κ stays shown under the replay (issue 23 item 6).
                if let Some(Ok(m)) = app.models.get(&id) {
                    out.extend(kappa_lines(app, m));
                }
                out
            }
        };
    }
    match app.models.get(&id) {
        Some(Ok(m)) => {
            let mut out = model_lines(app, m);
            out.push(dim(app, "R: replay these inputs concretely"));
            out
        }
        Some(Err(why)) => vec![Line::raw(format!(
            "no model: {}",
            crate::tui::app::no_model(why)
        ))],
        None if app.pending('m', id) || app.pending('r', id) => vec![dim(app, "computing…")],
        None => vec![dim(app, format!("m: inputs that reach node {}", id.0))],
    }
}

/// The model pane's text for a model: its inputs, return value, each fold's κ, havoc'd values.
fn model_lines(app: &App, m: &crate::tui::protocol::ModelInfo) -> Vec<Line<'static>> {
    let p = app.palette;
    let mut out = vec![dim(app, "inputs that reach this node:")];
    if m.inputs.is_empty() {
        out.push(dim(app, "  (the program has no inputs)"));
    }
    for (k, v) in &m.inputs {
        out.push(Line::from(vec![
            Span::raw(format!("  {k} = ")),
            Span::styled(
                v.clone(),
                Style::default().fg(p.accent).add_modifier(Modifier::BOLD),
            ),
        ]));
    }
    if let Some(rv) = &m.return_value {
        out.push(Line::raw(format!("  returns {rv}")));
    }
    out.extend(kappa_lines(app, m));
    if !m.havoc.is_empty() {
        // The state of a loop's arbitrary iteration: the inputs alone may not
        // lead there (a too weak invariant), so it is shown apart.
        out.push(dim(
            app,
            "with the havoc'd values (an arbitrary iteration):",
        ));
        for (k, v) in &m.havoc {
            out.push(Line::raw(format!("  {k} = {v}")));
        }
    }
    out
}

/// Each fold's κ in the model: `κ1 = 100  (loop at line 4)`.
fn kappa_lines(app: &App, m: &crate::tui::protocol::ModelInfo) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    if !m.kappas.is_empty() {
        out.push(dim(
            app,
            "folded loops (κ: how many times the fold's path ran):",
        ));
        for (k, v, line) in &m.kappas {
            out.push(Line::from(vec![
                Span::raw(format!("  {k} = ")),
                Span::styled(
                    v.clone(),
                    Style::default()
                        .fg(app.palette.accent)
                        .add_modifier(Modifier::BOLD),
                ),
                Span::raw(format!("  (loop at line {line})")),
            ]));
        }
    }
    out
}

fn assignments(pairs: &[(String, String)]) -> String {
    if pairs.is_empty() {
        return "(none)".to_string();
    }
    pairs
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}
