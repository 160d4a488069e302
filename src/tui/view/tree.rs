//! The tree pane: only the rows on screen are drawn (see `tui::tree` for the row list).
//!
//! Rows: `○ [3] 5: x = -x` an open node (not stepped yet), `• [1] 4: if x > 1:` a stepped
//! node, `● [4] AssertionError at line 9` a leaf coloured by its outcome, `▸ [2] … (+12 hidden)`
//! a collapsed node or folded call frame; branch label rows `├ x > 1` / `└ not (x > 1)`
//! above each branch (under a folded frame: the conditions taken inside it).
//! `→ f` marks the node where a call of `f` entered its frame, `←` a return to the caller
//! (`← g` back in function `g`; `(depth N)` when N function frames are open);
//! `— label` is the engine's label (loop-scope steps such as "invariant initially valid?").
//! With `p`, greyed ghost rows `✗ L5 else: t[i] != x` under each stepped node list its
//! pruned branches (selectable; `w` explains one).

use crate::base::span::{line_number, line_tag};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::{block, clip, follow};
use crate::session::call_mark;
use crate::session::{NodeKind, Outcome};
use crate::tui::app::{App, Pane};
use crate::tui::theme::Palette;
use crate::tui::tree::RowKind;

/// The layout step: the selected row in view, the sideways scroll never past the
/// longest row on screen.
pub(super) fn fit(app: &mut App, rect: Rect) {
    let inner = block(app, Pane::Tree, String::new()).inner(rect);
    let height = inner.height as usize;
    let total = app.tree.rows().len();
    let sel_row = app.selected_row().unwrap_or(0);
    let scroll = follow(app.scroll_of(Pane::Tree), sel_row, height);
    let scroll = scroll.min(total.saturating_sub(height));
    app.scroll.insert(Pane::Tree, scroll);
    let h = app.hscroll_of(Pane::Tree);
    let width = inner.width as usize;
    let longest = rows(app, scroll, height, width, h)
        .iter()
        .map(|(s, _)| spans_len(s))
        .max()
        .unwrap_or(0);
    let h = h.min(longest.saturating_sub(width.saturating_sub(1)));
    app.hscroll.insert(Pane::Tree, h);
}

pub(super) fn draw(f: &mut Frame, app: &App, rect: Rect) {
    let h = app.hscroll_of(Pane::Tree);
    let title = format!(
        " tree: {}{} ",
        crate::diagnostics::count(app.tree.len(), "node"),
        if h > 0 {
            format!(" · from column {}", h + 1)
        } else {
            String::new()
        }
    );
    let b = block(app, Pane::Tree, title);
    let inner = b.inner(rect);
    f.render_widget(b, rect);
    let height = inner.height as usize;
    let width = inner.width as usize;
    let p = app.palette;
    let rows = rows(app, app.scroll_of(Pane::Tree), height, width, h);
    let mut out = Vec::with_capacity(height);
    for (spans, selected) in rows {
        let spans = shift_spans(spans, h, Style::default().fg(p.border));
        let len = spans_len(&spans);
        let mut line = Line::from(clip_spans(spans, width, len));
        if selected {
            line = line.style(
                Style::default()
                    .bg(p.selection)
                    .add_modifier(Modifier::BOLD),
            );
        }
        out.push(line);
    }
    f.render_widget(Paragraph::new(out), inner);
}

/// The spans of the rows on screen (from row `scroll`, `height` of them; `h`: the
/// sideways scroll), each with whether it is the selected one.
fn rows(
    app: &App,
    scroll: usize,
    height: usize,
    width: usize,
    h: usize,
) -> Vec<(Vec<Span<'static>>, bool)> {
    let total = app.tree.built_rows().len();
    let sel_row = app.built_selected_row().unwrap_or(0);
    let p = app.palette;
    let end = (scroll + height).min(total);
    let mut rows = Vec::with_capacity(height);
    for r in scroll..end {
        let row = app.tree.built_rows()[r].clone();
        // (scrolled sideways: the prefix keeps as many more columns)
        let prefix = row.prefix(width / 2 + h);
        let mut spans = vec![Span::styled(prefix, Style::default().fg(p.border))];
        match row.kind {
            RowKind::Label { node, head } => {
                let info = &app.tree.node(node).info;
                spans.push(Span::styled(head, Style::default().fg(p.border)));
                let branch = row.cond.as_deref().or(info.branch.as_deref());
                let cond = match (branch, head) {
                    (Some(b), "") => format!("({b})"),
                    (Some(b), _) => b.to_string(),
                    (None, "") => String::new(),
                    (None, _) => "(always)".to_string(),
                };
                spans.push(Span::styled(cond, Style::default().fg(p.accent)));
            }
            RowKind::Ghost { node, k } => {
                let explained = app.why_shown == Some((node, Some(k)));
                let color = if explained {
                    p.outcome(Outcome::Infeasible)
                } else {
                    p.dim
                };
                let text = match app.pruned.get(&node).and_then(|v| v.get(k)) {
                    Some(b) => format!("  ✗ {} {}: {}", line_tag(b.line), b.transition, b.branch),
                    None => "  ✗ (pruned branch)".to_string(),
                };
                spans.push(Span::styled(text, Style::default().fg(color)));
            }
            RowKind::Node(id) => {
                let frame_fold = app.tree.node(id).frame_folded && app.tree.is_call(id);
                let n = app.tree.node(id);
                let frame_fold = frame_fold && !n.collapsed;
                let (icon, color) =
                    if row.hidden > 0 || frame_fold || (n.collapsed && !n.children.is_empty()) {
                        ("▸", p.accent)
                    } else {
                        match &n.info.kind() {
                            NodeKind::Open => ("○", p.open_node),
                            NodeKind::Inner => ("•", p.dim),
                            NodeKind::Leaf(k) => ("●", leaf_color(&p, *k)),
                        }
                    };
                spans.push(Span::styled(format!("{icon} "), Style::default().fg(color)));
                spans.push(Span::styled(
                    format!("[{}] ", id.0),
                    Style::default().fg(p.dim),
                ));
                let text = match &n.info.kind() {
                    NodeKind::Leaf(_) => n.info.summary.clone(),
                    _ => match n.info.place() {
                        Some(l) => format!("{}: {}", line_number(l), app.source.shown_statement(l)),
                        None => String::new(),
                    },
                };
                let style = match &n.info.kind() {
                    NodeKind::Leaf(k) => Style::default().fg(leaf_color(&p, *k)),
                    NodeKind::Open => Style::default().fg(p.open_node),
                    NodeKind::Inner => Style::default(),
                };
                spans.push(Span::styled(text, style));
                let parent_frames = n.info.parent().map(|q| app.tree.node(q).info.frames());
                let leaf = matches!(n.info.kind(), NodeKind::Leaf(_));
                let func = n.info.func();
                if let Some(mark) = call_mark(n.info.frames(), parent_frames, func, leaf) {
                    spans.push(Span::styled(
                        format!("  {mark}"),
                        Style::default().fg(p.dim),
                    ));
                }
                if let Some(l) = &n.info.label {
                    spans.push(Span::styled(format!("  — {l}"), Style::default().fg(p.dim)));
                }
                if n.info.at_annotated_loop
                    && n.info.kind() == NodeKind::Open
                    && n.info.label.is_none()
                {
                    spans.push(Span::styled(
                        "  loop: s invariant / u unroll",
                        Style::default().fg(p.accent),
                    ));
                }
                if n.info.view.call_choice && n.info.kind() == NodeKind::Open {
                    spans.push(Span::styled(
                        "  call: i inline / o contract",
                        Style::default().fg(p.accent),
                    ));
                }
                if frame_fold {
                    spans.push(Span::styled(
                        format!("  (frame folded: +{})", row.hidden),
                        Style::default().fg(p.dim),
                    ));
                } else if row.hidden > 0 {
                    spans.push(Span::styled(
                        format!("  (+{} hidden)", row.hidden),
                        Style::default().fg(p.dim),
                    ));
                }
            }
        }
        let selected = r == sel_row && matches!(row.kind, RowKind::Node(_) | RowKind::Ghost { .. });
        rows.push((spans, selected));
    }
    rows
}

fn spans_len(spans: &[Span<'_>]) -> usize {
    spans.iter().map(|s| s.content.chars().count()).sum()
}

/// Drop a row's first `h` columns (scrolled sideways), marking the cut with `…` in
/// `style`.
pub(super) fn shift_spans(spans: Vec<Span<'static>>, h: usize, style: Style) -> Vec<Span<'static>> {
    if h == 0 {
        return spans;
    }
    // (the `…` takes the first column left)
    let mut skip = h + 1;
    let mut out = vec![Span::styled("…", style)];
    for s in spans {
        let n = s.content.chars().count();
        if skip >= n {
            skip -= n;
            continue;
        }
        let rest: String = s.content.chars().skip(skip).collect();
        skip = 0;
        out.push(Span::styled(rest, s.style));
    }
    out
}

/// Cut a row that is wider than the pane, marking the cut with `…`.
pub(super) fn clip_spans(
    spans: Vec<Span<'static>>,
    width: usize,
    len: usize,
) -> Vec<Span<'static>> {
    if len <= width {
        return spans;
    }
    let mut left = width.saturating_sub(1);
    let mut out = Vec::new();
    for s in spans {
        let n = s.content.chars().count();
        if n <= left {
            left -= n;
            out.push(s);
        } else {
            out.push(Span::styled(clip(&s.content, left + 1), s.style));
            break;
        }
    }
    out
}

pub(super) fn leaf_color(p: &Palette, k: Outcome) -> Color {
    p.outcome(k)
}
