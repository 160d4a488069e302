//! Conditioned alternatives ([`Alts`]): at most one normal result and any number of
//! exceptions, each under its condition; how operands evaluated in sequence combine
//! ([`Joined`], [`join`], [`join_more`]) and a value mapped under its condition ([`map`]).

use crate::base::ExcClass;
use crate::base::Span;
use crate::term::Term;

/// The result of evaluating an expression.
#[derive(Clone, Debug)]
pub struct Alts {
    /// The normal result: (condition, value). `None` if evaluation always raises.
    pub ok: Option<(Term, Term)>,
    /// Exceptions: (condition, class).
    pub errs: Vec<(Term, ExcClass, Span)>,
}

impl Alts {
    pub(super) fn value(v: Term) -> Alts {
        Alts {
            ok: Some((Term::bool(true), v)),
            errs: Vec::new(),
        }
    }

    pub(super) fn raise(class: ExcClass, at: Span) -> Alts {
        Alts {
            ok: None,
            errs: vec![(Term::bool(true), class, at)],
        }
    }

    /// Add a possible exception under `cond` (relative to the normal result so far).
    pub(super) fn fail_if(mut self, cond: Term, class: ExcClass, at: Span) -> Alts {
        if let Some((okc, v)) = self.ok.take() {
            let bad = Term::and(okc.clone(), cond.clone());
            if !bad.is_false() {
                self.errs.push((bad, class, at));
            }
            let good = Term::and(okc, Term::not(cond));
            if !good.is_false() {
                self.ok = Some((good, v));
            }
        }
        self
    }
}
/// The outcome of an evaluation that went past a limit: nothing (the step is replaced).
pub(super) fn refused() -> Alts {
    Alts {
        ok: None,
        errs: Vec::new(),
    }
}

/// Several operands evaluated in sequence.
pub(super) struct Joined {
    pub(super) ok: Option<(Term, Vec<Term>)>,
    pub(super) errs: Vec<(Term, ExcClass, Span)>,
}

pub(super) fn join_more(acc: Joined, next: Alts) -> Joined {
    let Some((c, mut vs)) = acc.ok else {
        return acc;
    };
    let mut errs = acc.errs;
    for (nc, class, at) in next.errs {
        let cond = Term::and(c.clone(), nc);
        if !cond.is_false() {
            errs.push((cond, class, at));
        }
    }
    let ok = next.ok.and_then(|(nc, v)| {
        let cond = Term::and(c, nc);
        vs.push(v);
        (!cond.is_false()).then_some((cond, vs))
    });
    Joined { ok, errs }
}

pub(super) fn join(a: Alts, b: Alts) -> Joined {
    let start = Joined {
        ok: Some((Term::bool(true), Vec::new())),
        errs: Vec::new(),
    };
    let first = join_more(start, a);
    if first.ok.is_none() {
        return first;
    }
    join_more(first, b)
}

pub(super) fn map(a: Alts, f: impl FnOnce(Term) -> Term) -> Alts {
    Alts {
        ok: a.ok.map(|(c, v)| (c, f(v))),
        errs: a.errs,
    }
}
