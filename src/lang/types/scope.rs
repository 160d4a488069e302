//! Binding sites of a scope and the fixpoint that gives each variable its type.
//!
//! A scope is the module or one function body. Python's rule decides what belongs to it:
//! the parameters plus every name bound anywhere in the body (nested blocks included,
//! nested `def`s excluded).

use std::collections::{BTreeMap, BTreeSet};

use super::{type_of, Signature};
use crate::base::Span;
use crate::lang::ast::{BinOp, Expr, FunctionDef, Ident, Stmt, StmtKind, Type, RESULT};

/// How a binding site gives its variable a value.
#[derive(Debug, Clone)]
pub(super) enum SiteKind<'a> {
    Param(Type),
    /// `x: int` (an input declaration).
    Declare(Type),
    /// `x = e` / `x: int = e`.
    Assign {
        ann: Option<Type>,
        value: &'a Expr,
    },
    /// `x += e`: needs a value of `x` already, so it does not define `x` by itself.
    Aug {
        op: BinOp,
        value: &'a Expr,
    },
    /// `method-frame(result=x)`: the frame's `return e` statements assign `x`.
    Frame {
        returns: Vec<&'a Expr>,
    },
    /// `havoc x`: needs `x` to exist; does not define it.
    Havoc,
    /// `for x in ...`: an `int` (an element of `range` or of a tuple of ints).
    Loop,
}

#[derive(Debug, Clone)]
pub(super) struct Site<'a> {
    pub name: &'a Ident,
    pub kind: SiteKind<'a>,
}

impl SiteKind<'_> {
    /// Whether the site gives the variable a value without reading it first.
    pub fn defines(&self) -> bool {
        !matches!(self, SiteKind::Aug { .. } | SiteKind::Havoc)
    }

    /// The type the site fixes without inference, if any.
    fn fixed_type(&self) -> Option<Type> {
        match self {
            SiteKind::Param(t) | SiteKind::Declare(t) => Some(*t),
            SiteKind::Loop => Some(Type::Int),
            SiteKind::Assign { ann, .. } => *ann,
            _ => None,
        }
    }
}

/// The variables of one scope.
#[derive(Debug, Default)]
pub(super) struct Scope {
    /// Every name the scope defines (parameters, declarations, `=`, method-frame results),
    /// with its type, `None` if it could not be inferred.
    pub vars: BTreeMap<String, Option<Type>>,
    /// Names the scope only ever updates (`x += 1`) or havocs, never defines.
    pub undefined_targets: BTreeSet<String>,
    /// Where each defined name is bound first (for "cannot infer" errors).
    pub first_site: BTreeMap<String, Span>,
}

impl Scope {
    /// The inferred type of a defined variable.
    pub fn ty(&self, name: &str) -> Option<Type> {
        self.vars.get(name).copied().flatten()
    }

    pub fn defines(&self, name: &str) -> bool {
        self.vars.contains_key(name)
    }
}

/// The binding sites of a function: its parameters, then the sites of its body.
pub(super) fn function_sites(f: &FunctionDef) -> Vec<Site<'_>> {
    let mut sites: Vec<Site<'_>> = f
        .params
        .iter()
        .map(|p| Site {
            name: &p.name,
            kind: SiteKind::Param(p.ty),
        })
        .collect();
    // `ensures` lines name the return value `result` (a parameter of that name is an
    // error, reported by the checker).
    if let Some(ret) = f.ret.filter(|_| !f.contract.ensures.is_empty()) {
        if !f.params.iter().any(|p| p.name.name == RESULT) {
            sites.push(Site {
                name: result_ident(),
                kind: SiteKind::Param(ret),
            });
        }
    }
    collect(&f.body, &mut sites);
    sites
}

/// The binding of `result` in a function with `ensures` lines.
fn result_ident() -> &'static Ident {
    static RESULT_IDENT: std::sync::OnceLock<Ident> = std::sync::OnceLock::new();
    RESULT_IDENT.get_or_init(|| Ident {
        name: RESULT.to_string(),
        span: Span::default(),
    })
}

/// Collect the binding sites of a block and its nested blocks, in source order, without
/// entering `def`s.
pub(super) fn collect<'a>(block: &'a [Stmt], out: &mut Vec<Site<'a>>) {
    for s in block {
        match &s.kind {
            StmtKind::Declare { name, ty } => out.push(Site {
                name,
                kind: SiteKind::Declare(*ty),
            }),
            StmtKind::Assign { target, ann, value } => out.push(Site {
                name: target,
                kind: SiteKind::Assign { ann: *ann, value },
            }),
            StmtKind::AugAssign { target, op, value } => out.push(Site {
                name: target,
                kind: SiteKind::Aug { op: *op, value },
            }),
            StmtKind::Havoc(name) => out.push(Site {
                name,
                kind: SiteKind::Havoc,
            }),
            StmtKind::For { target, .. } => out.push(Site {
                name: target,
                kind: SiteKind::Loop,
            }),
            StmtKind::MethodFrame { result, body } => {
                let mut returns = Vec::new();
                frame_returns(body, &mut returns);
                out.push(Site {
                    name: result,
                    kind: SiteKind::Frame { returns },
                });
            }
            _ => {}
        }
        for b in s.nested_blocks() {
            collect(b, out);
        }
    }
}

/// The values of the `return e` statements that belong to a method frame whose body is
/// `block` (not those of nested method frames).
fn frame_returns<'a>(block: &'a [Stmt], out: &mut Vec<&'a Expr>) {
    for s in block {
        match &s.kind {
            StmtKind::Return(Some(e)) => out.push(e),
            StmtKind::If { branches, orelse } => {
                for (_, b) in branches {
                    frame_returns(b, out);
                }
                if let Some(b) = orelse {
                    frame_returns(b, out);
                }
            }
            StmtKind::While { body, orelse, .. } | StmtKind::For { body, orelse, .. } => {
                frame_returns(body, out);
                if let Some(b) = orelse {
                    frame_returns(b, out);
                }
            }
            StmtKind::Try { body, handlers } => {
                frame_returns(body, out);
                for h in handlers {
                    frame_returns(&h.body, out);
                }
            }
            StmtKind::LoopScope { body, .. } => frame_returns(body, out),
            _ => {}
        }
    }
}

/// Give every variable of a scope its type.
///
/// Parameters, declarations and annotations fix a type outright (the first one in source
/// order wins; the checker reports the others if they disagree). The other variables get the
/// type of the first of their assignments whose value's type is known, repeated until
/// nothing changes, so the order of the assignments in the source does not matter. `outer`
/// gives the module variables when the scope is a function.
pub(super) fn solve(
    sites: &[Site<'_>],
    outer: Option<&Scope>,
    functions: &BTreeMap<String, Signature>,
) -> Scope {
    let mut scope = Scope::default();
    for site in sites {
        let name = &site.name.name;
        if site.kind.defines() && !scope.vars.contains_key(name) {
            scope.vars.insert(name.clone(), None);
            scope.first_site.insert(name.clone(), site.name.span);
        }
    }
    for site in sites {
        let name = &site.name.name;
        if !site.kind.defines() && !scope.vars.contains_key(name) {
            scope.undefined_targets.insert(name.clone());
        }
        if let Some(t) = site.kind.fixed_type() {
            let slot = scope.vars.get_mut(name).expect("defined above");
            slot.get_or_insert(t);
        }
    }
    loop {
        let mut changed = false;
        for site in sites {
            let name = &site.name.name;
            if scope.vars.get(name) != Some(&None) {
                continue;
            }
            let var = |n: &str| match scope.vars.get(n) {
                Some(t) => *t,
                None if scope.undefined_targets.contains(n) => None,
                None => outer.and_then(|o| o.ty(n)),
            };
            let found = match &site.kind {
                SiteKind::Assign { ann: None, value } => type_of(value, &var, functions),
                SiteKind::Aug {
                    op: BinOp::Add,
                    value,
                } => {
                    type_of(value, &var, functions).filter(|t| matches!(t, Type::Int | Type::Tuple))
                }
                SiteKind::Aug { .. } => Some(Type::Int),
                SiteKind::Frame { returns } => {
                    returns.iter().find_map(|e| type_of(e, &var, functions))
                }
                _ => None,
            };
            if let Some(t) = found {
                scope.vars.insert(name.clone(), Some(t));
                changed = true;
            }
        }
        if !changed {
            return scope;
        }
    }
}
