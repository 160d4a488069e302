//! `F` and `=` (issue 15): fold or unfold an open loop head, and a node with κ := n.

use num_bigint::BigInt;

use super::super::protocol::InstanceInfo;
use crate::engine::NodeId;
use crate::session::{Refolded, Session, Stepped};

/// `F` at node `id`: the node to select and the status message.
pub(super) fn refold(session: &mut Session, id: u32) -> (Option<u32>, String) {
    let what = |s: &Stepped, how: &str| match s {
        Stepped::Children(c) => (
            c.first().map(|c| c.0),
            format!("{how}: {} successor(s)", c.len()),
        ),
        Stepped::Cancelled => (None, format!("node {id}: interrupted (Esc), not stepped")),
        Stepped::NoSuccessors => (None, format!("{how}: no feasible successor")),
        Stepped::Leaf => (None, format!("node {id} is a leaf")),
        Stepped::AlreadyStepped => (None, format!("node {id} is already stepped")),
    };
    match session.refold(NodeId(id)) {
        Refolded::Folded(s) => {
            let label = session
                .fold_label(NodeId(id))
                .unwrap_or_else(|| "fold".to_string());
            let (sel, msg) = what(&s, &format!("folded the loop ({label})"));
            (sel, format!("{msg}; = on a node below shows it for κ = n"))
        }
        Refolded::Unfolded(s) => what(&s, "stepped the loop head classically (not folded)"),
        Refolded::Refused(why) => (None, why),
    }
}

/// `=` at node `id` with `n` as typed.
pub(super) fn instantiate(session: &mut Session, id: u32, n: &str) -> Result<InstanceInfo, String> {
    let value: BigInt = n
        .trim()
        .parse()
        .map_err(|_| format!("`{}` is not a number of iterations", n.trim()))?;
    if value < BigInt::from(0) {
        return Err(format!("κ counts iterations: {value} is negative"));
    }
    let inst = session.instantiate(NodeId(id), &value)?;
    Ok(InstanceInfo {
        node: id,
        kappa: inst.kappa,
        value: inst.value,
        loop_line: inst.loop_line,
        fold: inst.fold.0,
        pc: inst.pc,
        store: inst.store,
        return_value: inst.return_value,
        feasible: inst.feasible,
        verdict: inst.verdict,
    })
}
