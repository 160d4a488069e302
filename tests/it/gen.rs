//! A generator of random well-typed minipy programs for property tests.
//!
//! Programs are built from a sequence of choices (`Vec<u32>`) that proptest generates and
//! shrinks: every decision reads the next choice, and choice 0 (also what an exhausted
//! sequence yields) is always the simplest option. Shrinking the sequence therefore shrinks
//! the program: fewer statements, smaller expressions, literals toward 0.
//!
//! Every program terminates: loops are `while cK < N` (N ≤ 3) with the counter bumped first
//! in the body and never assigned elsewhere, functions only call functions defined before
//! them (no recursion). With the engine's default `--unroll 3` no path is cut by a bound.

use num_bigint::BigInt;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use symdbg::base::Span;
use symdbg::lang::*;

/// Proptest strategy: choice sequences of up to `len` entries. Each choice is one of 256
/// values in the top byte (what [`Gen::pick`] reads), so shrinking one takes 8 steps.
pub fn choices(len: usize) -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec((0u32..256).prop_map(|c| c << 24), 0..len)
}

/// Proptest strategy: random choice sequences of `len` entries as [`choices`] makes, with a
/// shrinker made for them ([`ChoiceTree`]). `analyse` is [`analyse`] with the generator's
/// options.
pub fn shrinking_choices(
    len: std::ops::Range<usize>,
    analyse: fn(&[u32]) -> Analysis,
) -> ShrinkingChoices {
    ShrinkingChoices { len, analyse }
}

/// What the generator read of a choice sequence.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// How many choices the program reads (the rest are irrelevant).
    pub used: usize,
    /// The choices each statement, function and expression read, longest first.
    pub spans: Vec<(usize, usize)>,
}

/// Run the generator on `choices` and say what it read.
pub fn analyse(choices: &[u32], options: Options) -> Analysis {
    let mut g = Gen::new(choices, options);
    g.program();
    let mut spans = g.spans;
    spans.sort_by_key(|&(a, b)| (std::cmp::Reverse(b - a), a));
    spans.dedup();
    Analysis {
        used: g.pos.min(choices.len()),
        spans,
    }
}

#[derive(Clone, Debug)]
pub struct ShrinkingChoices {
    len: std::ops::Range<usize>,
    analyse: fn(&[u32]) -> Analysis,
}

impl Strategy for ShrinkingChoices {
    type Tree = ChoiceTree;
    type Value = Vec<u32>;

    fn new_tree(
        &self,
        runner: &mut proptest::test_runner::TestRunner,
    ) -> proptest::strategy::NewTree<Self> {
        let v = proptest::collection::vec((0u32..256).prop_map(|c| c << 24), self.len.clone())
            .new_tree(runner)?
            .current();
        Ok(ChoiceTree {
            accepted: v.clone(),
            spans: Vec::new(),
            current: v,
            pass: 0,
            i: 0,
            progress: false,
            analyse: self.analyse,
        })
    }
}

/// The shrink passes, tried in order over the accepted (smallest failing) sequence and
/// repeated while any succeeds (as Hypothesis does). A single sweep of proptest's `Vec`
/// shrinker is not enough here: deleting one choice shifts the meaning of all later ones.
#[derive(Clone, Copy, Debug)]
enum Pass {
    /// Delete the choices of one statement, function or expression (a statement's span
    /// starts with its "one more" choice: deleting it drops exactly that statement).
    DeleteSpan,
    /// Zero the choices of one span: that part becomes the simplest of its kind.
    ZeroSpan,
    /// Delete `k` consecutive choices.
    Delete(usize),
    /// Set `k` consecutive choices to 0 (each sub-decision becomes the simplest option).
    Zero(usize),
    /// Halve one choice.
    Halve,
    /// Decrease one choice by one step.
    Decrement,
}

const PASSES: [Pass; 7] = [
    Pass::DeleteSpan,
    Pass::ZeroSpan,
    Pass::Zero(1),
    Pass::Delete(2),
    Pass::Delete(1),
    Pass::Halve,
    Pass::Decrement,
];

/// One step of a choice: [`Gen::pick`] reads the top byte.
const STEP: u32 = 1 << 24;

/// Greedy shrinker of a choice sequence. Proptest's protocol: `simplify` is called when
/// `current` failed (it becomes the accepted sequence) and proposes the next smaller
/// candidate; `complicate` is called when `current` passed (it is dropped) and proposes the
/// next candidate. With no candidate left, `current` is the accepted (minimal) sequence.
#[derive(Clone, Debug)]
pub struct ChoiceTree {
    accepted: Vec<u32>,
    /// [`Analysis::spans`] of `accepted`.
    spans: Vec<(usize, usize)>,
    current: Vec<u32>,
    pass: usize,
    i: usize,
    /// A candidate was accepted during this sweep over the passes.
    progress: bool,
    analyse: fn(&[u32]) -> Analysis,
}

impl ChoiceTree {
    fn next_candidate(&mut self) -> Option<Vec<u32>> {
        loop {
            if self.pass == PASSES.len() {
                if !self.progress {
                    return None;
                }
                self.progress = false;
                self.pass = 0;
                self.i = 0;
            }
            let a = &self.accepted;
            let positions = match PASSES[self.pass] {
                Pass::DeleteSpan | Pass::ZeroSpan => self.spans.len(),
                _ => a.len(),
            };
            if self.i >= positions {
                self.pass += 1;
                self.i = 0;
                continue;
            }
            let i = self.i;
            self.i += 1;
            let mut c = a.clone();
            match PASSES[self.pass] {
                Pass::DeleteSpan => {
                    let (start, end) = self.spans[i];
                    c.drain(start..end);
                }
                Pass::ZeroSpan => {
                    let (start, end) = self.spans[i];
                    if a[start..end].iter().all(|&x| x == 0) {
                        continue;
                    }
                    c[start..end].iter_mut().for_each(|x| *x = 0);
                }
                Pass::Delete(k) => {
                    if i + k > a.len() {
                        continue;
                    }
                    c.drain(i..i + k);
                }
                Pass::Zero(k) => {
                    if i + k > a.len() || a[i..i + k].iter().all(|&x| x == 0) {
                        continue;
                    }
                    c[i..i + k].iter_mut().for_each(|x| *x = 0);
                }
                Pass::Halve => {
                    if a[i] < 2 * STEP {
                        continue;
                    }
                    c[i] = (a[i] / STEP / 2) * STEP;
                }
                Pass::Decrement => {
                    if a[i] < STEP {
                        continue;
                    }
                    c[i] = a[i] - STEP;
                }
            }
            return Some(c);
        }
    }

    fn propose(&mut self) -> bool {
        match self.next_candidate() {
            Some(c) => {
                self.current = c;
                true
            }
            None => {
                self.current = self.accepted.clone();
                false
            }
        }
    }
}

impl ValueTree for ChoiceTree {
    type Value = Vec<u32>;

    fn current(&self) -> Vec<u32> {
        self.current.clone()
    }

    fn simplify(&mut self) -> bool {
        // `current` fails: accept it, without the choices its program does not read.
        if self.current != self.accepted {
            self.progress = true;
            // Go on with the same pass where it is (the earlier candidates of this sweep
            // failed; the next sweep retries them), at the same place: what was there
            // changed.
            self.i = self.i.saturating_sub(1);
        }
        let analysis = (self.analyse)(&self.current);
        self.current.truncate(analysis.used);
        self.spans = analysis.spans;
        self.accepted = self.current.clone();
        self.propose()
    }

    fn complicate(&mut self) -> bool {
        self.propose()
    }
}

/// What the generated programs may contain beyond Python.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// `assume e` statements (not Python: off for tests that run python3).
    pub assume: bool,
    /// `for` loops: over `range(...)` with one to three arguments (steps of either sign,
    /// sometimes zero or symbolic) and over tuples, with `break`/`continue`/`else`,
    /// assignments to the loop variable and reads of it after the loop.
    pub for_loops: bool,
}

/// Build a program from choices (plain Python: runs in python3 too).
pub fn program(choices: &[u32]) -> Program {
    program_with(choices, Options::default())
}

/// Build a program from choices with `options`.
pub fn program_with(choices: &[u32], options: Options) -> Program {
    Gen::new(choices, options).program()
}

struct Gen<'a> {
    choices: &'a [u32],
    pos: usize,
    scope: Vec<(String, Type)>,
    fresh: usize,
    loop_depth: usize,
    /// Inside a function: its return type.
    ret: Option<Type>,
    /// (name, parameter types, return type) of the functions defined so far.
    functions: Vec<(String, Vec<Type>, Type)>,
    /// Inside an `all`/`any` body: no calls of user functions there (the IR cannot hoist them).
    in_quantifier: u32,
    options: Options,
    /// (start, end) of the choices each statement, function and expression read.
    spans: Vec<(usize, usize)>,
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

impl<'a> Gen<'a> {
    fn new(choices: &'a [u32], options: Options) -> Self {
        Gen {
            choices,
            pos: 0,
            scope: Vec::new(),
            fresh: 0,
            loop_depth: 0,
            ret: None,
            functions: Vec::new(),
            in_quantifier: 0,
            options,
            spans: Vec::new(),
        }
    }

    /// One of `n` options. The mapping is monotone (a smaller choice never picks a later
    /// option), so shrinking a choice toward 0 moves toward the simplest option.
    fn pick(&mut self, n: u32) -> u32 {
        let c = self.choices.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        ((u64::from(c) * u64::from(n)) >> 32) as u32
    }

    fn program(&mut self) -> Program {
        let mut body = Vec::new();
        for (name, ty) in [
            ("x", Type::Int),
            ("y", Type::Int),
            ("t", Type::Tuple),
            ("b", Type::Bool),
        ] {
            // Choice 0 leaves the input out (shrunk programs declare only what they use).
            if self.pick(4) != 0 || name == "x" {
                body.push(s(StmtKind::Declare { name: id(name), ty }));
                self.scope.push((name.to_string(), ty));
            }
        }
        // Up to two functions, each preceded by a "one more" choice (0: no more), so a
        // function's choices form one span the shrinker can delete.
        for k in 0..2 {
            let start = self.pos;
            if self.pick(3) == 0 {
                break;
            }
            body.push(self.function(k));
            self.span(start);
        }
        let start = self.pos;
        let first = self.stmt(3);
        self.span(start);
        body.push(first);
        body.extend(self.block_items(5, 3));
        Program {
            body,
            preconditions: Vec::new(),
        }
    }

    fn function(&mut self, k: u32) -> Stmt {
        let name = format!("f{k}");
        let outer = std::mem::take(&mut self.scope);
        let params = vec![("a".to_string(), Type::Int), ("u".to_string(), Type::Tuple)];
        self.scope = params.clone();
        let ret_ty = [Type::Int, Type::Tuple, Type::Bool][self.pick(3) as usize];
        self.ret = Some(ret_ty);
        let mut body = self.block_items(2, 2);
        let ret = self.expr(ret_ty, 2);
        body.push(s(StmtKind::Return(Some(ret))));
        self.ret = None;
        self.scope = outer;
        self.functions
            .push((name.clone(), params.iter().map(|p| p.1).collect(), ret_ty));
        s(StmtKind::FunctionDef(FunctionDef {
            name: id(&name),
            params: params
                .into_iter()
                .map(|(n, ty)| Param { name: id(&n), ty })
                .collect(),
            ret: Some(ret_ty),
            body,
            predicate: false,
            contract: Default::default(),
        }))
    }

    /// Record the choices from `start` to here as one span (a statement or expression).
    fn span(&mut self, start: usize) {
        let end = self.pos.min(self.choices.len());
        if start < end {
            self.spans.push((start, end));
        }
    }

    /// Up to `max` statements, each preceded by a "one more" choice (0: no more), so each
    /// statement's choices form one span the shrinker can delete.
    fn block_items(&mut self, max: usize, depth: u32) -> Vec<Stmt> {
        let mut out = Vec::new();
        while out.len() < max {
            let start = self.pos;
            if self.pick(5) == 0 {
                break;
            }
            out.push(self.stmt(depth));
            self.span(start);
        }
        out
    }

    /// A block that may not run (a branch, loop body, `try` body or handler): the
    /// variables it introduces leave the scope afterwards, except when a choice says keep
    /// them (1 in 8), so later reads of possibly unassigned variables (NameError,
    /// UnboundLocalError) stay rare but possible.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = self.scope.len();
        let out = f(self);
        if self.pick(8) != 7 {
            self.scope.truncate(saved);
        }
        out
    }

    fn nested_block(&mut self, max: usize, depth: u32) -> Vec<Stmt> {
        self.nested(|g| g.block(max, depth))
    }

    /// A non-empty block: [`Gen::block_items`], or `pass`.
    fn block(&mut self, max: usize, depth: u32) -> Vec<Stmt> {
        let mut out = self.block_items(max, depth);
        if out.is_empty() {
            out.push(s(StmtKind::Pass));
        }
        out
    }

    fn var_of(&mut self, ty: Type) -> Option<String> {
        self.var_where(ty, |_| true)
    }

    /// A variable that may be assigned: not a loop counter (`cK`), so loops terminate.
    fn target_of(&mut self, ty: Type) -> Option<String> {
        self.var_where(ty, |n| !n.starts_with('c'))
    }

    fn var_where(&mut self, ty: Type, ok: impl Fn(&str) -> bool) -> Option<String> {
        let vars: Vec<String> = self
            .scope
            .iter()
            .filter(|(n, t)| *t == ty && ok(n))
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
        let options = match (depth, self.options.for_loops) {
            (0, _) => 4,
            (_, false) => 11,
            (_, true) => 14,
        };
        match self.pick(options) {
            11..=13 => self.for_stmt(depth),
            0 | 1 => {
                // Assignment to an existing variable or a new one.
                let ty = self.ty();
                let existing = match self.pick(2) {
                    0 => self.target_of(ty),
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
            2 => match self.target_of(Type::Int) {
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
                    branches.push((c, self.nested_block(2, depth - 1)));
                }
                let orelse = if self.pick(2) == 1 {
                    Some(self.nested_block(2, depth - 1))
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
                let mut body = vec![s(StmtKind::AugAssign {
                    target: id(&c),
                    op: BinOp::Add,
                    value: int(1),
                })];
                body.extend(self.nested(|g| g.block_items(2, depth - 1)));
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
                let body = self.nested_block(2, depth - 1);
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
                    handlers.push(Handler {
                        class,
                        body: self.nested_block(2, depth - 1),
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
            9 => {
                // A call as a statement (its result dropped), or `pass` without functions.
                if self.functions.is_empty() {
                    return s(StmtKind::Pass);
                }
                let k = self.pick(self.functions.len() as u32) as usize;
                let (name, params, _) = self.functions[k].clone();
                let args = params.iter().map(|t| self.expr(*t, 1)).collect();
                s(StmtKind::Expr(call(&name, args)))
            }
            10 if self.options.assume => {
                let c = self.expr(Type::Bool, 1);
                s(StmtKind::Assume(c))
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
                } else if let Some(ret) = self.ret {
                    let r = self.expr(ret, 1);
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

    /// `for iK in range(...)` or `for iK in <tuple>`: always finite. The loop variable may
    /// be assigned in the body (which does not change the iteration) and, 1 time in 8,
    /// stays in scope after the loop (read where zero iterations leave it unbound).
    fn for_stmt(&mut self, depth: u32) -> Stmt {
        let iter = if self.pick(2) == 0 {
            let small = |g: &mut Self| match g.pick(4) {
                0 => int(g.pick(4)),
                1 => e(ExprKind::Unary {
                    op: UnaryOp::Neg,
                    operand: Box::new(int(g.pick(4))),
                }),
                // Symbolic bounds; constants stay small (a constant loop is not cut by
                // `--unroll`).
                _ => g
                    .var_of(Type::Int)
                    .map_or_else(|| int(g.pick(5)), |v| e(ExprKind::Name(v))),
            };
            let n = 1 + self.pick(3);
            let mut args: Vec<Expr> = (0..n.min(2)).map(|_| small(self)).collect();
            if n == 3 {
                // Steps of both signs, sometimes zero (ValueError) or symbolic.
                let step = match self.pick(6) {
                    0 => int(1 + self.pick(2)),
                    1 => e(ExprKind::Unary {
                        op: UnaryOp::Neg,
                        operand: Box::new(int(1 + self.pick(2))),
                    }),
                    2 => int(0),
                    _ => self.int_expr(1),
                };
                args.push(step);
            }
            call("range", args)
        } else {
            self.tuple_expr(2)
        };
        self.fresh += 1;
        let var = format!("i{}", self.fresh);
        self.loop_depth += 1;
        let body = self.nested(|g| {
            g.scope.push((var.clone(), Type::Int));
            g.block(3, depth - 1)
        });
        self.loop_depth -= 1;
        let orelse = (self.pick(3) == 1).then(|| self.nested_block(2, depth - 1));
        s(StmtKind::For {
            target: id(&var),
            iter,
            invariants: Vec::new(),
            body,
            orelse,
        })
    }

    fn expr(&mut self, ty: Type, depth: u32) -> Expr {
        match ty {
            Type::Int => self.int_expr(depth),
            Type::Bool => self.bool_expr(depth),
            Type::Tuple => self.tuple_expr(depth),
        }
    }

    fn int_expr(&mut self, depth: u32) -> Expr {
        let start = self.pos;
        let x = self.int_expr_(depth);
        self.span(start);
        x
    }

    fn int_expr_(&mut self, depth: u32) -> Expr {
        // Variables half of the time: conditions on inputs make the interesting splits.
        let leaf = |g: &mut Self| match g.pick(4) {
            0 => int(g.pick(7)),
            1 | 2 => g
                .var_of(Type::Int)
                .map_or_else(|| int(2), |v| e(ExprKind::Name(v))),
            _ => int(g.pick(200)),
        };
        if depth == 0 {
            return leaf(self);
        }
        match self.pick(10) {
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
                // Mostly small indices (in range, or just past it), sometimes any int.
                let index = match self.pick(3) {
                    0 => int(self.pick(4)),
                    _ => self.int_expr(depth - 1),
                };
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
            8 => self.if_exp(Type::Int, depth),
            _ => self.call_of(Type::Int, depth).unwrap_or_else(|| leaf(self)),
        }
    }

    /// `a if c else b` (either side may raise: only the chosen one runs).
    fn if_exp(&mut self, ty: Type, depth: u32) -> Expr {
        let cond = self.bool_expr(depth - 1);
        let then = self.expr(ty, depth - 1);
        let orelse = self.expr(ty, depth - 1);
        e(ExprKind::IfExp {
            cond: Box::new(cond),
            then: Box::new(then),
            orelse: Box::new(orelse),
        })
    }

    /// A slice bound or step: small constants of either sign (in range, at the edges,
    /// past them), or any int expression.
    fn slice_part(&mut self, depth: u32) -> Option<Box<Expr>> {
        let part = match self.pick(4) {
            0 => return None,
            1 | 2 => {
                let k = self.pick(9) as i64 - 4;
                if k < 0 {
                    e(ExprKind::Unary {
                        op: UnaryOp::Neg,
                        operand: Box::new(int(-k as u32)),
                    })
                } else {
                    int(k as u32)
                }
            }
            _ => self.int_expr(depth.saturating_sub(1)),
        };
        Some(Box::new(part))
    }

    fn bool_expr(&mut self, depth: u32) -> Expr {
        let start = self.pos;
        let x = self.bool_expr_(depth);
        self.span(start);
        x
    }

    fn bool_expr_(&mut self, depth: u32) -> Expr {
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
        match self.pick(10) {
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
            7 => self
                .call_of(Type::Bool, depth)
                .unwrap_or_else(|| leaf(self)),
            8 => {
                // `x in t` / `x not in t`, the tuple often empty or a slice.
                let op = [CmpOp::In, CmpOp::NotIn][self.pick(2) as usize];
                let x = self.int_expr(depth - 1);
                let t = self.tuple_expr(depth - 1);
                e(ExprKind::Compare {
                    first: Box::new(x),
                    rest: vec![(op, t)],
                })
            }
            9 => self.if_exp(Type::Bool, depth),
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

    /// A call of a user function returning `ty` (defined before, so no recursion), or
    /// `None` where there is none or calls are not allowed (quantifier bodies).
    fn call_of(&mut self, ty: Type, depth: u32) -> Option<Expr> {
        let fs: Vec<(String, Vec<Type>)> = self
            .functions
            .iter()
            .filter(|f| f.2 == ty)
            .map(|f| (f.0.clone(), f.1.clone()))
            .collect();
        if fs.is_empty() || self.in_quantifier > 0 || depth == 0 {
            return None;
        }
        let (name, params) = fs[self.pick(fs.len() as u32) as usize].clone();
        let args = params.iter().map(|t| self.expr(*t, depth - 1)).collect();
        Some(call(&name, args))
    }

    fn tuple_expr(&mut self, depth: u32) -> Expr {
        let start = self.pos;
        let x = self.tuple_expr_(depth);
        self.span(start);
        x
    }

    fn tuple_expr_(&mut self, depth: u32) -> Expr {
        match self.pick(if depth == 0 { 2 } else { 7 }) {
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
            4 => self
                .call_of(Type::Tuple, depth)
                .unwrap_or_else(|| e(ExprKind::Tuple(vec![]))),
            5 => {
                let base = self.tuple_expr(depth - 1);
                let lo = self.slice_part(depth);
                let hi = self.slice_part(depth);
                // The step: none, ±1, ±2, 0 (ValueError) or any int.
                let step = match self.pick(6) {
                    0 => None,
                    1 => self.slice_part(depth),
                    k => Some(Box::new(match k {
                        2 => int(1),
                        3 => e(ExprKind::Unary {
                            op: UnaryOp::Neg,
                            operand: Box::new(int(1 + self.pick(2))),
                        }),
                        4 => int(2),
                        _ => int(0),
                    })),
                };
                e(ExprKind::Slice {
                    base: Box::new(base),
                    lo,
                    hi,
                    step,
                })
            }
            6 => self.if_exp(Type::Tuple, depth),
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
