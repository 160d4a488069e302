//! The tree-walking interpreter: statements, expressions, calls and frames.
//!
//! Control flow that leaves a statement early (break, continue, return, exceptions, and
//! the verification outcomes halt/infeasible, and the step limit) travels as
//! `Err(Abrupt)` through the Rust call stack, so `?` propagates it and each construct
//! catches exactly what it handles. Operator rules come from [`crate::semantics`].
//! This file holds frames and statements; `eval.rs` expressions and calls.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

use num_bigint::BigInt;

use super::names::assigned_names;
use super::{Config, Value, TRACE_LIMIT};
use crate::base::ExcClass;
use crate::base::Span;
use crate::lang::ast::*;
use crate::lang::TypeInfo;
use crate::semantics;

/// Expressions and calls (the rest of `impl Interp`).
mod eval;
/// `for` loops.
mod for_loop;

/// Why a statement or expression did not complete normally.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Abrupt {
    Break(Span),
    Continue(Span),
    Return(Option<Value>, Span),
    /// A Python exception and the statement where it was raised.
    Exception(ExcClass, Span),
    /// A loop invariant failed (or raised while evaluated) at the `invariant` line: a
    /// verification verdict, not an exception of the program, so no `except` catches it.
    Invariant(ExcClass, Span),
    /// A loop scope's invariant held at `continue`: the run ends successfully.
    Halt,
    /// An `assume` did not hold: the run is not a real execution.
    Infeasible,
    StepLimit,
    /// `break`/`continue` that left a function, `return` that left the module: programs
    /// the type checker rejects; reported as a diagnostic, never executed further.
    Stray(&'static str, Span),
}

/// The longest tuple a run may build (4 Mi elements, about 150 MiB).
pub(crate) const MAX_TUPLE_LEN: usize = 1 << 22;

/// The most output a run may print (16 MiB).
pub(crate) const MAX_STDOUT: usize = 16 << 20;

/// The largest int a run may compute (see [`crate::semantics::MAX_INT_BITS`]).
pub(crate) use crate::semantics::MAX_INT_BITS;

type Exec = Result<(), Abrupt>;
type Eval = Result<Value, Abrupt>;

/// One activation: the module (`func == None`, its variables are the globals) or a call.
struct Frame<'p> {
    func: Option<&'p FunctionDef>,
    locals: BTreeMap<String, Value>,
    /// The names that are local to `func` (parameters and assigned names).
    local_names: Rc<BTreeSet<String>>,
    /// Variables of the `all`/`any` bodies being evaluated, innermost last.
    quant: Vec<(&'p str, BigInt)>,
    /// While a `for` loop's invariant is evaluated: the name of the loop's position and
    /// its value (shadowed by quantifier variables, shadowing the frame's variables).
    pos: Option<(String, BigInt)>,
}

pub(crate) struct Interp<'p> {
    program: &'p Program,
    info: &'p TypeInfo,
    config: &'p Config,
    pub(crate) globals: BTreeMap<String, Value>,
    /// Functions whose `def` has run.
    funcs: HashMap<&'p str, &'p FunctionDef>,
    locals_of: HashMap<&'p str, Rc<BTreeSet<String>>>,
    frames: Vec<Frame<'p>>,
    steps: u64,
    /// Evaluations in progress (see `eval.rs`).
    native_depth: u32,
    pub(crate) trace: Vec<Span>,
    /// What the run's `print`s wrote, as CPython writes it to stdout.
    pub(crate) stdout: String,
    /// The statement being executed: where an exception raised now is reported.
    cur: Span,
    /// The traceback of the exception propagating now, innermost frame first: filled as it
    /// leaves frames ([`Interp::unwound`]), emptied when a handler catches it.
    pub(crate) traceback: Vec<super::TracebackFrame>,
    /// The locals of the frame that raised it (a function's; `None` for module code).
    pub(crate) raising_locals: Option<BTreeMap<String, Value>>,
    /// Evaluating an `assume` condition: a formula, in which a `@predicate` means its
    /// formula even before its `def` ran (as the engine reads it), e.g. in an `--assume`
    /// precondition that runs before the module's first statement.
    formula: bool,
    /// The contract line whose failure ended the run (an [`Abrupt::Invariant`] or, at
    /// the entry call, [`Abrupt::Infeasible`]), if one did.
    pub(crate) contract_failure: Option<ContractFailure>,
    /// The next `call_user` is the entry call of an entry run.
    entering: bool,
    /// See [`super::RunResult::contract_calls`].
    pub(crate) contract_calls: Vec<super::ContractCall>,
    /// Frames of contracted functions on the stack (the entry call's aside).
    pub(super) contracted_frames: u32,
}

impl<'p> Interp<'p> {
    pub(crate) fn new(program: &'p Program, info: &'p TypeInfo, config: &'p Config) -> Self {
        Interp {
            program,
            info,
            config,
            globals: BTreeMap::new(),
            funcs: HashMap::new(),
            locals_of: HashMap::new(),
            frames: vec![Frame {
                func: None,
                locals: BTreeMap::new(),
                local_names: Rc::default(),
                quant: Vec::new(),
                pos: None,
            }],
            steps: 0,
            native_depth: 0,
            trace: Vec::new(),
            stdout: String::new(),
            cur: Span::default(),
            traceback: Vec::new(),
            raising_locals: None,
            formula: false,
            contract_failure: None,
            entering: false,
            contract_calls: Vec::new(),
            contracted_frames: 0,
        }
    }

    /// An exception (or invariant failure) raised at `raised` leaves the frame of `func`
    /// (locals `locals`), called at `call`: the traceback gains that frame (the first time:
    /// the raising frame, at `raised`) and the caller's frame at the call.
    fn unwound(&mut self, func: &str, locals: &BTreeMap<String, Value>, raised: Span, call: Span) {
        if self.traceback.is_empty() {
            self.traceback.push(super::TracebackFrame {
                function: Some(func.to_string()),
                at: raised,
            });
            self.raising_locals = Some(locals.clone());
        }
        let caller = self.frame().func.map(|f| f.name.name.clone());
        self.traceback.push(super::TracebackFrame {
            function: caller,
            at: call,
        });
    }

    /// Call a function whose `def` has run (the entry of an entry run). Returns the result
    /// and the callee's locals at the end.
    pub(crate) fn call_entry(
        &mut self,
        name: &str,
        args: Vec<Value>,
    ) -> (Result<Option<Value>, Abrupt>, BTreeMap<String, Value>) {
        match self.funcs.get(name).copied() {
            Some(f) => {
                let program = self.program;
                self.entering = true;
                let called = self.call_user(f, args, self.cur, &program.preconditions);
                // The entry function is the outermost frame of a traceback: its caller
                // (`module.f(args)`) is outside the program.
                if self.traceback.len() > 1 {
                    self.traceback.pop();
                }
                called
            }
            None => (self.raise(ExcClass::NameError), BTreeMap::new()),
        }
    }

    // ---- helpers -------------------------------------------------------------------------

    fn frame(&self) -> &Frame<'p> {
        self.frames
            .last()
            .expect("the module frame is never popped")
    }

    fn frame_mut(&mut self) -> &mut Frame<'p> {
        self.frames
            .last_mut()
            .expect("the module frame is never popped")
    }

    fn raise<T>(&self, class: ExcClass) -> Result<T, Abrupt> {
        Err(Abrupt::Exception(class, self.cur))
    }

    /// Raise at the expression `at`: where CPython 3.11's traceback marks the error (the
    /// operator's whole expression, the subscript, the call, the name).
    fn raise_at<T>(&self, class: ExcClass, at: Span) -> Result<T, Abrupt> {
        Err(Abrupt::Exception(class, at))
    }

    /// Count `n` units of work; past `config.max_steps` the run stops.
    fn tick(&mut self, n: u64) -> Exec {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.config.max_steps {
            return Err(Abrupt::StepLimit);
        }
        Ok(())
    }

    /// Start executing the statement (or guard / handler line) at `span`.
    fn at(&mut self, span: Span) -> Exec {
        self.tick(1)?;
        self.cur = span;
        if self.trace.len() < TRACE_LIMIT {
            self.trace.push(span);
        }
        Ok(())
    }

    /// Write one line of `print`'s output: the values' `str`s joined by spaces, then a
    /// newline. One unit of work per 64 bytes; output past [`MAX_STDOUT`] ends the run
    /// like the step limit, so memory stays bounded.
    fn print(&mut self, values: &[Value]) -> Exec {
        let line = semantics::print_line(values.iter().map(|v| v.to_string()));
        self.tick(line.len() as u64 / 64)?;
        if self.stdout.len() + line.len() > MAX_STDOUT {
            return Err(Abrupt::StepLimit);
        }
        self.stdout.push_str(&line);
        Ok(())
    }

    /// Charge for a big result: one unit per 64 bits. An int longer than [`MAX_INT_BITS`]
    /// ends the run like the step limit, so time and memory stay bounded.
    fn charge_int(&mut self, i: &BigInt) -> Exec {
        if i.bits() > MAX_INT_BITS {
            return Err(Abrupt::StepLimit);
        }
        let words = i.bits() / 64;
        if words > 0 {
            self.tick(words)?;
        }
        Ok(())
    }

    /// Charge for building a tuple of `len` elements (appending one by one stays cheap
    /// enough for tuples of thousands of elements). A tuple longer than
    /// [`MAX_TUPLE_LEN`] ends the run like the step limit, so memory stays bounded.
    fn charge_tuple(&mut self, len: usize) -> Exec {
        if len > MAX_TUPLE_LEN {
            return Err(Abrupt::StepLimit);
        }
        self.tick(len as u64 / 16)
    }

    fn assign(&mut self, name: &str, v: Value) {
        let frame = self.frame_mut();
        if frame.func.is_some() {
            frame.locals.insert(name.to_string(), v);
        } else {
            self.globals.insert(name.to_string(), v);
        }
    }

    fn lookup(&self, name: &str, at: Span) -> Eval {
        let frame = self.frame();
        if let Some((_, v)) = frame.quant.iter().rev().find(|(n, _)| *n == name) {
            return Ok(Value::Int(v.clone()));
        }
        if let Some((_, v)) = frame.pos.as_ref().filter(|(n, _)| n == name) {
            return Ok(Value::Int(v.clone()));
        }
        if frame.func.is_some() && frame.local_names.contains(name) {
            return match frame.locals.get(name) {
                Some(v) => Ok(v.clone()),
                // Inside a generator expression an unbound local of the enclosing function
                // is a free variable: CPython raises NameError there.
                None if frame.quant.is_empty() => self.raise_at(ExcClass::UnboundLocalError, at),
                None => self.raise_at(ExcClass::NameError, at),
            };
        }
        match self.globals.get(name) {
            Some(v) => Ok(v.clone()),
            None => self.raise_at(ExcClass::NameError, at),
        }
    }

    fn is_bound(&self, name: &str) -> bool {
        let frame = self.frame();
        if frame.func.is_some() {
            frame.locals.contains_key(name)
        } else {
            self.globals.contains_key(name)
        }
    }

    /// The declared type of a variable in the current scope (for `havoc` of an unbound name).
    fn declared_type(&self, name: &str) -> Type {
        let func = self.frame().func;
        if let Some(f) = func {
            if let Some(p) = f.params.iter().find(|p| p.name.name == name) {
                return p.ty;
            }
            if let Some(ty) = self.info.locals.get(&f.name.name).and_then(|l| l.get(name)) {
                return *ty;
            }
            return annotated_type(&f.body, name).unwrap_or(Type::Int);
        }
        if let Some(ty) = self.info.globals.get(name) {
            return *ty;
        }
        annotated_type(&self.program.body, name).unwrap_or(Type::Int)
    }

    fn locals_of(&mut self, f: &'p FunctionDef) -> Rc<BTreeSet<String>> {
        self.locals_of
            .entry(f.name.name.as_str())
            .or_insert_with(|| {
                let mut names = assigned_names(&f.body);
                names.extend(f.params.iter().map(|p| p.name.name.clone()));
                if !f.contract.ensures.is_empty() {
                    names.insert(RESULT.to_string());
                }
                Rc::new(names)
            })
            .clone()
    }

    // ---- statements ----------------------------------------------------------------------

    pub(crate) fn exec_block(&mut self, block: &'p [Stmt]) -> Exec {
        for s in block {
            self.exec_stmt(s)?;
        }
        Ok(())
    }

    fn exec_stmt(&mut self, s: &'p Stmt) -> Exec {
        match &s.kind {
            StmtKind::Declare { .. } | StmtKind::Pass => self.at(s.span),
            StmtKind::Assign { target, value, .. } => {
                self.at(s.span)?;
                let v = self.eval(value)?;
                self.assign(&target.name, v);
                Ok(())
            }
            StmtKind::AugAssign { target, op, value } => {
                self.at(s.span)?;
                // CPython marks the whole statement for the operation of `x //= e`.
                let old = self.lookup(&target.name, target.span)?;
                let rhs = self.eval(value)?;
                let v = self.binary(*op, old, rhs, s.span)?;
                self.assign(&target.name, v);
                Ok(())
            }
            StmtKind::Expr(e) => {
                self.at(s.span)?;
                match &e.kind {
                    // A procedure call returns nothing; any call's result is dropped here.
                    ExprKind::Call { func, args } => self.call(func, args, e.span).map(drop),
                    _ => self.eval(e).map(drop),
                }
            }
            StmtKind::Print(args) => {
                self.at(s.span)?;
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a)?);
                }
                self.print(&values)
            }
            StmtKind::Break => {
                self.at(s.span)?;
                Err(Abrupt::Break(s.span))
            }
            StmtKind::Continue => {
                self.at(s.span)?;
                Err(Abrupt::Continue(s.span))
            }
            StmtKind::Return(e) => {
                self.at(s.span)?;
                let v = match e {
                    Some(e) => Some(self.eval(e)?),
                    None => None,
                };
                Err(Abrupt::Return(v, s.span))
            }
            StmtKind::Assert(e) => {
                self.at(s.span)?;
                if self.eval_bool(e)? {
                    Ok(())
                } else {
                    self.raise_at(
                        ExcClass::AssertionError,
                        semantics::assert_position(e, s.span),
                    )
                }
            }
            StmtKind::If { branches, orelse } => {
                for (k, (cond, body)) in branches.iter().enumerate() {
                    // `elif` guards are their own line, as in CPython's line events.
                    self.at(if k == 0 { s.span } else { cond.span })?;
                    if self.eval_bool(cond)? {
                        return self.exec_block(body);
                    }
                }
                match orelse {
                    Some(body) => self.exec_block(body),
                    None => Ok(()),
                }
            }
            StmtKind::While {
                cond,
                invariants,
                body,
                orelse,
            } => self.exec_while(s.span, cond, invariants, body, orelse.as_deref()),
            StmtKind::For {
                target,
                iter,
                invariants,
                body,
                orelse,
            } => self.exec_for(s.span, target, iter, invariants, body, orelse.as_deref()),
            StmtKind::Try { body, handlers } => {
                self.at(s.span)?;
                match self.exec_block(body) {
                    Err(Abrupt::Exception(class, at)) => self.handle(class, at, handlers),
                    other => other,
                }
            }
            StmtKind::FunctionDef(f) => {
                self.at(s.span)?;
                self.funcs.insert(f.name.name.as_str(), f);
                Ok(())
            }
            StmtKind::Havoc(x) => {
                // One legal choice of "any value": keep the current one.
                self.at(s.span)?;
                if !self.is_bound(&x.name) {
                    let v = Value::default_of(self.declared_type(&x.name));
                    self.assign(&x.name, v);
                }
                Ok(())
            }
            StmtKind::Assume(e) => {
                self.at(s.span)?;
                let outer = std::mem::replace(&mut self.formula, true);
                let holds = self.eval_bool(e);
                self.formula = outer;
                if holds? {
                    Ok(())
                } else {
                    Err(Abrupt::Infeasible)
                }
            }
            StmtKind::MethodFrame { result, body } => {
                self.at(s.span)?;
                match self.exec_block(body) {
                    Err(Abrupt::Return(Some(v), _)) => {
                        self.assign(&result.name, v);
                        Ok(())
                    }
                    Err(Abrupt::Return(None, _)) => Ok(()),
                    other => other,
                }
            }
            StmtKind::LoopScope { inv, body } => {
                self.at(s.span)?;
                match self.exec_block(body) {
                    Ok(()) | Err(Abrupt::Break(_)) => Ok(()),
                    Err(Abrupt::Continue(_)) => {
                        self.cur = inv.span;
                        self.check_invariant(inv)?;
                        Err(Abrupt::Halt)
                    }
                    Err(other) => Err(other),
                }
            }
        }
    }

    fn exec_while(
        &mut self,
        span: Span,
        cond: &'p Expr,
        invariants: &'p [Expr],
        body: &'p [Stmt],
        orelse: Option<&'p [Stmt]>,
    ) -> Exec {
        loop {
            for inv in invariants {
                self.at(inv.span)?;
                self.check_invariant(inv)?;
            }
            self.at(span)?;
            if !self.eval_bool(cond)? {
                return match orelse {
                    Some(b) => self.exec_block(b),
                    None => Ok(()),
                };
            }
            match self.exec_block(body) {
                Ok(()) | Err(Abrupt::Continue(_)) => {}
                Err(Abrupt::Break(_)) => return Ok(()),
                Err(other) => return Err(other),
            }
        }
    }

    /// Check one invariant line (the current position is its span): false, or an exception
    /// while evaluating it, is an invariant failure ([`Abrupt::Invariant`]).
    fn check_invariant(&mut self, inv: &'p Expr) -> Exec {
        match self.eval_bool(inv) {
            Ok(true) => Ok(()),
            Ok(false) => Err(Abrupt::Invariant(ExcClass::AssertionError, inv.span)),
            Err(Abrupt::Exception(class, at)) => Err(Abrupt::Invariant(class, at)),
            Err(other) => Err(other),
        }
    }

    /// Check a function's contract lines of one kind in its frame (`result` bound for
    /// `ensures`). A false line, or one that raises, is a contract failure: uncatchable
    /// like an invariant's ([`Abrupt::Invariant`] at the line), or at the entry call, whose
    /// caller is outside the program, a false `requires` means the call is not one the
    /// contract covers: the run is infeasible, as with `--assume`.
    fn check_contract(&mut self, f: &'p FunctionDef, clause: Clause, entry: bool) -> Exec {
        let lines = match clause {
            Clause::Requires => &f.contract.requires,
            Clause::Ensures => &f.contract.ensures,
        };
        for e in lines {
            self.at(e.span)?;
            let outer = std::mem::replace(&mut self.formula, true);
            let checked = self.check_invariant(e);
            self.formula = outer;
            if let Err(Abrupt::Invariant(..)) = checked {
                self.contract_failure = Some(ContractFailure {
                    clause,
                    function: f.name.name.clone(),
                });
                if entry && clause == Clause::Requires {
                    return Err(Abrupt::Infeasible);
                }
            }
            checked?;
        }
        Ok(())
    }

    /// The `except` clauses of a `try` whose body raised `class` at `at`.
    fn handle(&mut self, class: ExcClass, at: Span, handlers: &'p [Handler]) -> Exec {
        // Caught, the exception's traceback is gone; raised on, it is kept.
        let traceback = std::mem::take(&mut self.traceback);
        let raising_locals = self.raising_locals.take();
        for h in handlers {
            self.at(h.span)?;
            let catches = match &h.class {
                None => true,
                Some(name) => match ExcClass::from_name(&name.name) {
                    Some(c) => class.is_subclass_of(c),
                    // CPython evaluates the class name only when it gets there.
                    None => return self.raise(ExcClass::NameError),
                },
            };
            if catches {
                return self.exec_block(&h.body);
            }
        }
        self.traceback = traceback;
        self.raising_locals = raising_locals;
        Err(Abrupt::Exception(class, at))
    }
}

/// The type a block gives `name` by an annotated assignment or a declaration, if any.
fn annotated_type(body: &[Stmt], name: &str) -> Option<Type> {
    body.iter().find_map(|s| match &s.kind {
        StmtKind::Declare { name: n, ty } if n.name == name => Some(*ty),
        StmtKind::Assign {
            target,
            ann: Some(ty),
            ..
        } if target.name == name => Some(*ty),
        _ => None,
    })
}
