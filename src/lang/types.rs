//! The type checker: every expression is `int`, `bool` or `tuple`, every variable keeps one
//! type for its whole scope, calls match their signatures, and the structural rules of minipy
//! hold (`break` inside loops, `return` inside functions or method frames, `def` at the top
//! level only, predicates are single boolean `return`s, ...).
//!
//! Checking runs in two phases per scope (the module, then each function):
//! 1. [`scope`] collects the binding sites of the scope (parameters, input declarations,
//!    assignments, method-frame results) and infers the type of every variable by a fixpoint
//!    over those sites, so a variable read textually before its first assignment (in a loop,
//!    or in a function defined before the module code that assigns it) still has its type.
//! 2. [`checker`] walks the statements and reports every error it finds, each at the span of
//!    the offending expression or name.
//!
//! [`check`] reports all errors at once, sorted by position. [`type_of`] and
//! [`TypeInfo::expr_type`] give the type of an expression of a checked program, for the
//! interpreters.

use std::collections::BTreeMap;

use super::ast::{BinOp, Expr, ExprKind, Program, Type, UnaryOp};
use crate::diagnostics::Diagnostic;

mod checker;
mod scope;

/// A function's signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    pub params: Vec<(String, Type)>,
    /// `None`: a procedure (no `-> T`, or `-> None`).
    pub ret: Option<Type>,
    pub predicate: bool,
}

/// What the type checker learned about a well-typed program.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeInfo {
    /// Module variables: declared inputs and every name assigned at module level.
    pub globals: BTreeMap<String, Type>,
    /// User functions (predicates included).
    pub functions: BTreeMap<String, Signature>,
    /// Per function: its parameters and the names it assigns (its locals).
    pub locals: BTreeMap<String, BTreeMap<String, Type>>,
}

/// Type-check a parsed program. On failure, every error found, sorted by position.
pub fn check(program: &Program) -> Result<TypeInfo, Vec<Diagnostic>> {
    checker::check_program(program)
}

/// Check one expression typed by a user (a debugger prompt) as read inside `function`
/// (`None`: module code) of a checked program: its type, or every error. Calls of
/// functions that are not `@predicate`s are refused.
pub fn check_expr(
    program: &Program,
    function: Option<&str>,
    e: &Expr,
) -> Result<Type, Vec<Diagnostic>> {
    checker::check_expr(program, function, e)
}

/// The signature of a builtin function (`len`, `abs`, `min`, `max`).
pub fn builtin_signature(name: &str) -> Option<Signature> {
    let params: &[(&str, Type)] = match name {
        "len" => &[("t", Type::Tuple)],
        "abs" => &[("x", Type::Int)],
        "min" | "max" => &[("a", Type::Int), ("b", Type::Int)],
        _ => return None,
    };
    Some(Signature {
        params: params.iter().map(|(n, t)| (n.to_string(), *t)).collect(),
        ret: Some(Type::Int),
        predicate: false,
    })
}

impl TypeInfo {
    /// The type of variable `name` as seen from inside `function` (`None`: module level):
    /// the function's locals first, then the module variables.
    pub fn var_type(&self, function: Option<&str>, name: &str) -> Option<Type> {
        function
            .and_then(|f| self.locals.get(f))
            .and_then(|l| l.get(name))
            .or_else(|| self.globals.get(name))
            .copied()
    }

    /// The signature of a user function or a builtin.
    pub fn signature(&self, name: &str) -> Option<Signature> {
        self.functions
            .get(name)
            .cloned()
            .or_else(|| builtin_signature(name))
    }

    /// The type of an expression of the checked program, evaluated inside `function`
    /// (`None`: module level). `None` if a name in it is unknown in that scope (for example a
    /// quantifier variable, when `e` is taken from inside a quantifier's body; use
    /// [`type_of`] with your own lookup then).
    pub fn expr_type(&self, function: Option<&str>, e: &Expr) -> Option<Type> {
        type_of(e, &|n| self.var_type(function, n), &self.functions)
    }
}

/// The type of an expression whose variables have the types given by `var`, assuming the
/// expression is well-typed (it is computed from the expression's shape: a comparison is a
/// `bool`, an index an `int`, `a + b` has the type of `a`, ...). `None` when it depends on a
/// name `var` does not know or on a call of an unknown function or a procedure.
pub fn type_of(
    e: &Expr,
    var: &dyn Fn(&str) -> Option<Type>,
    functions: &BTreeMap<String, Signature>,
) -> Option<Type> {
    match &e.kind {
        ExprKind::Int(_) => Some(Type::Int),
        ExprKind::Bool(_) => Some(Type::Bool),
        ExprKind::Tuple(_) => Some(Type::Tuple),
        ExprKind::Name(n) => var(n),
        ExprKind::Unary { op, .. } => Some(match op {
            UnaryOp::Not => Type::Bool,
            UnaryOp::Neg | UnaryOp::Pos => Type::Int,
        }),
        ExprKind::Binary {
            op: BinOp::Add,
            lhs,
            rhs,
        } => {
            // `a + b` has the type of its operands; a `bool` operand is an error, so it
            // does not decide the type.
            let operand = |e| type_of(e, var, functions).filter(|t| *t != Type::Bool);
            operand(lhs).or_else(|| operand(rhs))
        }
        ExprKind::Binary { .. } | ExprKind::Index { .. } => Some(Type::Int),
        ExprKind::Slice { .. } => Some(Type::Tuple),
        ExprKind::IfExp { then, orelse, .. } => {
            type_of(then, var, functions).or_else(|| type_of(orelse, var, functions))
        }
        ExprKind::BoolOp { .. } | ExprKind::Compare { .. } | ExprKind::Quantifier { .. } => {
            Some(Type::Bool)
        }
        ExprKind::Call { func, .. } => match functions.get(&func.name) {
            Some(sig) => sig.ret,
            None => builtin_signature(&func.name).and_then(|s| s.ret),
        },
    }
}

#[cfg(test)]
mod tests;
