//! `for` loops become `while` loops over hidden variables (`$i`, `$i.stop`, ...), so the
//! engine's loop machinery — unrolling and `--unroll`, `--fold auto`, the invariant
//! transition, the debugger's loop head — applies to them unchanged:
//!
//! ```text
//! for i in range(a, b, s):      $i.start = a; $i.stop = b; $i.step = s
//!     body                      (ValueError at `range(...)` if $i.step == 0)
//! else:                         $i = $i.start
//!     orelse                    while $i < $i.stop:     (`>` for a step < 0)
//!                                   i = $i
//!                                   $i = $i + $i.step
//!                                   body
//!                               else:
//!                                   orelse
//!
//! for x in t:                   $x.items = t; $x_index = 0
//!     body                      while $x_index < len($x.items):
//!                                   x = $item($x.items, $x_index)
//!                                   $x_index = $x_index + 1
//!                                   body
//! ```
//!
//! (A loop nested in one whose hidden names it would reuse gets `$i#2`, ...) Both kinds of
//! loop build their `while` instruction with [`Lowerer::while_instr`].
//!
//! The arguments are evaluated once, in order, before the first iteration (user calls in
//! them are hoisted as anywhere else); the position is advanced before the body, so a
//! `continue` goes on with the next element and an assignment to `i` in the body does not
//! change the iteration. A constant step picks the comparison; a symbolic one forks on its
//! sign (after the zero check) into two `while`s that share their body. The loop's
//! `invariant` lines hold at every test of the guard, where the hidden position (`$i`,
//! `$x_index`) is the position: they name it `i` (a range) or `x_index` (a tuple) and are
//! rewritten to read it.

use std::rc::Rc;

use num_bigint::BigInt;
use num_traits::{Signed, Zero};

use super::super::ir::{self, Block, Instr, InstrKind};
use super::{binary, name_expr, Lowerer};
use crate::base::{ExcClass, Span};
use crate::lang::ast::*;

/// A `for` statement's parts.
pub(in crate::transform) struct ForParts<'s> {
    pub target: &'s Ident,
    pub iter: &'s Expr,
    pub invariants: &'s [Expr],
    pub body: &'s [Stmt],
    pub orelse: Option<&'s [Stmt]>,
}

impl Lowerer<'_> {
    /// A `while` loop of lowered parts, with its invariant forms (a `while` statement's,
    /// and each of a `for`'s).
    pub(super) fn while_instr(
        &mut self,
        guard: Vec<Instr>,
        cond: Expr,
        invariants: &[Expr],
        body: Block,
        orelse: Option<Block>,
        span: Span,
    ) -> Instr {
        for inv in invariants {
            self.formula_only(inv, "a loop invariant");
        }
        let abstraction = super::super::loop_form::loop_scope_form(
            &guard,
            &cond,
            invariants,
            &body,
            orelse.as_ref(),
            span,
        );
        let check = super::super::loop_form::check_block(invariants, ir::FormStep::TestCheck);
        Instr {
            kind: InstrKind::While {
                guard: Rc::from(guard),
                cond,
                invariants: invariants.to_vec(),
                body,
                orelse,
                abstraction,
                check,
            },
            span,
            form: None,
        }
    }

    pub(super) fn for_loop(&mut self, f: ForParts<'_>, span: Span, out: &mut Vec<Instr>) {
        // `$i.stop`, ...: a `$` name no program can write, which reads well where it shows
        // (a havoc'd position in an invariant's path condition: `$i!1 < len(t)`); `#k`
        // keeps a loop apart from the loops it is nested in (`for i ...: for i ...`).
        let is_range = range_args(f.iter).is_some();
        let mut k = 1;
        let (base, names) = loop {
            let base = match k {
                1 => f.target.name.clone(),
                _ => format!("{}#{k}", f.target.name),
            };
            let names = hidden_names(&base, is_range);
            if !names.iter().any(|n| self.active_for.contains(n)) {
                break (base, names);
            }
            k += 1;
        };
        let var = |what: &str| format!("${base}.{what}");
        let position_name = match is_range {
            true => f.target.name.clone(),
            false => for_index_name(&f.target.name),
        };
        let pos = names[0].clone();
        let push = |out: &mut Vec<Instr>, kind| {
            out.push(Instr {
                kind,
                span,
                form: None,
            })
        };
        let at = f.iter.span;
        let read = |name: &str| name_expr(name, at);
        let assign = |this: &mut Self, out: &mut Vec<Instr>, name: &str, ty, value| {
            this.for_vars.insert(name.to_string(), ty);
            push(
                out,
                InstrKind::Assign {
                    target: name.to_string(),
                    value,
                },
            );
        };
        // What the body starts with: bind the target, advance the position.
        let bind_and_advance = |value: Expr, step: Expr| {
            vec![
                Instr {
                    kind: InstrKind::Assign {
                        target: f.target.name.clone(),
                        value,
                    },
                    span,
                    form: None,
                },
                Instr {
                    kind: InstrKind::Assign {
                        target: pos.clone(),
                        value: binary(BinOp::Add, read(&pos), step, at),
                    },
                    span,
                    form: None,
                },
            ]
        };
        let (element, guards) = match range_args(f.iter) {
            Some(args) => {
                let mut vals = self.seq(args, span, out);
                let (start, stop, step) = match vals.len() {
                    1 => (int(0, at), vals.pop().expect("stop"), int(1, at)),
                    2 => {
                        let stop = vals.pop().expect("stop");
                        (vals.pop().expect("start"), stop, int(1, at))
                    }
                    _ => {
                        let step = vals.pop().expect("step");
                        let stop = vals.pop().expect("stop");
                        (vals.pop().expect("start"), stop, step)
                    }
                };
                // Bound in order: each may raise, and a later one may read an earlier
                // one's variables, which the later assignments do not change.
                assign(self, out, &var("start"), Type::Int, start);
                assign(self, out, &var("stop"), Type::Int, stop);
                let step = match constant(&step) {
                    Some(k) => {
                        if k.is_zero() {
                            push(
                                out,
                                InstrKind::RaiseIf {
                                    cond: bool_expr(true, at),
                                    class: ExcClass::ValueError,
                                    at,
                                },
                            );
                        }
                        Step::Constant(k, step)
                    }
                    None => {
                        assign(self, out, &var("step"), Type::Int, step);
                        push(
                            out,
                            InstrKind::RaiseIf {
                                cond: compare(read(&var("step")), CmpOp::Eq, int(0, at), at),
                                class: ExcClass::ValueError,
                                at,
                            },
                        );
                        Step::Symbolic(read(&var("step")))
                    }
                };
                assign(self, out, &pos, Type::Int, read(&var("start")));
                let stop = read(&var("stop"));
                let up = compare(read(&pos), CmpOp::Lt, stop.clone(), at);
                let down = compare(read(&pos), CmpOp::Gt, stop, at);
                let guards = match step {
                    Step::Constant(k, e) if k.is_positive() => vec![(up, e)],
                    Step::Constant(_, e) => vec![(down, e)],
                    Step::Symbolic(e) => vec![(up, e.clone()), (down, e)],
                };
                (read(&pos), guards)
            }
            None => {
                let items = var("items");
                let value = self.expr(f.iter, span, out);
                assign(self, out, &items, Type::Tuple, value);
                assign(self, out, &pos, Type::Int, int(0, at));
                let len = Expr {
                    kind: ExprKind::Call {
                        func: Ident {
                            name: "len".to_string(),
                            span: at,
                        },
                        args: vec![read(&items)],
                    },
                    span: at,
                };
                let guard = compare(read(&pos), CmpOp::Lt, len, at);
                let item = Expr {
                    kind: ExprKind::Call {
                        func: Ident {
                            name: ir::ITEM.to_string(),
                            span: at,
                        },
                        args: vec![read(&items), read(&pos)],
                    },
                    span: at,
                };
                (item, vec![(guard, int(1, at))])
            }
        };
        let invariants: Vec<Expr> = f
            .invariants
            .iter()
            .map(|inv| rename(inv, &position_name, &pos))
            .collect();
        let outer = self.active_for.len();
        self.active_for.extend(names);
        let user_body = self.block(f.body);
        self.active_for.truncate(outer);
        let orelse = f.orelse.map(|b| self.block(b));
        let whiles: Vec<Instr> = guards
            .into_iter()
            .map(|(cond, step)| {
                let mut body = bind_and_advance(element.clone(), step);
                body.extend(user_body.iter().cloned());
                self.while_instr(
                    Vec::new(),
                    cond,
                    &invariants,
                    Rc::from(body),
                    orelse.clone(),
                    span,
                )
            })
            .collect();
        match <[Instr; 2]>::try_from(whiles) {
            // A symbolic step: `if step > 0: while pos < stop ... else: while pos > stop ...`.
            Ok([up, down]) => push(
                out,
                InstrKind::If {
                    cond: compare(read(&var("step")), CmpOp::Gt, int(0, at), at),
                    then: Block::from(vec![up]),
                    orelse: Block::from(vec![down]),
                },
            ),
            Err(whiles) => out.extend(whiles),
        }
    }
}

/// The hidden variables of a loop whose names start with `base`, the position first.
fn hidden_names(base: &str, is_range: bool) -> Vec<String> {
    match is_range {
        true => ["", ".start", ".stop", ".step"]
            .iter()
            .map(|s| format!("${base}{s}"))
            .collect(),
        false => vec![
            format!("${}", for_index_name(base)),
            format!("${base}.items"),
        ],
    }
}

enum Step {
    Constant(BigInt, Expr),
    Symbolic(Expr),
}

/// The value of an integer literal, possibly signed (`3`, `-1`, `+2`).
fn constant(e: &Expr) -> Option<BigInt> {
    match &e.kind {
        ExprKind::Int(k) => Some(k.clone()),
        ExprKind::Unary {
            op: UnaryOp::Neg,
            operand,
        } => constant(operand).map(|k| -k),
        ExprKind::Unary {
            op: UnaryOp::Pos,
            operand,
        } => constant(operand),
        _ => None,
    }
}

fn int(k: i64, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Int(BigInt::from(k)),
        span,
    }
}

fn bool_expr(b: bool, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Bool(b),
        span,
    }
}

fn compare(lhs: Expr, op: CmpOp, rhs: Expr, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Compare {
            first: Box::new(lhs),
            rest: vec![(op, rhs)],
        },
        span,
    }
}

/// `e` with its free occurrences of the name `from` (not those bound by a quantifier
/// inside `e`) reading `to` instead.
fn rename(e: &Expr, from: &str, to: &str) -> Expr {
    let mut e = e.clone();
    rename_in(&mut e, from, to);
    e
}

fn rename_in(e: &mut Expr, from: &str, to: &str) {
    let go = |e: &mut Expr| rename_in(e, from, to);
    match &mut e.kind {
        ExprKind::Name(n) => {
            if n == from {
                *n = to.to_string();
            }
        }
        ExprKind::Int(_) | ExprKind::Bool(_) => {}
        ExprKind::Tuple(items) | ExprKind::Call { args: items, .. } => {
            items.iter_mut().for_each(go)
        }
        ExprKind::Unary { operand, .. } => go(operand),
        ExprKind::Binary { lhs, rhs, .. } | ExprKind::BoolOp { lhs, rhs, .. } => {
            go(lhs);
            go(rhs);
        }
        ExprKind::Compare { first, rest } => {
            go(first);
            rest.iter_mut().for_each(|(_, e)| go(e));
        }
        ExprKind::Index { base, index } => {
            go(base);
            go(index);
        }
        ExprKind::Slice { base, lo, hi, step } => {
            go(base);
            for part in [lo, hi, step].into_iter().flatten() {
                go(part);
            }
        }
        ExprKind::IfExp { cond, then, orelse } => {
            go(cond);
            go(then);
            go(orelse);
        }
        ExprKind::Quantifier {
            var, lo, hi, body, ..
        } => {
            if let Some(lo) = lo {
                go(lo);
            }
            go(hi);
            if var.name != from {
                go(body);
            }
        }
    }
}
