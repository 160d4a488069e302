//! The checking walk: statements and expressions, scope by scope.

use std::collections::BTreeMap;

use super::scope::{self, Scope};
use super::{Signature, TypeInfo};
use crate::base::Span;
use crate::diagnostics::Diagnostic;
use crate::lang::ast::{FunctionDef, Program, Type, BUILTINS};

mod assign;
/// `requires`/`ensures` lines.
mod contract;
mod expr;
mod hints;
mod scopes;
mod standalone;
mod stmt;

pub(super) use standalone::check_expr;

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
}
