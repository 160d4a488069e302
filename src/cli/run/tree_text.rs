//! `--tree`: the SET as an indented text tree, for terminals and snapshot tests.
//!
//! Straight-line steps stay at one indentation level; only branching points indent, with
//! the condition of each branch on its own line:
//!
//! ```text
//! [0] 3: x = 2 * y
//! [1] 4: if x < 0:
//! ├── 2 * y < 0
//! │   [2] 5: x = -x
//! │   [3] normal  x = -(2 * y), y = y
//! └── not (2 * y < 0)
//!     [4] normal  x = 2 * y, y = y
//! ```
//!
//! With `--explain`, a node with pruned alternatives lists them, and an infeasible or
//! unknown leaf says why:
//!
//! ```text
//! [1] 3: if x < 3:
//!   ✗ x < 3 (then) — contradicts line 2 (assume: x > 5)
//! ...
//! [4] infeasible
//!   because: 2 conditions clash
//!     line 2 (assume): x > 5
//!     line 4 (then): y < x
//! ```

use crate::base::span::line_name;
use std::fmt::Write;

use super::Explored;
use crate::diagnostics::count;
use crate::session::why::clash;
use crate::session::{term_shown, CoreEntry, Explained, Form, Why};
use crate::session::{ExplainVerdict as Verdict, NodeId, Stop};

enum Item {
    /// A node and the prefix of its lines.
    Node(NodeId, String),
    /// A branch label line, printed as is.
    Label(String),
}

/// Write the tree to `out` as it is walked (the text of a deep tree can be far bigger than
/// the tree: it is never held in memory whole).
pub(super) fn write(x: &Explored, out: &mut impl Write) {
    let tree = x.session.tree();
    // Iterative (trees can be deep): a chain of single children stays at one level.
    let mut stack = vec![Item::Node(tree.root(), String::new())];
    while let Some(item) = stack.pop() {
        let (mut id, prefix) = match item {
            Item::Label(text) => {
                let _ = writeln!(out, "{text}");
                continue;
            }
            Item::Node(id, prefix) => (id, prefix),
        };
        loop {
            let _ = writeln!(out, "{prefix}{}", describe(x, id));
            if tree.node(id).is_leaf() {
                printed(x, id, &prefix, out);
            }
            if let Some(ex) = &x.explained {
                because(ex, id, &prefix, out);
            }
            match &tree.node(id).children[..] {
                [] => break,
                [only] => {
                    // The one way on; show what it added to the path condition, if anything.
                    if let Some(b) = x.session.branch_shown(*only) {
                        let _ = writeln!(out, "{prefix}  ({b})");
                    }
                    id = *only;
                }
                many => {
                    for (k, &c) in many.iter().enumerate().rev() {
                        let last = k + 1 == many.len();
                        // (as people read it: what the path condition implies dropped)
                        let branch = x
                            .session
                            .branch_shown(c)
                            .or_else(|| {
                                // Issue 31: a fold's fallback, the loop again, unrolled.
                                x.session
                                    .fallback_json(c)
                                    .map(|_| "(unrolled instead)".into())
                            })
                            .unwrap_or_else(|| "(always)".to_string());
                        let (head, cont) = if last {
                            ("└── ", "    ")
                        } else {
                            ("├── ", "│   ")
                        };
                        stack.push(Item::Node(c, format!("{prefix}{cont}")));
                        stack.push(Item::Label(format!("{prefix}{head}{branch}")));
                    }
                    break;
                }
            }
        }
    }
    let s = x.session.stats();
    let _ = writeln!(
        out,
        "\n{}, {} ({}, {} bound), {} open; {}{}",
        count(s.nodes, "node"),
        count(s.leaves, "leaf"),
        count(s.exceptions, "exception"),
        s.bounds,
        s.open,
        count(s.solver.checks as usize, "solver check"),
        if s.folds > 0 {
            format!("; {}", count(s.folds, "fold"))
        } else {
            String::new()
        }
    );
    if let Some(why) = stop_text(x.stop) {
        let _ = writeln!(out, "stopped: {why}");
    }
    if let Some(w) = x.session.cuts_warning() {
        let _ = writeln!(out, "bounds: {w}");
    }
    if let Some(w) = x.session.fallback_warning() {
        let _ = writeln!(out, "fallback: {w}");
    }
}

/// Why an exploration stopped early, in words (`None`: it did not).
fn stop_text(stop: Stop) -> Option<&'static str> {
    match stop {
        Stop::Done => None,
        Stop::NodeLimit => Some("the tree reached --max-nodes; open nodes are left"),
        Stop::TimeLimit => Some("the time limit; open nodes are left"),
        Stop::Cancelled => Some("interrupted; open nodes are left"),
    }
}

/// `[3] 5: x = -x`, `[1] 23: return t[i]  → f`, `[7] exception ZeroDivisionError at line 4
/// -- label`.
fn describe(x: &Explored, id: NodeId) -> String {
    let view = x.session.view(id);
    let mut text = format!("[{}] {}", id.0, view.text(Form::Tree));
    // Where a call enters its frame (`→ f`) and returns (`← g`), as in the TUI.
    if let Some(mark) = x.session.call_mark(id) {
        let _ = write!(text, "  {mark}");
    }
    if let Some(label) = view.note() {
        let _ = write!(text, "  -- {label}");
    }
    if let Some(fold) = x.session.fold_label(id) {
        let _ = write!(text, "  -- {fold}");
    }
    text
}

/// How many printed lines a leaf lists under it (the rest are counted).
const PRINTED_SHOWN: usize = 5;

/// Under a leaf whose path printed: `stdout: 2 lines`, then the lines as the `print`s
/// that wrote them, their arguments over the inputs (`print(x + 1, (x, 2))`).
fn printed(x: &Explored, id: NodeId, prefix: &str, out: &mut impl Write) {
    let lines = x.session.stdout_at(id);
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(out, "{prefix}  stdout: {}", count(lines.len(), "line"));
    for l in lines.iter().take(PRINTED_SHOWN) {
        let _ = writeln!(out, "{prefix}    print({l})");
    }
    if lines.len() > PRINTED_SHOWN {
        let _ = writeln!(out, "{prefix}    … {} more", lines.len() - PRINTED_SHOWN);
    }
}

/// The `--explain` lines under a node: its pruned alternatives, or why a leaf is.
fn because(ex: &Explained, id: NodeId, prefix: &str, out: &mut impl Write) {
    for (p, why) in ex.pruned.get(&id).into_iter().flatten() {
        let reason = match why.verdict {
            Verdict::Infeasible | Verdict::InfeasibleWithoutFeatures => {
                let rest: Vec<&CoreEntry> = why.core.iter().filter(|c| !c.goal).collect();
                if rest.is_empty() {
                    "unsatisfiable by itself".to_string()
                } else {
                    let items: Vec<String> = rest
                        .iter()
                        .map(|c| {
                            let condition = term_shown(&c.term);
                            format!("{} ({}: {condition})", line_name(c.line), c.transition)
                        })
                        .collect();
                    format!("contradicts {}", items.join(", "))
                }
            }
            _ => why.summary(),
        };
        let _ = writeln!(
            out,
            "{prefix}  ✗ {} ({}) — {reason}",
            p.branch_shown, p.transition
        );
    }
    if let Some(why) = ex.leaves.get(&id) {
        leaf_because(why, prefix, out);
    }
}

/// `because:` and the core or the hard parts, one a line.
fn leaf_because(why: &Why, prefix: &str, out: &mut impl Write) {
    let head = match &why.verdict {
        Verdict::Infeasible => clash(why.core.len()),
        Verdict::InfeasibleWithoutFeatures => {
            format!("{}, even without the hard parts", clash(why.core.len()))
        }
        Verdict::Undecided => "undecided because of".to_string(),
        _ => why.summary(),
    };
    let _ = writeln!(out, "{prefix}  because: {head}");
    for c in &why.core {
        let _ = writeln!(
            out,
            "{prefix}    {} ({}): {}",
            line_name(c.line),
            c.transition,
            term_shown(&c.term)
        );
    }
    if why.verdict != Verdict::Infeasible {
        for f in &why.features {
            let _ = writeln!(
                out,
                "{prefix}    {} {}: {}",
                line_name(f.line),
                f.kind,
                f.term_shown
            );
        }
    }
}
