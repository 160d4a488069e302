//! Nested loops (issue 27): an outer loop whose body contains an inner `while` gets a
//! template when the inner loop's whole run has a closed form. The enumeration of the
//! outer body, and every replay of the outer path, step over the inner loop in one step
//! ([`summarize`]): the state after the inner loop, computed from its own template.
//!
//! Exact only in this case, checked here: the inner loop's one-path template changes
//! ints by constant steps only (R1, `j += 1`, `s += 2`), and one iteration requires
//! nothing but the loop condition, a comparison `c·j + rest op 0` of one induction
//! variable `j` (`c = ±1`) with values the inner loop does not change, moving towards
//! failing. Then no iteration can branch, raise or leave otherwise, the loop runs
//! exactly `n = max(0, ⌈−g/s⌉)` times (`g` the comparison's left side at the inner head,
//! `s > 0` its change per iteration) and leaves by its condition, and each variable ends
//! as `x + n·d`. Anything else is refused with the inner loop's reason.

use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

use super::super::state::State;
use super::super::step::{Action, Stepper, Succ};
use super::super::tag::Tag;
use super::basics::{refuse, NoTemplate};
use super::instance::{bind, closed_after, head_values};
use super::template::{template_for, Closed};
use crate::base::Span;
use crate::lang::ast::CmpOp;
use crate::term::linear::{linear_in, mentions};
use crate::term::{Sym, Term, TermKind};

mod two_paths;

/// The inner `while` at `action` if it is not the loop `outer` (a template's own guard
/// is stepped as usual).
pub(super) fn inner_loop<'a>(
    action: &Option<Action<'a>>,
    outer: Span,
) -> Option<(crate::transform::ir::Block, usize)> {
    match action {
        Some(Action::Guard { block, index, .. }) if block[*index].span != outer => {
            Some((block.clone(), *index))
        }
        _ => None,
    }
}

/// The one successor of the inner `while` at `block[index]` run to its end from `state`
/// (settled at its guard): the state after the loop (its `else` block next, if any),
/// with condition `true` (leaving is certain after the computed count). `Err`: why the
/// inner loop has no closed form.
pub(super) fn summarize(
    stepper: &Stepper,
    state: &State,
    block: &crate::transform::ir::Block,
    index: usize,
) -> Result<Succ, NoTemplate> {
    let span = block[index].span;
    let inner = |why: String| refuse(format!("the inner loop {why}"), span);
    match summarize_one(stepper, state, block, index) {
        Ok(s) => Ok(s),
        // An inner loop with two paths back (a branch in its body) is summed when how
        // many iterations take each path has a closed form.
        Err(one) => match super::multi::multi_template_for(stepper, block, index, state.func()) {
            Err(e) if e.why == super::multi::ONE_PATH => Err(one),
            Err(e) if e.why.contains("paths through the body") => Err(one),
            Err(e) => {
                let why = e.why.replacen("the inner loop", "its inner loop", 1);
                Err(inner(format!("has two paths and no closed form: {why}")))
            }
            Ok(tpl) => two_paths::summarize(stepper, state, &tpl).map_err(inner),
        },
    }
}

/// [`summarize`] for an inner loop whose one-path template is its whole run.
fn summarize_one(
    stepper: &Stepper,
    state: &State,
    block: &crate::transform::ir::Block,
    index: usize,
) -> Result<Succ, NoTemplate> {
    let span = block[index].span;
    let inner = |why: String| refuse(format!("the inner loop {why}"), span);
    let tpl = template_for(stepper, block, index, state.func()).map_err(|e| {
        let why = e.why.replacen("the inner loop", "its inner loop", 1);
        inner(format!("has no template: {why}"))
    })?;
    if tpl.recursion.is_some() || tpl.multi.is_some() {
        return Err(inner("is not a one-path loop".to_string()));
    }
    // R1 with constant steps only.
    let mut steps: Vec<(Sym, BigInt)> = Vec::new();
    for (name, sym, cl) in &tpl.closed {
        match cl {
            Closed::Induction(d) => match d.as_int() {
                Some(d) => steps.push((sym.clone(), d.clone())),
                None => {
                    return Err(inner(format!(
                        "changes `{name}` by a value that is not a constant"
                    )))
                }
            },
            Closed::Reset(_) => {
                return Err(inner(format!(
                    "sets `{name}` from other values (a reset; its final value has no closed form here)"
                )))
            }
        }
    }
    let count = iterations(&tpl.step_cond, &steps).map_err(inner)?;
    let sigma = head_values(stepper, &tpl, state, Some(&count), "the inner loop head")
        .map_err(|why| inner(format!("cannot be summed here: {why}")))?;
    let mut post = state.clone();
    for (name, value) in closed_after(&tpl, &count, &sigma) {
        bind(stepper, &mut post, &name, value);
    }
    let result = stepper.step(&post);
    if let Some(reason) = stepper.cx.limit.take() {
        return Err(inner(format!("goes past a limit: {reason}")));
    }
    let leave = result
        .succs
        .into_iter()
        .find(|s| s.tag == Tag::Leave)
        .ok_or_else(|| inner("cannot be left by its condition".to_string()))?;
    Ok(Succ {
        cond: Term::bool(true),
        state: leave.state,
        forced: None,
        tag: Tag::Leave,
    })
}

/// How many times the path whose only requirement is `cond` runs (over head symbols),
/// given each changed variable's constant step; `Err`: why that has no closed form.
pub(super) fn iterations(cond: &Term, steps: &[(Sym, BigInt)]) -> Result<Term, String> {
    let conjuncts: Vec<Term> = match cond.kind() {
        TermKind::And(xs) => xs.iter().filter(|t| !t.is_true()).cloned().collect(),
        _ => vec![cond.clone()],
    };
    let [only] = conjuncts.as_slice() else {
        return Err(
            "requires more than its condition on each iteration (a branch, an index or an assertion)"
                .to_string(),
        );
    };
    let TermKind::Cmp(op, a, b) = only.kind() else {
        return Err("has a condition that is not a comparison".to_string());
    };
    // g = a - b, compared with 0.
    let g = Term::sub(a.clone(), b.clone());
    let mut found = None;
    for (sym, d) in steps {
        if !mentions(&g, sym) {
            continue;
        }
        match linear_in(&g, sym) {
            Some((c, rest))
                if c.abs().is_one() && !steps.iter().any(|(s, _)| mentions(&rest, s)) =>
            {
                found = Some(c * d);
            }
            _ => {
                return Err(format!(
                    "has a condition that is not `±{} + (a value the loop keeps) < 0` or alike",
                    sym.name.trim_end_matches("@h")
                ))
            }
        }
    }
    let Some(rate) = found else {
        return Err("has a condition that reads no variable the loop counts".to_string());
    };
    // Normalise to `h < 0` or `h <= 0` with h growing by `s > 0` per iteration.
    let (h, s, strict) = match op {
        CmpOp::Lt => (g, rate, true),
        CmpOp::Le => (g, rate, false),
        CmpOp::Gt => (Term::sub(Term::int(0), g), -rate, true),
        CmpOp::Ge => (Term::sub(Term::int(0), g), -rate, false),
        _ => {
            return Err(
                "has a condition that is not an ordering (`<`, `<=`, `>`, `>=`)".to_string(),
            )
        }
    };
    if !s.is_positive() {
        return Err("may run forever (its counter moves away from the bound)".to_string());
    }
    let neg = Term::sub(Term::int(0), h);
    // h + s·τ < 0 for τ < ⌈−h/s⌉; h + s·τ <= 0 for τ <= ⌊−h/s⌋.
    let raw = match (strict, s == BigInt::one()) {
        (true, true) => neg,
        (false, true) => Term::add(neg, Term::int(1)),
        (true, false) => Term::sub(
            Term::int(0),
            Term::floor_div(Term::sub(Term::int(0), neg), Term::int(s)),
        ),
        (false, false) => Term::add(Term::floor_div(neg, Term::int(s)), Term::int(1)),
    };
    Ok(Term::max(raw, Term::int(BigInt::zero())))
}

/// One step of a replay of the path of the loop at `outer` from `state`: an inner loop
/// summed as the enumeration summed it, any other step as the engine steps it. `Err`:
/// the inner loop cannot be summed here.
pub(super) fn replay_step(
    stepper: &Stepper,
    state: &State,
    outer: Span,
) -> Result<super::super::step::StepResult, String> {
    let action = super::super::step::next_action(state);
    match inner_loop(&action, outer) {
        Some((b, i)) => Ok(super::super::step::StepResult {
            succs: vec![summarize(stepper, state, &b, i).map_err(|e| e.why)?],
            exhaustive: true,
        }),
        None => Ok(stepper.step(state)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::concrete::Value;
    use crate::term::{Model, Sort};

    /// The closed-form count equals the iterations of a plain loop, for every ordering,
    /// both signs of the counter's coefficient, steps 1 to 3 and starts and bounds in a box.
    #[test]
    fn iteration_counts_equal_plain_loops() {
        let j = Sym::new("j@h", Sort::Int);
        let e = Sym::new("e@h", Sort::Int);
        let (jt, et) = (Term::var(j.clone()), Term::var(e.clone()));
        type Holds = fn(i64, i64) -> bool;
        let ops: [(CmpOp, Holds); 4] = [
            (CmpOp::Lt, |a, b| a < b),
            (CmpOp::Le, |a, b| a <= b),
            (CmpOp::Gt, |a, b| a > b),
            (CmpOp::Ge, |a, b| a >= b),
        ];
        let mut checked = 0;
        for (op, holds) in ops {
            for flip in [false, true] {
                for d in [-3i64, -2, -1, 1, 2, 3] {
                    let cond = if flip {
                        Term::cmp(op, et.clone(), jt.clone())
                    } else {
                        Term::cmp(op, jt.clone(), et.clone())
                    };
                    let count = iterations(&cond, &[(j.clone(), BigInt::from(d))]);
                    for j0 in -6i64..=6 {
                        for e0 in -6i64..=6 {
                            let test = |jv: i64| if flip { holds(e0, jv) } else { holds(jv, e0) };
                            // The plain loop (at most 20 iterations: else it runs away).
                            let mut n = 0;
                            let mut jv = j0;
                            while test(jv) && n <= 20 {
                                jv += d;
                                n += 1;
                            }
                            match &count {
                                Ok(c) => {
                                    let mut m = Model::default();
                                    m.values.insert(j.clone(), Value::Int(j0.into()));
                                    m.values.insert(e.clone(), Value::Int(e0.into()));
                                    assert_eq!(
                                        m.eval(c),
                                        Some(Value::Int(n.into())),
                                        "{cond} with j = {j0}, e = {e0}, step {d}"
                                    );
                                    checked += 1;
                                }
                                // Refused only when the counter moves away from the bound.
                                Err(why) => {
                                    assert!(why.contains("may run forever"), "{cond}: {why}");
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(checked >= 4 * 2 * 3 * 169, "{checked}");
    }
}
