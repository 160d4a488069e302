//! The loop-scope form of a `while` with invariants (the book's chapter 002), and the check
//! block an unrolled annotated loop runs before every test.

use std::collections::BTreeSet;
use std::rc::Rc;

use super::ir::{self, Block, Instr, InstrKind};
use crate::base::Span;
use crate::lang::ast::*;

/// `[CheckInvariant(invariants)]` for a loop with invariants, at the first one's line.
pub(super) fn check_block(invariants: &[Expr]) -> Option<Block> {
    let first = invariants.first()?;
    Some(Rc::from(vec![Instr {
        kind: InstrKind::CheckInvariant(invariants.to_vec()),
        span: first.span,
    }]))
}

/// The book's loop-scope transformation of an annotated loop (chapter 002):
///
/// ```text
/// check Inv1, ..., Invk           # the invariant holds initially (each line in turn)
/// havoc x1 ... havoc xn           # every variable the loop assigns (possibly unbound
///                                 # stays possible)
/// assume Inv                      # (a state where evaluating Inv raises is dropped)
/// loop-scope(inv=Inv):
///     <guard block>
///     if guard:
///         body
///         continue                # body preserves Inv: halt; violates it: invariant failure
///     else:
///         pass                    # the use case: the scope completes normally
/// else-body                       # (scope's orelse) runs only then, outside the scope
/// ```
///
/// A failed check is not a Python exception: no `except` of the program catches it. The
/// loop's `else` block runs after the scope (a `break` in the body skips it), so a `break`
/// or `continue` in it reaches the enclosing loop, as in Python.
pub(super) fn loop_scope_form(
    guard: &[Instr],
    cond: &Expr,
    invariants: &[Expr],
    body: &Block,
    orelse: Option<&Block>,
    span: Span,
) -> Option<Block> {
    let inv = invariants.iter().cloned().reduce(|a, b| Expr {
        span: a.span.to(b.span),
        kind: ExprKind::BoolOp {
            op: BoolOp::And,
            lhs: Box::new(a),
            rhs: Box::new(b),
        },
    })?;
    let at = |kind| Instr { kind, span };
    let mut assigned = BTreeSet::new();
    ir::assigned_names(guard, &mut assigned);
    ir::assigned_names(body, &mut assigned);
    let mut form: Vec<Instr> = check_block(invariants)?.to_vec();
    // Temporaries are assigned before they are read in every iteration: no need to forget.
    form.extend(
        assigned
            .into_iter()
            .filter(|n| !ir::is_temp(n))
            .map(|name| {
                at(InstrKind::Havoc {
                    name,
                    keep_unbound: true,
                })
            }),
    );
    form.push(at(InstrKind::AssumeInvariant(inv)));
    let mut then: Vec<Instr> = body.to_vec();
    then.push(at(InstrKind::Continue));
    let mut scope: Vec<Instr> = guard.to_vec();
    scope.push(at(InstrKind::If {
        cond: cond.clone(),
        then: Rc::from(then),
        orelse: Rc::from(vec![at(InstrKind::Pass)]),
    }));
    form.push(at(InstrKind::LoopScope {
        invs: invariants.to_vec(),
        body: Rc::from(scope),
        orelse: orelse.cloned(),
    }));
    Some(Rc::from(form))
}
