//! The type checker (stub; being written by the type-checker work).
use std::collections::BTreeMap;

use super::ast::{Program, Type};
use crate::diagnostics::Diagnostic;

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

/// Type-check a parsed program.
pub fn check(_program: &Program) -> Result<TypeInfo, Vec<Diagnostic>> {
    Ok(TypeInfo::default())
}
