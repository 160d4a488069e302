//! `F` and `=` (issue 15): fold or unfold an open loop head, and a node with κ := n.

use num_bigint::BigInt;

use crate::session::{Instance, NodeId, Refolded, Session, Stepped};

/// `F` at node `id`: the node to select and the status message.
pub(super) fn refold(session: &mut Session, id: NodeId) -> (Option<NodeId>, String) {
    let what = |s: &Stepped, how: &str| match s {
        Stepped::Children(c) => (
            c.first().copied(),
            format!("{how}: {} successor(s)", c.len()),
        ),
        Stepped::Cancelled => (
            None,
            format!("node {}: interrupted (Esc), not stepped", id.0),
        ),
        Stepped::NoSuccessors => (None, format!("{how}: no feasible successor")),
        Stepped::Leaf => (None, format!("node {} is a leaf", id.0)),
        Stepped::AlreadyStepped => (None, format!("node {} is already stepped", id.0)),
    };
    match session.refold(id) {
        Refolded::Folded(s) => {
            let label = session.fold_label(id).unwrap_or_else(|| "fold".to_string());
            let (sel, msg) = what(&s, &format!("folded the loop ({label})"));
            (sel, format!("{msg}; = on a node below shows it for κ = n"))
        }
        Refolded::Unfolded(s) => what(&s, "stepped the loop head classically (not folded)"),
        Refolded::Refused(why) => (None, why),
    }
}

/// `=` at node `id` with `n` as typed: κ's value, and for a two-parameter fold
/// optionally λ's after it (`2 1` or `2, 1`; issue 27).
pub(super) fn instantiate(session: &mut Session, id: NodeId, n: &str) -> Result<Instance, String> {
    let words: Vec<&str> = n
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let count = |word: &str, name: &str| -> Result<BigInt, String> {
        let value: BigInt = word
            .parse()
            .map_err(|_| format!("`{word}` is not a number of iterations"))?;
        if value < BigInt::from(0) {
            return Err(format!("{name} counts iterations: {value} is negative"));
        }
        Ok(value)
    };
    match words.as_slice() {
        [] => Err(format!("`{}` is not a number of iterations", n.trim())),
        [k] => session.instantiate(id, &count(k, "κ")?, None),
        [k, l] => {
            let (k, l) = (count(k, "κ")?, count(l, "λ")?);
            session.instantiate(id, &k, Some(&l))
        }
        _ => Err(format!(
            "`{}`: type κ's value, or κ's and λ's for a two-parameter fold",
            n.trim()
        )),
    }
}
