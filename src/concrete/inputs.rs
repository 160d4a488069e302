//! The inputs of a run: what the program expects, and checking what the caller gives.

use std::collections::BTreeMap;

use super::Value;
use crate::base::Span;
use crate::diagnostics::Diagnostic;
use crate::lang::ast::{Program, Type};

/// One input a run expects: a module's `x: int` declaration or an entry function's parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputSpec {
    pub name: String,
    pub ty: Type,
    /// Where it is declared (the declaration's or the parameter's name).
    pub span: Span,
}

/// The inputs of a module run (`entry == None`: the declared inputs, in source order) or of
/// an entry run (the function's parameters, in order). Unknown entry function → error.
pub fn expected_inputs(
    program: &Program,
    entry: Option<&str>,
) -> Result<Vec<InputSpec>, Diagnostic> {
    let Some(name) = entry else {
        let mut specs: Vec<InputSpec> = Vec::new();
        for (id, ty) in program.inputs() {
            if !specs.iter().any(|s| s.name == id.name) {
                specs.push(InputSpec {
                    name: id.name.clone(),
                    ty,
                    span: id.span,
                });
            }
        }
        return Ok(specs);
    };
    let f = crate::lang::entry::entry_function(program, name)?;
    Ok(f.params
        .iter()
        .map(|p| InputSpec {
            name: p.name.name.clone(),
            ty: p.ty,
            span: p.name.span,
        })
        .collect())
}

/// A list such as "`x: int`, `t: tuple`" (or "none").
pub fn describe(specs: &[InputSpec]) -> String {
    if specs.is_empty() {
        return "none".to_string();
    }
    let items: Vec<String> = specs
        .iter()
        .map(|s| format!("`{}: {}`", s.name, s.ty))
        .collect();
    items.join(", ")
}

/// Check that `inputs` gives exactly the expected inputs, each with a value of its type.
pub fn check_inputs(
    expected: &[InputSpec],
    inputs: &BTreeMap<String, Value>,
) -> Result<(), Diagnostic> {
    for name in inputs.keys() {
        if !expected.iter().any(|s| &s.name == name) {
            return Err(Diagnostic::global(format!("unknown input `{name}`"))
                .with_note(format!("the inputs are: {}", describe(expected))));
        }
    }
    for spec in expected {
        match inputs.get(&spec.name) {
            None => {
                return Err(Diagnostic::error(
                    format!("missing input `{}` ({})", spec.name, spec.ty),
                    spec.span,
                )
                .with_label(format!("`{}` is an input of type {}", spec.name, spec.ty)));
            }
            Some(v) if v.ty() != spec.ty => {
                return Err(Diagnostic::error(
                    format!(
                        "input `{}` must be {}, got {} `{v}`",
                        spec.name,
                        article(spec.ty),
                        article(v.ty())
                    ),
                    spec.span,
                )
                .with_label(format!("`{}` is declared {} here", spec.name, spec.ty)));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// "an int", "a bool", "a tuple".
pub fn article(ty: Type) -> &'static str {
    match ty {
        Type::Int => "an int",
        Type::Bool => "a bool",
        Type::Tuple => "a tuple",
    }
}
