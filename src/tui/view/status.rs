//! The status line (node, depth, counts, solver, message or progress) and the key hints.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::clip;
use crate::diagnostics::count;
use crate::tui::app::{App, Mode};

/// Ends a message the status line cuts short.
const MORE: &str = " M: whole message ";

const SPINNER: [&str; 8] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧"];

pub(super) fn status(f: &mut Frame, app: &App, rect: Rect) {
    let p = app.palette;
    let s = &app.stats;
    let depth = app.tree.get(app.selected).map_or(0, |n| n.depth);
    // Bound leaves name the bound that cut them: a bug may hide past it.
    let mut bounds = format!("{} bound", s.bounds);
    let cuts: Vec<String> = [(s.cut_unroll, "--unroll"), (s.cut_recursion, "--recursion")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, flag)| format!("{n} {flag}"))
        .collect();
    if !cuts.is_empty() {
        bounds = format!("{bounds}: {}", cuts.join(", "));
    }
    // (a --recursion cut whose concrete run never ends within Python's limit)
    if s.cut_recursion_error > 0 {
        bounds = format!("{bounds} ({} RecursionError)", s.cut_recursion_error);
    }
    let mut left = format!(
        " node {} · depth {} │ {}: {} open, {} ({}, {bounds}) │ {}",
        app.selected.0,
        depth,
        count(s.nodes, "node"),
        s.open,
        count(s.leaves, "leaf"),
        count(s.exceptions, "exception"),
        count(s.solver_checks as usize, "check")
    );
    if app.show_timing {
        left.push_str(&format!(", {} ms in Z3", s.solver_ms));
    }
    // During long work the counts are the tree's before it: only the growing node count
    // is known (the progress reports), the rest comes with the answer.
    if let Some(b) = &app.busy {
        left = format!(
            " node {} · depth {} │ {} so far",
            app.selected.0,
            depth,
            count(b.nodes.max(s.nodes), "node")
        );
    }
    let right = match &app.busy {
        Some(b) if b.interrupting => format!(
            "{} {}: interrupting… {} ",
            SPINNER[app.tick % SPINNER.len()],
            b.what,
            count(b.nodes.max(s.nodes), "node")
        ),
        // (a key dropped meanwhile says so: `BUSY`)
        Some(b) => format!(
            "{} {}… {} · {} ",
            SPINNER[app.tick % SPINNER.len()],
            b.what,
            count(b.nodes.max(s.nodes), "node"),
            if app.message.is_empty() {
                "Esc interrupts"
            } else {
                &app.message
            }
        ),
        None if !app.message.is_empty() => format!("{} ", app.message),
        None => String::new(),
    };
    // The program file changed on disk: said first, whatever else is going on.
    let right = match app.disk_note() {
        Some(note) => format!("⟳ {note} · {right}"),
        None => right,
    };
    let width = rect.width as usize;
    // The message (what the last key did) wins over the counts when room is short; one
    // cut short says where it is whole.
    let room = width * 2 / 3;
    let right = if right.chars().count() > room && room > 2 * MORE.chars().count() {
        format!(
            "{}{MORE}",
            clip(right.trim_end(), room - MORE.chars().count())
        )
    } else {
        clip(&right, room)
    };
    let left = clip(&left, width.saturating_sub(right.chars().count() + 1));
    let pad = width.saturating_sub(left.chars().count() + right.chars().count());
    let line = Line::from(vec![
        Span::raw(left),
        Span::raw(" ".repeat(pad)),
        Span::styled(
            right,
            Style::default().fg(p.accent).add_modifier(Modifier::BOLD),
        ),
    ]);
    f.render_widget(
        Paragraph::new(line).style(Style::default().add_modifier(Modifier::REVERSED)),
        rect,
    );
}

pub(super) fn hints(f: &mut Frame, app: &App, rect: Rect) {
    let p = app.palette;
    let pairs: Vec<(&str, &str)> = match &app.mode {
        Mode::Search(text) => {
            let line = Line::from(vec![
                Span::styled(format!("/{text}"), Style::default().fg(p.accent)),
                Span::styled("█", Style::default().fg(p.accent)),
                Span::styled(
                    "  Enter search (empty: next match) · Esc cancel",
                    Style::default().fg(p.dim),
                ),
            ]);
            return f.render_widget(Paragraph::new(line), rect);
        }
        Mode::Prompt(kind, text) => {
            let line = Line::from(vec![
                Span::styled(
                    format!("{}{text}", kind.label()),
                    Style::default().fg(p.accent),
                ),
                Span::styled("█", Style::default().fg(p.accent)),
                Span::styled("  Enter apply · Esc cancel", Style::default().fg(p.dim)),
            ]);
            return f.render_widget(Paragraph::new(line), rect);
        }
        Mode::Breakpoints => vec![
            ("j k", "move"),
            ("Space", "enable/disable"),
            ("c", "condition"),
            ("d", "delete"),
            ("x", "exceptions"),
        ],
        Mode::Help => vec![("j k", "scroll"), ("any other key", "close help")],
        Mode::Errors | Mode::Messages => vec![("j k", "scroll"), ("any other key", "close")],
        Mode::Normal => {
            let at_loop = app
                .tree
                .get(app.selected)
                .is_some_and(|n| n.info.at_annotated_loop && app.tree.is_open(app.selected));
            // Help and quit first: they must show in the narrowest terminal.
            let mut v = vec![("?", "help"), ("q", "quit")];
            if at_loop {
                // (short: with them, r e m R still fit 80 columns)
                v.extend([("s", "invariant"), ("u", "unroll")]);
            } else {
                v.push(("s", "step"));
            }
            // The bug-finding recipe (r e m R) before the other moves, so an 80-column
            // terminal shows it.
            v.extend([
                ("r", "run"),
                ("e", "exception"),
                ("m", "model"),
                ("R", "replay"),
                ("n", "over"),
                ("f", "finish"),
                ("c", "continue"),
                ("b", "break"),
                ("/", "search"),
                ("Tab", "pane"),
            ]);
            v
        }
    };
    let mut spans = vec![Span::raw(" ")];
    let mut used = 1;
    for (k, what) in pairs {
        let n = k.chars().count() + what.chars().count() + 3;
        if used + n > rect.width as usize {
            break;
        }
        used += n;
        spans.push(Span::styled(
            k,
            Style::default().fg(p.accent).add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::styled(
            format!(" {what}  "),
            Style::default().fg(p.dim),
        ));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), rect);
}
