//! The path pane's "why": each conjunct with the line that added it (`L12 x > 0`); with an
//! explanation shown (`w`), the core's conjuncts marked `✗` and the others greyed; with `p`,
//! the node's pruned branches as greyed rows (`✗ L5 else: x >= 3`), the one explained
//! marked; an undecided leaf's hard parts with their lines.

use crate::base::span::line_tag;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::session::{Details, NodeId, Outcome};
use crate::tui::app::App;
use crate::tui::protocol::WhyInfo;

/// The explanation shown for node `id`, if any: (pruned branch or `None`, its info).
fn shown(app: &App, id: NodeId) -> Option<(Option<usize>, &WhyInfo)> {
    let (node, target) = app.why_shown?;
    (node == id).then(|| app.whys.get(&(node, target)).map(|w| (target, w)))?
}

/// The conjunct rows and, below them, the pruned branches and hard parts.
pub(super) fn path_lines(app: &App, id: NodeId, d: &Details) -> Vec<Line<'static>> {
    let dim = Style::default().fg(app.palette.dim);
    let clash = Style::default()
        .fg(app.palette.outcome(Outcome::Infeasible))
        .add_modifier(Modifier::BOLD);
    let why = shown(app, id);
    let mut out = Vec::new();
    let w = d.pc.len().to_string().len();
    let tags: Vec<String> = d.origins.iter().map(|&l| line_tag(l)).collect();
    let lw = tags.iter().map(String::len).max().unwrap_or(2);
    for (k, c) in d.pc.iter().enumerate() {
        let origin = tags.get(k).map_or(" ".repeat(lw), |t| format!("{t:<lw$}"));
        let implied = d.pc_implied.get(k).copied().unwrap_or(false);
        let (mark, style) = match why {
            Some((_, info)) if info.core.contains(&k) => ("✗ ", clash),
            Some(_) => ("  ", dim),
            // (a conjunct the ones before it imply: greyed)
            None if implied => ("", dim),
            None => ("", Style::default()),
        };
        out.push(Line::from(vec![
            Span::styled(format!("{:>w$} ", k + 1), dim),
            Span::styled(mark.to_string(), clash),
            Span::styled(
                format!("{origin} "),
                Style::default().fg(app.palette.accent),
            ),
            Span::styled(c.clone(), style),
        ]));
    }
    if app.show_pruned && !d.pruned.is_empty() {
        out.push(Line::styled("pruned (w: why)", dim));
        for (k, p) in d.pruned.iter().enumerate() {
            let explained = matches!(why, Some((Some(j), _)) if j == k);
            let style = if explained { clash } else { dim };
            out.push(Line::styled(
                format!("✗ {} {}: {}", line_tag(p.line), p.transition, p.branch),
                style,
            ));
        }
    }
    if let Some((_, info)) = why {
        // An undecided path: the hard parts one a line below (the summary lists them all).
        let head = match info.summary.split_once(": ") {
            Some((head, _)) if info.core.is_empty() && !info.features.is_empty() => {
                format!("{head}:")
            }
            _ => info.summary.clone(),
        };
        out.push(Line::styled(head, clash));
        for f in &info.features {
            out.push(Line::styled(format!("  {f}"), dim));
        }
    }
    out
}
