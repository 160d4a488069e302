//! `--dot`: the SET as a Graphviz digraph (`symdbg run f.py --dot | dot -Tsvg > set.svg`).
//!
//! One line per node (`n3 [label="5: x = -x", ...];`) and one per edge
//! (`n1 -> n3 [label="x < 0"];`). Inner nodes are plain boxes labelled with the line and
//! statement; leaves are rounded and filled in the book's colours — exception red,
//! infeasible green, normal and return blue — plus halt (purple, double border), bound
//! (grey, dashed) and unknown (orange). Open nodes (not stepped yet) are dotted boxes
//! marked `(open)`. Edges carry the branch condition in minipy syntax (as `--tree` writes it). Labels longer than
//! [`MAX_LABEL`] characters are cut with `…` (Graphviz rejects quoted strings over 16 KiB,
//! and such labels are unreadable anyway; `--json` has the full text).

use std::fmt::Write;

use super::Explored;
use crate::session::Form;
use crate::session::{NodeKind, Outcome};

/// The longest label text, in characters.
pub const MAX_LABEL: usize = 400;

pub(super) fn render(x: &Explored) -> String {
    let tree = x.session.tree();
    let mut out = String::new();
    let _ = writeln!(out, "digraph SET {{");
    let _ = writeln!(
        out,
        "  graph [label=\"{}\", labelloc=t, fontname=\"monospace\"];",
        escape(&x.session.source().name)
    );
    out.push_str("  node [shape=box, fontname=\"monospace\", fontsize=10];\n");
    out.push_str("  edge [fontname=\"monospace\", fontsize=9];\n");
    for n in tree.nodes() {
        let view = x.session.view(n.id);
        let mut text = view.text(Form::Graph);
        if let Some(caught) = &view.caught {
            text = format!("{text}\n{caught}");
        }
        let _ = writeln!(
            out,
            "  n{} [label=\"{}\", tooltip=\"node {}\"{}];",
            n.id.0,
            escape(&text),
            n.id.0,
            style(n.kind)
        );
    }
    for n in tree.nodes() {
        for &c in &n.children {
            // (as `--tree` writes it: what the path condition implies left out)
            let _ = match x.session.branch_shown(c) {
                Some(b) => writeln!(out, "  n{} -> n{} [label=\"{}\"];", n.id.0, c.0, escape(&b)),
                None => writeln!(out, "  n{} -> n{};", n.id.0, c.0),
            };
        }
    }
    out.push_str("}\n");
    out
}

/// The attributes after the label: shape, border and fill by kind and outcome.
fn style(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Inner => "",
        NodeKind::Open => ", style=dotted, penwidth=2",
        NodeKind::Leaf(Outcome::Exception(_)) => {
            ", style=\"rounded,filled\", color=red, fillcolor=\"#ffd6d6\", penwidth=2"
        }
        NodeKind::Leaf(Outcome::Infeasible) => {
            ", style=\"rounded,filled\", color=green4, fillcolor=\"#d6f5d6\""
        }
        NodeKind::Leaf(Outcome::Normal | Outcome::Return) => {
            ", style=\"rounded,filled\", color=blue, fillcolor=\"#d6e4ff\""
        }
        NodeKind::Leaf(Outcome::Halt) => {
            ", style=\"rounded,filled\", color=purple, fillcolor=\"#eadcf8\", peripheries=2"
        }
        NodeKind::Leaf(Outcome::Bound) => {
            ", style=\"rounded,dashed,filled\", color=grey40, fillcolor=grey90"
        }
        NodeKind::Leaf(Outcome::Unknown | Outcome::StepLimit) => {
            ", style=\"rounded,filled\", color=orange, fillcolor=\"#ffe4c4\", penwidth=2"
        }
    }
}

/// `text` as the inside of a DOT double-quoted string: backslashes and quotes escaped,
/// line breaks as DOT's `\n` (centred lines), other control characters dropped, cut after
/// [`MAX_LABEL`] characters.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (k, c) in text.chars().enumerate() {
        if k == MAX_LABEL {
            out.push('…');
            break;
        }
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{escape, MAX_LABEL};

    #[test]
    fn escapes_quotes_backslashes_and_newlines() {
        assert_eq!(escape(r#"x = 1  # "a\b""#), r#"x = 1  # \"a\\b\""#);
        assert_eq!(escape("a\nb\tc"), "a\\nbc");
        assert_eq!(escape("x < 0 and y > 1"), "x < 0 and y > 1");
        let long = "x".repeat(MAX_LABEL + 10);
        assert_eq!(escape(&long).chars().count(), MAX_LABEL + 1);
    }
}
