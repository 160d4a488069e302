//! One plain-data view of a node, built in one place for every printer: the tree text,
//! DOT, JSON and the TUI's rows all read [`NodeView`]s, and the texts a node shows (its
//! statement, a leaf's summary) come from [`NodeView::text`] in the [`Form`] each needs.

use crate::base::bindings::{binding, binding_list};
use crate::base::span::{line_name, line_number};
use std::fmt::Write;

use super::Session;
use crate::base::ExcClass;
use crate::engine::{NodeId, NodeKind, Outcome};

/// At most this many variables in a TUI row's leaf summary.
const ROW_VARS: usize = 4;

/// At most this many variables in a Graphviz leaf label, and at most this many characters
/// a line there.
const GRAPH_VARS: usize = 8;
const GRAPH_WIDTH: usize = 40;

/// `text` cut to `width` characters, the last one `…` when it was longer.
fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut out: String = text.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// A node as printers see it: numbers and strings only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeView {
    pub id: NodeId,
    pub parent: Option<NodeId>,
    pub depth: u32,
    pub kind: NodeKind,
    /// 1-based line and column of the statement about to run (`None` at leaves).
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// That line's text, trimmed, control characters escaped ("" at leaves).
    pub statement: String,
    /// The line of the statement or, at an exception leaf, of the raise.
    pub place: Option<usize>,
    /// At an exception leaf: where it was raised (line, column).
    pub raised_at: Option<(usize, usize)>,
    /// At a `return` leaf of an entry run: the result (minipy).
    pub return_value: Option<String>,
    /// At an `unknown` leaf: the solver's reason.
    pub unknown_reason: Option<String>,
    /// The node's step in the loop-scope transformation, if any.
    pub label: Option<&'static str>,
    /// At a node about to run an exception handler: "IndexError raised at line 5, caught
    /// at line 9".
    pub caught: Option<String>,
    /// An exception leaf that is a loop invariant's failure.
    pub invariant_failure: bool,
    /// At a `normal` leaf: the visible store (name, minipy value), in natural order.
    pub store: Vec<(String, String)>,
    /// Frames on the call stack (1: module code) and the innermost frame's function.
    pub frames: usize,
    pub func: Option<String>,
    /// An open node at an annotated loop where both transitions exist.
    pub loop_choice: bool,
    /// An open node at a call of a contracted function (inline, or use the contract).
    pub call_choice: bool,
    /// A leaf that is a contract's failure: "precondition of f violated".
    pub contract_failure: Option<String>,
    /// Below a use of a contract: the leaf is abstract (issue 28).
    pub is_abstract: bool,
}

/// Where a node's text is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `symdbg run --tree`: `5: x = -x  (open)`, `exception ZeroDivisionError at line 4`,
    /// `normal  x = -(2 * y), y = y` (every variable).
    Tree,
    /// A Graphviz label, lines separated by `\n`: `ZeroDivisionError\nline 4`,
    /// `normal\nx = -(2 * y)\ny = y` (at most [`GRAPH_VARS`] variables, each line cut at
    /// [`GRAPH_WIDTH`] characters), `return -1`.
    Graph,
    /// A TUI row (leaves only; "" for other nodes): `ZeroDivisionError at line 4`,
    /// `normal  a = 1, b = 2, c = 3, d = 4, …`.
    Row,
}

impl NodeView {
    /// The note printers show beside the node: its loop-scope label or what it caught.
    pub fn note(&self) -> Option<&str> {
        self.contract_failure
            .as_deref()
            .or(self.label)
            .or(self.caught.as_deref())
    }

    pub fn outcome(&self) -> Option<Outcome> {
        match self.kind {
            NodeKind::Leaf(o) => Some(o),
            _ => None,
        }
    }

    pub fn exception(&self) -> Option<ExcClass> {
        match self.kind {
            NodeKind::Leaf(Outcome::Exception(c)) => Some(c),
            _ => None,
        }
    }

    /// The JSON name of the kind: `inner`, `open` or `leaf`.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            NodeKind::Inner => "inner",
            NodeKind::Open => "open",
            NodeKind::Leaf(_) => "leaf",
        }
    }

    /// The node's text in `form`: the statement of an inner or open node, the summary of a
    /// leaf.
    pub fn text(&self, form: Form) -> String {
        let Some(outcome) = self.outcome() else {
            let line = line_number(self.line.unwrap_or(0));
            return match (form, self.kind) {
                (Form::Row, _) => String::new(),
                (Form::Tree, NodeKind::Open) => format!("{line}: {}  (open)", self.statement),
                (Form::Graph, NodeKind::Open) => format!("{line}: {}\n(open)", self.statement),
                _ => format!("{line}: {}", self.statement),
            };
        };
        let mut s = match (outcome, form) {
            (Outcome::Exception(class), Form::Tree) if self.invariant_failure => {
                let at = self.raised_at.map_or(String::new(), |(l, c)| {
                    format!(" at {}, column {c}", line_name(l))
                });
                let what = if self.contract_failure.is_some() {
                    "contract"
                } else {
                    "invariant"
                };
                format!("exception {class}{at} ({what})")
            }
            (Outcome::Exception(class), Form::Tree) => {
                let at = self
                    .place
                    .map_or(String::new(), |l| format!(" at {}", line_name(l)));
                format!("exception {class}{at}")
            }
            (Outcome::Exception(class), Form::Graph) => match self.place {
                Some(line) => format!("{class}\n{}", line_name(line)),
                None => class.to_string(),
            },
            (Outcome::Exception(class), Form::Row) => {
                let what = if self.contract_failure.is_some() {
                    " (contract)"
                } else if self.invariant_failure {
                    " (invariant)"
                } else {
                    ""
                };
                match self.place {
                    Some(l) => format!("{class} at {}{what}", line_name(l)),
                    None => format!("{class}{what}"),
                }
            }
            (Outcome::Unknown, _) => {
                let reason = self.unknown_reason.as_deref().unwrap_or("solver");
                let gap = if form == Form::Graph { "\n" } else { " " };
                format!("unknown{gap}({reason})")
            }
            (Outcome::Return, Form::Graph | Form::Row) => match &self.return_value {
                Some(rv) => format!("return {rv}"),
                None => "return".to_string(),
            },
            (Outcome::Normal, Form::Graph) if !self.store.is_empty() => {
                // The environment under the outcome, one variable a line, as the book's
                // SET pictures show it; long values and long stores shortened.
                let mut lines = vec!["normal".to_string()];
                for (k, v) in self.store.iter().take(GRAPH_VARS) {
                    lines.push(shorten(&binding(k, v), GRAPH_WIDTH));
                }
                if self.store.len() > GRAPH_VARS {
                    lines.push(format!("… ({} more)", self.store.len() - GRAPH_VARS));
                }
                lines.join("\n")
            }
            (Outcome::Normal, Form::Tree | Form::Row) if !self.store.is_empty() => {
                let limit = if form == Form::Row {
                    ROW_VARS
                } else {
                    usize::MAX
                };
                let mut parts = binding_list(self.store.iter().take(limit).map(|(k, v)| (k, v)));
                if self.store.len() > limit {
                    parts.push("…".to_string());
                }
                format!("normal  {}", parts.join(", "))
            }
            (o, _) => o.name().to_string(),
        };
        // The tree text adds the result of any leaf that has one.
        if let (Form::Tree, Some(rv)) = (form, &self.return_value) {
            let _ = write!(s, "  return {rv}");
        }
        s
    }
}

/// The mark of a node where a call entered its frame, `→ f`, or where a return came back
/// to the caller, `← g` (`←` in module code; not at leaves, which have left every frame);
/// `(depth N)` when N ≥ 2 function frames are open (recursion). `frames`: the node's frames
/// (1: module code), `parent`: its parent's, `func`: the innermost frame's function. One
/// rule for the TUI's tree rows and `run --tree`.
pub fn call_mark(
    frames: usize,
    parent: Option<usize>,
    func: Option<&str>,
    leaf: bool,
) -> Option<String> {
    let depth = frames.saturating_sub(1);
    let deep = if depth >= 2 {
        format!(" (depth {depth})")
    } else {
        String::new()
    };
    match parent {
        Some(pf) if frames > pf => Some(format!("→ {}{deep}", func.unwrap_or("?"))),
        Some(pf) if frames < pf && !leaf => Some(match func {
            Some(f) => format!("← {f}{deep}"),
            None => "←".to_string(),
        }),
        _ => None,
    }
}

impl Session {
    /// The view of one node.
    pub fn view(&self, id: NodeId) -> NodeView {
        let source = self.source();
        let node = self.tree().node(id);
        let at = node.at().map(|s| source.line_col(s.start));
        let line = at.map(|(l, _)| l);
        let raised_at = match node.kind {
            NodeKind::Leaf(Outcome::Exception(_)) => {
                node.exception_at().map(|s| source.line_col(s.start))
            }
            _ => None,
        };
        let mut store: Vec<(String, String)> = match node.kind {
            NodeKind::Leaf(Outcome::Normal) => self
                .engine
                .store(id)
                .into_iter()
                .map(|(k, t)| (k, super::term_shown(&t)))
                .collect(),
            _ => Vec::new(),
        };
        // (as the debugger's store pane lists them: a2 before a10)
        crate::base::natural::sort(&mut store);
        NodeView {
            id,
            parent: node.parent,
            depth: node.depth,
            kind: node.kind,
            line,
            column: at.map(|(_, c)| c),
            // An `--assume` precondition shows as the statement it runs as.
            statement: line.map_or(String::new(), |l| source.shown_statement(l)),
            place: self.node_line(id),
            raised_at,
            return_value: node.return_value().map(super::term_shown),
            unknown_reason: node.unknown_reason().map(str::to_string),
            label: node.label(),
            caught: self.caught_text(id),
            invariant_failure: node.invariant_failure(),
            store,
            frames: node.state.frames.len(),
            func: node
                .state
                .frames
                .last()
                .and_then(|f| f.func.as_deref())
                .map(str::to_string),
            loop_choice: node.is_open() && self.loop_choice(id),
            call_choice: node.is_open() && self.call_choice(id),
            contract_failure: self.contract_failure(id).map(|c| c.to_string()),
            is_abstract: node.is_leaf() && self.is_abstract(id),
        }
    }

    /// The call mark of node `id` ([`call_mark`]), from its and its parent's frames.
    pub fn call_mark(&self, id: NodeId) -> Option<String> {
        let tree = self.tree();
        let node = tree.node(id);
        let parent = node.parent.map(|p| tree.node(p).state.frames.len());
        let func = node.state.frames.last().and_then(|f| f.func.as_deref());
        call_mark(node.state.frames.len(), parent, func, node.is_leaf())
    }

    /// The condition a node's incoming edge added, in minipy syntax.
    pub fn branch_text(&self, id: NodeId) -> Option<String> {
        self.tree().node(id).branch.as_ref().map(|b| b.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::call_mark;

    #[test]
    fn call_marks_name_the_frame_entered_or_returned_to() {
        // Module code (1 frame) calls f (2 frames): no depth yet.
        assert_eq!(
            call_mark(2, Some(1), Some("f"), false).as_deref(),
            Some("→ f")
        );
        // Recursion: f inside f inside the module.
        assert_eq!(
            call_mark(3, Some(2), Some("f"), false).as_deref(),
            Some("→ f (depth 2)")
        );
        assert_eq!(
            call_mark(3, Some(4), Some("f"), false).as_deref(),
            Some("← f (depth 2)")
        );
        assert_eq!(
            call_mark(2, Some(3), Some("g"), false).as_deref(),
            Some("← g")
        );
        // Back in module code: the bare arrow.
        assert_eq!(call_mark(1, Some(2), None, false).as_deref(), Some("←"));
        // A leaf has left every frame: no return mark; same depth or the root: nothing.
        assert_eq!(call_mark(1, Some(2), None, true), None);
        assert_eq!(call_mark(2, Some(2), Some("f"), false), None);
        assert_eq!(call_mark(1, None, None, false), None);
    }
}
