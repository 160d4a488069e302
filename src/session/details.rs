//! What a debugger's panes show about one node, as plain data: the path condition as
//! people read it (with each conjunct's line), the call stack with each frame's locals and
//! line, the store, a note about the node, and the step's pruned alternatives placed at
//! the line they would have raised on.

use super::{PrunedBranch, Session};
use crate::base::escape::escape_text;
use crate::base::span::line_name;
use crate::base::Outcome;
use crate::engine::{NodeId, NodeKind, Tag};
use crate::term::Term;

/// What the panes show about one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Details {
    pub id: NodeId,
    /// Path condition, oldest conjunct first, as people read it ([`super::readable`]:
    /// parts other parts imply dropped, bounds pairs as chains).
    pub pc: Vec<String>,
    /// Parallel to `pc`: the conjunct adds nothing to the ones before it (shown dimmed).
    pub pc_implied: Vec<bool>,
    /// The innermost frame's visible variables: name, symbolic value.
    pub store: Vec<(String, String)>,
    /// Frames outermost first, each with its locals.
    pub frames: Vec<(String, Vec<(String, String)>)>,
    /// Per frame (same order): the line it is at (a caller: its call's line).
    pub frame_lines: Vec<Option<usize>>,
    /// A line about the node (unknown reason, exception class and place, return value).
    pub note: Option<String>,
    /// Parallel to `pc`: the line of the statement that added each conjunct.
    pub origins: Vec<usize>,
    /// The infeasible alternatives of the node's step (a stepped node).
    pub pruned: Vec<PrunedShown>,
    /// What the path printed so far, a line each: `print`'s arguments over the inputs
    /// ([`Session::stdout_at`]).
    pub stdout: Vec<String>,
}

/// An alternative of a step that was infeasible, as a pane shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrunedShown {
    pub branch: String,
    pub line: usize,
    /// Which way it would have gone ("then", "IndexError at column 9 of `t[i]`").
    pub transition: String,
}

/// Names with their terms as text (below a fold: normalised, [`super::term_shown`]), in
/// natural order (a2 before a10).
fn shown(v: Vec<(String, Term)>) -> Vec<(String, String)> {
    let mut v: Vec<_> = v
        .into_iter()
        .map(|(k, t)| (k, super::term_shown(&t)))
        .collect();
    crate::base::natural::sort(&mut v);
    v
}

impl Session {
    /// What the panes show about node `id`.
    pub fn details(&self, id: NodeId) -> Details {
        let (engine, source) = (&self.engine, self.source());
        let node = engine.tree().node(id);
        let note = match node.kind {
            NodeKind::Leaf(Outcome::Exception(class)) => Some(match node.exception_at() {
                Some(s) if node.invariant_failure() => {
                    let (l, c) = source.line_col(s.start);
                    format!(
                        "the invariant fails at line {l}, column {c}: {} ({class}; no `except` \
                         catches a broken invariant)",
                        source.snippet(s)
                    )
                }
                Some(s) => {
                    let (l, c) = source.line_col(s.start);
                    format!(
                        "{class} raised at {}, column {c}: {}",
                        line_name(l),
                        source.snippet(s)
                    )
                }
                None => format!("{class} raised"),
            }),
            NodeKind::Leaf(Outcome::Unknown) => Some(format!(
                "the solver could not decide: {}",
                node.unknown_reason().unwrap_or("unknown")
            )),
            NodeKind::Leaf(Outcome::Bound) => {
                Some("cut by --unroll or --recursion (a bound leaf)".to_string())
            }
            NodeKind::Leaf(Outcome::Return) => node
                .return_value()
                .map(|rv| format!("returns {}", super::term_shown(rv))),
            _ => self.caught_text(id),
        };
        // The engine's label, whole (the tree row may cut it).
        let note = match (note, node.label()) {
            (Some(n), Some(l)) => Some(format!("{l}\n{n}")),
            (None, Some(l)) => Some(l.to_string()),
            (n, None) => n,
        };
        // An exception leaf has left the calls it was raised in; its call stack pane shows
        // them as they were at the raise (the parent node's frames), like a traceback.
        let raised_in = Some(self.frames_node(id)).filter(|&p| p != id);
        let frames: Vec<(String, Vec<(String, String)>)> = engine
            .frame_locals(raised_in.unwrap_or(id))
            .into_iter()
            .map(|(f, vars)| (f, shown(vars)))
            .collect();
        // Where each frame is: the innermost at the node's line, a caller at the call of
        // the frame above it.
        let at = raised_in.unwrap_or(id);
        let stack: Vec<_> = engine.frames_state(at).frames.iter().collect();
        let mut frame_lines: Vec<Option<usize>> = (0..stack.len())
            .map(|k| {
                stack
                    .get(k + 1)
                    .and_then(|f| f.call_site)
                    .map(|s| source.line(s.start))
            })
            .collect();
        if let Some(last) = frame_lines.last_mut() {
            *last = self.node_line(at);
        }
        let note = match (note, raised_in) {
            (Some(n), Some(p)) => Some(format!(
                "{n}\ninside {}; the call stack and the store show the frames at the raise \
                 (node {})",
                frames.last().map_or("?", |(f, _)| f.as_str()),
                p.0
            )),
            // An exit of a fold that raised: the leaf keeps the frames at the raise.
            (Some(n), None)
                if engine.fold_exit(id).is_some_and(|e| e.raised.is_some()) && frames.len() > 1 =>
            {
                Some(format!(
                    "{n}\ninside {}; the call stack and the store show the frames at the raise \
                     (after the folded iterations)",
                    frames.last().map_or("?", |(f, _)| f.as_str()),
                ))
            }
            (n, _) => n,
        };
        // The store pane shows the innermost frame the call stack shows (at an exception
        // leaf raised inside calls: the raising frame, as it was at the raise).
        let store = frames
            .last()
            .map(|(_, vars)| vars.clone())
            .unwrap_or_default();
        let origins = self.origins(id).into_iter().map(|o| o.line).collect();
        let shown = self.path_shown(id);
        Details {
            id,
            pc_implied: shown.iter().map(|s| s.implied).collect(),
            pc: shown.into_iter().map(|s| s.text).collect(),
            store,
            frames,
            frame_lines,
            note,
            origins,
            pruned: self.pruned_shown(id),
            stdout: self.stdout_at(id),
        }
    }

    /// The pruned alternatives of a stepped node's step (no solver call).
    pub fn pruned_shown(&self, id: NodeId) -> Vec<PrunedShown> {
        self.pruned_branches(id)
            .into_iter()
            .map(|p| {
                let (line, transition) = self.raised_at(&p);
                PrunedShown {
                    branch: p.branch_shown,
                    line,
                    transition,
                }
            })
            .collect()
    }

    /// A branch that would raise or fail (an exception, an assert, an invariant line —
    /// which may be another line than the node's) is placed at its line and quotes it:
    /// "invariant broken at column 19 of `invariant p(i)`", not "invariant broken at
    /// 31:19".
    fn raised_at(&self, p: &PrunedBranch) -> (usize, String) {
        let span = match &p.tag {
            Tag::Raise(_, s) | Tag::AssertFails(s) | Tag::InvariantFails(_, _, s) => *s,
            _ => return (p.line, p.transition.clone()),
        };
        let src = self.source();
        let (line, column) = src.line_col(span.start);
        let Some(what) = p.transition.strip_suffix(&format!(" at {line}:{column}")) else {
            return (p.line, p.transition.clone());
        };
        let text = escape_text(src.line_text(line).trim()).into_owned();
        (line, format!("{what} at column {column} of `{text}`"))
    }

    /// How many conjuncts node `id`'s path condition has.
    pub fn path_len(&self, id: NodeId) -> usize {
        self.engine.tree().node(id).state.pc.len()
    }
}
