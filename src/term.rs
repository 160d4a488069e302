//! The engine's term language: symbolic values and path conditions, independent of Z3.
//!
//! A [`Term`] is an immutable tree shared through `Rc`: cloning is a pointer copy, equality
//! is structural (with a pointer shortcut), and every node caches its hash, so terms key
//! hash maps cheaply (the solver's answer cache does exactly that). Terms are only built
//! through the smart constructors (`Term::add`, `Term::and`, ...; see `term/build.rs`), which
//! simplify on the fly: constants are folded with [`crate::semantics`] (Python's `//` and
//! `%`), neutral elements and double negations disappear, `and`/`or` flatten, `len` and
//! indexing see through tuple displays.
//!
//! Three renderings: `Display` prints minipy syntax (`x + 1 < len(t)`), [`Term::to_smt2`]
//! prints SMT-LIB with Python's `//`, `%` and negative indices encoded exactly, and
//! [`smt2_declarations`] declares the free symbols. The solver (the only module that names
//! Z3) translates terms itself; the engine never sees a Z3 type.

mod build;
pub mod features;
mod intern;
pub use intern::TermMap;
#[cfg(test)]
mod limits_tests;
/// Compact symbolic execution (issue 15): linear forms, quantifier elimination, substitution.
pub mod linear;
pub mod model;
mod pc;
mod print;
pub mod qe;
mod seq;
mod smt2;
mod subst;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::rc::Rc;

use num_bigint::BigInt;

use crate::concrete::Value;
use crate::lang::ast::{CmpOp, Type};

pub use build::segments;
pub use model::{LongTuple, Model, EVAL_RANGE_LIMIT, MODEL_TUPLE_LIMIT};
pub use pc::{Index as PcIndex, Mirror, PathCondition};
pub use print::display_name;
pub use seq::slice_bounds;
pub use smt2::{smt2_declarations, uses_py_slice, PY_SLICE_DEFINITION};

/// The sort of a term. `Seq` is a minipy tuple, SMT-LIB `(Seq Int)`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Sort {
    Int,
    Bool,
    Seq,
}

impl Sort {
    /// The sort of values of a minipy type.
    pub fn of_type(ty: Type) -> Sort {
        match ty {
            Type::Int => Sort::Int,
            Type::Bool => Sort::Bool,
            Type::Tuple => Sort::Seq,
        }
    }

    /// The minipy type of values of this sort.
    pub fn to_type(self) -> Type {
        match self {
            Sort::Int => Type::Int,
            Sort::Bool => Type::Bool,
            Sort::Seq => Type::Tuple,
        }
    }
}

/// A symbolic constant: an input (`x`, `t`) or a fresh havoc value (`x!1`).
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Sym {
    pub name: Rc<str>,
    pub sort: Sort,
}

impl Sym {
    pub fn new(name: &str, sort: Sort) -> Sym {
        Sym {
            name: Rc::from(name),
            sort,
        }
    }
}

impl std::fmt::Display for Sym {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

/// An immutable symbolic term. Cheap to clone; compared and hashed structurally (the hash
/// is computed once, when the node is built).
#[derive(Clone)]
pub struct Term(Rc<Node>);

struct Node {
    kind: TermKind,
    sort: Sort,
    hash: u64,
    /// Levels from this node down to its deepest leaf (1 for a leaf), saturating.
    depth: u32,
    /// Nodes of the term written out as a tree (shared subterms counted each time),
    /// saturating.
    size: u64,
    /// Some integer constant in the term has more than [`MAX_INT_BITS`] bits.
    too_large: bool,
    /// The term holds a quantifier (`all`/`any` over a range).
    quantified: bool,
}

/// The largest integer constant the engine computes with: 2^18 bits, about 79,000 decimal
/// digits (the concrete interpreter's limit too). Constant folding never multiplies or
/// divides a longer one, so no computation costs more than a product of two such; a step
/// that would build a longer one ends its path as an `unknown` leaf (see `engine::eval`).
pub const MAX_INT_BITS: u64 = crate::semantics::MAX_INT_BITS;

/// The deepest term a step may produce: every walk over terms (printing, SMT-LIB, the
/// translation to Z3, evaluation under a model, dropping) recurses once per level, and this
/// many levels fit the engine threads' stacks (256 MiB or more) with a wide margin. A step
/// that would build a deeper one ends its path as an `unknown` leaf.
pub const MAX_TERM_DEPTH: u32 = 20_000;

/// The largest tuple term a step may build, in nodes written out as a tree. A tuple's
/// parts are read as a tree (`segments`, `Term::len`, printing), so `t = t + t` repeated,
/// a DAG of a few nodes, would cost 2^k; appends cost three nodes per element, so this
/// allows tuples of some 350,000 appended elements (the depth limit cut them at 20,000).
pub const MAX_TUPLE_TREE: u64 = 1 << 20;

/// The largest term printed in full: in minipy syntax ([`std::fmt::Display`]) a term of
/// more nodes written out as a tree, in SMT-LIB ([`Term::to_smt2`], which names shared
/// subterms with `let`) a term of more distinct subterms, prints as
/// `…(term too large to print: N nodes)` instead. (Sharing makes a term of a few hundred
/// nodes stand for an exponentially large tree, e.g. `y = y // x + y` repeated.)
pub const MAX_PRINTED_NODES: u64 = 10_000;

/// What a term too large to print prints as.
pub fn too_large_to_print(nodes: u64) -> String {
    format!("…(term too large to print: {nodes} nodes)")
}

/// The shape of a term; read it with [`Term::kind`], build it with the smart constructors.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TermKind {
    Int(BigInt),
    Bool(bool),
    Var(Sym),
    Neg(Term),
    Add(Term, Term),
    Sub(Term, Term),
    Mul(Term, Term),
    /// Python's flooring `//`; only meaningful when the divisor is not 0.
    FloorDiv(Term, Term),
    /// Python's `%` (sign of the divisor); only meaningful when the divisor is not 0.
    Mod(Term, Term),
    Abs(Term),
    Min(Term, Term),
    Max(Term, Term),
    Not(Term),
    /// At least two conjuncts, none of them an `And` or a constant.
    And(Vec<Term>),
    /// At least two disjuncts, none of them an `Or` or a constant.
    Or(Vec<Term>),
    Ite(Term, Term, Term),
    /// `Eq`/`Ne` on any sort (both operands of the same sort), the orderings on `Int`.
    Cmp(CmpOp, Term, Term),
    SeqEmpty,
    SeqUnit(Term),
    /// Nested either way (an append `t + (x,)` nests to the left, so it costs one node
    /// and not a copy of `t`'s spine); [`segments`] reads the parts in order.
    Concat(Term, Term),
    Len(Term),
    /// Python indexing, negative indices included; meaningful when `-len <= i < len`.
    Index(Term, Term),
    /// Python's `t[lo:hi:step]` (a missing bound is `None`; see `term/seq.rs`);
    /// meaningful when `step != 0`.
    Slice(Term, Option<Term>, Option<Term>, Term),
    /// `all(body for var in range(lo, hi))`: (var, lo, hi, body).
    Forall(Sym, Term, Term, Term),
    /// `any(body for var in range(lo, hi))`: (var, lo, hi, body).
    Exists(Sym, Term, Term, Term),
}

impl TermKind {
    /// Call `f` on each direct subterm (a quantifier's: its bounds, then its body).
    pub fn for_each_child<'a>(&'a self, mut f: impl FnMut(&'a Term)) {
        use TermKind::*;
        match self {
            Int(_) | Bool(_) | Var(_) | SeqEmpty => {}
            Neg(a) | Abs(a) | Not(a) | SeqUnit(a) | Len(a) => f(a),
            Add(a, b)
            | Sub(a, b)
            | Mul(a, b)
            | FloorDiv(a, b)
            | Mod(a, b)
            | Min(a, b)
            | Max(a, b)
            | Cmp(_, a, b)
            | Concat(a, b)
            | Index(a, b) => {
                f(a);
                f(b);
            }
            And(xs) | Or(xs) => xs.iter().for_each(f),
            Ite(a, b, c) | Forall(_, a, b, c) | Exists(_, a, b, c) => {
                f(a);
                f(b);
                f(c);
            }
            Slice(t, lo, hi, step) => {
                f(t);
                if let Some(lo) = lo {
                    f(lo);
                }
                if let Some(hi) = hi {
                    f(hi);
                }
                f(step);
            }
        }
    }

    /// Move the direct subterms out into `out` (leaving a leaf behind).
    fn take_children(&mut self, out: &mut Vec<Term>) {
        let kind = std::mem::replace(self, TermKind::SeqEmpty);
        kind.for_each_child(|c| out.push(c.clone()));
    }

    fn sort(&self) -> Sort {
        use TermKind::*;
        match self {
            Int(_) | Neg(_) | Add(..) | Sub(..) | Mul(..) | FloorDiv(..) | Mod(..) | Abs(_)
            | Min(..) | Max(..) | Len(_) | Index(..) => Sort::Int,
            Bool(_) | Not(_) | And(_) | Or(_) | Cmp(..) | Forall(..) | Exists(..) => Sort::Bool,
            Var(s) => s.sort,
            Ite(_, a, _) => a.sort(),
            SeqEmpty | SeqUnit(_) | Concat(..) | Slice(..) => Sort::Seq,
        }
    }
}

impl Term {
    /// A node as it is, without the smart constructors' simplifications (tests that build
    /// terms the way substitution leaves them: `0 + 1 + κ1 * 2 + 3`).
    #[cfg(test)]
    pub fn mk_for_tests(kind: TermKind) -> Term {
        Term::mk(kind)
    }

    /// Wrap a node without simplifying (the smart constructors call this last).
    fn mk(kind: TermKind) -> Term {
        let mut h = DefaultHasher::new();
        kind.hash(&mut h);
        let sort = kind.sort();
        let mut depth = 0u32;
        let mut size = 1u64;
        let mut too_large = matches!(&kind, TermKind::Int(i) if i.bits() > MAX_INT_BITS);
        let mut quantified = matches!(&kind, TermKind::Forall(..) | TermKind::Exists(..));
        kind.for_each_child(|c| {
            depth = depth.max(c.0.depth);
            size = size.saturating_add(c.0.size);
            too_large |= c.0.too_large;
            quantified |= c.0.quantified;
        });
        let node = Node {
            hash: h.finish(),
            sort,
            depth: depth.saturating_add(1),
            size,
            too_large,
            quantified,
            kind,
        };
        if size <= intern::MAX_SIZE && intern::internable(&node.kind) {
            intern::intern(node)
        } else {
            Term(Rc::new(node))
        }
    }

    /// Are both the same node (not only equal)? For tests of sharing.
    pub fn ptr_eq(&self, other: &Term) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    /// Levels from the root to the deepest leaf (1 for a constant or a symbol).
    pub fn depth(&self) -> u32 {
        self.0.depth
    }

    /// How many nodes the term has written out as a tree (a subterm shared by two parents
    /// counts twice), saturating at `u64::MAX`.
    pub fn tree_size(&self) -> u64 {
        self.0.size
    }

    /// Does the term hold an integer constant of more than [`MAX_INT_BITS`] bits?
    pub fn too_large(&self) -> bool {
        self.0.too_large
    }

    /// Does the term hold a quantifier (`all`/`any` over a range) anywhere?
    pub fn has_quantifier(&self) -> bool {
        self.0.quantified
    }

    /// Why a step may not produce this term, if it may not: an integer constant too large,
    /// a term too deep or a tuple too large (see [`MAX_INT_BITS`], [`MAX_TERM_DEPTH`],
    /// [`MAX_TUPLE_TREE`]).
    pub fn limit_exceeded(&self) -> Option<String> {
        if self.too_large() {
            Some(format!("integer too large (more than {MAX_INT_BITS} bits)"))
        } else if self.depth() > MAX_TERM_DEPTH {
            Some(format!(
                "expression too deep (more than {MAX_TERM_DEPTH} levels)"
            ))
        } else if self.sort() == Sort::Seq && self.tree_size() > MAX_TUPLE_TREE {
            Some(format!(
                "tuple too large (a term of more than {MAX_TUPLE_TREE} nodes written out)"
            ))
        } else {
            None
        }
    }

    pub fn kind(&self) -> &TermKind {
        &self.0.kind
    }

    pub fn sort(&self) -> Sort {
        self.0.sort
    }

    /// The structural hash cached in the node (equal terms have equal codes).
    pub fn hash_code(&self) -> u64 {
        self.0.hash
    }

    pub fn is_true(&self) -> bool {
        matches!(self.kind(), TermKind::Bool(true))
    }

    pub fn is_false(&self) -> bool {
        matches!(self.kind(), TermKind::Bool(false))
    }

    pub fn as_int(&self) -> Option<&BigInt> {
        match self.kind() {
            TermKind::Int(i) => Some(i),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.kind() {
            TermKind::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The elements of a tuple display whose elements are all constants, e.g. `(1, 2)`.
    pub fn as_tuple(&self) -> Option<Vec<BigInt>> {
        if !matches!(
            self.kind(),
            TermKind::SeqEmpty | TermKind::SeqUnit(_) | TermKind::Concat(..)
        ) {
            return None;
        }
        build::segments(self)
            .into_iter()
            .map(|s| match s.kind() {
                TermKind::SeqUnit(x) => x.as_int().cloned(),
                _ => None,
            })
            .collect()
    }

    /// A concrete value as a constant term.
    pub fn from_value(v: &Value) -> Term {
        match v {
            Value::Int(i) => Term::int(i.clone()),
            Value::Bool(b) => Term::bool(*b),
            Value::Tuple(items) => Term::tuple(items.iter().cloned().map(Term::int).collect()),
        }
    }

    /// The free symbols of the term (quantifier-bound variables excluded), added to `out`.
    /// Each distinct subterm is visited once per quantifier scope (terms share subterms:
    /// written out as trees they can be exponentially large), without recursion.
    pub fn vars(&self, out: &mut BTreeSet<Sym>) {
        // (the common leaves, without the work list)
        match self.kind() {
            TermKind::Var(s) => {
                out.insert(s.clone());
                return;
            }
            TermKind::Int(_) | TermKind::Bool(_) => return,
            _ if self.tree_size() <= 64 && self.vars_small(out) => return,
            _ => {}
        }
        // Scopes: the variables bound around a subterm; scope 0 binds none.
        let mut scopes: Vec<Vec<Sym>> = vec![Vec::new()];
        let mut seen: std::collections::HashSet<(Term, usize)> = Default::default();
        let mut todo = vec![(self.clone(), 0usize)];
        while let Some((t, scope)) = todo.pop() {
            if !seen.insert((t.clone(), scope)) {
                continue;
            }
            match t.kind() {
                TermKind::Var(s) => {
                    if !scopes[scope].contains(s) {
                        out.insert(s.clone());
                    }
                }
                TermKind::Forall(v, lo, hi, body) | TermKind::Exists(v, lo, hi, body) => {
                    todo.push((lo.clone(), scope));
                    todo.push((hi.clone(), scope));
                    let mut inner = scopes[scope].clone();
                    inner.push(v.clone());
                    scopes.push(inner);
                    todo.push((body.clone(), scopes.len() - 1));
                }
                kind => kind.for_each_child(|c| todo.push((c.clone(), scope))),
            }
        }
    }
}

impl Term {
    /// [`Term::vars`] of a small term by recursion, without the work list's allocations;
    /// `false` if a quantifier was met (the symbols added so far are free all the same).
    fn vars_small(&self, out: &mut BTreeSet<Sym>) -> bool {
        match self.kind() {
            TermKind::Var(s) => {
                out.insert(s.clone());
                true
            }
            TermKind::Forall(..) | TermKind::Exists(..) => false,
            kind => {
                let mut ok = true;
                kind.for_each_child(|c| ok = ok && c.vars_small(out));
                ok
            }
        }
    }
}

/// Dropping a deep term would recurse once per level: past a few thousand levels the
/// subterms that die with the node are taken apart with a work list instead.
impl Drop for Node {
    fn drop(&mut self) {
        if self.depth < 2_000 {
            return;
        }
        let mut todo = Vec::new();
        self.kind.take_children(&mut todo);
        while let Some(t) = todo.pop() {
            if let Ok(mut node) = Rc::try_unwrap(t.0) {
                node.kind.take_children(&mut todo);
                // `node` now holds a leaf: dropping it does not recurse.
            }
        }
    }
}

impl PartialEq for Term {
    fn eq(&self, other: &Term) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
            || (self.0.hash == other.0.hash && self.0.kind == other.0.kind)
    }
}

impl Eq for Term {}

impl Hash for Term {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.hash);
    }
}

/// `Term(x + 1 < len(t))`: the minipy rendering, which is what one wants in test failures.
impl std::fmt::Debug for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Term({self})")
    }
}

/// The negation of a comparison operator (`not a < b` is `a >= b`, also for `==`/`!=`).
pub fn negate_cmp(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
        CmpOp::In => CmpOp::NotIn,
        CmpOp::NotIn => CmpOp::In,
    }
}
