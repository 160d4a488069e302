//! `symdbg diff OLD NEW` (issue 29): the classes of inputs on which two programs behave
//! differently, each with a witness replayed in the concrete interpreter.
//!
//! How: both trees are explored under the same bounds; every pair (old leaf, new leaf)
//! that ends a path (`normal`, `return`, `exception`) is a class of inputs, `pc_old ∧
//! pc_new`. Where the two leaves' outcomes differ by their kind, exception class or
//! raising line (lines are compared through a line diff of the two sources, so an edit
//! that shifts code does not count), the class is a difference if it is satisfiable;
//! where both end normally, it is one if `pc_old ∧ pc_new ∧ (ret_old ≠ ret_new ∨ x_old ≠
//! x_new ∨ ...)` is satisfiable (the return value, and in module runs the final value of
//! every variable both programs have, and every item the paths printed: the printed text
//! is the same exactly when the items are, see [`same_shape_output`]). The solver's minimal model is the witness; both
//! programs run on it concretely and the difference is kept only if the runs differ too.
//! Pairs of leaves rather than a product program: the trees exist already (the debugger
//! shows them), each class is named by the two leaves, and a pair's query is small.
//! Paths cut by a bound, `unknown` or open leave the result "equivalent only up to the
//! bounds" ([`DiffReport::bounded`]).

mod text;

use std::collections::BTreeMap;

pub use text::{describe, difference_line, inputs_text, stdout_text};

use super::Session;
use crate::base::Outcome;
use crate::concrete::{self, RunResult, Value};
use crate::engine::{NodeId, NodeKind};
use crate::term::Term;

/// What one program did on one input (a concrete run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Behaviour {
    /// `normal`, `return`, `exception` or `step_limit`.
    pub outcome: &'static str,
    pub exception: Option<String>,
    /// Where the exception was raised (1-based line of its program).
    pub line: Option<usize>,
    pub return_value: Option<Value>,
    /// The final variables (module runs).
    pub store: BTreeMap<String, Value>,
    /// What the run printed, byte for byte CPython's stdout (up to where it ended).
    pub stdout: String,
}

/// One class of inputs on which the programs differ.
#[derive(Clone, Debug)]
pub struct Difference {
    pub old_leaf: NodeId,
    pub new_leaf: NodeId,
    /// The witness: a minimal model of the class.
    pub inputs: BTreeMap<String, Value>,
    pub old: Behaviour,
    pub new: Behaviour,
    /// What differs: `outcome`, `exception`, `line`, `return value`, `stdout`, `x` (a
    /// variable).
    pub what: Vec<String>,
}

/// The result of comparing two explored programs.
#[derive(Clone, Debug, Default)]
pub struct DiffReport {
    pub differences: Vec<Difference>,
    /// A tree has paths cut by a bound, `unknown` leaves or open nodes: "no difference"
    /// holds only within the bounds.
    pub bounded: bool,
    /// Classes the solver could not decide.
    pub undecided: usize,
    /// Those classes' pairs of leaves (old, new).
    pub undecided_pairs: Vec<(NodeId, NodeId)>,
    /// Classes whose witness ran the same concretely (the engine's view of a leaf was
    /// coarser than the run; not reported as differences).
    pub not_confirmed: usize,
    /// Pairs of leaves compared.
    pub pairs: usize,
}

/// Line `k` of the old text → its line in the new text (1-based): unchanged lines, and
/// the lines of a run of changed lines that has as many lines on both sides (an edited
/// line is still that line).
pub fn line_map(old: &str, new: &str) -> BTreeMap<usize, usize> {
    let diff = similar::TextDiff::from_lines(old, new);
    let mut out = BTreeMap::new();
    for op in diff.ops() {
        let (o, n, len) = match *op {
            similar::DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => (old_index, new_index, len),
            similar::DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } if old_len == new_len => (old_index, new_index, old_len),
            _ => continue,
        };
        for k in 0..len {
            out.insert(o + k + 1, n + k + 1);
        }
    }
    out
}

/// A leaf that ends its path, with what the comparison reads of it.
struct Leaf {
    id: NodeId,
    outcome: Outcome,
    line: Option<usize>,
    pc: Vec<Term>,
    ret: Option<Term>,
    store: BTreeMap<String, Term>,
    /// What the path printed, line by line (each line its items).
    output: Vec<std::rc::Rc<[Term]>>,
}

fn leaves(s: &Session) -> (Vec<Leaf>, bool) {
    let mut out = Vec::new();
    let mut cut = false;
    let module = s.entry().is_none();
    for n in s.tree().nodes() {
        match n.kind {
            NodeKind::Open | NodeKind::Leaf(Outcome::Bound | Outcome::Unknown) => cut = true,
            NodeKind::Leaf(o @ (Outcome::Normal | Outcome::Return | Outcome::Exception(_)))
                if !n.invariant_failure() =>
            {
                out.push(Leaf {
                    id: n.id,
                    outcome: o,
                    line: n.exception_at().map(|sp| s.source().line(sp.start)),
                    pc: s.engine.path_condition(n.id),
                    ret: n.return_value().cloned(),
                    store: if module {
                        s.engine.store(n.id).into_iter().collect()
                    } else {
                        BTreeMap::new()
                    },
                    output: s.engine.output(n.id),
                });
            }
            _ => {}
        }
    }
    (out, cut)
}

/// How a run's behaviour reads for the comparison.
pub fn behaviour(run: &RunResult, s: &Session) -> Behaviour {
    Behaviour {
        outcome: run.outcome.name(),
        exception: run.outcome.exception().map(|c| c.name().to_string()),
        line: run.exception_at.map(|sp| s.source().line(sp.start)),
        return_value: run.return_value.clone(),
        store: if s.entry().is_none() {
            run.store.clone()
        } else {
            BTreeMap::new()
        },
        stdout: run.stdout.clone(),
    }
}

/// What differs between two behaviours (empty: the same), lines compared through `map`.
pub fn differences(old: &Behaviour, new: &Behaviour, map: &BTreeMap<usize, usize>) -> Vec<String> {
    let mut what = Vec::new();
    if old.outcome != new.outcome {
        what.push("outcome".to_string());
    }
    if old.exception != new.exception {
        what.push("exception".to_string());
    } else if old.exception.is_some() && old.line.and_then(|l| map.get(&l).copied()) != new.line {
        what.push("line".to_string());
    }
    if old.return_value != new.return_value {
        what.push("return value".to_string());
    }
    if old.stdout != new.stdout {
        what.push("stdout".to_string());
    }
    for (k, v) in &old.store {
        if new.store.get(k).is_some_and(|w| w != v) {
            what.push(k.clone());
        }
    }
    what
}

/// How many pairs of leaves [`diff`] compares (its work: at most one solver query and
/// two concrete runs per pair), for a caller that caps it.
pub fn leaf_pairs(old: &Session, new: &Session) -> usize {
    let ends = |s: &Session| {
        s.tree()
            .nodes()
            .filter(|n| {
                matches!(
                    n.kind,
                    NodeKind::Leaf(Outcome::Normal | Outcome::Return | Outcome::Exception(_))
                ) && !n.invariant_failure()
            })
            .count()
    };
    ends(old).saturating_mul(ends(new))
}

/// Compare `old` and `new`, both explored (the same inputs, by name and type).
pub fn diff(old: &mut Session, new: &mut Session) -> Result<DiffReport, String> {
    if old.inputs() != new.inputs() {
        let show = |s: &Session| {
            let v: Vec<String> = s
                .inputs()
                .iter()
                .map(|(n, t)| format!("{n}: {t}"))
                .collect();
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        return Err(format!(
            "the programs have different inputs (old: {}; new: {}): diff compares programs with the same inputs",
            show(old),
            show(new)
        ));
    }
    let map = line_map(&old.source().text, &new.source().text);
    let (a, cut_a) = leaves(old);
    let (b, cut_b) = leaves(new);
    let mut report = DiffReport {
        bounded: cut_a || cut_b,
        ..DiffReport::default()
    };
    for la in &a {
        for lb in &b {
            report.pairs += 1;
            let Some(goal) = goal(la, lb, &map) else {
                continue;
            };
            let mut conds = la.pc.clone();
            conds.extend(lb.pc.iter().cloned());
            conds.push(goal);
            let inputs = match new.engine.inputs_satisfying(&conds) {
                Ok(i) => i,
                Err(crate::engine::NoModel::Infeasible) => continue,
                Err(_) => {
                    report.undecided += 1;
                    report.undecided_pairs.push((la.id, lb.id));
                    continue;
                }
            };
            let config = concrete::Config::default();
            let (Ok(ro), Ok(rn)) = (
                old.run_concrete(&inputs, &config),
                new.run_concrete(&inputs, &config),
            ) else {
                report.not_confirmed += 1;
                continue;
            };
            let (bo, bn) = (behaviour(&ro, old), behaviour(&rn, new));
            let what = differences(&bo, &bn, &map);
            if what.is_empty() {
                report.not_confirmed += 1;
                continue;
            }
            report.differences.push(Difference {
                old_leaf: la.id,
                new_leaf: lb.id,
                inputs,
                old: bo,
                new: bn,
                what,
            });
        }
    }
    Ok(report)
}

/// Could two paths' printed outputs be the same text? `false` when they differ on every
/// input (another number of lines, or of items in a line, or an item of another sort:
/// `print` writes an int, a bool and a tuple in forms that never coincide, and a line's
/// items never hold a line break or split differently); else the output is the same text
/// exactly when every item is the same value, and `ne` gets an `item ≠ item'` per item.
fn same_shape_output(
    a: &[std::rc::Rc<[Term]>],
    b: &[std::rc::Rc<[Term]>],
    ne: &mut Vec<Term>,
) -> bool {
    if a.len() != b.len() {
        return false;
    }
    for (la, lb) in a.iter().zip(b) {
        if la.len() != lb.len() {
            return false;
        }
        for (x, y) in la.iter().zip(lb.iter()) {
            if x.sort() != y.sort() {
                return false;
            }
            if x != y {
                ne.push(Term::ne(x.clone(), y.clone()));
            }
        }
    }
    true
}

/// The condition under which the pair's outcomes differ (on top of both path
/// conditions), `None` if they never do: another kind of end, exception class or raising
/// line, return value, final value of a shared variable, or printed output. (The store
/// is compared at exception leaves too: the variables when the exception ended the run.)
fn goal(a: &Leaf, b: &Leaf, map: &BTreeMap<usize, usize>) -> Option<Term> {
    let kind = |o: Outcome| match o {
        Outcome::Exception(_) => "exception",
        o => o.name(),
    };
    if kind(a.outcome) != kind(b.outcome) || a.outcome.exception() != b.outcome.exception() {
        return Some(Term::bool(true));
    }
    if a.outcome.exception().is_some() {
        let same_line = a.line.and_then(|l| map.get(&l).copied()) == b.line;
        if !same_line {
            return Some(Term::bool(true));
        }
    }
    let mut ne = Vec::new();
    match (&a.ret, &b.ret) {
        (Some(x), Some(y)) if x.sort() == y.sort() => ne.push(Term::ne(x.clone(), y.clone())),
        (None, None) => {}
        _ => return Some(Term::bool(true)),
    }
    for (k, x) in &a.store {
        if let Some(y) = b.store.get(k) {
            if x.sort() != y.sort() {
                return Some(Term::bool(true));
            }
            ne.push(Term::ne(x.clone(), y.clone()));
        }
    }
    if !same_shape_output(&a.output, &b.output, &mut ne) {
        return Some(Term::bool(true));
    }
    let any = Term::or_all(ne);
    (!any.is_false()).then_some(any)
}
