//! Lowering that branches: comparison chains and conditional expressions whose later
//! operands call a function become `if`s, so each call runs only when Python would run it.

use std::rc::Rc;

use super::{is_literal, name_expr, Lowerer};
use crate::base::Span;
use crate::lang::ast::*;
use crate::transform::ir::{self, Instr, InstrKind};

impl Lowerer<'_> {
    /// `a < f(x) <= c`: evaluate operands in order into temporaries, stop at the first false
    /// comparison (each operand is evaluated at most once, as in Python).
    pub(super) fn compare_chain(
        &mut self,
        e: &Expr,
        first: &Expr,
        rest: &[(CmpOp, Expr)],
        span: Span,
        out: &mut Vec<Instr>,
    ) -> Expr {
        if rest.len() == 1 {
            let mut v = self.seq(&[first.clone(), rest[0].1.clone()], span, out);
            let r = v.pop().expect("two operands");
            let l = v.pop().expect("two operands");
            return Expr {
                kind: ExprKind::Compare {
                    first: Box::new(l),
                    rest: vec![(rest[0].0, r)],
                },
                span: e.span,
            };
        }
        let result = self.temp();
        // blocks[k] runs only if the k-th comparison held; blocks[0] runs unconditionally.
        let mut blocks: Vec<Vec<Instr>> = vec![Vec::new()];
        let mut prev = self.operand_temp(first, span, &mut blocks[0]);
        for (i, (op, operand)) in rest.iter().enumerate() {
            let last = i + 1 == rest.len();
            let mut block = blocks.pop().expect("a current block");
            let cur = if last {
                self.expr(operand, span, &mut block)
            } else {
                self.operand_temp(operand, span, &mut block)
            };
            block.push(Instr {
                kind: InstrKind::Assign {
                    target: result.clone(),
                    value: Expr {
                        kind: ExprKind::Compare {
                            first: Box::new(prev),
                            rest: vec![(*op, cur.clone())],
                        },
                        span: e.span,
                    },
                },
                span,
                form: None,
            });
            blocks.push(block);
            if !last {
                blocks.push(Vec::new());
            }
            prev = cur;
        }
        let mut inner = blocks.pop().expect("a last block");
        while let Some(mut outer) = blocks.pop() {
            outer.push(guarded(&result, inner, span, e.span));
            inner = outer;
        }
        out.extend(inner);
        name_expr(&result, e.span)
    }

    /// `a if c else b` with a call: the condition's calls run first; a side with a call
    /// becomes `if c: t = a` / `else: t = b` (only the chosen side runs, as in Python).
    pub(super) fn if_exp(
        &mut self,
        e: &Expr,
        (cond, then, orelse): (&Expr, &Expr, &Expr),
        span: Span,
        out: &mut Vec<Instr>,
    ) -> Expr {
        let c = self.expr(cond, span, out);
        if !self.has_call(then) && !self.has_call(orelse) {
            return Expr {
                kind: ExprKind::IfExp {
                    cond: Box::new(c),
                    then: Box::new(then.clone()),
                    orelse: Box::new(orelse.clone()),
                },
                span: e.span,
            };
        }
        let t = self.temp();
        let side = |this: &mut Self, x: &Expr| {
            let mut block = Vec::new();
            let v = this.expr(x, span, &mut block);
            block.push(Instr {
                kind: InstrKind::Assign {
                    target: t.clone(),
                    value: v,
                },
                span,
                form: None,
            });
            Rc::from(block)
        };
        let then = side(self, then);
        let orelse = side(self, orelse);
        out.push(Instr {
            kind: InstrKind::If {
                cond: c,
                then,
                orelse,
            },
            span,
            form: None,
        });
        name_expr(&t, e.span)
    }

    pub(super) fn operand_temp(
        &mut self,
        operand: &Expr,
        span: Span,
        out: &mut Vec<Instr>,
    ) -> Expr {
        let v = self.expr(operand, span, out);
        if is_literal(&v) || matches!(&v.kind, ExprKind::Name(n) if ir::is_temp(n)) {
            return v;
        }
        let t = self.temp();
        out.push(Instr {
            kind: InstrKind::Assign {
                target: t.clone(),
                value: v,
            },
            span,
            form: None,
        });
        name_expr(&t, operand.span)
    }
}

fn guarded(result: &str, block: Vec<Instr>, span: Span, espan: Span) -> Instr {
    Instr {
        kind: InstrKind::If {
            cond: name_expr(result, espan),
            then: Rc::from(block),
            orelse: Rc::from(Vec::new()),
        },
        span,
        form: None,
    }
}
