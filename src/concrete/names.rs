//! Which names a block assigns: Python's rule for the locals of a function.

use std::collections::BTreeSet;

use crate::lang::ast::{Stmt, StmtKind};

/// Every name a block binds, in any nested block (but not inside nested `def`s): assignment
/// and augmented-assignment targets, `for` targets, declarations, `havoc` targets and method-frame result
/// variables. In a function these names, with the parameters, are its locals (Python's
/// rule: a name assigned anywhere in a function is local to the whole function).
pub fn assigned_names(body: &[Stmt]) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    collect(body, &mut names);
    names
}

fn collect(body: &[Stmt], names: &mut BTreeSet<String>) {
    for s in body {
        match &s.kind {
            StmtKind::Declare { name, .. } | StmtKind::Havoc(name) => {
                names.insert(name.name.clone());
            }
            StmtKind::Assign { target, .. }
            | StmtKind::AugAssign { target, .. }
            | StmtKind::For { target, .. } => {
                names.insert(target.name.clone());
            }
            StmtKind::MethodFrame { result, .. } => {
                names.insert(result.name.clone());
            }
            _ => {}
        }
        for b in s.nested_blocks() {
            collect(b, names);
        }
    }
}
