//! Calls inside expressions: the builtins (`len`, `abs`, `min`, `max`, a tuple loop's
//! element) and `@predicate` functions unfolded with their parameters bound, as Python
//! runs them or as formulas; operand lists evaluated left to right.

use super::{join_more, refused, Alts, Bound, Context, Joined, MAX_PREDICATE_DEPTH};
use crate::base::ExcClass;
use crate::base::Span;
use crate::engine::state::State;
use crate::lang::ast::*;
use crate::term::Term;
use crate::transform::ir;

impl Context<'_> {
    pub(super) fn call(
        &self,
        state: &State,
        name: &str,
        args: &[Expr],
        bound: &mut Bound,
        at: Span,
    ) -> Alts {
        // Python looks the callee up before it evaluates the arguments: a predicate whose
        // `def` has not run yet is a NameError at its name (a formula has no such order).
        if !self.formula.get()
            && self.program.predicates.contains_key(name)
            && !state.defined.contains_key(name)
        {
            return Alts::raise(
                ExcClass::NameError,
                Span::new(at.start, at.start + name.len()),
            );
        }
        let evaluated = self.all_values(state, args, bound);
        let Some((c, vals)) = evaluated.ok else {
            return Alts {
                ok: None,
                errs: evaluated.errs,
            };
        };
        let value = match (name, vals.as_slice()) {
            ("len", [t]) => Term::len(t.clone()),
            // A tuple `for` loop's next element: its guard keeps the index in range.
            (ir::ITEM, [t, k]) => Term::index(t.clone(), k.clone()),
            ("abs", [x]) => Term::abs(x.clone()),
            ("min", [x, y]) => Term::min(x.clone(), y.clone()),
            ("max", [x, y]) => Term::max(x.clone(), y.clone()),
            _ => match self.program.predicates.get(name) {
                Some(p) => {
                    let depth = self.predicates.get();
                    if depth >= MAX_PREDICATE_DEPTH {
                        self.exceeded(format!(
                            "predicate calls nested more than {MAX_PREDICATE_DEPTH} deep \
                             (a recursive predicate that does not reach its base case)"
                        ));
                        return refused();
                    }
                    // The body with the parameters bound.
                    let mut inner: Bound = p
                        .params
                        .iter()
                        .map(|(n, _)| n.clone())
                        .zip(vals.iter().cloned())
                        .collect();
                    self.predicates.set(depth + 1);
                    let body = self.eval_in(state, &p.body, &mut inner);
                    self.predicates.set(depth);
                    if self.formula.get() {
                        // A formula: its value, whatever its body would raise in Python.
                        body.ok.map_or(Term::bool(false), |(_, v)| v)
                    } else {
                        // Python: the call runs the body, which may raise.
                        let mut errs = evaluated.errs;
                        for (bc, class, at) in body.errs {
                            let cond = Term::and(c.clone(), bc);
                            if !cond.is_false() {
                                errs.push((cond, class, at));
                            }
                        }
                        let ok = body.ok.and_then(|(bc, v)| {
                            let cond = Term::and(c, bc);
                            (!cond.is_false()).then_some((cond, v))
                        });
                        return Alts { ok, errs };
                    }
                }
                // The IR has no other calls; a missing function is a NameError.
                None => return Alts::raise(ExcClass::NameError, at),
            },
        };
        Alts {
            ok: Some((c, value)),
            errs: evaluated.errs,
        }
    }

    /// Evaluate operands left to right; an exception in one stops the later ones.
    fn all_values(&self, state: &State, items: &[Expr], bound: &mut Bound) -> Joined {
        let mut acc = Joined {
            ok: Some((Term::bool(true), Vec::new())),
            errs: Vec::new(),
        };
        for item in items {
            let a = self.eval_in(state, item, bound);
            acc = join_more(acc, a);
            if acc.ok.is_none() {
                break;
            }
        }
        acc
    }

    pub(super) fn all(
        &self,
        state: &State,
        items: &[Expr],
        bound: &mut Bound,
        f: impl FnOnce(Vec<Term>) -> Term,
    ) -> Alts {
        let j = self.all_values(state, items, bound);
        Alts {
            ok: j.ok.map(|(c, vs)| (c, f(vs))),
            errs: j.errs,
        }
    }
}
