//! A function's contract (issue 28) as IR: the three bodies a contracted function has.
//!
//! - **inline** (a call steps into the body, as CPython runs it): the `requires` lines are
//!   checked on entry, the body runs in a method frame whose result is `result`, and the
//!   `ensures` lines are checked before the value is returned. A failure is uncatchable, as
//!   an invariant's is ([`InstrKind::CheckInvariant`]).
//! - **proof** (the entry function of `--entry f`): `assume requires` (the caller is
//!   outside the program), the body in a method frame, `ensures` checked at every return.
//! - **use** (a call that uses the contract instead of the body): `requires` checked under
//!   the arguments ("precondition of f violated"), `result` havoc'ed (a fresh symbol
//!   `f@n`), `assume ensures`, return `result`.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use super::ir::{Block, FormStep, Function, Instr, InstrKind};
use crate::base::Span;
use crate::lang::ast::{Expr, ExprKind, FunctionDef, RESULT};

/// The three bodies of a contracted function: (inline, proof, use).
pub(super) fn bodies(f: &FunctionDef, body: Block) -> (Block, Block, Block) {
    let c = &f.contract;
    let at = |kind, span: Span, form| Instr {
        kind,
        span,
        form: Some(form),
    };
    let def = f.name.span;
    let returns = f.ret.is_some();
    let result = Expr {
        kind: ExprKind::Name(RESULT.to_string()),
        span: def,
    };
    let ret = || {
        at(
            InstrKind::Return(returns.then(|| result.clone())),
            def,
            FormStep::ContractReturn,
        )
    };
    let framed = |out: &mut Vec<Instr>| {
        if c.ensures.is_empty() {
            out.extend(body.iter().cloned());
            return;
        }
        out.push(at(
            InstrKind::MethodFrame {
                result: RESULT.to_string(),
                body: body.clone(),
            },
            def,
            FormStep::ContractFrame,
        ));
        out.push(at(
            InstrKind::CheckInvariant(c.ensures.clone()),
            c.ensures[0].span,
            FormStep::Ensures,
        ));
        out.push(ret());
    };
    let mut inline = Vec::new();
    if !c.requires.is_empty() {
        inline.push(at(
            InstrKind::CheckInvariant(c.requires.clone()),
            c.requires[0].span,
            FormStep::Requires,
        ));
    }
    framed(&mut inline);
    let mut proof: Vec<Instr> = c
        .requires
        .iter()
        .map(|e| {
            at(
                InstrKind::AssumeInvariant(e.clone()),
                e.span,
                FormStep::AssumeRequires,
            )
        })
        .collect();
    framed(&mut proof);
    let mut use_: Vec<Instr> = Vec::new();
    if !c.requires.is_empty() {
        use_.push(at(
            InstrKind::CheckInvariant(c.requires.clone()),
            c.requires[0].span,
            FormStep::UseRequires,
        ));
    }
    if returns {
        use_.push(at(
            InstrKind::Havoc {
                name: RESULT.to_string(),
                keep_unbound: false,
            },
            def,
            FormStep::UseResult,
        ));
    }
    for e in &c.ensures {
        use_.push(at(
            InstrKind::AssumeInvariant(e.clone()),
            e.span,
            FormStep::AssumeEnsures,
        ));
    }
    use_.push(ret());
    (Rc::from(inline), Rc::from(proof), Rc::from(use_))
}

/// Set [`ContractBodies::prints`] of every contracted function that prints or calls
/// (transitively) a function that does: a use of its contract would drop its output, so
/// `check`/`testgen` would compare a leaf's printed lines with a run's that are not
/// comparable (issue 28). Such calls are always inlined.
///
/// [`ContractBodies::prints`]: super::ir::ContractBodies::prints
pub(super) fn mark_printing(functions: &mut BTreeMap<String, Function>) {
    let mut direct: BTreeMap<String, (bool, BTreeSet<String>)> = BTreeMap::new();
    for (name, f) in functions.iter() {
        let (mut prints, mut calls) = (false, BTreeSet::new());
        scan(&f.body, &mut prints, &mut calls);
        direct.insert(name.clone(), (prints, calls));
    }
    let mut printing: BTreeSet<String> = direct
        .iter()
        .filter(|(_, (p, _))| *p)
        .map(|(n, _)| n.clone())
        .collect();
    loop {
        let more: Vec<String> = direct
            .iter()
            .filter(|(n, (_, calls))| {
                !printing.contains(*n) && calls.iter().any(|c| printing.contains(c))
            })
            .map(|(n, _)| n.clone())
            .collect();
        if more.is_empty() {
            break;
        }
        printing.extend(more);
    }
    for (name, f) in functions.iter_mut() {
        if let Some(c) = &mut f.contract {
            c.prints = printing.contains(name);
        }
    }
}

/// Does `block` print, and which functions does it call?
fn scan(block: &[Instr], prints: &mut bool, calls: &mut BTreeSet<String>) {
    for i in block {
        match &i.kind {
            InstrKind::Print(_) => *prints = true,
            InstrKind::Call { func, .. } => {
                calls.insert(func.clone());
            }
            InstrKind::MethodFrame { body, .. } => scan(body, prints, calls),
            InstrKind::If { then, orelse, .. } => {
                scan(then, prints, calls);
                scan(orelse, prints, calls);
            }
            InstrKind::While {
                guard,
                body,
                orelse,
                ..
            } => {
                scan(guard, prints, calls);
                scan(body, prints, calls);
                if let Some(o) = orelse {
                    scan(o, prints, calls);
                }
            }
            InstrKind::Try { body, handlers } => {
                scan(body, prints, calls);
                for h in handlers {
                    scan(&h.body, prints, calls);
                }
            }
            InstrKind::LoopScope { body, orelse, .. } => {
                scan(body, prints, calls);
                if let Some(o) = orelse {
                    scan(o, prints, calls);
                }
            }
            _ => {}
        }
    }
}
