//! Folded loops for every client (issue 15): the fold and exit labels the tree text, JSON
//! and the TUI print, `F` (fold or unfold an open loop head against `--fold`), and `=`
//! (a node with κ := n, as plain strings).

use num_bigint::BigInt;

use super::{Session, Stepped};
use crate::base::SourceMap;
use crate::engine::fold::{ExitKind, FoldMode, Template};
use crate::engine::NodeId;
use crate::solver::SatResult;
use crate::term::display_name;

/// `4 enter, 5 else, 7`: the folded path, one step per entry.
pub fn path_text(source: &SourceMap, tpl: &Template) -> String {
    steps_text(source, &tpl.steps)
}

/// `4 enter, 5 else, 7`: each step's line and which way it went.
pub fn steps_text(source: &SourceMap, steps: &[(crate::base::Span, &'static str)]) -> String {
    steps
        .iter()
        .map(|(span, word)| {
            let line = source.line(span.start);
            if word.is_empty() {
                line.to_string()
            } else {
                format!("{line} {word}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What `F` did at a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refolded {
    /// The loop head is now a fold node.
    Folded(Stepped),
    /// The loop head was stepped classically (one iteration or the loop's end).
    Unfolded(Stepped),
    /// Not an open loop head, or a head that cannot fold: why.
    Refused(String),
}

/// A node with κ := n, as text (minipy syntax).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// `κ1`.
    pub kappa: String,
    pub value: String,
    /// A two-parameter fold's `λ1` and its value, when one was given (issue 27).
    pub lambda: Option<(String, String)>,
    /// The line of the folded loop.
    pub loop_line: usize,
    /// The fold node (the node itself, or the nearest fold above it).
    pub fold: NodeId,
    pub pc: Vec<String>,
    pub store: Vec<(String, String)>,
    /// A `return` leaf's value.
    pub return_value: Option<String>,
    /// `Some(true)`: inputs reach the node with κ = n; `Some(false)`: n is outside the
    /// feasible range; `None`: the solver could not decide (`unknown`).
    pub feasible: Option<bool>,
    /// One line for people: "feasible: t = (0, 0, 5), x = 5" or why not.
    pub verdict: String,
    pub inputs: Vec<(String, String)>,
}

impl Session {
    /// The label of a fold node ("fold: κ1 iterations of the path (4 enter, 5 else, 7)"),
    /// or of a fold's exit ("exit: the loop condition fails after κ1 iterations"), or
    /// of a fold's fallback (issue 31, [`Session::fallback_label`]).
    pub fn fold_label(&self, id: NodeId) -> Option<String> {
        if let Some(fallback) = self.fallback_label(id) {
            return Some(fallback);
        }
        let e = &self.engine;
        let source = self.source();
        if let Some(f) = e.fold_at(id) {
            if let (Some(rec), Some(m), Some(p)) =
                (&f.template.recursion, &f.template.multi, &f.multi)
            {
                return Some(format!(
                    "fold: {} recursive calls of {} on path 1 ({}) and {} on path 2 ({}), in any order",
                    display_name(&f.kappa.name),
                    rec.func,
                    steps_text(source, &m.steps[0]),
                    display_name(&p.lambda.name),
                    steps_text(source, &m.steps[1]),
                ));
            }
            if let Some(rec) = &f.template.recursion {
                return Some(format!(
                    "fold: {} recursive calls of {} on the path ({})",
                    display_name(&f.kappa.name),
                    rec.func,
                    path_text(source, &f.template)
                ));
            }
            if let (Some(m), Some(p)) = (&f.template.multi, &f.multi) {
                return Some(format!(
                    "fold: {} iterations of path 1 ({}) and {} of path 2 ({}), in any order",
                    display_name(&f.kappa.name),
                    steps_text(source, &m.steps[0]),
                    display_name(&p.lambda.name),
                    steps_text(source, &m.steps[1]),
                ));
            }
            return Some(format!(
                "fold: {} iterations of the path ({})",
                display_name(&f.kappa.name),
                path_text(source, &f.template)
            ));
        }
        let exit = e.fold_exit(id)?;
        let fold = e.fold_at(exit.fold)?;
        let kappa = fold.kappa.name.clone();
        let mut k = display_name(&kappa);
        if let Some(p) = &fold.multi {
            k = format!("{k} + {}", display_name(&p.lambda.name)).into();
        }
        let iterations = if fold.template.recursion.is_some() {
            "recursive calls"
        } else {
            "iterations"
        };
        Some(match exit.kind {
            ExitKind::GuardFails => format!("exit: the loop condition fails after {k} iterations"),
            ExitKind::Leaves(at, word) => {
                let line = source.line(at.start);
                if word.is_empty() {
                    format!("exit: leaves the path at line {line} after {k} {iterations}")
                } else {
                    format!("exit: leaves the path at line {line} ({word}) after {k} {iterations}")
                }
            }
            ExitKind::Raises(crate::base::ExcClass::RecursionError, at)
                if fold.template.recursion.is_some() =>
            {
                format!(
                    "exit: RecursionError at line {}: more calls than Python's stack holds",
                    source.line(at.start)
                )
            }
            ExitKind::Raises(class, at) => format!(
                "exit: {class} at line {} after {k} {iterations}",
                source.line(at.start)
            ),
            ExitKind::Forever => "the path may repeat forever".to_string(),
        })
    }

    /// Is `id` at a `while`'s condition or a recursive function's entry (`F` applies
    /// where it is also open)?
    pub fn at_loop_head(&self, id: NodeId) -> bool {
        self.engine.at_fold_point(id)
    }

    /// The display name of the κ that `=` instantiates at `id` (`κ1`), if any.
    pub fn fold_param_name(&self, id: NodeId) -> Option<String> {
        let (_, k) = self.engine.fold_param_of(id)?;
        Some(display_name(&k.name).to_string())
    }

    /// The λ that `=` may set at `id` (`λ1`): that of the fold of
    /// [`Session::fold_param_name`] when it has two parameters (issue 27).
    pub fn fold_lambda_name(&self, id: NodeId) -> Option<String> {
        let (fold, _) = self.engine.fold_param_of(id)?;
        let p = self.engine.fold_at(fold)?.multi.as_ref()?;
        Some(display_name(&p.lambda.name).to_string())
    }

    /// `F`: step the open loop head `id` the other way than `--fold` does: folded under
    /// `--fold off`, classically under `--fold auto` (where the head would fold).
    pub fn refold(&mut self, id: NodeId) -> Refolded {
        let Some(template) = self.engine.fold_head(id) else {
            return Refolded::Refused(
                "F folds a loop: select an open node at a `while` condition".to_string(),
            );
        };
        let auto = self.engine.config().fold == FoldMode::Auto;
        if auto {
            let stepped = self.step_fold(id, FoldMode::Off);
            return Refolded::Unfolded(stepped);
        }
        if let Err(no) = template {
            let line = self.source().line(no.at.start);
            return Refolded::Refused(format!("this loop does not fold: {} (line {line})", no.why));
        }
        let stepped = self.step_fold(id, FoldMode::Auto);
        if matches!(stepped, Stepped::Children(_)) && self.engine.fold_at(id).is_none() {
            // The fold did not apply here (a variable may be unbound, the path is
            // impossible, an exit undecided): the head stepped classically.
            return Refolded::Unfolded(stepped);
        }
        Refolded::Folded(stepped)
    }

    /// Step `id` with `--fold` set to `mode` for this step, remembered for
    /// [`Session::frontier`] (a saved session replays it the same way).
    pub(super) fn step_fold(&mut self, id: NodeId, mode: FoldMode) -> Stepped {
        let children = self.engine.step_fold(id, mode);
        if !children.is_empty() {
            self.choices.folds.insert(id, mode);
        }
        self.stepped(id, children)
    }

    /// `=`: node `id` with κ := `n` (the κ of [`Session::fold_param_name`]) and, at a
    /// two-parameter fold, λ := `m` when given (else λ stays symbolic). `Err`: no fold at
    /// or above the node, or `m` given for a fold without λ.
    pub fn instantiate(
        &mut self,
        id: NodeId,
        n: &BigInt,
        m: Option<&BigInt>,
    ) -> Result<Instance, String> {
        if m.is_some() && self.fold_lambda_name(id).is_none() {
            return Err(match self.fold_param_name(id) {
                Some(k) => format!("the fold of {k} has one parameter: type one number"),
                None => format!("node {} is not a fold node and has none above it", id.0),
            });
        }
        let Some(view) = self.engine.instantiate(id, n, m) else {
            return Err(format!(
                "node {} is not a fold node and has none above it",
                id.0
            ));
        };
        let kappa = display_name(&view.kappa.name).to_string();
        let lambda = view
            .lambda
            .as_ref()
            .map(|(l, m)| (display_name(&l.name).to_string(), m.to_string()));
        // `κ1 = 2` or `κ1 = 2, λ1 = 1`.
        let set = match &lambda {
            Some((l, m)) => format!("{kappa} = {n}, {l} = {m}"),
            None => format!("{kappa} = {n}"),
        };
        let loop_line = self
            .engine
            .fold_at(view.fold)
            .map_or(0, |f| self.source().line(f.template.span.start));
        let inputs: Vec<(String, String)> = view
            .inputs
            .iter()
            .flatten()
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect();
        let (feasible, verdict) = match &view.sat {
            SatResult::Sat => {
                let shown = crate::base::bindings::binding_list(inputs.iter().map(|(k, v)| (k, v)));
                (
                    Some(true),
                    if shown.is_empty() {
                        format!("{set} is feasible here")
                    } else {
                        format!("{set} is feasible here, e.g. for {}", shown.join(", "))
                    },
                )
            }
            SatResult::Unsat => (
                Some(false),
                format!(
                    "{set} is outside the feasible range: no input reaches node {} after {} iterations",
                    id.0,
                    match &lambda {
                        Some((_, m)) => format!("{n} + {m}"),
                        None => n.to_string(),
                    }
                ),
            ),
            // Feasible, but a value too long to show (`t` of 10^8 elements): said so.
            SatResult::Unknown(r @ crate::solver::Unknown::TooLarge(_)) => (
                Some(true),
                format!("{set} is feasible here; {r}"),
            ),
            SatResult::Unknown(r) => (None, format!("the solver could not decide ({r})")),
        };
        let mut store: Vec<(String, String)> = view
            .store
            .iter()
            .map(|(k, t)| (k.clone(), super::term_shown(t)))
            .collect();
        store.sort();
        Ok(Instance {
            kappa,
            value: n.to_string(),
            lambda,
            loop_line,
            fold: view.fold,
            pc: view.pc.iter().map(super::term_shown).collect(),
            store,
            return_value: view.return_value.as_ref().map(super::term_shown),
            feasible,
            verdict,
            inputs,
        })
    }
}
