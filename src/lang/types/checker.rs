//! The checking walk: statements and expressions, scope by scope.

use std::collections::BTreeMap;

use super::scope::{self, Scope};
use super::{Signature, TypeInfo};
use crate::base::ExcClass;
use crate::base::Span;
use crate::diagnostics::Diagnostic;
use crate::lang::ast::{
    for_index_name, range_args, BinOp, Expr, ExprKind, FunctionDef, Ident, Program, Stmt, StmtKind,
    Type, BUILTINS,
};

/// `requires`/`ensures` lines.
mod contract;
mod expr;
mod hints;
mod standalone;

pub(super) use standalone::check_expr;

use hints::{a, mismatch, show, similar};

use crate::lang::ast::RESERVED;

pub(super) fn check_program(program: &Program) -> Result<TypeInfo, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let functions = signatures(program, &mut diags);

    let mut module_sites = Vec::new();
    scope::collect(&program.body, &mut module_sites);
    let globals = scope::solve(&module_sites, None, &functions);

    let mut ck = Checker {
        functions: &functions,
        globals: &globals,
        diags,
    };
    ck.binding_names(&module_sites, None);
    ck.duplicate_inputs(program);
    let mut cx = Cx::new(None, &globals);
    ck.block(&mut cx, &program.body);
    ck.finish_scope(cx);

    let mut locals = BTreeMap::new();
    for f in program.functions() {
        if locals.contains_key(&f.name.name) {
            continue; // a duplicate definition, already reported
        }
        let sites = scope::function_sites(f);
        let scope = scope::solve(&sites, Some(&globals), &functions);
        ck.binding_names(&sites, Some(f));
        ck.function(f, &scope);
        let types = scope
            .vars
            .iter()
            .filter_map(|(n, t)| Some((n.clone(), (*t)?)))
            .collect();
        locals.insert(f.name.name.clone(), types);
    }

    let mut diags = ck.diags;
    if diags.is_empty() {
        let globals = globals
            .vars
            .iter()
            .filter_map(|(n, t)| Some((n.clone(), (*t)?)))
            .collect();
        Ok(TypeInfo {
            globals,
            functions,
            locals,
        })
    } else {
        diags.sort_by_key(|d| d.span.map(|s| (s.start, s.end)));
        Err(diags)
    }
}

/// The signatures of the top-level functions, reporting bad names and duplicates.
fn signatures(program: &Program, diags: &mut Vec<Diagnostic>) -> BTreeMap<String, Signature> {
    let mut functions = BTreeMap::new();
    for f in program.functions() {
        let name = &f.name.name;
        if BUILTINS.contains(&name.as_str()) || RESERVED.contains(&name.as_str()) {
            diags.push(
                Diagnostic::error(
                    format!("`{name}` is a builtin name and cannot be redefined"),
                    f.name.span,
                )
                .with_label("redefines a builtin")
                .with_note("help: choose another name for the function"),
            );
        }
        if functions.contains_key(name) {
            diags.push(
                Diagnostic::error(
                    format!("the name `{name}` is defined multiple times"),
                    f.name.span,
                )
                .with_label(format!("`{name}` redefined here"))
                .with_note("note: a function may only be defined once in minipy"),
            );
            continue;
        }
        let mut params: Vec<(String, Type)> = Vec::new();
        for p in &f.params {
            if params.iter().any(|(n, _)| *n == p.name.name) {
                diags.push(
                    Diagnostic::error(
                        format!(
                            "identifier `{}` is bound more than once in the parameters of `{name}`",
                            p.name.name
                        ),
                        p.name.span,
                    )
                    .with_label("used as a parameter more than once"),
                );
            }
            params.push((p.name.name.clone(), p.ty));
        }
        functions.insert(
            name.clone(),
            Signature {
                params,
                ret: f.ret,
                predicate: f.predicate,
            },
        );
    }
    functions
}

/// Per-scope state of the walk.
struct Cx<'a> {
    /// The function whose body is checked; `None` at module level.
    func: Option<&'a FunctionDef>,
    /// The variables of this scope (the module's at module level).
    scope: &'a Scope,
    /// Block nesting depth within the scope (0: top level of the module / function body).
    depth: usize,
    /// Enclosing loops (`while` bodies, loop scopes) within the scope.
    loops: usize,
    /// Enclosing method frames: the type of each one's result variable.
    frames: Vec<Option<Type>>,
    /// Quantifier variables in scope (innermost last).
    quantified: Vec<String>,
    /// Names read but never defined: first use, and the types their uses suggest.
    undeclared: Vec<(String, Span, Vec<Type>)>,
    /// Diagnostics count when the scope started.
    errors_at_start: usize,
}

impl<'a> Cx<'a> {
    fn new(func: Option<&'a FunctionDef>, scope: &'a Scope) -> Cx<'a> {
        Cx {
            func,
            scope,
            depth: 0,
            loops: 0,
            frames: Vec::new(),
            quantified: Vec::new(),
            undeclared: Vec::new(),
            errors_at_start: 0,
        }
    }

    fn predicate(&self) -> Option<&'a FunctionDef> {
        self.func.filter(|f| f.predicate)
    }
}

/// What a name refers to where it is read.
enum Lookup {
    Var(Option<Type>),
    Function,
    Builtin,
    Missing,
}

struct Checker<'a> {
    functions: &'a BTreeMap<String, Signature>,
    globals: &'a Scope,
    diags: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn err(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    // ----- scopes ---------------------------------------------------------------------

    /// Check a top-level function: its body, its return and the predicate rules.
    fn function(&mut self, f: &FunctionDef, scope: &Scope) {
        let mut cx = Cx::new(Some(f), scope);
        cx.errors_at_start = self.diags.len();
        let name = &f.name.name;
        if f.predicate {
            if f.ret != Some(Type::Bool) {
                self.err(
                    Diagnostic::error(
                        format!("predicate `{name}` must return `bool`"),
                        f.name.span,
                    )
                    .with_label("declared with `@predicate`")
                    .with_note("help: write `-> bool` after the parameters"),
                );
            }
            if !matches!(
                f.body.as_slice(),
                [Stmt {
                    kind: StmtKind::Return(Some(_)),
                    ..
                }]
            ) {
                let span = f.body.first().map_or(f.name.span, |s| s.span);
                self.err(
                    Diagnostic::error(
                        format!(
                            "the body of predicate `{name}` must be a single `return` statement"
                        ),
                        span,
                    )
                    .with_label("expected `return <condition>`")
                    .with_note(
                        "note: a predicate is a formula: `@predicate def p(...) -> bool: return e`",
                    ),
                );
            }
        }
        self.contract(&mut cx, f);
        self.block(&mut cx, &f.body);
        // (A predicate's body is a single `return`, checked above.)
        if let Some(t) = f.ret.filter(|_| !f.predicate) {
            if !always_returns(&f.body) {
                self.err(
                    Diagnostic::error(format!("missing return at end of `{name}`"), f.name.span)
                        .with_label(format!(
                            "`{name}` returns `{t}`, but the end of its body is reachable"
                        ))
                        .with_note(format!(
                            "help: end every path through `{name}` with `return <{t}>`"
                        )),
                );
            }
        }
        self.finish_scope(cx);
    }

    /// Report the undeclared names of a scope, and variables whose type is unknown.
    fn finish_scope(&mut self, cx: Cx<'_>) {
        for (name, span, hints) in &cx.undeclared {
            let guess = if hints.contains(&Type::Tuple) {
                Type::Tuple
            } else {
                hints.first().copied().unwrap_or(Type::Int)
            };
            let mut d =
                Diagnostic::error(format!("cannot find value `{name}` in this scope"), *span)
                    .with_label("not found in this scope");
            let mut candidates: Vec<&str> = cx.scope.vars.keys().map(String::as_str).collect();
            if cx.func.is_some() {
                candidates.extend(self.globals.vars.keys().map(String::as_str));
            }
            if let Some(s) = similar(name, candidates) {
                d = d.with_note(format!(
                    "help: a variable with a similar name exists: `{s}`"
                ));
            }
            d = match cx.func {
                None => d.with_note(format!("help: declare it as an input: `{name}: {guess}`")),
                Some(f) => d.with_note(format!(
                    "help: add a parameter `{name}: {guess}` to `{}`",
                    f.name.name
                )),
            };
            self.err(d);
        }
        if self.diags.len() == cx.errors_at_start {
            for (name, t) in &cx.scope.vars {
                if t.is_none() {
                    self.err(
                        Diagnostic::error(
                            format!("cannot infer the type of `{name}`"),
                            cx.scope.first_site[name],
                        )
                        .with_label("no assignment to this variable has a value of known type")
                        .with_note(format!("help: annotate it: `{name}: int = ...`")),
                    );
                }
            }
        }
    }

    /// Names bound in a scope must not be builtins or functions; parameters are checked
    /// here too.
    fn binding_names(&mut self, sites: &[scope::Site<'_>], func: Option<&FunctionDef>) {
        let mut seen = std::collections::BTreeSet::new();
        for site in sites {
            let name = &site.name.name;
            if !seen.insert(name.as_str()) {
                continue;
            }
            if BUILTINS.contains(&name.as_str()) || RESERVED.contains(&name.as_str()) {
                self.err(
                    Diagnostic::error(
                        format!("`{name}` is a builtin name and cannot be used as a variable"),
                        site.name.span,
                    )
                    .with_label("shadows a builtin")
                    .with_note("help: choose another name for the variable"),
                );
            } else if self.functions.contains_key(name) {
                self.err(
                    Diagnostic::error(
                        format!("`{name}` is a function and cannot be used as a variable"),
                        site.name.span,
                    )
                    .with_label(format!("`{name}` is defined as a function"))
                    .with_note("help: choose another name for the variable"),
                );
            } else if let (Some(f), scope::SiteKind::Aug { .. } | scope::SiteKind::Havoc) =
                (func, &site.kind)
            {
                let local = sites
                    .iter()
                    .any(|s| s.name.name == *name && s.kind.defines());
                if !local && self.globals.defines(name) {
                    let what = match site.kind {
                        scope::SiteKind::Havoc => "havoc",
                        _ => "assign to",
                    };
                    self.err(
                        Diagnostic::error(
                            format!(
                                "cannot {what} module variable `{name}` inside function `{}`",
                                f.name.name
                            ),
                            site.name.span,
                        )
                        .with_label("module variable")
                        .with_note(
                            "note: functions may read module variables but never assign them; \
                             return the new value instead",
                        ),
                    );
                }
            }
        }
    }

    /// Each input may be declared once.
    fn duplicate_inputs(&mut self, program: &Program) {
        let mut seen: BTreeMap<&str, Type> = BTreeMap::new();
        for (name, ty) in program.inputs() {
            match seen.get(name.name.as_str()) {
                // Different types are reported by `declare`.
                Some(first) if *first == ty => self.err(
                    Diagnostic::error(
                        format!("the input `{}` is declared more than once", name.name),
                        name.span,
                    )
                    .with_label("declared again here"),
                ),
                Some(_) => {}
                None => {
                    seen.insert(&name.name, ty);
                }
            }
        }
    }

    // ----- statements -----------------------------------------------------------------

    fn block(&mut self, cx: &mut Cx<'_>, stmts: &[Stmt]) {
        for s in stmts {
            self.stmt(cx, s);
        }
    }

    fn nested(&mut self, cx: &mut Cx<'_>, stmts: &[Stmt], loop_body: bool) {
        cx.depth += 1;
        cx.loops += usize::from(loop_body);
        self.block(cx, stmts);
        cx.loops -= usize::from(loop_body);
        cx.depth -= 1;
    }

    fn stmt(&mut self, cx: &mut Cx<'_>, s: &Stmt) {
        match &s.kind {
            StmtKind::Declare { name, ty } => self.declare(cx, name, *ty),
            StmtKind::Assign { target, ann, value } => self.assign(cx, target, *ann, value),
            StmtKind::AugAssign { target, op, value } => self.aug_assign(cx, target, *op, value),
            StmtKind::Expr(e) => {
                if let ExprKind::Call { func, args } = &e.kind {
                    self.call(cx, e, func, args, true);
                } else {
                    self.expr(cx, e, None);
                }
            }
            StmtKind::Print(args) => {
                for a in args {
                    self.expr(cx, a, None);
                }
            }
            StmtKind::Pass => {}
            StmtKind::Break | StmtKind::Continue => {
                if cx.loops == 0 {
                    let kw = if matches!(s.kind, StmtKind::Break) {
                        "break"
                    } else {
                        "continue"
                    };
                    self.err(
                        Diagnostic::error(format!("`{kw}` outside of a loop"), s.span)
                            .with_label(format!("cannot `{kw}` outside of a loop")),
                    );
                }
            }
            StmtKind::Return(value) => self.ret(cx, s.span, value.as_ref()),
            StmtKind::Assert(e) => self.cond(cx, e, "an `assert` condition"),
            StmtKind::Assume(e) => self.cond(cx, e, "an `assume` condition"),
            StmtKind::If { branches, orelse } => {
                for (i, (c, b)) in branches.iter().enumerate() {
                    let what = if i == 0 {
                        "an `if` condition"
                    } else {
                        "an `elif` condition"
                    };
                    self.cond(cx, c, what);
                    self.nested(cx, b, false);
                }
                if let Some(b) = orelse {
                    self.nested(cx, b, false);
                }
            }
            StmtKind::While {
                cond,
                invariants,
                body,
                orelse,
            } => {
                self.cond(cx, cond, "a `while` condition");
                for inv in invariants {
                    self.cond(cx, inv, "a loop invariant");
                }
                self.nested(cx, body, true);
                if let Some(b) = orelse {
                    self.nested(cx, b, false);
                }
            }
            StmtKind::For {
                target,
                iter,
                invariants,
                body,
                orelse,
            } => {
                let index = self
                    .for_iter(cx, iter)
                    .then(|| for_index_name(&target.name));
                if let Some(index) = &index {
                    if !invariants.is_empty() && cx.scope.defines(index) {
                        self.err(
                            Diagnostic::error(
                                format!("`{index}` is a variable here and this loop's position"),
                                invariants[0].span,
                            )
                            .with_label("ambiguous in this loop's invariants")
                            .with_note(format!(
                                "note: in the invariants of `for {} in ...`, `{index}` names the \
                                 index of the next element",
                                target.name
                            ))
                            .with_note(format!("help: rename the variable `{index}`")),
                        );
                    }
                    cx.quantified.push(index.clone());
                }
                for inv in invariants {
                    self.cond(cx, inv, "a loop invariant");
                }
                if index.is_some() {
                    cx.quantified.pop();
                }
                self.nested(cx, body, true);
                if let Some(b) = orelse {
                    self.nested(cx, b, false);
                }
            }
            StmtKind::Try { body, handlers } => {
                self.nested(cx, body, false);
                for (i, h) in handlers.iter().enumerate() {
                    match &h.class {
                        Some(class) => self.exception_class(class),
                        None if i + 1 < handlers.len() => self.err(
                            Diagnostic::error("a bare `except:` must be the last handler", h.span)
                                .with_label("catches everything, so later handlers never run"),
                        ),
                        None => {}
                    }
                    self.nested(cx, &h.body, false);
                }
            }
            StmtKind::FunctionDef(f) => {
                if cx.func.is_some() {
                    self.err(
                        Diagnostic::error(
                            "nested functions are not supported in minipy",
                            f.name.span,
                        )
                        .with_label("defined inside another function")
                        .with_note("help: move the `def` to the top level of the module"),
                    );
                } else if cx.depth > 0 {
                    self.err(
                        Diagnostic::error(
                            "`def` must be at the top level of the module",
                            f.name.span,
                        )
                        .with_label("defined inside a block")
                        .with_note("help: move the `def` to the top level of the module"),
                    );
                }
                // Top-level functions are checked after the module code, each as a scope.
            }
            StmtKind::Havoc(name) => {
                if !cx.scope.defines(&name.name) && !self.is_outer_var(cx, &name.name) {
                    self.lookup_or_report(cx, &name.name, name.span, None);
                }
            }
            StmtKind::MethodFrame { result, body } => {
                cx.frames.push(cx.scope.ty(&result.name));
                self.nested(cx, body, false);
                cx.frames.pop();
            }
            StmtKind::LoopScope { inv, body } => {
                self.cond(cx, inv, "a loop-scope invariant");
                self.nested(cx, body, true);
            }
        }
    }

    /// Whether `name` is a module variable seen from a function (havoc of it is reported by
    /// [`Checker::binding_names`]).
    fn is_outer_var(&self, cx: &Cx<'_>, name: &str) -> bool {
        cx.func.is_some() && self.globals.defines(name)
    }

    fn declare(&mut self, cx: &mut Cx<'_>, name: &Ident, ty: Type) {
        if let Some(f) = cx.func {
            self.err(
                Diagnostic::error(
                    "variable declarations are not supported inside functions",
                    name.span,
                )
                .with_label("declaration without a value")
                .with_note(format!(
                    "help: make `{n}` a parameter of `{f}`, or give it a value: `{n}: {ty} = ...`",
                    n = name.name,
                    f = f.name.name
                )),
            );
        } else if cx.depth > 0 {
            self.err(
                Diagnostic::error(
                    "input declarations must be at the top level of the module",
                    name.span,
                )
                .with_label("declared inside a block")
                .with_note(format!(
                    "help: move `{}: {ty}` to the top level, or give it a value",
                    name.name
                )),
            );
        } else if let Some(t) = cx.scope.ty(&name.name).filter(|t| *t != ty) {
            self.err(
                Diagnostic::error(
                    format!("`{}` was `{t}`, cannot declare it as `{ty}`", name.name),
                    name.span,
                )
                .with_label(format!("expected `{t}`, found `{ty}`")),
            );
        }
    }

    fn assign(&mut self, cx: &mut Cx<'_>, target: &Ident, ann: Option<Type>, value: &Expr) {
        let var = cx.scope.ty(&target.name);
        let found = self.expr(cx, value, ann.or(var));
        let name = &target.name;
        if let Some(ann) = ann {
            if let Some(t) = var.filter(|t| *t != ann) {
                self.err(
                    Diagnostic::error(
                        format!("`{name}` was `{t}`, cannot annotate it as `{ann}`"),
                        target.span,
                    )
                    .with_label(format!("expected `{t}`, found `{ann}`"))
                    .with_note("note: a variable keeps one type for its whole scope"),
                );
            }
            if let Some(f) = found.filter(|f| *f != ann) {
                self.err(
                    mismatch(value.span, ann, f)
                        .with_note(format!("note: `{name}` is annotated as `{ann}`")),
                );
            }
        } else if let (Some(t), Some(f)) = (var, found) {
            if t != f {
                self.err(
                    Diagnostic::error(
                        format!("`{name}` was `{t}`, cannot assign {}", a(f)),
                        value.span,
                    )
                    .with_label(format!("expected `{t}`, found `{f}`"))
                    .with_note("note: a variable keeps one type for its whole scope"),
                );
            }
        }
    }

    fn aug_assign(&mut self, cx: &mut Cx<'_>, target: &Ident, op: BinOp, value: &Expr) {
        let name = &target.name;
        let var = if cx.scope.defines(name) {
            cx.scope.ty(name)
        } else if self.is_outer_var(cx, name) {
            None // reported by `binding_names`
        } else {
            let hint = if op == BinOp::Add {
                self.shape(cx, value)
            } else {
                Some(Type::Int)
            };
            self.lookup_or_report(cx, name, target.span, hint)
        };
        let hint = if op == BinOp::Add {
            var
        } else {
            Some(Type::Int)
        };
        let found = self.expr(cx, value, hint);
        let sym = format!("{}=", op.symbol());
        match var {
            Some(t @ Type::Bool) | Some(t @ Type::Tuple) if t == Type::Bool || op != BinOp::Add => {
                self.err(
                    Diagnostic::error(
                        format!("cannot use `{sym}` on `{name}`, which is {}", a(t)),
                        target.span,
                    )
                    .with_label(format!("`{}` needs `int` operands", op.symbol())),
                )
            }
            Some(want) => {
                if let Some(f) = found.filter(|f| *f != want) {
                    let mut d = mismatch(value.span, want, f);
                    if let (Type::Tuple, Type::Int, Some(v)) = (want, f, show(value)) {
                        d = d.with_note(format!(
                            "help: to append an element, write `{name} += ({v},)`"
                        ));
                    }
                    self.err(d);
                }
            }
            None => {}
        }
    }

    fn ret(&mut self, cx: &mut Cx<'_>, span: Span, value: Option<&Expr>) {
        if let Some(frame) = cx.frames.last().copied() {
            if let Some(v) = value {
                let found = self.expr(cx, v, frame);
                if let (Some(t), Some(f)) = (frame, found) {
                    if t != f {
                        self.err(mismatch(v.span, t, f).with_note(format!(
                            "note: the method frame's result variable is {}",
                            a(t)
                        )));
                    }
                }
            }
            return;
        }
        let Some(f) = cx.func else {
            self.err(
                Diagnostic::error("`return` outside of a function", span)
                    .with_label("not inside a function or a method frame"),
            );
            if let Some(v) = value {
                self.expr(cx, v, None);
            }
            return;
        };
        let name = &f.name.name;
        if f.predicate && f.ret != Some(Type::Bool) {
            // Its header is wrong (reported there); do not report the `return` as well.
            if let Some(v) = value {
                self.expr(cx, v, Some(Type::Bool));
            }
            return;
        }
        match (f.ret, value) {
            (Some(t), None) => self.err(
                Diagnostic::error(
                    format!("`return` without a value in `{name}`, which returns `{t}`"),
                    span,
                )
                .with_label(format!("expected a value of type `{t}`")),
            ),
            (Some(t), Some(v)) => {
                if let Some(found) = self.expr(cx, v, Some(t)).filter(|f| *f != t) {
                    self.err(mismatch(v.span, t, found).with_label(format!(
                        "expected `{t}` because of the return type of `{name}`"
                    )));
                }
            }
            (None, Some(v)) => {
                let found = self.expr(cx, v, None);
                let ty = found.map_or("<type>".to_string(), |t| t.to_string());
                self.err(
                    Diagnostic::error(
                        format!("cannot return a value from procedure `{name}`"),
                        v.span,
                    )
                    .with_label(format!("`{name}` has no return type"))
                    .with_note(format!("help: declare the return type: `-> {ty}`")),
                );
            }
            (None, None) => {}
        }
    }

    fn exception_class(&mut self, class: &Ident) {
        if ExcClass::from_name(&class.name).is_some() {
            return;
        }
        let mut d = Diagnostic::error(
            format!("cannot find exception class `{}`", class.name),
            class.span,
        )
        .with_label("unknown exception class");
        if let Some(s) = similar(&class.name, ExcClass::ALL.iter().map(|c| c.name())) {
            d = d.with_note(format!("help: a class with a similar name exists: `{s}`"));
        }
        d = d.with_note(
            "note: the classes are `Exception`, `ArithmeticError`, `ZeroDivisionError`, \
             `LookupError`, `IndexError`, `AssertionError`, `RecursionError`, `NameError`, ...",
        );
        self.err(d);
    }

    /// A `for` loop's iterable: `range(...)` of `int`s, or a tuple. `true`: a tuple (its
    /// invariants may name the position `x_index`).
    fn for_iter(&mut self, cx: &mut Cx<'_>, iter: &Expr) -> bool {
        if let Some(args) = range_args(iter) {
            for arg in args {
                if let Some(f) = self
                    .expr(cx, arg, Some(Type::Int))
                    .filter(|t| *t != Type::Int)
                {
                    self.err(
                        mismatch(arg.span, Type::Int, f).with_label("`range` arguments are `int`s"),
                    );
                }
            }
            return false;
        }
        match self.expr(cx, iter, Some(Type::Tuple)) {
            Some(Type::Tuple) | None => true,
            Some(t) => {
                self.err(
                    Diagnostic::error(
                        format!("a `for` loop cannot iterate over {}", a(t)),
                        iter.span,
                    )
                    .with_label(format!("`{t}` is not iterable"))
                    .with_note("note: minipy's `for` iterates over `range(...)` or over a tuple"),
                );
                false
            }
        }
    }

    /// An expression that must be a `bool`; `what` names it for the label.
    fn cond(&mut self, cx: &mut Cx<'_>, e: &Expr, what: &str) {
        let Some(found) = self.expr(cx, e, Some(Type::Bool)) else {
            return;
        };
        if found == Type::Bool {
            return;
        }
        let mut d =
            mismatch(e.span, Type::Bool, found).with_label(format!("{what} must be a `bool`"));
        let text = show(e);
        d = match (found, text) {
            (Type::Int, Some(x)) => d.with_note(format!("help: write `{x} != 0`")),
            (Type::Int, None) => d.with_note("help: compare the value with zero: `... != 0`"),
            (Type::Tuple, Some(t)) => d.with_note(format!("help: write `len({t}) != 0`")),
            (Type::Tuple, None) => d.with_note("help: test the length: `len(...) != 0`"),
            _ => d,
        };
        self.err(d);
    }
}

/// Whether every path through `block` ends in `return` (conservatively: a statement that
/// always returns, where a statement always returns if it is a `return`, an `if` with an
/// `else` whose branches all always return, a `try` whose body and handlers all always
/// return, or a `while True:` without a `break`).
fn always_returns(block: &[Stmt]) -> bool {
    block.iter().any(|s| match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::If {
            branches,
            orelse: Some(orelse),
        } => branches.iter().all(|(_, b)| always_returns(b)) && always_returns(orelse),
        StmtKind::Try { body, handlers } => {
            always_returns(body) && handlers.iter().all(|h| always_returns(&h.body))
        }
        StmtKind::While { cond, body, .. } => {
            matches!(cond.kind, ExprKind::Bool(true)) && !breaks(body)
        }
        StmtKind::LoopScope { body, .. } => always_returns(body) && !breaks(body),
        // A `for` may run its body zero times; its `else` runs unless a `break` left it.
        StmtKind::For { body, orelse, .. } => {
            orelse.as_deref().is_some_and(always_returns) && !breaks(body)
        }
        _ => false,
    })
}

/// Whether `block` contains a `break` of the loop whose body it is.
fn breaks(block: &[Stmt]) -> bool {
    block.iter().any(|s| match &s.kind {
        StmtKind::Break => true,
        StmtKind::If { branches, orelse } => {
            branches.iter().any(|(_, b)| breaks(b)) || orelse.as_deref().is_some_and(breaks)
        }
        StmtKind::Try { body, handlers } => {
            breaks(body) || handlers.iter().any(|h| breaks(&h.body))
        }
        StmtKind::MethodFrame { body, .. } => breaks(body),
        // A nested loop's `break`s are its own; its `else` belongs to the outer loop.
        StmtKind::While { orelse, .. } | StmtKind::For { orelse, .. } => {
            orelse.as_deref().is_some_and(breaks)
        }
        _ => false,
    })
}
