//! An inner loop with two paths back to its head (a branch in its body) summed in one
//! step (issue 27). Its two-parameter template gives each changed variable as
//! `x + K·d1 + (N − K)·d2` after `N` iterations of which `K` took path 1; the summary is
//! exact where both counts have closed forms:
//!
//! - `N`: both paths require the loop condition and nothing else in common, a comparison
//!   of a counter that both paths advance by the same constant (as for one-path inner
//!   loops, [`super::iterations`]), and the two paths are the two sides of one branch (so
//!   every iteration takes one of them: none raises or leaves);
//! - `K`: the branch's condition does not change over the inner run (`K = N` or `0`), or
//!   it is an ordering of a counter with values the loop keeps (`if j < k`): it then holds
//!   on a prefix of the iterations or on a suffix, whose length is again a closed count.
//!
//! Anything else is refused with why: a branch on a tuple element (`if t[j] == x`, the
//! inner countIf) makes `K` a count over the tuple, which no closed form gives (a
//! parameter per outer iteration would be needed, and the outer fold's iteration
//! condition cannot quantify over one); a counter the paths advance by different steps
//! makes `N` depend on the interleaving.

use std::collections::{BTreeSet, HashMap};

use num_bigint::BigInt;

use super::super::super::state::State;
use super::super::super::step::{Stepper, Succ};
use super::super::super::tag::Tag;
use super::super::instance::{bind, lookup};
use super::super::multi::either;
use super::super::template::Template;
use super::iterations;
use crate::lang::ast::CmpOp;
use crate::term::linear::mentions;
use crate::term::{Sym, Term, TermKind};

/// The state after the two-path inner loop of `tpl` run to its end from `state` (settled
/// at the inner guard). `Err`: why its run has no closed form (after "the inner loop").
pub(super) fn summarize(stepper: &Stepper, state: &State, tpl: &Template) -> Result<Succ, String> {
    let multi = tpl.multi.as_ref().ok_or("is not a two-path loop")?;
    let name_of = |s: &Sym| s.name.trim_end_matches("@h").to_string();
    let common: Vec<Term> = multi
        .common
        .iter()
        .filter(|t| !t.is_true())
        .cloned()
        .collect();
    let branch = Term::and_all(multi.only[0].iter().cloned());
    if reads_a_tuple(&branch) {
        return Err(format!(
            "branches on a tuple element (`{}`): how many iterations take each path is a count over the tuple, not a closed form",
            shown(&branch)
        ));
    }
    let [guard] = common.as_slice() else {
        return Err(
            "requires more than its condition and one branch on each iteration (an index, a division or an assertion)"
                .to_string(),
        );
    };
    if !either(&branch, &Term::and_all(multi.only[1].iter().cloned())).is_true() {
        return Err(
            "has two paths that are not the two sides of one branch (an iteration may raise or leave)"
                .to_string(),
        );
    }
    // The variables both paths advance alike, and the others.
    let values =
        if multi.incs.iter().any(|(_, s, _, _)| mentions(&branch, s)) {
            interleaved(guard, &branch, &multi.incs, name_of)?
        } else {
            // The branch reads nothing the loop changes: every iteration takes the same path,
            // which runs as often as a one-path loop would.
            let mut runs = Vec::new();
            for p in 0..2 {
                let steps: Vec<(Sym, BigInt)> = multi
                    .incs
                    .iter()
                    .map(|(_, s, d1, d2)| (s.clone(), if p == 0 { d1 } else { d2 }.clone()))
                    .collect();
                runs.push(iterations(guard, &steps).map_err(|why| {
                    format!("{} (when every iteration takes path {})", why, p + 1)
                })?);
            }
            multi
                .incs
                .iter()
                .map(|(_, s, d1, d2)| {
                    // x + (d1·N1 if branch else d2·N2): an increment, for the outer loop.
                    let zero = || Term::int(0);
                    let by = Term::ite(
                        branch.clone(),
                        plus(zero(), d1, runs[0].clone()),
                        plus(zero(), d2, runs[1].clone()),
                    );
                    Term::add(Term::var(s.clone()), by)
                })
                .collect()
        };
    // σ: the inner head's values of what the final values read.
    let mut used = BTreeSet::new();
    for v in &values {
        v.vars(&mut used);
    }
    let mut sigma: HashMap<Sym, Term> = HashMap::new();
    for (name, sym) in &tpl.head {
        if used.contains(sym) {
            let v = lookup(stepper, state, name)
                .ok_or_else(|| format!("cannot be summed here: `{name}` may be unbound"))?;
            sigma.insert(sym.clone(), v);
        }
    }
    let mut post = state.clone();
    for ((name, _, _, _), value) in multi.incs.iter().zip(values) {
        bind(stepper, &mut post, name, value.subst(&sigma));
    }
    let result = stepper.step(&post);
    if let Some(reason) = stepper.cx.limit.take() {
        return Err(format!("goes past a limit: {reason}"));
    }
    let leave = result
        .succs
        .into_iter()
        .find(|s| s.tag == Tag::Leave)
        .ok_or_else(|| "cannot be left by its condition".to_string())?;
    Ok(Succ {
        cond: Term::bool(true),
        state: leave.state,
        forced: None,
        tag: Tag::Leave,
    })
}

/// Each changed variable's final value (over the inner head's values) when the branch
/// reads a counter: `N` iterations by the loop condition, `K` of them on path 1.
fn interleaved(
    guard: &Term,
    branch: &Term,
    incs: &[super::super::multi::Inc],
    name_of: impl Fn(&Sym) -> String,
) -> Result<Vec<Term>, String> {
    let mut alike: Vec<(Sym, BigInt)> = Vec::new();
    let mut differ: Vec<Sym> = Vec::new();
    for (_, s, d1, d2) in incs {
        if d1 == d2 {
            alike.push((s.clone(), d1.clone()));
        } else {
            differ.push(s.clone());
        }
    }
    if let Some(s) = differ.iter().find(|s| mentions(guard, s)) {
        return Err(format!(
            "has a condition that reads `{}`, which its two paths change by different steps (how many iterations run depends on which path each takes)",
            name_of(s)
        ));
    }
    if let Some(s) = differ.iter().find(|s| mentions(branch, s)) {
        return Err(format!(
            "branches on `{}`, which its two paths change by different steps (each iteration's path depends on the ones before it)",
            name_of(s)
        ));
    }
    let n = iterations(guard, &alike)?;
    let k = path_one_count(branch, &alike, &n)?;
    Ok(incs
        .iter()
        .map(|(_, s, d1, d2)| {
            let x = Term::var(s.clone());
            if d1 == d2 {
                plus(x, d1, n.clone())
            } else {
                plus(plus(x, d1, k.clone()), d2, Term::sub(n.clone(), k.clone()))
            }
        })
        .collect())
}

/// `t + c·x` through the smart constructors.
fn plus(t: Term, c: &BigInt, x: Term) -> Term {
    use num_traits::{One, Zero};
    if c.is_zero() {
        t
    } else if c.is_one() {
        Term::add(t, x)
    } else {
        Term::add(t, Term::mul(Term::int(c.clone()), x))
    }
}

/// How many of the `n` iterations take path 1, whose condition is `branch` (over the
/// inner head's values; `alike`: the counters and their steps). `Err`: why that count
/// has no closed form.
fn path_one_count(branch: &Term, alike: &[(Sym, BigInt)], n: &Term) -> Result<Term, String> {
    let shown = shown(branch);
    let TermKind::Cmp(op, a, b) = branch.kind() else {
        return Err(format!(
            "branches on `{shown}`, which is not one comparison: how many iterations take each path has no closed form"
        ));
    };
    // The branch holds on a prefix of the iterations (it moves towards failing), or its
    // negation does (it holds on a suffix).
    let negated = match op {
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
        _ => {
            return Err(format!(
                "branches on `{shown}`, which is not an ordering (`<`, `<=`, `>`, `>=`): how many iterations take each path has no closed form here"
            ))
        }
    };
    let unfit = |why: String| {
        format!(
            "branches on `{shown}`, whose count has no closed form: it {}",
            why.trim_start_matches("has ")
                .replace("a condition", "is a condition")
        )
    };
    match iterations(branch, alike) {
        Ok(p) => Ok(Term::min(n.clone(), p)),
        Err(why) if why.contains("may run forever") => {
            let flipped = Term::cmp(negated, a.clone(), b.clone());
            let p = iterations(&flipped, alike).map_err(unfit)?;
            Ok(Term::sub(n.clone(), Term::min(n.clone(), p)))
        }
        Err(why) => Err(unfit(why)),
    }
}

/// A condition over head symbols as the program writes it.
fn shown(t: &Term) -> String {
    format!("{t}").replace("@h", "")
}

/// Does `t` read an element of a tuple?
fn reads_a_tuple(t: &Term) -> bool {
    match t.kind() {
        TermKind::Index(..) | TermKind::Slice(..) => true,
        kind => {
            let mut any = false;
            kind.for_each_child(|c| any = any || reads_a_tuple(c));
            any
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::concrete::Value;
    use crate::term::{Model, Sort};

    /// The closed count of path-1 iterations equals the count of a plain loop: branches
    /// `j op e` and `e op j` for every ordering, counters up and down by 1 to 3, starts,
    /// bounds and branch values in a box.
    #[test]
    fn path_one_counts_equal_plain_loops() {
        let [j, g, e] = ["j@h", "g@h", "e@h"].map(|n| Sym::new(n, Sort::Int));
        let [jt, gt, et] = [&j, &g, &e].map(|s| Term::var(s.clone()));
        type Holds = fn(i64, i64) -> bool;
        let ops: [(CmpOp, Holds); 4] = [
            (CmpOp::Lt, |a, b| a < b),
            (CmpOp::Le, |a, b| a <= b),
            (CmpOp::Gt, |a, b| a > b),
            (CmpOp::Ge, |a, b| a >= b),
        ];
        let mut checked = 0;
        for d in [-3i64, -2, -1, 1, 2, 3] {
            // The loop runs towards its bound.
            let guard = if d > 0 {
                Term::lt(jt.clone(), gt.clone())
            } else {
                Term::gt(jt.clone(), gt.clone())
            };
            let steps = [(j.clone(), BigInt::from(d))];
            let n = iterations(&guard, &steps).unwrap();
            for (op, holds) in ops {
                for flip in [false, true] {
                    let branch = if flip {
                        Term::cmp(op, et.clone(), jt.clone())
                    } else {
                        Term::cmp(op, jt.clone(), et.clone())
                    };
                    let k = path_one_count(&branch, &steps, &n).unwrap();
                    for j0 in -5i64..=5 {
                        for g0 in -5i64..=5 {
                            for e0 in -5i64..=5 {
                                let (mut jv, mut count) = (j0, 0);
                                while if d > 0 { jv < g0 } else { jv > g0 } {
                                    let b = if flip { holds(e0, jv) } else { holds(jv, e0) };
                                    count += i64::from(b);
                                    jv += d;
                                }
                                let mut m = Model::default();
                                for (s, v) in [(&j, j0), (&g, g0), (&e, e0)] {
                                    m.values.insert(s.clone(), Value::Int(v.into()));
                                }
                                assert_eq!(
                                    m.eval(&k),
                                    Some(Value::Int(count.into())),
                                    "{branch} under {guard}, j = {j0}, g = {g0}, e = {e0}, step {d}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 6 * 4 * 2 * 11 * 11 * 11);
    }
}
