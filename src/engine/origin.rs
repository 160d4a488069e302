//! Value origins (issue 29): where a variable's current value at a node was assigned.
//!
//! Nothing is stored for it: a query walks the node's root path upwards and asks of each
//! edge (parent → child) whether it assigned the name in the frame asked about — O(depth)
//! per query, no memory per node. An edge assigned `x` when
//! - the parent's action is `x = e` or `havoc x` in that frame (also when the new value is
//!   the old term again: `x = 0` twice);
//! - the settling after the step ran `x = e` silently (a `for` loop's `x = $item(...)`, a
//!   temporary): those are the silent assignments just before the child's next action;
//! - the parent ran `return e` and the popped frame's call binds `x` (`x = f(...)`), or a
//!   method frame's `result`;
//! - or the name's term is another one than the parent's (folded loops, recursion folds,
//!   the invariant transition's havocs, anything the rules above do not name).
//!
//! A function's frame begins at its call: its parameters' origin is the call (`Param`, the
//! call's line, reading the argument's names in the caller); the entry function's
//! parameters and the module's declared inputs are `Input`s.

use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use super::state::{Env, Kont, State};
use super::step::{is_silent_assign, next_action, Action};
use super::tag::Tag;
use super::{Engine, NodeId};
use crate::base::Span;
use crate::lang::Expr;
use crate::transform::ir::{is_temp, Instr, InstrKind};

/// Origins found so far, per (node, scope, name) (see [`Engine::value_origin_memo`]).
#[derive(Debug, Default)]
pub struct OriginMemo(HashMap<(NodeId, Scope, Rc<str>), ValueOrigin>);

/// Which variables a name is looked up in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// The module's variables.
    Globals,
    /// The locals of the `d`-th frame of the call stack (1: the outermost).
    Frame(u32),
}

/// How a value was produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OriginKind {
    /// A symbolic input (a declared module input, a parameter of the `--entry` function).
    Input,
    /// An assignment (also augmented, tuple element, a `for` loop's variable).
    Assign,
    /// A parameter, bound at the call.
    Param,
    /// `x = f(...)`: bound when the call returned.
    Return,
    /// `havoc x` (a loop's invariant transition; a contract's result).
    Havoc,
    /// Another step that changed the value (a folded loop's closed form, ...).
    Step,
}

impl OriginKind {
    /// The kind's name in JSON and in the TUI.
    pub fn name(self) -> &'static str {
        match self {
            OriginKind::Input => "input",
            OriginKind::Assign => "assignment",
            OriginKind::Param => "parameter",
            OriginKind::Return => "return",
            OriginKind::Havoc => "havoc",
            OriginKind::Step => "step",
        }
    }
}

/// Where a variable's value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueOrigin {
    /// The node whose step assigned it (an input: the first node where it exists).
    pub node: NodeId,
    /// The statement that assigned it (a call's target: the call; an input: its
    /// declaration or the entry function's `def`).
    pub span: Span,
    pub kind: OriginKind,
    /// The variables the assignment read, looked up at `node`.
    pub reads: Vec<(Scope, Rc<str>)>,
}

/// The variables of `scope` in `state` (`None`: the frame is not on the stack).
fn env(state: &State, scope: Scope) -> Option<&Env> {
    match scope {
        Scope::Globals => Some(&state.globals),
        Scope::Frame(d) => state
            .frames
            .iter()
            .nth((d as usize).checked_sub(1)?)
            .map(|f| &f.locals),
    }
}

/// Where the current frame's assignments go.
fn bind_scope(state: &State) -> Scope {
    match state.frames.last() {
        Some(f) if f.func.is_some() => Scope::Frame(state.frames.len() as u32),
        _ => Scope::Globals,
    }
}

/// The variables an expression reads, looked up at `state` from `scope`: a function's
/// own locals, else the module's.
fn reads_of<'e>(
    exprs: impl IntoIterator<Item = &'e Expr>,
    state: &State,
    scope: Scope,
) -> Vec<(Scope, Rc<str>)> {
    let mut names = BTreeSet::new();
    for e in exprs {
        crate::lang::entry::free_names(e, &mut Vec::new(), &mut names);
    }
    names
        .into_iter()
        .filter_map(|n| resolve(state, scope, &n))
        .collect()
}

/// The scope a read of `name` from `scope` finds it in, with the stored key.
fn resolve(state: &State, scope: Scope, name: &str) -> Option<(Scope, Rc<str>)> {
    [scope, Scope::Globals].into_iter().find_map(|s| {
        env(state, s)?
            .get_key_value(name)
            .map(|(k, _)| (s, k.clone()))
    })
}

/// How many continuation items [`silent_assignment`] looks at.
const CONT_WINDOW: usize = 64;

/// A silent assignment (see [`is_silent_assign`]) of `name` that the settling after the
/// step `p → c` ran: the settling only enters blocks (a loop's, a `try`'s, a function's)
/// and runs silent assignments until the next action, so they are the silent instructions
/// just before each new item of `c`'s continuation (items `p` does not share), down to
/// `p`'s own action.
fn silent_assignment(
    p: &State,
    c: &State,
    action: Option<&Action>,
    name: &str,
) -> Option<SilentAssign> {
    let own = match (p.cont.top(), action) {
        (Some(Kont::Block { block, index }), Some(Action::Instr(_))) => Some((block, *index)),
        _ => None,
    };
    let mut old = Vec::with_capacity(CONT_WINDOW);
    let mut cur = p.cont.clone();
    while let Some(id) = cur.top_id() {
        if old.len() == CONT_WINDOW {
            break;
        }
        old.push(id);
        cur = cur.pop();
    }
    let mut cur = c.cont.clone();
    for _ in 0..CONT_WINDOW {
        let (Some(id), Some(item)) = (cur.top_id(), cur.top()) else {
            break;
        };
        if old.contains(&id) {
            break;
        }
        let (block, end) = match item {
            Kont::Block { block, index } => (block, *index),
            Kont::Loop { block, index, .. } => (block, *index as usize),
            Kont::Try { block, index } | Kont::LoopScope { block, index } => (block, *index),
            Kont::Return { .. } | Kont::EnterEntry { .. } => break,
            _ => {
                cur = cur.pop();
                continue;
            }
        };
        for k in (0..end).rev() {
            if own.is_some_and(|(b, i)| Rc::ptr_eq(b, block) && i == k) {
                return None;
            }
            let InstrKind::Assign { target, value } = &block[k].kind else {
                break;
            };
            if !is_silent_assign(target, value) {
                break;
            }
            if target == name {
                return Some(SilentAssign {
                    span: block[k].span,
                    value: value.clone(),
                });
            }
        }
        cur = cur.pop();
    }
    None
}

/// What [`silent_assignment`] found.
struct SilentAssign {
    span: Span,
    value: Expr,
}

impl Engine {
    /// The scope of the store `--json` shows at `id` (see [`Engine::store_entries`]).
    pub fn store_scope(&self, id: NodeId) -> Scope {
        let node = self.tree.node(id);
        let cut = matches!(
            node.kind,
            super::NodeKind::Leaf(super::Outcome::Bound | super::Outcome::Unknown)
        );
        match node.state.frames.last() {
            Some(f) if f.func.is_some() && (cut || !node.is_leaf()) => bind_scope(&node.state),
            _ => Scope::Globals,
        }
    }

    /// The scope of [`Engine::frame_store`]`(id)`: the innermost frame's.
    pub fn frame_scope(&self, id: NodeId) -> Scope {
        bind_scope(self.frames_state(id))
    }

    /// Where the value of `name` in `scope` at node `id` was assigned (`None`: no such
    /// variable there). Walks the root path; no solver.
    pub fn value_origin(&self, id: NodeId, scope: Scope, name: &str) -> Option<ValueOrigin> {
        self.value_origin_memo(id, scope, name, &mut OriginMemo::default())
    }

    /// [`Engine::value_origin`], stopping at an ancestor whose answer `memo` has, and
    /// keeping this one (nodes never change: a memo stays right while the tree grows).
    /// Asked for every node in id order (parents first), each walk is one edge.
    pub fn value_origin_memo(
        &self,
        id: NodeId,
        scope: Scope,
        name: &str,
        memo: &mut OriginMemo,
    ) -> Option<ValueOrigin> {
        let key = (id, scope, Rc::<str>::from(name));
        if let Some(o) = memo.0.get(&key) {
            return Some(o.clone());
        }
        let found = self.walk_origin(id, scope, name, memo)?;
        memo.0.insert(key, found.clone());
        Some(found)
    }

    fn walk_origin(
        &self,
        id: NodeId,
        scope: Scope,
        name: &str,
        memo: &OriginMemo,
    ) -> Option<ValueOrigin> {
        let mut cur = self.tree.node(id);
        // (an exception leaf a fold's exit raised: its state at the raise)
        fn state_of<'a>(e: &'a Engine, id: NodeId, n: &'a super::tree::Node) -> &'a State {
            if n.id == id {
                e.frames_state(id)
            } else {
                &n.state
            }
        }
        let state_of = |n| state_of(self, id, n);
        env(state_of(cur), scope)?.get(name)?;
        // Only a temporary or a `for` loop's variable is ever assigned silently.
        let silent = is_temp(name) || self.for_targets().contains(name);
        loop {
            if cur.id != id {
                if let Some(o) = memo.0.get(&(cur.id, scope, Rc::from(name))) {
                    return Some(o.clone());
                }
            }
            let Some(p) = cur.parent else {
                return Some(self.input_origin(cur.id, scope, name));
            };
            let parent = self.tree.node(p);
            if let Scope::Frame(d) = scope {
                let nth = |s: &State| {
                    let f = s.frames.iter().nth(d as usize - 1)?;
                    Some((f.func.clone(), f.call_site))
                };
                // The frame begins on this edge (also: one ended and the entry run's began).
                if nth(&parent.state) != nth(state_of(cur)) {
                    return Some(self.frame_start(parent.id, cur.id, scope, name));
                }
            }
            if let Some(o) = self.assigned_on_edge(
                &parent.state,
                state_of(cur),
                cur.tag.as_ref(),
                scope,
                name,
                silent,
            ) {
                return Some(ValueOrigin { node: p, ..o });
            }
            // A name not bound before this edge was bound on it (by whatever the step did).
            if env(&parent.state, scope).is_none_or(|e| !e.contains_key(name)) {
                let span = parent.at().unwrap_or_default();
                return Some(ValueOrigin {
                    node: p,
                    span,
                    kind: OriginKind::Step,
                    reads: Vec::new(),
                });
            }
            cur = parent;
        }
    }

    /// The targets of the silent assignments of user variables: the `for` loops' variables.
    fn for_targets(&self) -> BTreeSet<String> {
        fn walk(block: &[Instr], out: &mut BTreeSet<String>) {
            for i in block {
                match &i.kind {
                    InstrKind::Assign { target, value } if is_silent_assign(target, value) => {
                        out.insert(target.clone());
                    }
                    InstrKind::If { then, orelse, .. } => {
                        walk(then, out);
                        walk(orelse, out);
                    }
                    InstrKind::While {
                        guard,
                        body,
                        orelse,
                        abstraction,
                        ..
                    } => {
                        walk(guard, out);
                        walk(body, out);
                        if let Some(b) = orelse {
                            walk(b, out);
                        }
                        if let Some(b) = abstraction {
                            walk(b, out);
                        }
                    }
                    InstrKind::Try { body, handlers, .. } => {
                        walk(body, out);
                        handlers.iter().for_each(|h| walk(&h.body, out));
                    }
                    InstrKind::MethodFrame { body, .. } | InstrKind::LoopScope { body, .. } => {
                        walk(body, out)
                    }
                    _ => {}
                }
            }
        }
        let mut out = BTreeSet::new();
        walk(&self.ir.body, &mut out);
        walk(&self.ir.preconditions, &mut out);
        for f in self.ir.functions.values() {
            walk(&f.body, &mut out);
            if let Some(c) = &f.contract {
                walk(&c.proof, &mut out);
                walk(&c.use_, &mut out);
            }
        }
        out
    }

    /// An input: a module input (declared `x: int`) or an entry parameter.
    fn input_origin(&self, node: NodeId, scope: Scope, name: &str) -> ValueOrigin {
        let declared = self.ir.body.iter().find_map(|i| match &i.kind {
            InstrKind::Declare { name: n, .. } if n == name => Some(i.span),
            _ => None,
        });
        let def = || {
            let f = self.tree.node(node).state.frames.last()?.func.clone()?;
            Some(self.ir.functions.get(&*f)?.span)
        };
        let span = match scope {
            Scope::Globals => declared,
            Scope::Frame(_) => def(),
        };
        ValueOrigin {
            node,
            span: span.unwrap_or_default(),
            kind: OriginKind::Input,
            reads: Vec::new(),
        }
    }

    /// The origin of `name` in a frame pushed on the edge `parent → child`: a parameter
    /// bound at the call (or an entry run's input).
    fn frame_start(&self, parent: NodeId, child: NodeId, scope: Scope, name: &str) -> ValueOrigin {
        let p = &self.tree.node(parent).state;
        let Scope::Frame(d) = scope else {
            unreachable!("only a function's frame begins")
        };
        let frame = self
            .tree
            .node(child)
            .state
            .frames
            .iter()
            .nth(d as usize - 1)
            .cloned();
        let Some(call_site) = frame.as_ref().and_then(|f| f.call_site) else {
            return self.input_origin(child, scope, name);
        };
        let reads = match next_action(p) {
            Some(Action::Instr(Instr {
                kind: InstrKind::Call { func, args, .. },
                ..
            })) => self
                .ir
                .functions
                .get(func)
                .and_then(|f| f.params.iter().position(|(n, _)| n == name))
                .and_then(|k| args.get(k))
                .map(|a| reads_of([a], p, bind_scope(p)))
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        ValueOrigin {
            node: parent,
            span: call_site,
            kind: OriginKind::Param,
            reads,
        }
    }

    /// Did the step from `p` to `c` assign `name` in `scope`? (The origin's `node` is
    /// left for the caller to fill in.)
    fn assigned_on_edge(
        &self,
        p: &State,
        c: &State,
        tag: Option<&Tag>,
        scope: Scope,
        name: &str,
        silent: bool,
    ) -> Option<ValueOrigin> {
        let origin = |span: Span, kind, reads| ValueOrigin {
            node: NodeId(0),
            span,
            kind,
            reads,
        };
        let action = next_action(p);
        // The parent's own instruction.
        if let Some(Action::Instr(i)) = &action {
            if bind_scope(p) == scope {
                match &i.kind {
                    InstrKind::Assign { target, value } if target == name => {
                        return Some(origin(
                            i.span,
                            OriginKind::Assign,
                            reads_of([value], p, scope),
                        ));
                    }
                    InstrKind::Havoc { name: n, .. } if n == name => {
                        return Some(origin(i.span, OriginKind::Havoc, Vec::new()));
                    }
                    _ => {}
                }
            }
            if let (InstrKind::Return(value), Some(Tag::Return)) = (&i.kind, tag) {
                if let Some(o) = self.returned_into(p, c, scope, name, value.as_ref()) {
                    return Some(o);
                }
            }
        }
        // The silent assignments the settling ran before the child's next action.
        if silent && bind_scope(c) == scope {
            if let Some(o) = silent_assignment(p, c, action.as_ref(), name) {
                return Some(origin(
                    o.span,
                    OriginKind::Assign,
                    reads_of([&o.value], c, scope),
                ));
            }
        }
        // Any other change of the value.
        let before = env(p, scope).and_then(|e| e.get(name));
        let after = env(c, scope).and_then(|e| e.get(name));
        match (before, after) {
            (Some(b), Some(a)) if b.ptr_eq(a) => None,
            (_, None) => None,
            _ => {
                let span = super::step::action_span(p).unwrap_or_default();
                let kind = match &action {
                    Some(Action::Instr(Instr {
                        kind: InstrKind::Havoc { .. },
                        ..
                    })) => OriginKind::Havoc,
                    _ => OriginKind::Step,
                };
                // What the step read: the changed variables' previous values and the
                // condition of a loop it folded.
                let mut reads: Vec<(Scope, Rc<str>)> = env(p, scope)
                    .into_iter()
                    .flat_map(|e| e.iter())
                    .filter(|(k, v)| {
                        env(c, scope)
                            .and_then(|e| e.get(&***k))
                            .is_some_and(|w| !w.ptr_eq(v))
                    })
                    .map(|(k, _)| (scope, k.clone()))
                    .collect();
                let cond = match &action {
                    Some(Action::Instr(Instr {
                        kind: InstrKind::While { cond, .. },
                        ..
                    })) => Some(cond),
                    Some(Action::Guard { block, index, .. }) => match &block[*index].kind {
                        InstrKind::While { cond, .. } => Some(cond),
                        _ => None,
                    },
                    _ => None,
                };
                for r in reads_of(cond, p, scope) {
                    if !reads.contains(&r) {
                        reads.push(r);
                    }
                }
                Some(origin(span, kind, reads))
            }
        }
    }

    /// `return value` from the frame on top of `p`: does it bind `name` in `scope` of `c`
    /// (the caller's `x = f(...)`, or a method frame's result)?
    fn returned_into(
        &self,
        p: &State,
        c: &State,
        scope: Scope,
        name: &str,
        value: Option<&Expr>,
    ) -> Option<ValueOrigin> {
        let mut cont = p.cont.clone();
        let (target, popped) = loop {
            match cont.top()? {
                Kont::Return { target, .. } => break (target.clone()?, true),
                Kont::MethodFrame { result } => break (result.clone(), false),
                _ => cont = cont.pop(),
            }
        };
        // Where the target is bound: the caller's frame, or the method frame's own.
        let into = if popped {
            let mut below = p.frames.clone();
            below.pop();
            match below.last() {
                Some(f) if f.func.is_some() => Scope::Frame(below.len() as u32),
                _ => Scope::Globals,
            }
        } else {
            bind_scope(p)
        };
        if &*target != name || into != scope || env(c, scope).is_none() {
            return None;
        }
        let span = if popped {
            p.frames.last().and_then(|f| f.call_site)?
        } else {
            super::step::action_span(p)?
        };
        let reads = reads_of(value, p, bind_scope(p));
        Some(ValueOrigin {
            node: NodeId(0),
            span,
            kind: if popped {
                OriginKind::Return
            } else {
                OriginKind::Assign
            },
            reads,
        })
    }
}
