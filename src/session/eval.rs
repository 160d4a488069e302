//! Evaluate a minipy expression at a node (the debugger's `:` prompt, its watches and
//! breakpoint conditions): its symbolic value in one frame's scope, simplified and printed
//! in minipy syntax; whether it is always true, always false or can be either on the node's
//! path (asked of Z3 with the node's path condition, under the usual timeout; "unknown" is
//! an answer); the exceptions it may raise; its value under the node's model.
//!
//! The frame is the one the call stack shows (`up` frames out from the innermost): at an
//! exception leaf raised inside calls, those calls' frames as they were at the raise (the
//! parent node's state, like a traceback), with the leaf's own path condition and model.
//! Names are looked up as code in that frame would: the function's locals, then the module
//! variables (and the inputs). Only `@predicate` functions and `len`, `abs`, `min`, `max`
//! may be called: the prompt evaluates, it never runs code with effects. Python's
//! semantics: a local read before it is assigned raises `UnboundLocalError`, a predicate
//! whose `def` has not run raises `NameError`, an index out of range `IndexError`.
//!
//! Answers are cached per (node, frame, expression) in the session: a node's state never
//! changes. An answer cut short by the cancel flag is not kept.

use std::collections::HashMap;
use std::sync::atomic::Ordering;

use super::Session;
use crate::base::ExcClass;
use crate::diagnostics::Diagnostic;
use crate::engine::NoModel;
use crate::engine::{NodeId, NodeKind, Outcome};
use crate::lang::ast::{CmpOp, Expr, Type};
use crate::solver::{SatResult, Unknown};
use crate::term::Term;

/// Whether something holds on every input of the node's path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Truth {
    /// On every input that reaches the node.
    Always,
    /// On none.
    Never,
    /// On some and not on others.
    Sometimes,
    /// The solver could not decide, and why.
    Unknown(Unknown),
}

/// An exception the expression may raise at the node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raise {
    pub class: ExcClass,
    /// `Always`: on every input of the path (the expression never has a value here);
    /// `Sometimes`: on some; `Unknown`: the solver could not rule it out.
    pub truth: Truth,
    /// 1-based column in the expression where it is raised.
    pub column: usize,
}

/// The answer of [`Session::evaluate`]: plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    pub node: NodeId,
    /// The frame it was evaluated in: `<module>` or a function's name.
    pub frame: String,
    /// The expression as typed (trimmed).
    pub expr: String,
    pub ty: Type,
    /// The symbolic value, simplified, in minipy syntax; `None` when the expression always
    /// raises here.
    pub value: Option<String>,
    /// A `bool` expression: is it true on the path? (`Always`: always true, `Never`:
    /// always false, `Sometimes`: can be either.)
    pub truth: Option<Truth>,
    /// An `int` or `tuple` expression: `Always` when it has one value on the whole path
    /// (the value under the model), `Sometimes` when it varies.
    pub fixed: Option<Truth>,
    /// The exceptions it may raise on this path.
    pub raises: Vec<Raise>,
    /// Under the node's model: a Python literal, or `raises C`; `Err`: no model (why).
    pub here: Result<String, NoModel>,
}

impl Evaluation {
    /// Was any part of the answer cut short by Esc (the cancel flag), rather than decided
    /// or given up on by the solver? Such an answer is asked again later.
    pub fn interrupted(&self) -> bool {
        let cut = |t: &Option<Truth>| matches!(t, Some(Truth::Unknown(Unknown::Interrupted)));
        cut(&self.truth)
            || cut(&self.fixed)
            || matches!(self.here, Err(NoModel::Unknown(Unknown::Interrupted)))
    }
}

impl Truth {
    fn of(holds: &SatResult, fails: &SatResult) -> Option<Truth> {
        Some(match (holds, fails) {
            (SatResult::Sat, SatResult::Sat) => Truth::Sometimes,
            (SatResult::Sat, SatResult::Unsat) => Truth::Always,
            (SatResult::Unsat, SatResult::Sat) => Truth::Never,
            (SatResult::Unsat, SatResult::Unsat) => return None,
            (SatResult::Unknown(r), _) | (_, SatResult::Unknown(r)) => Truth::Unknown(r.clone()),
        })
    }
}

impl Evaluation {
    /// What the evaluation says, in one line: `x + 1 > y = 1 + x > y: can be either on
    /// this path; here True`.
    pub fn summary(&self) -> String {
        let verdict = self.verdict();
        let verdict = if verdict.is_empty() {
            verdict
        } else {
            format!("{verdict} on this path")
        };
        let mut s = match &self.value {
            Some(v) if *v == self.expr => self.expr.clone(),
            Some(v) => format!("{} = {v}", self.expr),
            None => self.expr.clone(),
        };
        if !verdict.is_empty() {
            s.push_str(": ");
            s.push_str(&verdict);
        }
        match &self.here {
            Ok(v) => s.push_str(&format!("; here {v}")),
            Err(e) => s.push_str(&format!("; no model ({e})")),
        }
        s
    }

    /// The verdict on the path, in words: `always true`, `can be either`, `always 3`,
    /// `varies`, `may raise IndexError`, `true or false: unknown (timeout)`.
    pub fn verdict(&self) -> String {
        let mut parts = Vec::new();
        match &self.truth {
            Some(Truth::Always) => parts.push("always true".to_string()),
            Some(Truth::Never) => parts.push("always false".to_string()),
            Some(Truth::Sometimes) => parts.push("can be either".to_string()),
            Some(Truth::Unknown(r)) => parts.push(format!("true or false: unknown ({r})")),
            None => {}
        }
        match (&self.fixed, &self.here) {
            (Some(Truth::Always), Ok(v)) => parts.push(format!("always {v}")),
            (Some(Truth::Sometimes), _) => parts.push("varies".to_string()),
            (Some(Truth::Unknown(r)), _) => parts.push(format!("varies: unknown ({r})")),
            _ => {}
        }
        for r in &self.raises {
            let c = r.class;
            parts.push(match &r.truth {
                Truth::Always => format!("always raises {c}"),
                Truth::Unknown(why) => format!("may raise {c} (unknown: {why})"),
                _ => format!("may raise {c}"),
            });
        }
        parts.join(", ")
    }
}

/// Whether a breakpoint's condition can hold at a node ([`Session::condition_at`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CondHolds {
    /// True on some input of the path.
    Holds,
    /// False (or raising) on every input of the path.
    Never,
    /// The solver could not decide (and why): counted as "may hold".
    Undecided(Unknown),
    /// The condition does not parse or type-check in the node's frame: the message.
    Error(String),
}

type Key = (NodeId, usize, String);

/// Evaluations and breakpoint conditions answered so far.
#[derive(Default)]
pub(super) struct EvalCache {
    evals: HashMap<Key, Result<Evaluation, String>>,
    conds: HashMap<(NodeId, String), CondHolds>,
}

/// The 1-based column of byte offset `at` in `text` (in characters).
fn column(text: &str, at: usize) -> usize {
    text.char_indices().take_while(|(i, _)| *i < at).count() + 1
}

/// The first diagnostic in one line: its message, column and first note.
fn words(diags: &[Diagnostic], text: &str) -> String {
    let Some(d) = diags.first() else {
        return "invalid expression".to_string();
    };
    let mut s = d.message.clone();
    if let Some(span) = d.span {
        let col = column(text, span.start);
        s.push_str(&format!(" (column {col})"));
    }
    if let Some(n) = d.notes.first() {
        s.push_str(&format!("; {n}"));
    }
    s
}

/// Parse `text` (trimmed) as a minipy expression; `Err`: the one-line message `:` and the
/// watches show (one parser, one error).
pub fn parse_expression(text: &str) -> Result<Expr, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("type an expression, e.g. `x + 1 > y`".to_string());
    }
    crate::lang::parse_expr(text).map_err(|d| words(&d, text))
}

impl Session {
    /// The node whose state holds the frames the call stack shows at `id`: an exception
    /// leaf raised inside calls shows them as they were at the raise (its parent's).
    pub fn frames_node(&self, id: NodeId) -> NodeId {
        let engine = &self.engine;
        let raised_in = engine.raise_node(id);
        let frames = |n: NodeId| engine.tree().node(n).state.frames.len();
        if raised_in != id && frames(raised_in) > frames(id) {
            raised_in
        } else {
            id
        }
    }

    /// Parse and type-check `text` in the scope of function `func` (`None`: module code).
    pub fn compile_expr(&self, func: Option<&str>, text: &str) -> Result<(Expr, Type), String> {
        let text = text.trim();
        let e = parse_expression(text)?;
        let ty = crate::lang::types::check_expr(self.program(), func, &e)
            .map_err(|d| words(&d, text))?;
        Ok((e, ty))
    }

    /// Does `text` parse and type-check in module code or in some function (a watch is
    /// evaluated in whatever frame is picked, so it must make sense in one)? `Err`: what
    /// [`Session::compile_expr`] says in module code.
    pub fn compiles_somewhere(&self, text: &str) -> Result<(), String> {
        let module = self.compile_expr(None, text).map(|_| ());
        if module.is_ok() {
            return module;
        }
        let functions = self.program().body.iter().filter_map(|s| match &s.kind {
            crate::lang::ast::StmtKind::FunctionDef(f) => Some(f.name.name.as_str()),
            _ => None,
        });
        for f in functions {
            if self.compile_expr(Some(f), text).is_ok() {
                return Ok(());
            }
        }
        module
    }

    /// The function whose body holds 1-based `line` (`None`: module code).
    pub fn function_at_line(&self, line: usize) -> Option<String> {
        let src = self.source();
        let body = &self.program().body;
        body.iter().enumerate().find_map(|(k, s)| {
            let crate::lang::ast::StmtKind::FunctionDef(f) = &s.kind else {
                return None;
            };
            let start = src.line(s.span.start);
            let end = body
                .get(k + 1)
                .map_or(usize::MAX, |n| src.line(n.span.start));
            (line > start && line < end).then(|| f.name.name.clone())
        })
    }

    /// Does `text` parse and type-check as a condition (a `bool`) on `line` (in the scope of
    /// the function the line is in)?
    pub fn check_condition(&self, line: usize, text: &str) -> Result<(), String> {
        let func = self.function_at_line(line);
        match self.compile_expr(func.as_deref(), text)? {
            (_, Type::Bool) => Ok(()),
            (_, t) => Err(format!(
                "a condition must be a `bool`, this is {} `{t}` (write e.g. `{} > 0`)",
                if t == Type::Int { "an" } else { "a" },
                text.trim()
            )),
        }
    }

    /// Evaluate `text` at node `id` in the frame `up` frames out from the innermost one
    /// the call stack shows (see the module doc). `Err`: the message for the status line
    /// (a parse or type error, an unknown name, no such frame, an infeasible node). The
    /// engine's cancel flag interrupts it (a solver answer `unknown (interrupted)`, not
    /// cached); it is not cleared here.
    pub fn evaluate(&mut self, id: NodeId, up: usize, text: &str) -> Result<Evaluation, String> {
        let key = (id, up, text.trim().to_string());
        if let Some(r) = self.eval_cache.evals.get(&key) {
            return r.clone();
        }
        // (the caller clears the cancel flag: a batch of watches is interrupted as one)
        let cancel = self.engine.cancel_handle();
        let r = crate::solver::interruptible(&cancel, || self.evaluate_uncached(id, up, &key.2));
        let interrupted =
            cancel.load(Ordering::Relaxed) || matches!(&r, Ok(e) if e.mentions_interrupt());
        if !interrupted {
            self.eval_cache.evals.insert(key, r.clone());
        }
        r
    }

    fn evaluate_uncached(
        &mut self,
        id: NodeId,
        up: usize,
        text: &str,
    ) -> Result<Evaluation, String> {
        if self.tree().node(id).kind == NodeKind::Leaf(Outcome::Infeasible) {
            return Err(format!(
                "node {} is infeasible: no inputs reach it, nothing to evaluate",
                id.0
            ));
        }
        let at = self.frames_node(id);
        let names = self.engine.frames(at);
        let n = names.len();
        if up >= n {
            return Err(format!("no frame {up} up: the call stack has {n}"));
        }
        let frame = names[n - 1 - up].clone();
        let func = (frame != "<module>").then(|| frame.clone());
        let (e, ty) = self.compile_expr(func.as_deref(), text)?;
        let ev = self.engine.evaluate_at(at, up, &e)?;
        let engine = &mut self.engine;
        // Which exceptions are possible on the path.
        let mut raises: Vec<Raise> = Vec::new();
        for (cond, class, span) in &ev.raises {
            let truth = match engine.check_at(id, cond.clone()) {
                SatResult::Unsat => continue,
                SatResult::Sat => Truth::Sometimes,
                SatResult::Unknown(r) => Truth::Unknown(r),
            };
            if !raises.iter().any(|r| r.class == *class) {
                let column = column(text, span.start);
                raises.push(Raise {
                    class: *class,
                    truth,
                    column,
                });
            }
        }
        let mut value = None;
        let mut truth = None;
        let mut normal = SatResult::Unsat;
        if let Some((okc, v)) = &ev.ok {
            if ty == Type::Bool && okc.is_true() && v.as_bool().is_some() {
                normal = SatResult::Sat;
                truth = Some(if v.is_true() {
                    Truth::Always
                } else {
                    Truth::Never
                });
            } else if ty == Type::Bool {
                let holds = engine.check_at(id, Term::and(okc.clone(), v.clone()));
                let fails = engine.check_at(id, Term::and(okc.clone(), Term::not(v.clone())));
                truth = Truth::of(&holds, &fails);
                normal = if truth.is_some() {
                    SatResult::Sat
                } else {
                    SatResult::Unsat
                };
            } else {
                normal = if okc.is_true() {
                    SatResult::Sat
                } else {
                    engine.check_at(id, okc.clone())
                };
            }
            if normal != SatResult::Unsat {
                value = Some(v.to_string());
            }
        }
        if normal == SatResult::Unsat {
            // Never a value on this path: each possible exception is certain (one class) or
            // one of several.
            truth = None;
            if let [only] = raises.as_mut_slice() {
                if only.truth == Truth::Sometimes {
                    only.truth = Truth::Always;
                }
            }
        }
        // The value under the node's model (the model pane's inputs).
        let mut terms: Vec<Term> = ev.raises.iter().map(|(c, _, _)| c.clone()).collect();
        terms.extend(ev.ok.iter().flat_map(|(c, v)| [c.clone(), v.clone()]));
        let model = engine.model_at(id, &terms);
        let here = model.as_ref().map_err(Clone::clone).map(|m| {
            let raised = ev
                .raises
                .iter()
                .find(|(c, _, _)| m.eval(c) == Some(crate::concrete::Value::Bool(true)));
            match (raised, &ev.ok) {
                (Some((_, class, _)), _) => format!("raises {class}"),
                (None, Some((_, v))) => m
                    .eval(v)
                    .map_or("? (not defined under the model)".to_string(), |x| {
                        x.to_string()
                    }),
                (None, None) => "?".to_string(),
            }
        });
        // An int or a tuple: one value on the whole path, or several?
        let mut fixed = None;
        if let (Some((okc, v)), Ok(m), true) = (&ev.ok, &model, value.is_some() && ty != Type::Bool)
        {
            let mut syms = std::collections::BTreeSet::new();
            v.vars(&mut syms);
            fixed = if syms.is_empty() {
                Some(Truth::Always)
            } else {
                m.eval(v).map(|x| {
                    let other = Term::cmp(CmpOp::Ne, v.clone(), Term::from_value(&x));
                    match engine.check_at(id, Term::and(okc.clone(), other)) {
                        SatResult::Unsat => Truth::Always,
                        SatResult::Sat => Truth::Sometimes,
                        SatResult::Unknown(r) => Truth::Unknown(r),
                    }
                })
            };
        }
        Ok(Evaluation {
            node: id,
            frame,
            expr: text.to_string(),
            ty,
            value,
            truth,
            fixed,
            raises,
            here,
        })
    }

    /// Can the breakpoint condition `text` hold at node `id` (in its innermost frame)? It
    /// holds where it evaluates to `True` without raising; asked of Z3 with the node's path
    /// condition; cached per (node, condition).
    pub fn condition_at(&mut self, id: NodeId, text: &str) -> CondHolds {
        let key = (id, text.trim().to_string());
        if let Some(r) = self.eval_cache.conds.get(&key) {
            return r.clone();
        }
        let r = self.condition_uncached(id, &key.1);
        if r != CondHolds::Undecided(Unknown::Interrupted) {
            self.eval_cache.conds.insert(key, r.clone());
        }
        r
    }

    fn condition_uncached(&mut self, id: NodeId, text: &str) -> CondHolds {
        let func = self
            .engine
            .tree()
            .node(id)
            .state
            .func()
            .map(|f| f.to_string());
        let e = match self.compile_expr(func.as_deref(), text) {
            Ok((e, Type::Bool)) => e,
            Ok((_, t)) => return CondHolds::Error(format!("the condition is {t}, not bool")),
            Err(m) => return CondHolds::Error(m),
        };
        let ev = match self.engine.evaluate_at(id, 0, &e) {
            Ok(ev) => ev,
            Err(m) => return CondHolds::Error(m),
        };
        let Some((okc, v)) = ev.ok else {
            return CondHolds::Never;
        };
        let engine = &mut self.engine;
        let cancel = engine.cancel_handle();
        match crate::solver::interruptible(&cancel, || engine.check_at(id, Term::and(okc, v))) {
            SatResult::Sat => CondHolds::Holds,
            SatResult::Unsat => CondHolds::Never,
            SatResult::Unknown(r) => CondHolds::Undecided(r),
        }
    }
}

impl Evaluation {
    /// Did an answer come from an interrupted check (not to be cached)?
    fn mentions_interrupt(&self) -> bool {
        let interrupted = Truth::Unknown(Unknown::Interrupted);
        self.truth.as_ref() == Some(&interrupted)
            || self.fixed.as_ref() == Some(&interrupted)
            || self.raises.iter().any(|r| r.truth == interrupted)
            || self.here == Err(NoModel::Unknown(Unknown::Interrupted))
    }
}

#[cfg(test)]
mod tests;
