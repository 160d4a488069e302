//! The minipy front-end: source text → checked AST.
//!
//! [`parse`] turns text into a [`Program`] (or located [`Diagnostic`]s), [`types::check`]
//! checks it, [`load`] does both. The front-end knows nothing of the interpreters, the
//! solver or any UI. It never panics on any input.
//!
//! Parsing happens in two layers: [`lines`] splits the text into logical lines (comments,
//! blank lines, bracket continuation, indentation → blocks) keeping exact byte offsets, and
//! [`parser`] parses each logical line with the pest grammar in `grammar.pest`.

pub mod assume;
pub mod ast;
pub mod chain;
pub mod compile;
pub mod entry;
mod lines;
mod parser;
pub mod pretty;
pub mod types;

pub use ast::*;
pub use lines::universal_newlines;
pub use types::TypeInfo;

use crate::diagnostics::Diagnostic;

/// Parse a whole module (and refuse what CPython's compiler refuses after parsing, see
/// [`compile`]).
pub fn parse(src: &str) -> Result<Program, Vec<Diagnostic>> {
    let program = parser::parse_program(src)?;
    compile::check(&program).map_err(|d| vec![d])?;
    Ok(program)
}

/// Parse a single expression (used for `--input x=(1, 2)` values).
pub fn parse_expr(src: &str) -> Result<Expr, Vec<Diagnostic>> {
    parser::parse_expression(src)
}

/// Parse and type-check a module.
///
/// ```
/// let src = "x: int\nif x < 0:\n    x = -x\n";
/// let (program, types) = symdbg::lang::load(src).unwrap();
/// assert_eq!(program.inputs().count(), 1);
/// assert_eq!(types.globals["x"], symdbg::lang::Type::Int);
///
/// let errors = symdbg::lang::load("y = x / 2\n").unwrap_err();
/// assert!(errors[0].message.contains("not supported in minipy"));
/// ```
pub fn load(src: &str) -> Result<(Program, TypeInfo), Vec<Diagnostic>> {
    let program = parse(src)?;
    let info = types::check(&program)?;
    Ok((program, info))
}
