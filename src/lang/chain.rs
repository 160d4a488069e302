//! How the parser nests a chain of `and` (or of `or`): CPython keeps `a and b and c ...` as
//! one flat node and accepts millions of operands; minipy's AST is binary, so a long chain
//! would be a tree as deep as it is long (every recursive walk would need a stack that
//! deep, and building the conjunction operand by operand takes quadratic time). Short
//! chains nest to the left as usual (`(a and b) and c`); a chain of more than [`FLAT`]
//! operands splits in two halves, recursively, so its depth grows with the logarithm of
//! its length. `and` and `or` are associative in Python (values, evaluation order and
//! exceptions alike), so the shape changes nothing but the depth.
//! The pretty printer uses [`is_canonical`] to print a chain of this shape flat again.

use super::ast::{BoolOp, Expr, ExprKind};
use crate::base::Span;

/// Chains up to this many operands nest to the left.
pub const FLAT: usize = 64;

/// The chain of `items` (at least one) joined by `op`, in the shape described above. Each
/// item comes with its outer span (with the parentheses around it, if any): an operator's
/// span covers its operands' parentheses, `(a or b) and c`.
pub fn build(op: BoolOp, items: Vec<(Span, Expr)>) -> Expr {
    build_outer(op, items).1
}

fn build_outer(op: BoolOp, mut items: Vec<(Span, Expr)>) -> (Span, Expr) {
    debug_assert!(!items.is_empty());
    if items.len() <= FLAT {
        let mut it = items.into_iter();
        let first = it.next().expect("a chain has an operand");
        return it.fold(first, |lhs, rhs| join(op, lhs, rhs));
    }
    let right = items.split_off(items.len() / 2);
    join(op, build_outer(op, items), build_outer(op, right))
}

fn join(op: BoolOp, (ls, lhs): (Span, Expr), (rs, rhs): (Span, Expr)) -> (Span, Expr) {
    let span = ls.to(rs);
    let e = Expr {
        span,
        kind: ExprKind::BoolOp {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
    };
    (span, e)
}

/// The depth [`build`] gives a chain of `n` operands (0 for one operand).
pub fn depth(n: usize) -> usize {
    if n <= FLAT {
        n.saturating_sub(1)
    } else {
        1 + depth(n - n / 2)
    }
}

/// The operands of the chain of `op` rooted at `e` (maximal subexpressions that are not
/// an `op` node), left to right.
pub fn operands(op: BoolOp, e: &Expr) -> Vec<&Expr> {
    let mut out = Vec::new();
    let mut todo = vec![e];
    while let Some(x) = todo.pop() {
        match &x.kind {
            ExprKind::BoolOp { op: o, lhs, rhs } if *o == op => {
                todo.push(rhs);
                todo.push(lhs);
            }
            _ => out.push(x),
        }
    }
    out
}

/// Does the chain of `op` rooted at `e` have exactly the shape [`build`] gives its
/// operands (so printing them flat parses back to `e`)?
pub fn is_canonical(op: BoolOp, e: &Expr) -> bool {
    shape(op, e, operands(op, e).len())
}

fn shape(op: BoolOp, e: &Expr, n: usize) -> bool {
    match &e.kind {
        ExprKind::BoolOp { op: o, lhs, rhs } if *o == op => {
            if n <= 1 {
                false
            } else if n <= FLAT {
                shape(op, rhs, 1) && shape(op, lhs, n - 1)
            } else {
                shape(op, lhs, n / 2) && shape(op, rhs, n - n / 2)
            }
        }
        _ => n == 1,
    }
}
