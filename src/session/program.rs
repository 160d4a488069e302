//! The concrete side of a loaded program, for clients that run it without exploring
//! (`symdbg exec`, `testgen`'s replay): its inputs, one concrete run, input literals, and
//! the program rebuilt after a client's change (`testgen` drops `invariant` lines).

use std::collections::BTreeMap;
use std::rc::Rc;

use super::Loaded;
use crate::diagnostics::Diagnostic;
use crate::lang::Program;

pub use crate::concrete::{
    article, check_inputs, describe, outcome_text, CallEnd, Config as ConcreteConfig, ContractCall,
    InputSpec, RunResult,
};

use crate::concrete::Value;

impl Loaded {
    /// The inputs a run of `entry` (or of the module) expects, in order.
    pub fn expected_inputs(&self, entry: Option<&str>) -> Result<Vec<InputSpec>, Diagnostic> {
        crate::concrete::expected_inputs(&self.program, entry)
    }

    /// Run the program concretely on `inputs` (see [`crate::concrete::run`]).
    pub fn run_concrete(
        &self,
        entry: Option<&str>,
        inputs: &BTreeMap<String, Value>,
        config: &ConcreteConfig,
    ) -> Result<RunResult, Diagnostic> {
        crate::concrete::run(&self.program, &self.types, entry, inputs, config)
    }

    /// The same source with `program` in place of its AST: type-checked and lowered again
    /// (spans unchanged, so diagnostics render against the same source).
    pub fn with_program(self, program: Program) -> Result<Loaded, Vec<Diagnostic>> {
        let types = crate::lang::types::check(&program)?;
        let ir = crate::transform::lower(&program)?;
        Ok(Loaded {
            program,
            types,
            ir: Rc::new(ir),
            source: self.source,
        })
    }
}

/// A Python literal of an input value (`3`, `-2`, `True`, `(1, 2)`): `Ok(None)` if `text`
/// is an expression but no literal minipy has a value for; `Err` with the parser's
/// diagnostics (against `text`) if it does not parse.
pub fn parse_literal(text: &str) -> Result<Option<Value>, Vec<Diagnostic>> {
    let expr = crate::lang::parse_expr(text)?;
    Ok(Value::from_literal(&expr))
}
