//! The status line (node, depth, counts, solver, message or progress) and the key hints
//! (from the key table, `tui::keys`).

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::clip;
use crate::diagnostics::count;
use crate::tui::app::{App, Mode};
use crate::tui::keys::{self, Action, Context, BREAKS_HINTS, HINTS, OVERLAY_HINTS};

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
    // (a prompt's keys, from the key table)
    let submit = keys::key_of(Context::Prompt, Action::Submit).unwrap_or_default();
    let cancel = keys::key_of(Context::Prompt, Action::Cancel).unwrap_or_default();
    let pairs: Vec<(String, &str)> = match &app.mode {
        Mode::Search(text) => {
            let line = Line::from(vec![
                Span::styled(format!("/{text}"), Style::default().fg(p.accent)),
                Span::styled("█", Style::default().fg(p.accent)),
                Span::styled(
                    format!("  {submit} search (empty: next match) · {cancel} cancel"),
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
                Span::styled(
                    format!("  {submit} apply · {cancel} cancel"),
                    Style::default().fg(p.dim),
                ),
            ]);
            return f.render_widget(Paragraph::new(line), rect);
        }
        Mode::Breakpoints => breaks_hints(),
        Mode::Origins => {
            let mut v: Vec<(String, &str)> = vec![keys::hint(
                Context::Overlay,
                &[Action::ScrollDown, Action::ScrollUp],
                "pick",
            )];
            v.push(keys::hint(
                Context::Overlay,
                &[Action::OriginJump],
                "go to its node",
            ));
            v.push(("any other key".into(), "close"));
            v
        }
        Mode::Help | Mode::Errors | Mode::Messages => {
            let mut v: Vec<(String, &str)> = OVERLAY_HINTS
                .iter()
                .map(|&(actions, word)| keys::hint(Context::Overlay, actions, word))
                .collect();
            let close = if app.mode == Mode::Help {
                "close help"
            } else {
                "close"
            };
            v.push(("any other key".into(), close));
            v
        }
        Mode::Normal => {
            let at_loop = app
                .tree
                .get(app.selected)
                .is_some_and(|n| n.info.at_annotated_loop && app.tree.is_open(app.selected));
            // The key table's hints, in their order; `u` only at a loop, where `s` applies
            // the invariant (short words: with them, r e m R still fit 80 columns).
            let at_call = app
                .tree
                .get(app.selected)
                .is_some_and(|n| n.info.view.call_choice);
            HINTS
                .iter()
                .filter(|(actions, _)| at_loop || actions != &[Action::Unroll])
                .filter(|(actions, _)| {
                    at_call || (actions != &[Action::Inline] && actions != &[Action::UseContract])
                })
                .map(|&(actions, word)| {
                    let word = if at_loop && actions == [Action::Step] {
                        "invariant"
                    } else {
                        word
                    };
                    keys::hint(Context::Normal, actions, word)
                })
                .collect()
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

/// The breakpoint list's hints, from the key table (`j k move`, …).
pub(super) fn breaks_hints() -> Vec<(String, &'static str)> {
    BREAKS_HINTS
        .iter()
        .map(|&(actions, word)| keys::hint(Context::Breakpoints, actions, word))
        .collect()
}
