//! The transform stage: checked AST → the engine's IR ([`ir::Program`]).
//!
//! Calls of user functions become their own instructions (so the engine can show the
//! callee's body in a frame of its own), in Python's evaluation order; predicates become
//! formulas. Pure: no IO, no solver.

mod contract;
pub mod ir;
mod loop_form;
mod lower;

use std::collections::BTreeSet;
use std::rc::Rc;

use crate::diagnostics::Diagnostic;
use crate::lang::{self, ast, ExprKind, StmtKind};

/// Lower a type-checked program.
pub fn lower(program: &ast::Program) -> Result<ir::Program, Vec<Diagnostic>> {
    let functions: BTreeSet<String> = program
        .functions()
        .filter(|f| !f.predicate)
        .map(|f| f.name.name.clone())
        .collect();
    let mut l = lower::Lowerer::new(&functions);
    let mut out = ir::Program::default();
    for f in program.functions() {
        let params = f
            .params
            .iter()
            .map(|p| (p.name.name.clone(), p.ty))
            .collect();
        if f.predicate {
            let body = match f.body.first().map(|s| &s.kind) {
                Some(StmtKind::Return(Some(e))) => e.clone(),
                _ => ast::Expr {
                    kind: ExprKind::Bool(true),
                    span: f.name.span,
                },
            };
            out.predicates.insert(
                f.name.name.clone(),
                ir::Predicate {
                    name: f.name.name.clone(),
                    params,
                    body,
                },
            );
        } else {
            let mut body = l.block(&f.body);
            let mut contract = None;
            if !f.contract.is_empty() {
                for e in f.contract.requires.iter().chain(&f.contract.ensures) {
                    l.formula_only(e, "a contract line");
                }
                let (inline, proof, use_) = contract::bodies(f, body);
                body = inline;
                contract = Some(ir::ContractBodies {
                    proof,
                    use_,
                    prints: false,
                });
            }
            out.functions.insert(
                f.name.name.clone(),
                ir::Function {
                    name: f.name.name.clone(),
                    params,
                    ret: f.ret,
                    body,
                    span: f.name.span,
                    contract,
                },
            );
        }
    }
    contract::mark_printing(&mut out.functions);
    out.preconditions = l.block(&program.preconditions);
    out.body = l.block(&program.body);
    out.for_vars = std::mem::take(&mut l.for_vars);
    if l.errors.is_empty() {
        Ok(out)
    } else {
        Err(l.errors)
    }
}

/// Parse, type-check and lower.
pub fn load(src: &str) -> Result<(ast::Program, lang::TypeInfo, Rc<ir::Program>), Vec<Diagnostic>> {
    let (program, types) = lang::load(src)?;
    let ir = lower(&program)?;
    Ok((program, types, Rc::new(ir)))
}

#[cfg(test)]
mod tests;
