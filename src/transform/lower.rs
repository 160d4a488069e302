//! AST → IR: hoist calls of user functions out of expressions.
//!
//! The rule is A-normal form in Python's evaluation order: in an expression that contains a
//! call, every operand evaluated *before* the call is first bound to a temporary (it may
//! raise, or read an unbound name, before the call runs), the call becomes an
//! [`InstrKind::Call`] assigning a temporary, and operands after the last call stay in the
//! expression. `and`/`or` and comparison chains with calls on their right become `if`s, so a
//! call on the right runs only when Python would evaluate it. Expressions without calls are
//! left untouched, so most statements lower one-to-one.

use std::collections::BTreeSet;
use std::rc::Rc;

use super::ir::{self, Block, Instr, InstrKind};

mod for_loop;
use crate::base::Span;
use crate::diagnostics::Diagnostic;
use crate::lang::ast::*;

mod branches;

pub(super) struct Lowerer<'a> {
    /// Names of user functions (not predicates): calls of these are hoisted.
    functions: &'a BTreeSet<String>,
    next_temp: usize,
    /// The hidden variables of the `for` loops being lowered (named after their loop
    /// variables; a nested loop's must differ).
    active_for: Vec<String>,
    /// The hidden variables of the `for` loops and their types ([`ir::Program::for_vars`]).
    pub(super) for_vars: std::collections::BTreeMap<String, Type>,
    pub(super) errors: Vec<Diagnostic>,
}

impl<'a> Lowerer<'a> {
    pub(super) fn new(functions: &'a BTreeSet<String>) -> Self {
        Lowerer {
            functions,
            next_temp: 0,
            active_for: Vec::new(),
            for_vars: Default::default(),
            errors: Vec::new(),
        }
    }

    fn temp(&mut self) -> String {
        self.next_temp += 1;
        format!("${}", self.next_temp)
    }

    fn has_call(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) => false,
            ExprKind::Tuple(items) => items.iter().any(|i| self.has_call(i)),
            ExprKind::Unary { operand, .. } => self.has_call(operand),
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::BoolOp { lhs, rhs, .. } => {
                self.has_call(lhs) || self.has_call(rhs)
            }
            ExprKind::Compare { first, rest } => {
                self.has_call(first) || rest.iter().any(|(_, e)| self.has_call(e))
            }
            ExprKind::Index { base, index } => self.has_call(base) || self.has_call(index),
            ExprKind::Slice { .. } | ExprKind::IfExp { .. } => {
                e.children().into_iter().any(|c| self.has_call(c))
            }
            ExprKind::Call { func, args } => {
                self.functions.contains(&func.name) || args.iter().any(|a| self.has_call(a))
            }
            ExprKind::Quantifier { lo, hi, body, .. } => {
                lo.as_ref().is_some_and(|l| self.has_call(l))
                    || self.has_call(hi)
                    || self.has_call(body)
            }
        }
    }

    pub(super) fn block(&mut self, stmts: &[Stmt]) -> Block {
        let mut out = Vec::new();
        for s in stmts {
            self.stmt(s, &mut out);
        }
        Rc::from(out)
    }

    fn stmt(&mut self, s: &Stmt, out: &mut Vec<Instr>) {
        let span = s.span;
        let push = |out: &mut Vec<Instr>, kind| {
            out.push(Instr {
                kind,
                span,
                form: None,
            })
        };
        match &s.kind {
            StmtKind::Declare { name, ty } => push(
                out,
                InstrKind::Declare {
                    name: name.name.clone(),
                    ty: *ty,
                },
            ),
            StmtKind::Assign { target, value, .. } => {
                self.assign(&target.name, value, span, out);
            }
            StmtKind::AugAssign { target, op, value } => {
                let lhs = name_expr(&target.name, target.span);
                let rhs = if self.has_call(value) {
                    // Python reads the target before evaluating the right-hand side.
                    let t = self.temp();
                    push(
                        out,
                        InstrKind::Assign {
                            target: t.clone(),
                            value: lhs.clone(),
                        },
                    );
                    let v = self.expr(value, span, out);
                    return push(
                        out,
                        InstrKind::Assign {
                            target: target.name.clone(),
                            // CPython marks the whole statement, as without a call.
                            value: binary(
                                *op,
                                name_expr(&t, target.span),
                                v,
                                target.span.to(value.span),
                            ),
                        },
                    );
                } else {
                    value.clone()
                };
                push(
                    out,
                    InstrKind::Assign {
                        target: target.name.clone(),
                        value: binary(*op, lhs, rhs, target.span.to(value.span)),
                    },
                );
            }
            StmtKind::Expr(e) => {
                if let Some((func, args)) = self.direct_call(e) {
                    self.lookup(&func, args, e.span, span, out);
                    let args = self.seq(args, span, out);
                    push(
                        out,
                        InstrKind::Call {
                            target: None,
                            func,
                            args,
                            at: e.span,
                        },
                    );
                } else {
                    let v = self.expr(e, span, out);
                    push(out, InstrKind::Eval(v));
                }
            }
            StmtKind::Print(args) => {
                let args = self.seq(args, span, out);
                push(out, InstrKind::Print(args));
            }
            StmtKind::Pass => push(out, InstrKind::Pass),
            StmtKind::Break => push(out, InstrKind::Break),
            StmtKind::Continue => push(out, InstrKind::Continue),
            StmtKind::Return(e) => {
                let v = e.as_ref().map(|e| self.expr(e, span, out));
                push(out, InstrKind::Return(v));
            }
            StmtKind::Assert(e) => {
                // Where it fails is decided on the source condition: lowering its calls
                // turns comparisons and `and`/`or` into temporaries.
                let at = crate::semantics::assert_position(e, span);
                let cond = self.expr(e, span, out);
                push(out, InstrKind::Assert { cond, at });
            }
            StmtKind::Assume(e) => {
                let v = self.expr(e, span, out);
                push(out, InstrKind::Assume(v));
            }
            StmtKind::Havoc(x) => push(
                out,
                InstrKind::Havoc {
                    name: x.name.clone(),
                    keep_unbound: false,
                },
            ),
            StmtKind::If { branches, orelse } => {
                self.if_chain(branches, orelse.as_deref(), span, out)
            }
            StmtKind::While {
                cond,
                invariants,
                body,
                orelse,
            } => {
                let mut guard = Vec::new();
                let cond = self.expr(cond, span, &mut guard);
                let body = self.block(body);
                let orelse = orelse.as_ref().map(|b| self.block(b));
                let instr = self.while_instr(guard, cond, invariants, body, orelse, span);
                out.push(instr);
            }
            StmtKind::For {
                target,
                iter,
                invariants,
                body,
                orelse,
            } => self.for_loop(
                for_loop::ForParts {
                    target,
                    iter,
                    invariants,
                    body,
                    orelse: orelse.as_deref(),
                },
                span,
                out,
            ),
            StmtKind::Try { body, handlers } => {
                let body = self.block(body);
                let handlers = handlers
                    .iter()
                    .map(|h| ir::Handler {
                        class: h.class.as_ref().map(|c| c.name.clone()),
                        body: self.block(&h.body),
                        span: h.span,
                    })
                    .collect();
                push(out, InstrKind::Try { body, handlers });
            }
            StmtKind::FunctionDef(f) => push(out, InstrKind::Def(f.name.name.clone())),
            StmtKind::MethodFrame { result, body } => {
                let body = self.block(body);
                push(
                    out,
                    InstrKind::MethodFrame {
                        result: result.name.clone(),
                        body,
                    },
                );
            }
            StmtKind::LoopScope { inv, body } => {
                self.formula_only(inv, "a loop-scope invariant");
                let body = super::loop_form::mark_scope(&self.block(body));
                push(
                    out,
                    InstrKind::LoopScope {
                        invs: vec![inv.clone()],
                        body,
                        orelse: None,
                    },
                );
            }
        }
    }

    /// Invariants are formulas: they may not call functions (only predicates and builtins).
    pub(super) fn formula_only(&mut self, e: &Expr, what: &str) {
        if self.has_call(e) {
            self.errors.push(
                Diagnostic::error(format!("{what} cannot call a function"), e.span)
                    .with_label("only predicates and builtins can be used here")
                    .with_note("help: write the property as a `@predicate`"),
            );
        }
    }

    fn assign(&mut self, target: &str, value: &Expr, span: Span, out: &mut Vec<Instr>) {
        if let Some((func, args)) = self.direct_call(value) {
            self.lookup(&func, args, value.span, span, out);
            let args = self.seq(args, span, out);
            out.push(Instr {
                kind: InstrKind::Call {
                    target: Some(target.to_string()),
                    func,
                    args,
                    at: value.span,
                },
                span,
                form: None,
            });
            return;
        }
        let v = self.expr(value, span, out);
        out.push(Instr {
            kind: InstrKind::Assign {
                target: target.to_string(),
                value: v,
            },
            span,
            form: None,
        });
    }

    /// Before the arguments of a call of `func` (at `call`) are lowered: if they contain
    /// calls, those run before the call instruction, so the lookup of `func` (which CPython
    /// does first) gets its own instruction. A predicate is looked up where it is
    /// evaluated, and so is a callee of call-free arguments (the call step does it first).
    fn lookup(&self, func: &str, args: &[Expr], call: Span, span: Span, out: &mut Vec<Instr>) {
        if args.iter().any(|a| self.has_call(a)) {
            out.push(Instr {
                kind: InstrKind::Lookup {
                    func: func.to_string(),
                    at: Span::new(call.start, call.start + func.len()),
                },
                span,
                form: None,
            });
        }
    }

    /// `f(args)` where `f` is a user function.
    fn direct_call<'e>(&self, e: &'e Expr) -> Option<(String, &'e [Expr])> {
        match &e.kind {
            ExprKind::Call { func, args } if self.functions.contains(&func.name) => {
                Some((func.name.clone(), args))
            }
            _ => None,
        }
    }

    fn if_chain(
        &mut self,
        branches: &[(Expr, Vec<Stmt>)],
        orelse: Option<&[Stmt]>,
        span: Span,
        out: &mut Vec<Instr>,
    ) {
        let Some(((cond, body), rest)) = branches.split_first() else {
            if let Some(b) = orelse {
                let block = self.block(b);
                out.extend(block.iter().cloned());
            }
            return;
        };
        // An `elif` instruction carries the span of its own condition's line.
        let c = self.expr(cond, span, out);
        let then = self.block(body);
        let mut else_out = Vec::new();
        if !rest.is_empty() {
            let elif_span = rest[0].0.span;
            self.if_chain(rest, orelse, elif_span, &mut else_out);
        } else if let Some(b) = orelse {
            else_out.extend(self.block(b).iter().cloned());
        }
        out.push(Instr {
            kind: InstrKind::If {
                cond: c,
                then,
                orelse: Rc::from(else_out),
            },
            span,
            form: None,
        });
    }

    /// Lower the operands of one node, left to right: operands before the last one that
    /// contains a call are bound to temporaries (unless they are literals).
    fn seq(&mut self, items: &[Expr], span: Span, out: &mut Vec<Instr>) -> Vec<Expr> {
        let last_call = items.iter().rposition(|e| self.has_call(e));
        let Some(last) = last_call else {
            return items.to_vec();
        };
        let mut result = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            if i > last {
                result.push(item.clone());
                continue;
            }
            let v = if i < last {
                self.operand_temp(item, span, out)
            } else {
                self.expr(item, span, out)
            };
            result.push(v);
        }
        result
    }

    /// Lower an expression: instructions for its calls go to `out`; the returned expression
    /// is call-free.
    fn expr(&mut self, e: &Expr, span: Span, out: &mut Vec<Instr>) -> Expr {
        if !self.has_call(e) {
            return e.clone();
        }
        let rebuild = |kind| Expr { kind, span: e.span };
        match &e.kind {
            ExprKind::Call { func, args } if self.functions.contains(&func.name) => {
                self.lookup(&func.name, args, e.span, span, out);
                let args = self.seq(args, span, out);
                let t = self.temp();
                out.push(Instr {
                    kind: InstrKind::Call {
                        target: Some(t.clone()),
                        func: func.name.clone(),
                        args,
                        at: e.span,
                    },
                    span,
                    form: None,
                });
                name_expr(&t, e.span)
            }
            ExprKind::Call { func, args } => rebuild(ExprKind::Call {
                func: func.clone(),
                args: self.seq(args, span, out),
            }),
            ExprKind::Tuple(items) => rebuild(ExprKind::Tuple(self.seq(items, span, out))),
            ExprKind::Unary { op, operand } => rebuild(ExprKind::Unary {
                op: *op,
                operand: Box::new(self.expr(operand, span, out)),
            }),
            ExprKind::Binary { op, lhs, rhs } => {
                let mut v = self.seq(&[(**lhs).clone(), (**rhs).clone()], span, out);
                let r = v.pop().expect("two operands");
                let l = v.pop().expect("two operands");
                rebuild(ExprKind::Binary {
                    op: *op,
                    lhs: Box::new(l),
                    rhs: Box::new(r),
                })
            }
            ExprKind::Index { base, index } => {
                let mut v = self.seq(&[(**base).clone(), (**index).clone()], span, out);
                let i = v.pop().expect("two operands");
                let b = v.pop().expect("two operands");
                rebuild(ExprKind::Index {
                    base: Box::new(b),
                    index: Box::new(i),
                })
            }
            ExprKind::Slice { base, lo, hi, step } => {
                let parts = [lo, hi, step];
                let items: Vec<Expr> = std::iter::once((**base).clone())
                    .chain(parts.iter().copied().flatten().map(|p| (**p).clone()))
                    .collect();
                let mut v = self.seq(&items, span, out).into_iter();
                let base = Box::new(v.next().expect("base"));
                let [lo, hi, step] =
                    parts.map(|p| p.as_ref().map(|_| Box::new(v.next().expect("part"))));
                rebuild(ExprKind::Slice { base, lo, hi, step })
            }
            ExprKind::IfExp { cond, then, orelse } => {
                self.if_exp(e, (cond, then, orelse), span, out)
            }
            ExprKind::BoolOp { op, lhs, rhs } => {
                if !self.has_call(rhs) {
                    let l = self.expr(lhs, span, out);
                    return rebuild(ExprKind::BoolOp {
                        op: *op,
                        lhs: Box::new(l),
                        rhs: rhs.clone(),
                    });
                }
                // t = lhs; if t (and) / if not t (or): t = rhs
                let t = self.temp();
                let l = self.expr(lhs, span, out);
                out.push(Instr {
                    kind: InstrKind::Assign {
                        target: t.clone(),
                        value: l,
                    },
                    span,
                    form: None,
                });
                let mut inner = Vec::new();
                let r = self.expr(rhs, span, &mut inner);
                inner.push(Instr {
                    kind: InstrKind::Assign {
                        target: t.clone(),
                        value: r,
                    },
                    span,
                    form: None,
                });
                let tv = name_expr(&t, e.span);
                let cond = match op {
                    BoolOp::And => tv.clone(),
                    BoolOp::Or => Expr {
                        kind: ExprKind::Unary {
                            op: UnaryOp::Not,
                            operand: Box::new(tv.clone()),
                        },
                        span: e.span,
                    },
                };
                out.push(Instr {
                    kind: InstrKind::If {
                        cond,
                        then: Rc::from(inner),
                        orelse: Rc::from(Vec::new()),
                    },
                    span,
                    form: None,
                });
                tv
            }
            ExprKind::Compare { first, rest } => self.compare_chain(e, first, rest, span, out),
            ExprKind::Quantifier {
                kind,
                var,
                lo,
                hi,
                body,
            } => {
                if self.has_call(body) {
                    self.errors.push(
                        Diagnostic::error("`all`/`any` cannot call a function", body.span)
                            .with_label("only predicates and builtins can be used inside")
                            .with_note("help: write the property as a `@predicate`"),
                    );
                    return e.clone();
                }
                // The bounds of `range(lo, hi)` are evaluated once, before the body.
                let items: Vec<Expr> = lo
                    .iter()
                    .map(|l| (**l).clone())
                    .chain([(**hi).clone()])
                    .collect();
                let mut v = self.seq(&items, span, out);
                let new_hi = v.pop().expect("hi");
                let new_lo = v.pop();
                rebuild(ExprKind::Quantifier {
                    kind: *kind,
                    var: var.clone(),
                    lo: new_lo.map(Box::new),
                    hi: Box::new(new_hi),
                    body: body.clone(),
                })
            }
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) => e.clone(),
        }
    }
}

fn is_literal(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Int(_) | ExprKind::Bool(_))
}

fn name_expr(name: &str, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Name(name.to_string()),
        span,
    }
}

fn binary(op: BinOp, lhs: Expr, rhs: Expr, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        span,
    }
}
