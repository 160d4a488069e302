//! Coverage inside folded loops and recursions (issue 29, `--fold auto`): a fold node stands
//! for κ iterations of one path (κ and λ of two paths), so no node of the tree is about to
//! run the path's statements. They are *reached* when some input runs the path at least
//! once before one of the fold's exits (`κ ≥ 1` with the exit's path condition has a model:
//! [`crate::engine::Engine::inputs_with`]), and the statements of the exit's own, last
//! iteration up to where it leaves the path are reached by every input of the exit. What
//! runs after an exit is in the tree below it. A fold whose exits cannot be placed on its
//! path (a statement the path runs twice, an exception outside it) is a cut, as before.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::super::Session;
use super::Fate;
use crate::base::Span;
use crate::concrete::Value;
use crate::engine::fold::{ExitKind, FoldInfo};
use crate::engine::{NodeId, Tag};
use crate::solver::{SatResult, Unknown};
use crate::term::Term;

/// Does one folded path run at least once before one exit?
#[derive(Clone, Debug)]
pub(crate) enum PathRun {
    /// Yes, for these inputs.
    Runs(BTreeMap<String, Value>),
    /// No input does.
    Never,
    /// The solver could not tell.
    Unknown,
}

/// The answers so far, by (exit node, path): exits are immutable, so they stay true.
pub(crate) type FoldMemo = HashMap<(NodeId, usize), PathRun>;

/// What one fold node tells coverage.
#[derive(Default)]
pub(super) struct FoldSteps {
    /// A statement (by span) that runs on a path ending in the exit child, with the
    /// direction it takes (0: then/enter, 1: else/leave) if it branches.
    pub runs: Vec<(NodeId, Span, Option<usize>)>,
    /// Statements that might run (the solver could not tell).
    pub maybe: Vec<Span>,
    /// Some exit could not be placed on the path: the fold node is a cut.
    pub unsure: bool,
}

/// What the folds of a tree add to its coverage.
#[derive(Default)]
pub(super) struct FoldCoverage {
    /// Fold nodes whose exits could not be placed: cuts.
    pub cuts: HashSet<NodeId>,
    /// Counted lines a folded path runs, and how the paths through them end.
    pub at_line: HashMap<usize, Fate>,
    /// Branch directions (by the statement's span) a folded path takes.
    pub span_taken: HashMap<Span, [Option<Fate>; 2]>,
    /// Branching statements a folded path might run (undecided).
    pub span_maybe: HashSet<Span>,
    /// Lines and branching statements of folds on abstract paths (or undecided).
    pub abstract_lines: HashSet<usize>,
    pub abstract_branches: HashSet<Span>,
}

/// The fold's iteration counts: κ, and λ for a two-path fold.
fn counts(info: &FoldInfo) -> Vec<Term> {
    let mut out = vec![Term::var(info.kappa.clone())];
    if let Some(p) = &info.multi {
        out.push(Term::var(p.lambda.clone()));
    }
    out
}

/// The fold's paths, one step (statement, direction word) each, in the order of
/// [`counts`].
fn paths(info: &FoldInfo) -> Vec<&[(Span, &'static str)]> {
    match &info.template.multi {
        Some(m) => vec![&m.steps[0][..], &m.steps[1][..]],
        None => vec![&info.template.steps[..]],
    }
}

/// A direction word's index.
fn direction(word: &str) -> Option<usize> {
    match word {
        "then" | "enter" => Some(0),
        "else" | "leave" => Some(1),
        _ => None,
    }
}

/// The step of `steps` at which an exit leaves the path, if there is exactly one.
fn exit_step(steps: &[(Span, &'static str)], kind: &ExitKind) -> Option<usize> {
    let one = |found: Vec<usize>| (found.len() == 1).then(|| found[0]);
    match kind {
        ExitKind::GuardFails => (!steps.is_empty()).then_some(0),
        ExitKind::Leaves(span, _) => {
            one((0..steps.len()).filter(|&i| steps[i].0 == *span).collect())
        }
        ExitKind::Raises(_, at) => {
            let inside =
                |outer: Span, inner: Span| outer.start <= inner.start && inner.end <= outer.end;
            let holding: Vec<usize> = (0..steps.len())
                .filter(|&i| inside(steps[i].0, *at))
                .collect();
            // the innermost statements holding the raise (an `if` holds its branches)
            one(holding
                .iter()
                .copied()
                .filter(|&i| {
                    !holding
                        .iter()
                        .any(|&j| steps[j].0 != steps[i].0 && inside(steps[i].0, steps[j].0))
                })
                .collect())
        }
        ExitKind::Forever => None,
    }
}

impl Session {
    /// Ask the solver, for every fold exit and folded path not asked yet, for inputs that
    /// run the path at least once before the exit.
    pub(super) fn update_fold_memo(&mut self) {
        let mut todo = Vec::new();
        for node in self.tree().nodes() {
            let Some(info) = self.engine.fold_at(node.id) else {
                continue;
            };
            for &c in node.children.iter() {
                if !matches!(self.engine.fold_exit(c), Some(e) if e.kind != ExitKind::Forever) {
                    continue;
                }
                for (j, count) in counts(info).into_iter().enumerate() {
                    if !self.fold_memo.contains_key(&(c, j)) {
                        todo.push((c, j, count));
                    }
                }
            }
        }
        for (c, j, count) in todo {
            let run = match self.engine.inputs_with(c, Term::ge(count, Term::int(1))) {
                Ok(inputs) => PathRun::Runs(inputs),
                Err(SatResult::Unsat) => PathRun::Never,
                // (asked again next time)
                Err(SatResult::Unknown(Unknown::Interrupted)) => continue,
                Err(_) => PathRun::Unknown,
            };
            self.fold_memo.insert((c, j), run);
        }
    }

    /// Inputs that run a folded path at least once, one per fold exit and path that has
    /// them (for tests that run what coverage claims in python3).
    pub fn fold_witnesses(&self) -> Vec<BTreeMap<String, Value>> {
        let mut keys: Vec<_> = self.fold_memo.keys().copied().collect();
        keys.sort();
        keys.into_iter()
            .filter_map(|k| match &self.fold_memo[&k] {
                PathRun::Runs(inputs) => Some(inputs.clone()),
                _ => None,
            })
            .collect()
    }

    /// What the fold at `fold` runs, by its exits (see the module documentation).
    pub(super) fn fold_steps(&self, fold: NodeId) -> FoldSteps {
        let mut out = FoldSteps::default();
        let Some(info) = self.engine.fold_at(fold) else {
            return out;
        };
        let paths = paths(info);
        for &c in self.tree().node(fold).children.iter() {
            let Some(exit) = self.engine.fold_exit(c) else {
                out.unsure = true;
                continue;
            };
            if exit.kind == ExitKind::Forever {
                // (a `bound` leaf: a cut)
                continue;
            }
            // Earlier iterations: the whole path.
            for (j, steps) in paths.iter().enumerate() {
                match self.fold_memo.get(&(c, j)) {
                    Some(PathRun::Runs(_)) => out
                        .runs
                        .extend(steps.iter().map(|(s, d)| (c, *s, direction(d)))),
                    Some(PathRun::Never) => {}
                    _ => out.maybe.extend(steps.iter().map(|(s, _)| *s)),
                }
            }
            // The exit's own iteration, up to where it leaves the path: the same on
            // every path that has that statement, else the fold is a cut.
            let last = match (&exit.kind, self.tree().node(c).tag.as_ref()) {
                (ExitKind::Raises(..), _) => None,
                (_, Some(Tag::Then | Tag::Enter)) => Some(0),
                (_, Some(Tag::Else | Tag::Leave)) => Some(1),
                _ => None,
            };
            let mut prefixes = paths.iter().filter_map(|steps| {
                let s = exit_step(steps, &exit.kind)?;
                let mut p: Vec<(Span, Option<usize>)> = steps[..s]
                    .iter()
                    .map(|(sp, d)| (*sp, direction(d)))
                    .collect();
                p.push((steps[s].0, last));
                Some(p)
            });
            match prefixes.next() {
                Some(p) if prefixes.all(|q| q == p) => {
                    out.runs.extend(p.into_iter().map(|(s, d)| (c, s, d)))
                }
                _ => out.unsure = true,
            }
        }
        out
    }

    /// Per node: is its path abstract? Under a loop invariant's `havoc` (or a contract's
    /// result) what a path reaches some input might not, what it cannot reach no input
    /// does (as long as the invariant holds: an invariant failure is a cut). A fold's
    /// fresh κ is no havoc: its exits are concrete runs.
    pub(super) fn abstract_paths(&self) -> Vec<bool> {
        let tree = self.tree();
        let mut out = vec![false; tree.len()];
        for node in tree.nodes() {
            out[node.id.index()] = match node.parent {
                None => node.state.fresh > 0,
                Some(p) => {
                    let before =
                        tree.node(p).state.fresh + u32::from(self.engine.fold_at(p).is_some());
                    out[p.index()] || node.state.fresh > before
                }
            };
        }
        out
    }

    /// [`FoldCoverage`] of every fold node of the tree: `fate` of each node, whether it is
    /// on an abstract path, the counted lines.
    pub(super) fn fold_coverage(
        &self,
        fate: &[Fate],
        abstract_at: &[bool],
        counted: &HashSet<usize>,
    ) -> FoldCoverage {
        let mut out = FoldCoverage::default();
        for node in self.tree().nodes() {
            if self.engine.fold_at(node.id).is_none() {
                continue;
            }
            let steps = self.fold_steps(node.id);
            if steps.unsure {
                out.cuts.insert(node.id);
            }
            let abstract_fold = abstract_at[node.id.index()];
            for (c, span, dir) in steps.runs {
                let f = match fate[c.index()] {
                    Fate::None => Fate::Other,
                    f => f,
                };
                let line = self.source().line(span.start);
                if abstract_fold {
                    out.abstract_lines.insert(line);
                    out.abstract_branches.insert(span);
                    continue;
                }
                if counted.contains(&line) {
                    out.at_line
                        .entry(line)
                        .and_modify(|g| *g = g.join(f))
                        .or_insert(f);
                }
                if let Some(d) = dir {
                    let slot = &mut out.span_taken.entry(span).or_default()[d];
                    *slot = Some(slot.map_or(f, |s| s.join(f)));
                }
            }
            for span in steps.maybe {
                out.abstract_lines.insert(self.source().line(span.start));
                out.span_maybe.insert(span);
            }
        }
        out
    }
}
