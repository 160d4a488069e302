//! Calls on a loop's folded path (issue 27): a loop body may call a function whose body
//! (and whatever it calls) has no loop, no recursion, no `try` and no verification
//! statement; the template's enumeration and the fold's replay step through the call
//! with the engine's own stepper, so the callee's branches are the path's branches and its
//! exceptions are exits.

use std::collections::BTreeSet;

use crate::transform::ir::{Instr, InstrKind, Program};

/// Why a call of `func` cannot be on a folded path, if it cannot.
pub fn callee_ok(program: &Program, func: &str) -> Result<(), String> {
    let mut active = BTreeSet::new();
    visit(program, func, &mut active)
}

fn visit<'p>(
    program: &'p Program,
    func: &'p str,
    active: &mut BTreeSet<&'p str>,
) -> Result<(), String> {
    let Some(f) = program.functions.get(func) else {
        return Err(format!("the body calls `{func}`, which is not defined"));
    };
    if !active.insert(func) {
        return Err(format!("the body calls `{func}`, which is recursive"));
    }
    block(program, func, &f.body, active)?;
    active.remove(func);
    Ok(())
}

fn block<'p>(
    program: &'p Program,
    func: &str,
    b: &'p [Instr],
    active: &mut BTreeSet<&'p str>,
) -> Result<(), String> {
    for i in b {
        let why = match &i.kind {
            InstrKind::If { then, orelse, .. } => {
                block(program, func, then, active)?;
                block(program, func, orelse, active)?;
                None
            }
            InstrKind::Call { func: g, .. } => {
                visit(program, g, active)?;
                None
            }
            InstrKind::While { .. } => Some("contains a loop"),
            InstrKind::Try { .. } => Some("contains a try statement"),
            InstrKind::Havoc { .. }
            | InstrKind::Assume(_)
            | InstrKind::AssumeInvariant(_)
            | InstrKind::CheckInvariant(_)
            | InstrKind::MethodFrame { .. }
            | InstrKind::LoopScope { .. } => Some("contains a verification statement"),
            InstrKind::Def(_) | InstrKind::Declare { .. } => Some("defines a name"),
            _ => None,
        };
        if let Some(why) = why {
            return Err(format!("the body calls `{func}`, which {why}"));
        }
    }
    Ok(())
}
