//! Walks over the tree: a program's functions, inputs and `print`s, a statement's nested
//! blocks, an expression's children, and the copy without spans that round-trip tests
//! compare ([`Program::without_spans`]).

use super::{Expr, ExprKind, FunctionDef, Ident, Program, Stmt, StmtKind, Type};
use crate::base::span::Span;

impl Program {
    /// The functions defined in the module, in source order.
    pub fn functions(&self) -> impl Iterator<Item = &FunctionDef> {
        self.body.iter().filter_map(|s| match &s.kind {
            StmtKind::FunctionDef(f) => Some(f),
            _ => None,
        })
    }

    /// The function named `name`, if the module defines one.
    pub fn function(&self, name: &str) -> Option<&FunctionDef> {
        self.functions().find(|f| f.name.name == name)
    }

    /// The declared inputs (`x: int` without a value), in source order.
    pub fn inputs(&self) -> impl Iterator<Item = (&Ident, Type)> {
        self.body.iter().filter_map(|s| match &s.kind {
            StmtKind::Declare { name, ty } => Some((name, *ty)),
            _ => None,
        })
    }

    /// Does the program contain a `print(...)` statement (anywhere, functions included)?
    pub fn prints(&self) -> bool {
        fn block(b: &[Stmt]) -> bool {
            b.iter().any(|s| match &s.kind {
                StmtKind::Print(_) => true,
                StmtKind::FunctionDef(f) => block(&f.body),
                _ => s.nested_blocks().into_iter().any(block),
            })
        }
        block(&self.body)
    }

    /// A copy with every span reset to [`Span::default`], for comparing shapes.
    pub fn without_spans(&self) -> Program {
        let mut p = self.clone();
        for s in &mut p.body {
            s.clear_spans();
        }
        p
    }
}

impl Stmt {
    /// The blocks nested directly in this statement, in source order: branches, loop
    /// bodies and `else`s, `try` bodies and handlers, method-frame and loop-scope bodies.
    /// A `def`'s body is not included (it is another scope).
    pub fn nested_blocks(&self) -> Vec<&[Stmt]> {
        match &self.kind {
            StmtKind::If { branches, orelse } => branches
                .iter()
                .map(|(_, b)| b.as_slice())
                .chain(orelse.as_deref())
                .collect(),
            StmtKind::While { body, orelse, .. } | StmtKind::For { body, orelse, .. } => {
                std::iter::once(body.as_slice())
                    .chain(orelse.as_deref())
                    .collect()
            }
            StmtKind::Try { body, handlers } => std::iter::once(body.as_slice())
                .chain(handlers.iter().map(|h| h.body.as_slice()))
                .collect(),
            StmtKind::MethodFrame { body, .. } | StmtKind::LoopScope { body, .. } => {
                vec![body.as_slice()]
            }
            _ => Vec::new(),
        }
    }

    fn clear_spans(&mut self) {
        self.span = Span::default();
        fn block(b: &mut [Stmt]) {
            for s in b {
                s.clear_spans();
            }
        }
        match &mut self.kind {
            StmtKind::Declare { name, .. } => name.span = Span::default(),
            StmtKind::Assign { target, value, .. } | StmtKind::AugAssign { target, value, .. } => {
                target.span = Span::default();
                value.clear_spans();
            }
            StmtKind::Expr(e) | StmtKind::Assert(e) | StmtKind::Assume(e) => e.clear_spans(),
            StmtKind::Print(args) => args.iter_mut().for_each(Expr::clear_spans),
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    e.clear_spans()
                }
            }
            StmtKind::Pass | StmtKind::Break | StmtKind::Continue => {}
            StmtKind::If { branches, orelse } => {
                for (c, b) in branches {
                    c.clear_spans();
                    block(b);
                }
                if let Some(b) = orelse {
                    block(b)
                }
            }
            StmtKind::While {
                cond,
                invariants,
                body,
                orelse,
            } => {
                cond.clear_spans();
                for i in invariants {
                    i.clear_spans();
                }
                block(body);
                if let Some(b) = orelse {
                    block(b)
                }
            }
            StmtKind::For {
                target,
                iter,
                invariants,
                body,
                orelse,
            } => {
                target.span = Span::default();
                iter.clear_spans();
                for i in invariants {
                    i.clear_spans();
                }
                block(body);
                if let Some(b) = orelse {
                    block(b)
                }
            }
            StmtKind::Try { body, handlers } => {
                block(body);
                for h in handlers {
                    h.span = Span::default();
                    if let Some(c) = &mut h.class {
                        c.span = Span::default();
                    }
                    block(&mut h.body);
                }
            }
            StmtKind::FunctionDef(f) => {
                f.name.span = Span::default();
                for p in &mut f.params {
                    p.name.span = Span::default();
                }
                for e in f
                    .contract
                    .requires
                    .iter_mut()
                    .chain(&mut f.contract.ensures)
                {
                    e.clear_spans();
                }
                block(&mut f.body);
            }
            StmtKind::Havoc(x) => x.span = Span::default(),
            StmtKind::MethodFrame { result, body } => {
                result.span = Span::default();
                block(body);
            }
            StmtKind::LoopScope { inv, body } => {
                inv.clear_spans();
                block(body);
            }
        }
    }
}

impl Expr {
    /// The direct subexpressions, in evaluation order (a quantifier's: its bounds, then
    /// its body; a call's arguments).
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) => Vec::new(),
            ExprKind::Tuple(es) | ExprKind::Call { args: es, .. } => es.iter().collect(),
            ExprKind::Unary { operand, .. } => vec![operand],
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::BoolOp { lhs, rhs, .. } => {
                vec![lhs, rhs]
            }
            ExprKind::Compare { first, rest } => std::iter::once(&**first)
                .chain(rest.iter().map(|(_, e)| e))
                .collect(),
            ExprKind::Index { base, index } => vec![base, index],
            ExprKind::Slice { base, lo, hi, step } => std::iter::once(&**base)
                .chain([lo, hi, step].into_iter().flatten().map(|e| &**e))
                .collect(),
            ExprKind::IfExp { cond, then, orelse } => vec![cond, then, orelse],
            ExprKind::Quantifier { lo, hi, body, .. } => {
                lo.iter().map(|e| &**e).chain([&**hi, &**body]).collect()
            }
        }
    }

    fn clear_spans(&mut self) {
        self.span = Span::default();
        match &mut self.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) => {}
            ExprKind::Tuple(es) => es.iter_mut().for_each(Expr::clear_spans),
            ExprKind::Unary { operand, .. } => operand.clear_spans(),
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::BoolOp { lhs, rhs, .. } => {
                lhs.clear_spans();
                rhs.clear_spans();
            }
            ExprKind::Compare { first, rest } => {
                first.clear_spans();
                rest.iter_mut().for_each(|(_, e)| e.clear_spans());
            }
            ExprKind::Index { base, index } => {
                base.clear_spans();
                index.clear_spans();
            }
            ExprKind::Slice { base, lo, hi, step } => {
                base.clear_spans();
                for part in [lo, hi, step].into_iter().flatten() {
                    part.clear_spans();
                }
            }
            ExprKind::IfExp { cond, then, orelse } => {
                cond.clear_spans();
                then.clear_spans();
                orelse.clear_spans();
            }
            ExprKind::Call { func, args } => {
                func.span = Span::default();
                args.iter_mut().for_each(Expr::clear_spans);
            }
            ExprKind::Quantifier {
                var, lo, hi, body, ..
            } => {
                var.span = Span::default();
                if let Some(lo) = lo {
                    lo.clear_spans();
                }
                hi.clear_spans();
                body.clear_spans();
            }
        }
    }
}
