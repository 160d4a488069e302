//! Value origins (issue 29): where each variable's value at a node came from, and through
//! the variables that assignment read, the assignments before it (the origin chain).
//! Computed on demand by [`crate::engine::Engine::value_origin_memo`] (no state per node;
//! the session keeps the answers found, so `run --explain`, asking for every node in id
//! order, walks one edge per variable and node).

use std::collections::{HashSet, VecDeque};
use std::rc::Rc;

use super::Session;
use crate::engine::origin::{Scope, ValueOrigin};
use crate::engine::NodeId;
use crate::transform::ir::is_temp;

/// Where a variable's current value was assigned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreOrigin {
    /// The line of the assignment (an input: its declaration, or the entry function's
    /// `def`); a [`crate::base::span::Line`] number.
    pub line: usize,
    /// The node whose step assigned it (an input: the first node that has it).
    pub node: NodeId,
    /// `input`, `assignment`, `parameter`, `return`, `havoc` or `step`.
    pub kind: &'static str,
}

/// One link of an origin chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OriginLink {
    /// The variable.
    pub name: String,
    pub origin: StoreOrigin,
    /// The assigning statement's text (trimmed).
    pub statement: String,
    /// How many assignments lie between this one and the variable asked about (0: its own).
    pub level: usize,
}

/// At most this many links in one chain (a loop's history can be long).
pub const CHAIN_LIMIT: usize = 64;
/// At most this many origins looked up for one chain (hidden variables included).
const LOOKUP_LIMIT: usize = 512;

impl Session {
    fn store_origin(&self, o: &ValueOrigin) -> StoreOrigin {
        StoreOrigin {
            line: self.source().line(o.span.start),
            node: o.node,
            kind: o.kind.name(),
        }
    }

    /// The origin of every variable of the store `run --json` shows at `id`, in the
    /// store's order.
    pub fn store_origins(&self, id: NodeId) -> Vec<(String, StoreOrigin)> {
        let scope = self.engine.store_scope(id);
        let mut memo = self.origin_memo.borrow_mut();
        self.engine
            .store_entries(id)
            .filter_map(|(name, _)| {
                let o = self.engine.value_origin_memo(id, scope, name, &mut memo)?;
                Some((name.to_string(), self.store_origin(&o)))
            })
            .collect()
    }

    /// The origin chain of variable `name` of the store pane at `id` (the frame
    /// [`Session::frame_store_shown`] shows): its own origin first, then the origins of what
    /// that assignment read, breadth first (each assignment once; hidden variables of the
    /// lowering are looked through). Empty when there is no such variable.
    pub fn origin_chain(&self, id: NodeId, name: &str) -> Vec<OriginLink> {
        let at = self.frames_node(id);
        let scope = self.engine.frame_scope(at);
        self.chain_from(at, scope, name)
    }

    /// [`Session::origin_chain`] of variable `name` of one frame of the call stack at `id`
    /// (the stack [`Session::details`] shows: `frame` 0 is the module's, the last the
    /// innermost), for a client that shows every frame's variables (DAP).
    pub fn origin_chain_in_frame(&self, id: NodeId, frame: usize, name: &str) -> Vec<OriginLink> {
        let at = self.frames_node(id);
        let frames = &self.engine.frames_state(at).frames;
        let scope = match frames.iter().nth(frame) {
            Some(f) if f.func.is_some() => Scope::Frame(frame as u32 + 1),
            _ => Scope::Globals,
        };
        self.chain_from(at, scope, name)
    }

    fn chain_from(&self, at: NodeId, scope: Scope, name: &str) -> Vec<OriginLink> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut queue: VecDeque<(NodeId, Scope, Rc<str>, usize)> = VecDeque::new();
        queue.push_back((at, scope, Rc::from(name), 0));
        let mut lookups = 0;
        let mut memo = self.origin_memo.borrow_mut();
        while let Some((node, scope, name, level)) = queue.pop_front() {
            if out.len() >= CHAIN_LIMIT || lookups >= LOOKUP_LIMIT {
                break;
            }
            lookups += 1;
            let Some(o) = self.engine.value_origin_memo(node, scope, &name, &mut memo) else {
                continue;
            };
            if !seen.insert((o.node, o.span, scope, name.clone())) {
                continue;
            }
            let hidden = is_temp(&name);
            if !hidden {
                let origin = self.store_origin(&o);
                out.push(OriginLink {
                    name: name.to_string(),
                    statement: self.source().line_text(origin.line).trim().to_string(),
                    origin,
                    level,
                });
            }
            let next = if hidden { level } else { level + 1 };
            for (s, n) in o.reads {
                // A read of the variable itself by a fold's closed form, ... is its previous
                // value: looked up at the assigning node like any other read.
                queue.push_back((o.node, s, n, next));
            }
        }
        out
    }

    /// [`Session::origin_chain`] of every variable of the store pane at `id`, in its order.
    pub fn origin_chains(&self, id: NodeId) -> Vec<(String, Vec<OriginLink>)> {
        self.frame_store_shown(id)
            .into_iter()
            .map(|(name, _)| {
                let chain = self.origin_chain(id, &name);
                (name, chain)
            })
            .collect()
    }
}
