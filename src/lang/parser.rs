//! pest-based parser (stub; being written).
use super::ast::{Expr, Program};
use crate::diagnostics::Diagnostic;

pub fn parse_program(_src: &str) -> Result<Program, Vec<Diagnostic>> {
    Err(vec![Diagnostic::global("parser not written yet")])
}

pub fn parse_expression(_src: &str) -> Result<Expr, Vec<Diagnostic>> {
    Err(vec![Diagnostic::global("parser not written yet")])
}
