//! The text of folds for `run` (issue 15): the κ line of a model, the `fold` and
//! `model_params` fields of `--json`, and `run --templates`.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use super::fold::{path_text, steps_text};
use super::Session;
use crate::concrete::Value;
use crate::engine::fold::multi::Multi;
use crate::engine::fold::recursion::Recursion;
use crate::engine::fold::{NoTemplate, Template};
use crate::engine::NodeId;
use crate::term::{display_name, Sort, Sym, Term};

/// A term over head symbols, printed with the variables' names.
fn over_names(tpl: &Template, t: &Term) -> Term {
    let map: HashMap<Sym, Term> = tpl
        .head
        .iter()
        .map(|(n, s)| (s.clone(), Term::var(Sym::new(n, s.sort))))
        .collect();
    t.subst(&map)
}

/// The `fold` field of a JSON node.
#[derive(serde::Serialize)]
pub struct FoldJson {
    /// `κ1`; `smt_name` is its SMT-LIB name (`k@1`).
    param: String,
    smt_name: String,
    loop_line: usize,
    /// The folded path: `{line, step}` with `step` `enter`, `then`, `else` or "".
    path: Vec<PathStep>,
    /// Each changed variable's value after κ iterations, over the values at the head.
    closed_forms: std::collections::BTreeMap<String, String>,
    /// Φ(κ), one conjunct per entry (minipy).
    iteration_condition: Vec<String>,
    /// A recursion fold (issue 27): the function, `null` for a loop.
    function: Option<String>,
    /// A recursion fold: what κ returns do to the returned value `r` (`r + κ·e`).
    returns: Option<String>,
    /// A two-parameter fold (issue 27): λ (`λ1`), the iterations of `path2`; `path` is
    /// path 1, taken κ times; `counts` names the prefix counts ω of path-1 iterations.
    #[serde(skip_serializing_if = "Option::is_none")]
    lambda: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path2: Option<Vec<PathStep>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    counts: Option<String>,
}

#[derive(serde::Serialize)]
struct PathStep {
    line: usize,
    step: &'static str,
}

impl Session {
    /// `loop at line 4: κ1 = 99`, one per fold on the path to `id`, with the values of `havoc`
    /// (a model's non-input symbols, by name).
    pub fn kappa_lines(&self, id: NodeId, values: &BTreeMap<String, Value>) -> Vec<String> {
        let (engine, source) = (&self.engine, self.source());
        engine
            .folds_on_path(id)
            .into_iter()
            .filter_map(|(node, kappa)| {
                let f = engine.fold_at(node)?;
                let v = values.get(&*kappa.name)?;
                let mut line = match &f.template.recursion {
                    Some(rec) => format!(
                        "calls of {} at line {}: {} = {v}",
                        rec.func,
                        source.line(rec.call.start),
                        display_name(&kappa.name)
                    ),
                    None => format!(
                        "loop at line {}: {} = {v}",
                        source.line(f.template.span.start),
                        display_name(&kappa.name)
                    ),
                };
                if let Some(p) = &f.multi {
                    if let Some(l) = values.get(&*p.lambda.name) {
                        let _ = write!(line, ", {} = {l}", display_name(&p.lambda.name));
                    }
                }
                Some(line)
            })
            .collect()
    }

    /// `run --templates`: each loop with its template or why it has none.
    pub fn templates_text(&self, file: &str) -> String {
        let (source, engine) = (self.source(), &self.engine);
        let mut out = String::new();
        let kappa = Term::var(Sym::new("κ", Sort::Int));
        let mut all = engine.templates();
        all.extend(engine.rec_templates());
        all.sort_by_key(|(s, _)| s.start);
        let multi: HashMap<usize, _> = engine
            .multi_templates()
            .into_iter()
            .map(|(s, t)| (s.start, t))
            .collect();
        for (span, t) in all {
            let line = source.line(span.start);
            let text = source.shown_line(line);
            let text = text.trim();
            let one_path_why = t.as_ref().err().map(|e| e.why.clone());
            match t {
                Ok(tpl) if tpl.recursion.is_some() => {
                    rec_template_text(&mut out, file, line, text, source, &tpl, &kappa);
                }
                Ok(tpl) => {
                    let _ = writeln!(
                        out,
                        "{file}:{line}: {text}  template, path ({})",
                        path_text(source, &tpl)
                    );
                    let after = tpl.after(&kappa);
                    let forms: Vec<String> = tpl
                        .closed
                        .iter()
                        .map(|(name, sym, _)| format!("{name} ↦ {}", over_names(&tpl, &after[sym])))
                        .collect();
                    let _ = writeln!(
                        out,
                        "    {} ;  each iteration: {}",
                        if forms.is_empty() {
                            "nothing changes".to_string()
                        } else {
                            forms.join(", ")
                        },
                        over_names(&tpl, &tpl.step_cond)
                    );
                }
                Err(NoTemplate { why, at }) => {
                    let _ = writeln!(
                        out,
                        "{file}:{line}: {text}  no template: {why} (line {})",
                        source.line(at.start)
                    );
                }
            }
            match multi.get(&span.start) {
                Some(Ok(tpl)) => multi_template_text(&mut out, file, line, source, tpl),
                Some(Err(e))
                    if Some(&e.why) != one_path_why.as_ref()
                        && e.why != crate::engine::fold::multi::ONE_PATH =>
                {
                    let _ = writeln!(
                        out,
                        "{file}:{line}: no two-parameter template: {} (line {})",
                        e.why,
                        source.line(e.at.start)
                    );
                }
                _ => {}
            }
        }
        if out.is_empty() {
            out.push_str("no loops and no recursive functions\n");
        }
        out
    }

    /// The `fold` field of a JSON node (`None`: not a fold node).
    /// (For a recursion fold, `loop_line` is the recursive call's line and `function`,
    /// `returns` say what the template folds.)
    pub fn fold_json(&self, id: NodeId) -> Option<FoldJson> {
        let f = self.engine.fold_at(id)?;
        let tpl = &f.template;
        let kappa = Term::var(f.kappa.clone());
        let after = tpl.after(&kappa);
        Some(FoldJson {
            param: display_name(&f.kappa.name).to_string(),
            smt_name: f.kappa.name.to_string(),
            loop_line: self.source().line(tpl.span.start),
            path: tpl
                .steps
                .iter()
                .map(|(s, w)| PathStep {
                    line: self.source().line(s.start),
                    step: w,
                })
                .collect(),
            closed_forms: match (&tpl.multi, &f.multi) {
                (Some(m), Some(p)) => multi_forms(tpl, m, &kappa, &Term::var(p.lambda.clone()))
                    .into_iter()
                    .collect(),
                _ => tpl
                    .closed
                    .iter()
                    .map(|(n, s, _)| (n.to_string(), over_names(tpl, &after[s]).to_string()))
                    .collect(),
            },
            iteration_condition: f.phi.iter().map(|t| t.to_string()).collect(),
            function: tpl.recursion.as_ref().map(|r| r.func.to_string()),
            returns: tpl.recursion.as_ref().map(|r| {
                let lambda = f.multi.as_ref().map(|p| Term::var(p.lambda.clone()));
                returns_text(tpl, r, &kappa, lambda.as_ref())
            }),
            lambda: f
                .multi
                .as_ref()
                .map(|p| display_name(&p.lambda.name).to_string()),
            path2: tpl.multi.as_ref().map(|m| {
                m.steps[1]
                    .iter()
                    .map(|(s, w)| PathStep {
                        line: self.source().line(s.start),
                        step: w,
                    })
                    .collect()
            }),
            counts: f
                .multi
                .as_ref()
                .map(|p| display_name(&p.omega.name).to_string()),
        })
    }

    /// The `model_params` field: `{"κ1": 2}` for the folds on the path to `id` (a
    /// two-parameter fold's λ too).
    pub fn fold_params_json(
        &self,
        id: NodeId,
        havoc: &BTreeMap<String, Value>,
    ) -> Option<BTreeMap<String, serde_json::Value>> {
        let out: BTreeMap<String, serde_json::Value> = self
            .engine
            .folds_on_path(id)
            .into_iter()
            .flat_map(|(node, k)| {
                let lambda = self
                    .engine
                    .fold_at(node)
                    .and_then(|f| Some(f.multi.as_ref()?.lambda.clone()));
                std::iter::once(k).chain(lambda)
            })
            .filter_map(|k| {
                havoc
                    .get(&*k.name)
                    .map(|v| (display_name(&k.name).to_string(), v.to_json()))
            })
            .collect();
        (!out.is_empty()).then_some(out)
    }
}

/// `r ↦ r + κ·e` (over the parameters' names); a two-parameter template's
/// `r ↦ r + κ·e1 + λ·e2` (`lambda`: λ; `None`: a one-parameter template).
fn returns_text(tpl: &Template, rec: &Recursion, kappa: &Term, lambda: Option<&Term>) -> String {
    let r = Term::var(Sym::new("r", Sort::Int));
    let mut parts = vec![(&rec.add, kappa)];
    if let Some(l) = lambda {
        parts.push((&rec.lambda_add, l));
    }
    let value = parts
        .into_iter()
        .filter_map(|(e, p)| Some(Term::mul(p.clone(), over_names(tpl, e.as_ref()?))))
        .fold(r.clone(), Term::add);
    if value == r {
        "r ↦ r".to_string()
    } else {
        format!("r ↦ {value}")
    }
}

/// `run --templates` for a self-recursive function.
fn rec_template_text(
    out: &mut String,
    file: &str,
    line: usize,
    text: &str,
    source: &crate::base::SourceMap,
    tpl: &Template,
    kappa: &Term,
) {
    let Some(rec) = &tpl.recursion else { return };
    if let Some(m) = &tpl.multi {
        let _ = writeln!(
            out,
            "{file}:{line}: {text}  two-parameter recursion template: κ calls on path 1 ({}) and λ on path 2 ({}), in any order",
            steps_text(source, &m.steps[0]),
            steps_text(source, &m.steps[1]),
        );
        let lambda = Term::var(Sym::new("λ", Sort::Int));
        let forms: Vec<String> = multi_forms(tpl, m, kappa, &lambda)
            .into_iter()
            .map(|(n, v)| format!("{n} ↦ {v}"))
            .collect();
        phases_text(
            out,
            tpl,
            &forms,
            &returns_text(tpl, rec, kappa, Some(&lambda)),
        );
        return;
    }
    let _ = writeln!(
        out,
        "{file}:{line}: {text}  recursion template, calls at line {} on the path ({})",
        source.line(rec.call.start),
        path_text(source, tpl)
    );
    let after = tpl.after(kappa);
    let forms: Vec<String> = tpl
        .closed
        .iter()
        .map(|(name, sym, _)| format!("{name} ↦ {}", over_names(tpl, &after[sym])))
        .collect();
    phases_text(out, tpl, &forms, &returns_text(tpl, rec, kappa, None));
}

/// A recursion template's two phases: the parameters' closed forms and each call's
/// condition, then how a returned value comes back.
fn phases_text(out: &mut String, tpl: &Template, forms: &[String], returns: &str) {
    let _ = writeln!(
        out,
        "    call phase: {} ;  each call: {}",
        if forms.is_empty() {
            "no parameter changes".to_string()
        } else {
            forms.join(", ")
        },
        over_names(tpl, &tpl.step_cond)
    );
    let _ = writeln!(out, "    return phase: {returns}");
}

/// A two-parameter template's closed forms: `x ↦ x + κ·d1 + λ·d2`, an assigned variable's
/// value at the last iteration (over the names).
fn multi_forms(tpl: &Template, m: &Multi, kappa: &Term, lambda: &Term) -> Vec<(String, String)> {
    m.incs
        .iter()
        .map(|(name, sym, d1, d2)| {
            let v = Term::add(
                Term::add(
                    Term::var(sym.clone()),
                    Term::mul(Term::int(d1.clone()), kappa.clone()),
                ),
                Term::mul(Term::int(d2.clone()), lambda.clone()),
            );
            (name.to_string(), over_names(tpl, &v).to_string())
        })
        .chain(
            m.assigned_after(kappa, lambda)
                .into_iter()
                .map(|(name, v)| (name.to_string(), over_names(tpl, &v).to_string())),
        )
        .collect()
}

/// `run --templates` for a loop with a two-parameter template.
fn multi_template_text(
    out: &mut String,
    file: &str,
    line: usize,
    source: &crate::base::SourceMap,
    tpl: &Template,
) {
    let Some(m) = &tpl.multi else { return };
    let _ = writeln!(
        out,
        "{file}:{line}: two-parameter template: κ iterations of path 1 ({}) and λ of path 2 ({}), in any order",
        steps_text(source, &m.steps[0]),
        steps_text(source, &m.steps[1]),
    );
    let forms: Vec<String> = multi_forms(
        tpl,
        m,
        &Term::var(Sym::new("κ", Sort::Int)),
        &Term::var(Sym::new("λ", Sort::Int)),
    )
    .into_iter()
    .map(|(n, v)| format!("{n} ↦ {v}"))
    .collect();
    let _ = writeln!(
        out,
        "    {} ;  each iteration: {}",
        forms.join(", "),
        over_names(tpl, &tpl.step_cond)
    );
}
