//! A generator of random well-typed minipy programs for property tests.
//!
//! Programs are built from a sequence of choices (`Vec<u32>`) that proptest generates and
//! shrinks: every decision reads the next choice, and choice 0 (also what an exhausted
//! sequence yields) is always the simplest option. Shrinking the sequence therefore shrinks
//! the program: fewer statements, smaller expressions, literals toward 0.

use num_bigint::BigInt;
use proptest::prelude::*;
use symdbg::lang::*;

/// Proptest strategy: choice sequences of up to `len` entries.
pub fn choices(len: usize) -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(any::<u32>(), 0..len)
}

/// Build a program from choices.
pub fn program(choices: &[u32]) -> Program {
    let mut g = Gen {
        choices,
        pos: 0,
        scope: Vec::new(),
        fresh: 0,
        loop_depth: 0,
        in_function: false,
        functions: Vec::new(),
        in_quantifier: 0,
    };
    g.program()
}

struct Gen<'a> {
    choices: &'a [u32],
    pos: usize,
    scope: Vec<(String, Type)>,
    fresh: usize,
    loop_depth: usize,
    in_function: bool,
    /// (name, parameter types)
    functions: Vec<(String, Vec<Type>)>,
    /// Inside an `all`/`any` body: no calls of user functions there (the IR cannot hoist them).
    in_quantifier: u32,
}

fn sp() -> Span {
    Span::default()
}

fn id(name: &str) -> Ident {
    Ident {
        name: name.to_string(),
        span: sp(),
    }
}

fn e(kind: ExprKind) -> Expr {
    Expr { kind, span: sp() }
}

fn s(kind: StmtKind) -> Stmt {
    Stmt { kind, span: sp() }
}

impl Gen<'_> {
    fn pick(&mut self, n: u32) -> u32 {
        let c = self.choices.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        c % n
    }

    fn program(&mut self) -> Program {
        let mut body = Vec::new();
        for (name, ty) in [
            ("x", Type::Int),
            ("y", Type::Int),
            ("t", Type::Tuple),
            ("b", Type::Bool),
        ] {
            if self.pick(4) != 3 || name == "x" {
                body.push(s(StmtKind::Declare { name: id(name), ty }));
                self.scope.push((name.to_string(), ty));
            }
        }
        for k in 0..self.pick(3) {
            body.push(self.function(k));
        }
        let n = 1 + self.pick(6);
        body.extend(self.block(n as usize, 3));
        Program { body }
    }

    fn function(&mut self, k: u32) -> Stmt {
        let name = format!("f{k}");
        let outer = std::mem::take(&mut self.scope);
        let params = vec![("a".to_string(), Type::Int), ("u".to_string(), Type::Tuple)];
        self.scope = params.clone();
        self.in_function = true;
        let n = self.pick(3) as usize;
        let mut body = self.block(n, 2);
        let ret = self.expr(Type::Int, 2);
        body.push(s(StmtKind::Return(Some(ret))));
        self.in_function = false;
        self.scope = outer;
        self.functions
            .push((name.clone(), params.iter().map(|p| p.1).collect()));
        s(StmtKind::FunctionDef(FunctionDef {
            name: id(&name),
            params: params
                .into_iter()
                .map(|(n, ty)| Param { name: id(&n), ty })
                .collect(),
            ret: Some(Type::Int),
            body,
            predicate: false,
        }))
    }

    fn block(&mut self, n: usize, depth: u32) -> Vec<Stmt> {
        let mut out: Vec<Stmt> = (0..n.max(1)).map(|_| self.stmt(depth)).collect();
        if out.is_empty() {
            out.push(s(StmtKind::Pass));
        }
        out
    }

    fn var_of(&mut self, ty: Type) -> Option<String> {
        let vars: Vec<String> = self
            .scope
            .iter()
            .filter(|(_, t)| *t == ty)
            .map(|(n, _)| n.clone())
            .collect();
        if vars.is_empty() {
            return None;
        }
        let i = self.pick(vars.len() as u32) as usize;
        Some(vars[i].clone())
    }

    fn ty(&mut self) -> Type {
        [Type::Int, Type::Bool, Type::Tuple][self.pick(3) as usize]
    }

    fn stmt(&mut self, depth: u32) -> Stmt {
        let options = if depth == 0 { 4 } else { 9 };
        match self.pick(options) {
            0 | 1 => {
                // Assignment to an existing variable or a new one.
                let ty = self.ty();
                let existing = match self.pick(2) {
                    0 => self.var_of(ty),
                    _ => None,
                };
                // The value is generated before a new name enters the scope.
                let value = self.expr(ty, 2);
                let target = existing.unwrap_or_else(|| {
                    self.fresh += 1;
                    let v = format!("v{}", self.fresh);
                    self.scope.push((v.clone(), ty));
                    v
                });
                s(StmtKind::Assign {
                    target: id(&target),
                    ann: None,
                    value,
                })
            }
            2 => match self.var_of(Type::Int) {
                Some(v) => {
                    let op = [
                        BinOp::Add,
                        BinOp::Sub,
                        BinOp::Mul,
                        BinOp::FloorDiv,
                        BinOp::Mod,
                    ][self.pick(5) as usize];
                    let value = self.expr(Type::Int, 1);
                    s(StmtKind::AugAssign {
                        target: id(&v),
                        op,
                        value,
                    })
                }
                None => s(StmtKind::Pass),
            },
            3 => {
                let c = self.expr(Type::Bool, 2);
                s(StmtKind::Assert(c))
            }
            4 | 5 => {
                let mut branches = Vec::new();
                for _ in 0..1 + self.pick(2) {
                    let c = self.expr(Type::Bool, 2);
                    let n = 1 + self.pick(2) as usize;
                    branches.push((c, self.block(n, depth - 1)));
                }
                let orelse = if self.pick(2) == 1 {
                    let n = 1 + self.pick(2) as usize;
                    Some(self.block(n, depth - 1))
                } else {
                    None
                };
                s(StmtKind::If { branches, orelse })
            }
            6 => {
                // A bounded loop: `while cK < N:` with the counter bumped first in the body.
                self.fresh += 1;
                let c = format!("c{}", self.fresh);
                let bound = self.pick(4);
                self.scope.push((c.clone(), Type::Int));
                self.loop_depth += 1;
                let n = 1 + self.pick(2) as usize;
                let mut body = vec![s(StmtKind::AugAssign {
                    target: id(&c),
                    op: BinOp::Add,
                    value: int(1),
                })];
                body.extend(self.block(n, depth - 1));
                self.loop_depth -= 1;
                let orelse = (self.pick(3) == 1).then(|| vec![s(StmtKind::Pass)]);
                let init = s(StmtKind::Assign {
                    target: id(&c),
                    ann: None,
                    value: int(0),
                });
                let cond = e(ExprKind::Compare {
                    first: Box::new(e(ExprKind::Name(c.clone()))),
                    rest: vec![(CmpOp::Lt, int(bound))],
                });
                // Emit the initialisation and the loop as one `if True:` block so a
                // statement slot stays one statement.
                s(StmtKind::If {
                    branches: vec![(
                        e(ExprKind::Bool(true)),
                        vec![
                            init,
                            s(StmtKind::While {
                                cond,
                                invariants: Vec::new(),
                                body,
                                orelse,
                            }),
                        ],
                    )],
                    orelse: None,
                })
            }
            7 => {
                let n = 1 + self.pick(2) as usize;
                let body = self.block(n, depth - 1);
                let classes = [
                    None,
                    Some("ZeroDivisionError"),
                    Some("ArithmeticError"),
                    Some("IndexError"),
                    Some("LookupError"),
                    Some("Exception"),
                ];
                let mut handlers = Vec::new();
                for _ in 0..1 + self.pick(2) {
                    let class = classes[1 + self.pick(5) as usize].map(id);
                    let n = 1 + self.pick(2) as usize;
                    handlers.push(Handler {
                        class,
                        body: self.block(n, depth - 1),
                        span: sp(),
                    });
                }
                if self.pick(3) == 2 {
                    handlers.push(Handler {
                        class: classes[0].map(id),
                        body: vec![s(StmtKind::Pass)],
                        span: sp(),
                    });
                }
                s(StmtKind::Try { body, handlers })
            }
            _ => {
                if self.loop_depth > 0 {
                    let c = self.expr(Type::Bool, 1);
                    let jump = if self.pick(2) == 0 {
                        StmtKind::Break
                    } else {
                        StmtKind::Continue
                    };
                    s(StmtKind::If {
                        branches: vec![(c, vec![s(jump)])],
                        orelse: None,
                    })
                } else if self.in_function {
                    let r = self.expr(Type::Int, 1);
                    let c = self.expr(Type::Bool, 1);
                    s(StmtKind::If {
                        branches: vec![(c, vec![s(StmtKind::Return(Some(r)))])],
                        orelse: None,
                    })
                } else {
                    s(StmtKind::Pass)
                }
            }
        }
    }

    fn expr(&mut self, ty: Type, depth: u32) -> Expr {
        match ty {
            Type::Int => self.int_expr(depth),
            Type::Bool => self.bool_expr(depth),
            Type::Tuple => self.tuple_expr(depth),
        }
    }

    fn int_expr(&mut self, depth: u32) -> Expr {
        let leaf = |g: &mut Self| match g.pick(3) {
            0 => int(g.pick(7)),
            1 => g
                .var_of(Type::Int)
                .map_or_else(|| int(2), |v| e(ExprKind::Name(v))),
            _ => int(g.pick(200)),
        };
        if depth == 0 {
            return leaf(self);
        }
        match self.pick(9) {
            0 | 1 => leaf(self),
            2 | 3 => {
                let op = [
                    BinOp::Add,
                    BinOp::Sub,
                    BinOp::Mul,
                    BinOp::FloorDiv,
                    BinOp::Mod,
                ][self.pick(5) as usize];
                let lhs = self.int_expr(depth - 1);
                let rhs = self.int_expr(depth - 1);
                e(ExprKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                })
            }
            4 => {
                let op = [UnaryOp::Neg, UnaryOp::Pos][self.pick(2) as usize];
                let operand = self.int_expr(depth - 1);
                e(ExprKind::Unary {
                    op,
                    operand: Box::new(operand),
                })
            }
            5 => {
                let base = self.tuple_expr(depth - 1);
                let index = self.int_expr(depth - 1);
                e(ExprKind::Index {
                    base: Box::new(base),
                    index: Box::new(index),
                })
            }
            6 => {
                let t = self.tuple_expr(depth - 1);
                call("len", vec![t])
            }
            7 => {
                let f = ["abs", "min", "max"][self.pick(3) as usize];
                let mut args = vec![self.int_expr(depth - 1)];
                if f != "abs" {
                    args.push(self.int_expr(depth - 1));
                }
                call(f, args)
            }
            _ => {
                if self.functions.is_empty() || self.in_function || self.in_quantifier > 0 {
                    return leaf(self);
                }
                let k = self.pick(self.functions.len() as u32) as usize;
                let (name, params) = self.functions[k].clone();
                let args = params.iter().map(|t| self.expr(*t, depth - 1)).collect();
                call(&name, args)
            }
        }
    }

    fn bool_expr(&mut self, depth: u32) -> Expr {
        let leaf = |g: &mut Self| match g.pick(2) {
            0 => e(ExprKind::Bool(g.pick(2) == 1)),
            _ => g
                .var_of(Type::Bool)
                .map_or_else(|| e(ExprKind::Bool(true)), |v| e(ExprKind::Name(v))),
        };
        if depth == 0 {
            return leaf(self);
        }
        let cmp = [
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Gt,
            CmpOp::Ge,
        ];
        match self.pick(7) {
            0 => leaf(self),
            1 | 2 => {
                let first = self.int_expr(depth - 1);
                let mut rest = Vec::new();
                for _ in 0..1 + self.pick(2) {
                    let op = cmp[self.pick(6) as usize];
                    rest.push((op, self.int_expr(depth - 1)));
                }
                e(ExprKind::Compare {
                    first: Box::new(first),
                    rest,
                })
            }
            3 => {
                let op = [CmpOp::Eq, CmpOp::Ne][self.pick(2) as usize];
                let a = self.tuple_expr(depth - 1);
                let b = self.tuple_expr(depth - 1);
                e(ExprKind::Compare {
                    first: Box::new(a),
                    rest: vec![(op, b)],
                })
            }
            4 => {
                let operand = self.bool_expr(depth - 1);
                e(ExprKind::Unary {
                    op: UnaryOp::Not,
                    operand: Box::new(operand),
                })
            }
            5 => {
                let op = [BoolOp::And, BoolOp::Or][self.pick(2) as usize];
                let lhs = self.bool_expr(depth - 1);
                let rhs = self.bool_expr(depth - 1);
                e(ExprKind::BoolOp {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                })
            }
            _ => {
                let kind = [Quantifier::All, Quantifier::Any][self.pick(2) as usize];
                let lo = (self.pick(2) == 1).then(|| Box::new(int(self.pick(3))));
                let hi = Box::new(self.int_expr(depth - 1));
                self.scope.push(("k".to_string(), Type::Int));
                self.in_quantifier += 1;
                let body = self.bool_expr(depth - 1);
                self.in_quantifier -= 1;
                self.scope.pop();
                e(ExprKind::Quantifier {
                    kind,
                    var: id("k"),
                    lo,
                    hi,
                    body: Box::new(body),
                })
            }
        }
    }

    fn tuple_expr(&mut self, depth: u32) -> Expr {
        match self.pick(if depth == 0 { 2 } else { 4 }) {
            0 => self
                .var_of(Type::Tuple)
                .map_or_else(|| e(ExprKind::Tuple(vec![])), |v| e(ExprKind::Name(v))),
            1 => {
                let n = self.pick(4);
                let items = (0..n)
                    .map(|_| self.int_expr(depth.saturating_sub(1)))
                    .collect();
                e(ExprKind::Tuple(items))
            }
            _ => {
                let a = self.tuple_expr(depth - 1);
                let b = self.tuple_expr(depth - 1);
                e(ExprKind::Binary {
                    op: BinOp::Add,
                    lhs: Box::new(a),
                    rhs: Box::new(b),
                })
            }
        }
    }
}

fn int(n: u32) -> Expr {
    e(ExprKind::Int(BigInt::from(n)))
}

fn call(name: &str, args: Vec<Expr>) -> Expr {
    e(ExprKind::Call {
        func: id(name),
        args,
    })
}
