//! `symdbg/tree`: the symbolic execution tree for clients that draw it (SEDAP-style):
//! every node with its parent, line, label, kind, outcome and the thread stopped at it
//! or whose open path ends in it.

use serde_json::{json, Value};

use super::adapter::Adapter;
use crate::session::{Form, NodeId};

impl Adapter {
    pub(super) fn tree_body(&self) -> Value {
        let Some(run) = &self.run else {
            return json!({"nodes": []});
        };
        let s = &run.session;
        let tree = s.tree();
        let nodes: Vec<Value> = (0..tree.len())
            .map(|i| {
                let id = NodeId(i as u32);
                let v = s.view(id);
                let label = if v.outcome().is_some() {
                    v.text(Form::Row)
                } else {
                    v.statement.clone()
                };
                let thread = run
                    .threads
                    .list
                    .iter()
                    .find(|t| t.pos == id)
                    .or_else(|| run.threads.list.iter().find(|t| t.tip == id))
                    .map(|t| t.id);
                json!({
                    "id": i,
                    "parent": v.parent.map(|p| p.0),
                    "line": v.place,
                    "label": label,
                    "kind": v.kind_name(),
                    "outcome": v.outcome().map(|o| o.name()),
                    "exception": v.exception().map(|c| c.to_string()),
                    "branch": s.branch_shown(id),
                    "thread": thread,
                })
            })
            .collect();
        let threads: Vec<Value> = run
            .threads
            .list
            .iter()
            .map(|t| json!({"id": t.id, "node": t.pos.0, "tip": t.tip.0}))
            .collect();
        json!({"nodes": nodes, "threads": threads})
    }
}
