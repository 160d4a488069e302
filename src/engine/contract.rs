//! Contracts (issue 28): the choice at a call of a contracted function (inline it or use
//! the contract, [`CallMode`]), and what a node is because of one (abstract below a use;
//! a contract's failure at a leaf). The three bodies are built in `transform/contract.rs`;
//! the step that picks one is `step.rs`'s `call`.

use super::{step, CallMode, Engine, NodeId, State, Tag};
use crate::transform::ir::InstrKind;

impl Engine {
    /// Does the state's next instruction call a function with a contract (a choice: inline
    /// it or use the contract)?
    pub(super) fn contract_call(&self, state: &State) -> bool {
        matches!(
            step::next_action(state),
            Some(step::Action::Instr(i)) if matches!(&i.kind, InstrKind::Call { func, .. }
                if self.ir.functions.get(func)
                    .and_then(|f| f.contract.as_ref())
                    .is_some_and(|c| !c.prints))
        )
    }

    /// Does the open node `id` sit at a call of a function with a contract, where both
    /// transitions exist (inline, or use the contract; see [`Engine::step_call`])?
    pub fn call_choice(&self, id: NodeId) -> bool {
        self.tree.node(id).is_open() && self.contract_call(&self.tree.node(id).state)
    }

    /// Is `f` contracted but always inlined, since it (transitively) prints?
    pub fn contract_prints(&self, f: &str) -> bool {
        self.ir
            .functions
            .get(f)
            .and_then(|f| f.contract.as_ref())
            .is_some_and(|c| c.prints)
    }

    /// How calls of contracted functions run when no choice is made ([`Config::calls`]).
    pub fn call_mode(&self) -> CallMode {
        self.config.calls.unwrap_or_else(|| {
            let proving = self
                .entry
                .as_deref()
                .and_then(|f| self.ir.functions.get(f))
                .is_some_and(|f| f.contract.is_some());
            if proving {
                CallMode::Contract
            } else {
                CallMode::Inline
            }
        })
    }

    /// Step like [`Engine::step`], but apply `mode` at a call of a contracted function.
    pub fn step_call(&mut self, id: NodeId, mode: CallMode) -> Vec<NodeId> {
        let saved = self.config.calls.replace(mode);
        let children = self.step(id);
        self.config.calls = saved;
        children
    }

    /// Is node `id` below a use of a contract (its path took a call's result from a
    /// postcondition, not from the body)? Its leaves are then abstract: every input is
    /// covered, but a model need not reproduce the leaf concretely. A violated
    /// precondition at the path's first use is not: the check is exact, as the inlined
    /// call's first step (it is `id` itself, a leaf right below the use's precondition).
    pub fn is_abstract(&self, id: NodeId) -> bool {
        let mut in_precondition = self
            .contract_failure(id)
            .is_some_and(|c| c.clause == crate::lang::ast::Clause::Requires);
        let mut cur = Some(id);
        while let Some(n) = cur {
            let node = self.tree.node(n);
            if matches!(node.tag, Some(Tag::UseContract(_))) {
                if !in_precondition {
                    return true;
                }
                in_precondition = false;
            } else if n != id && node.label() != Some(super::label::USE_REQUIRES) {
                in_precondition = false;
            }
            cur = node.parent;
        }
        false
    }

    /// At a leaf that is a contract's failure: which clause of which function.
    pub fn contract_failure(&self, id: NodeId) -> Option<crate::lang::ContractFailure> {
        let node = self.tree.node(id);
        if !node.invariant_failure() {
            return None;
        }
        let clause = match &node.tag {
            Some(t) => t.check()?.clause()?,
            None => return None,
        };
        let function = node.state.func()?.to_string();
        Some(crate::lang::ContractFailure { clause, function })
    }
}

impl Engine {
    /// The uses of contracts on the path to `id`, in path order: the function and the
    /// fresh symbol `f@n` its result became (`None`: a procedure, or the path ends before
    /// the result, at a violated precondition). `check --calls contract` binds each to
    /// the value the concrete run's call returned (issue 28).
    pub fn contract_uses(&self, id: NodeId) -> Vec<(std::rc::Rc<str>, Option<crate::term::Sym>)> {
        let path = self.tree.path(id);
        let mut out: Vec<(std::rc::Rc<str>, Option<crate::term::Sym>)> = Vec::new();
        for (k, &n) in path.iter().enumerate() {
            let node = self.tree.node(n);
            if let Some(Tag::UseContract(f)) = &node.tag {
                out.push((f.clone(), None));
            }
            if node.label() == Some(super::label::USE_RESULT) {
                let bound = path.get(k + 1).and_then(|&c| {
                    match self
                        .tree
                        .node(c)
                        .state
                        .frame()
                        .locals
                        .get(crate::lang::RESULT)
                    {
                        Some(t) => match t.kind() {
                            crate::term::TermKind::Var(s) => Some(s.clone()),
                            _ => None,
                        },
                        None => None,
                    }
                });
                if let Some(last) = out.last_mut() {
                    last.1 = bound;
                }
            }
        }
        out
    }
}
