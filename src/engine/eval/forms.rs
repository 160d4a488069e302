//! The evaluation of issue 25's expression forms: slices and conditional expressions.

use super::{join_more, Alts, Bound, Context, Joined};
use crate::base::ExcClass;
use crate::engine::state::State;
use crate::lang::ast::*;
use crate::term::Term;

impl Context<'_> {
    /// `t[lo:hi:step]`: the parts left to right; a step that may be 0 adds `ValueError`.
    pub(super) fn slice(&self, state: &State, e: &Expr, bound: &mut Bound) -> Alts {
        let ExprKind::Slice { lo, hi, step, .. } = &e.kind else {
            unreachable!("a slice")
        };
        let mut acc = Joined {
            ok: Some((Term::bool(true), Vec::new())),
            errs: Vec::new(),
        };
        for part in e.children() {
            acc = join_more(acc, self.eval_in(state, part, bound));
            if acc.ok.is_none() {
                return Alts {
                    ok: None,
                    errs: acc.errs,
                };
            }
        }
        let (c, vs) = acc.ok.expect("checked");
        let mut vs = vs.into_iter();
        let t = vs.next().expect("base");
        let lo = lo.as_ref().map(|_| vs.next().expect("lo"));
        let hi = hi.as_ref().map(|_| vs.next().expect("hi"));
        let s = step.as_ref().map(|_| vs.next().expect("step"));
        let value = Term::slice(t, lo, hi, s.clone().unwrap_or_else(|| Term::int(1)));
        let r = Alts {
            ok: Some((c, value)),
            errs: acc.errs,
        };
        match s {
            // CPython: "slice step cannot be zero", at the subscript.
            Some(s) => r.fail_if(Term::eq(s, Term::int(0)), ExcClass::ValueError, e.span),
            None => r,
        }
    }

    /// `then if cond else orelse`: one value `ite(cond, then, orelse)`; each side's
    /// exceptions only under its own choice (Python evaluates the chosen side alone), and
    /// a constant condition evaluates one side only.
    pub(super) fn if_exp(
        &self,
        state: &State,
        (cond, then, orelse): (&Expr, &Expr, &Expr),
        bound: &mut Bound,
    ) -> Alts {
        let c = self.eval_in(state, cond, bound);
        let Some((cc, cv)) = c.ok.clone() else {
            return c;
        };
        let mut errs = c.errs;
        let side = |e: &Expr, when: Term, bound: &mut Bound, errs: &mut Vec<_>| {
            let r = self.eval_in(state, e, bound);
            for (ec, class, at) in r.errs {
                // (`u[-1] if len(u) > 0 else ...`: the choice rules the exception out.)
                if crate::term::linear::implies(&when, &Term::not(ec.clone())) {
                    continue;
                }
                let ec = Term::and_all([cc.clone(), when.clone(), ec]);
                if !ec.is_false() {
                    errs.push((ec, class, at));
                }
            }
            r.ok
        };
        let ok = match cv.as_bool() {
            Some(true) => side(then, Term::bool(true), bound, &mut errs),
            Some(false) => side(orelse, Term::bool(true), bound, &mut errs),
            None => {
                let a = side(then, cv.clone(), bound, &mut errs);
                let b = side(orelse, Term::not(cv.clone()), bound, &mut errs);
                match (a, b) {
                    (Some((ac, av)), Some((bc, bv))) => {
                        // (A side's condition that its choice implies reads `True` there.)
                        let implied = crate::term::linear::implies;
                        let ac = if implied(&cv, &ac) {
                            Term::bool(true)
                        } else {
                            ac
                        };
                        let bc = if implied(&Term::not(cv.clone()), &bc) {
                            Term::bool(true)
                        } else {
                            bc
                        };
                        Some((Term::ite(cv.clone(), ac, bc), Term::ite(cv, av, bv)))
                    }
                    (Some((ac, av)), None) => Some((Term::and(cv, ac), av)),
                    (None, Some((bc, bv))) => Some((Term::and(Term::not(cv), bc), bv)),
                    (None, None) => None,
                }
            }
        };
        let ok = ok
            .map(|(oc, v)| (Term::and(cc, oc), v))
            .filter(|(oc, _)| !oc.is_false());
        Alts { ok, errs }
    }
}
