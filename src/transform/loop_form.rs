//! The loop-scope form of a `while` with invariants (the book's chapter 002), and the check
//! block an unrolled annotated loop runs before every test.

use std::collections::BTreeSet;
use std::rc::Rc;

use super::ir::{self, Block, FormStep, Instr, InstrKind};
use crate::base::Span;
use crate::lang::ast::*;

/// `[CheckInvariant(invariants)]` for a loop with invariants, at the first one's line:
/// the check an unrolled loop runs before every test ([`FormStep::TestCheck`]), or the
/// form's first step ([`FormStep::InitialCheck`]).
pub(super) fn check_block(invariants: &[Expr], step: FormStep) -> Option<Block> {
    let first = invariants.first()?;
    Some(Rc::from(vec![Instr {
        kind: InstrKind::CheckInvariant(invariants.to_vec()),
        span: first.span,
        form: Some(step),
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
    // Every instruction of the form says which step it is (the engine's tags and labels).
    let at = |kind, step| Instr {
        kind,
        span,
        form: Some(step),
    };
    let mut assigned = BTreeSet::new();
    ir::assigned_names(guard, &mut assigned);
    ir::assigned_names(body, &mut assigned);
    let mut form: Vec<Instr> = check_block(invariants, FormStep::InitialCheck)?.to_vec();
    // Temporaries are assigned before they are read in every iteration: no need to forget
    // them, except a `for` loop's position, which carries over from one to the next.
    form.extend(
        assigned
            .into_iter()
            .filter(|n| !ir::is_temp(n) || ir::is_for_var(n))
            .map(|name| {
                at(
                    InstrKind::Havoc {
                        name,
                        keep_unbound: true,
                    },
                    FormStep::Havoc,
                )
            }),
    );
    form.push(at(InstrKind::AssumeInvariant(inv), FormStep::Assume));
    let mut then: Vec<Instr> = body.to_vec();
    then.push(at(InstrKind::Continue, FormStep::IterationEnd));
    let mut scope: Vec<Instr> = guard.to_vec();
    scope.push(at(
        InstrKind::If {
            cond: cond.clone(),
            then: Rc::from(then),
            orelse: Rc::from(vec![at(InstrKind::Pass, FormStep::UseCase)]),
        },
        FormStep::Guard,
    ));
    // The scope itself is a structure, not a step (settling enters it).
    form.push(Instr {
        kind: InstrKind::LoopScope {
            invs: invariants.to_vec(),
            body: Rc::from(scope),
            orelse: orelse.cloned(),
        },
        span,
        form: None,
    });
    Some(Rc::from(form))
}

/// A hand-written `loop-scope` (the book's notation) is the form's iteration written out:
/// an `if` directly in its body tests the loop's guard ([`FormStep::Guard`]), and its
/// else-branch is the loop ending ([`FormStep::UseCase`], on its first instruction).
pub(super) fn mark_scope(body: &[Instr]) -> Block {
    body.iter()
        .cloned()
        .map(|mut i| {
            if let InstrKind::If { orelse, .. } = &mut i.kind {
                i.form = Some(FormStep::Guard);
                if let Some(first) = orelse.first() {
                    let mut marked = orelse.to_vec();
                    marked[0] = Instr {
                        form: Some(FormStep::UseCase),
                        ..first.clone()
                    };
                    *orelse = Rc::from(marked);
                }
            }
            i
        })
        .collect()
}
