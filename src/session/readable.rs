//! Path conditions as people read them (issue 16 item 7): an index `t[i]` adds its bounds
//! check `-len(t) <= i and i < len(t)` to the branch it is on, so a loop's `t[i] == x`
//! reads `0 < len(t) and t[0] == x` right below the guard `0 < len(t)`, and three reads
//! `t[i - 1] + t[i] + t[i + 1]` add six bounds. The display drops the parts that other
//! parts imply and writes a bounds pair as one chain, `-len(t) <= i - 1 < len(t)`.
//!
//! Only the text changes: the engine's path condition, `run --json`'s `path_condition`,
//! cores and models are the conjuncts as they are.
//!
//! Soundness: a conjunct's *parts* are its top-level `and` operands. Part `q` *beats* part
//! `p` when `q` implies `p` syntactically ([`implies`]: the same term, or linear bounds
//! `e >= c` whose difference is a sum of `len(..)` and `abs(..)` terms, never negative; an
//! inequality `a != b` by a bound that implies `a - b >= 1` or `b - a >= 1`) and
//! `q` comes from an earlier conjunct, or from the same conjunct and is strictly stronger
//! (or as strong and earlier). Implication is a preorder, so "beats" has no cycle; a part
//! is dropped only when something beats it, and following beaters ends at a shown part
//! that implies it. The shown parts are therefore equivalent to the whole path condition.
//! A conjunct all of whose parts are dropped keeps its text and is marked `implied`. A part
//! `not (a and b)` whose `b` earlier parts imply is shown as `not a` (equivalent below
//! them).

use std::collections::{HashMap, HashSet};

use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

use super::Session;
use crate::engine::NodeId;
use crate::lang::ast::CmpOp;
use crate::term::{Sort, Term, TermKind as K, MAX_PRINTED_NODES};

/// How many earlier parts with the same shape are compared (the most recent ones): a
/// long path keeps its display linear in its length.
const RECENT: usize = 64;
/// A branch label is read below this many of the newest conjuncts before it (the guard
/// that implies a bounds check is nearly always among them; fewer only drops less).
const LABEL_CONTEXT: usize = 16;
/// A conjunct with more parts than this is compared with earlier conjuncts only.
const MAX_PARTS: usize = 64;
/// Larger terms are not decomposed (their text is printed as it is).
const MAX_NODES: u64 = 400;

/// One conjunct as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub text: String,
    /// Every part is implied by the others (the text is the conjunct's own).
    pub implied: bool,
}

/// A linear integer term `Σ coef·atom + constant`, atoms in a canonical order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Lin {
    terms: Vec<(Term, BigInt)>,
    constant: BigInt,
}

impl Lin {
    fn atom(t: &Term) -> Lin {
        Lin {
            terms: vec![(t.clone(), BigInt::one())],
            constant: BigInt::zero(),
        }
    }

    fn constant(c: BigInt) -> Lin {
        Lin {
            terms: Vec::new(),
            constant: c,
        }
    }

    fn scaled(mut self, k: &BigInt) -> Lin {
        for (_, c) in &mut self.terms {
            *c *= k;
        }
        self.constant *= k;
        self.terms.retain(|(_, c)| !c.is_zero());
        self
    }

    fn plus(mut self, other: Lin) -> Lin {
        for (t, c) in other.terms {
            match self.terms.iter_mut().find(|(u, _)| *u == t) {
                Some((_, d)) => *d += c,
                None => self.terms.push((t, c)),
            }
        }
        self.constant += other.constant;
        self.terms.retain(|(_, c)| !c.is_zero());
        self.terms.sort_by_key(|(t, _)| t.hash_code());
        self
    }

    fn of(t: &Term) -> Lin {
        match t.kind() {
            K::Int(n) => Lin::constant(n.clone()),
            K::Neg(a) => Lin::of(a).scaled(&-BigInt::one()),
            K::Add(a, b) => Lin::of(a).plus(Lin::of(b)),
            K::Sub(a, b) => Lin::of(a).plus(Lin::of(b).scaled(&-BigInt::one())),
            K::Mul(a, b) => match (a.as_int(), b.as_int()) {
                (Some(k), _) => Lin::of(b).scaled(k),
                (_, Some(k)) => Lin::of(a).scaled(k),
                _ => Lin::atom(t),
            },
            _ => Lin::atom(t),
        }
    }

    /// The terms that may be negative, with their coefficients (the shape of a bound).
    fn key(&self) -> Vec<(Term, BigInt)> {
        self.terms
            .iter()
            .filter(|(t, _)| !nonnegative(t))
            .cloned()
            .collect()
    }
}

/// `len(..)` and `abs(..)` are never negative.
fn nonnegative(t: &Term) -> bool {
    matches!(t.kind(), K::Len(_) | K::Abs(_))
}

/// A bound `lin >= 0`.
type Bound = Lin;

/// The bounds a part states (`a < b` is `b - a - 1 >= 0`; `a == b` two of them); none for
/// other parts.
fn bounds(t: &Term) -> Vec<Bound> {
    let K::Cmp(op, a, b) = t.kind() else {
        return Vec::new();
    };
    if a.sort() != Sort::Int || t.tree_size() > MAX_NODES {
        return Vec::new();
    }
    let diff = |x: &Term, y: &Term| Lin::of(x).plus(Lin::of(y).scaled(&-BigInt::one()));
    let one = || Lin::constant(-BigInt::one());
    match op {
        CmpOp::Le => vec![diff(b, a)],
        CmpOp::Lt => vec![diff(b, a).plus(one())],
        CmpOp::Ge => vec![diff(a, b)],
        CmpOp::Gt => vec![diff(a, b).plus(one())],
        CmpOp::Eq => vec![diff(b, a), diff(a, b)],
        CmpOp::Ne | CmpOp::In | CmpOp::NotIn => Vec::new(),
    }
}

/// The two ways `a != b` holds as bounds, `a - b - 1 >= 0` or `b - a - 1 >= 0` (a part is
/// implied when one of them is); none for other parts.
fn unequal(t: &Term) -> Vec<Bound> {
    let (a, b) = match t.kind() {
        K::Cmp(CmpOp::Ne, a, b) => (a, b),
        K::Not(x) => match x.kind() {
            K::Cmp(CmpOp::Eq, a, b) => (a, b),
            _ => return Vec::new(),
        },
        _ => return Vec::new(),
    };
    if a.sort() != Sort::Int || t.tree_size() > MAX_NODES {
        return Vec::new();
    }
    let diff = |x: &Term, y: &Term| {
        Lin::of(x)
            .plus(Lin::of(y).scaled(&-BigInt::one()))
            .plus(Lin::constant(-BigInt::one()))
    };
    vec![diff(a, b), diff(b, a)]
}

/// Does `q >= 0` imply `p >= 0`? When `p - q` is a constant `≥ 0` plus never-negative
/// terms with coefficients `≥ 0`.
fn bound_implies(q: &Bound, p: &Bound) -> bool {
    let d = p.clone().plus(q.clone().scaled(&-BigInt::one()));
    !d.constant.is_negative()
        && d.terms
            .iter()
            .all(|(t, c)| c.is_positive() && nonnegative(t))
}

/// Does part `q` imply part `p` (syntactically)?
pub fn implies(q: &Term, p: &Term) -> bool {
    implies_with((q, &bounds(q)), (p, &bounds(p)))
}

/// [`implies`] with each part's bounds computed already.
fn implies_with((q, qs): (&Term, &[Bound]), (p, ps): (&Term, &[Bound])) -> bool {
    q == p
        || (!ps.is_empty()
            && ps
                .iter()
                .all(|pb| qs.iter().any(|qb| bound_implies(qb, pb))))
        || unequal(p)
            .iter()
            .any(|pb| qs.iter().any(|qb| bound_implies(qb, pb)))
}

/// The top-level `and` operands of a conjunct (a fold's tidied for display:
/// [`super::readable_fold`]).
fn parts(t: &Term) -> Vec<Term> {
    raw_parts(t)
        .iter()
        .map(super::readable_fold::tidy)
        .collect()
}

fn raw_parts(t: &Term) -> Vec<Term> {
    match t.kind() {
        K::And(xs) if t.tree_size() <= MAX_PRINTED_NODES => xs.clone(),
        _ => vec![t.clone()],
    }
}

/// The parts seen so far, for "is this implied by an earlier part?".
#[derive(Default)]
struct Known {
    terms: HashSet<Term>,
    /// Bounds by the shape of their possibly negative terms, the newest last.
    bounds: HashMap<Vec<(Term, BigInt)>, Vec<Bound>>,
}

impl Known {
    fn add(&mut self, part: &Term) {
        self.terms.insert(part.clone());
        for b in bounds(part) {
            self.bounds.entry(b.key()).or_default().push(b);
        }
    }

    fn implies(&self, part: &Term) -> bool {
        if self.terms.contains(part) {
            return true;
        }
        // A disjunction is implied by what implies one of its disjuncts (a fold's
        // `κ2 <= 0 or -len(t) <= κ1 + 1` below `0 <= κ1`).
        if let K::Or(xs) = part.kind() {
            if xs.len() <= MAX_PARTS && xs.iter().any(|x| self.implies(x)) {
                return true;
            }
        }
        let known = |p: &Bound| {
            self.bounds
                .get(&p.key())
                .is_some_and(|qs| qs.iter().rev().take(RECENT).any(|q| bound_implies(q, p)))
        };
        let ps = bounds(part);
        (!ps.is_empty() && ps.iter().all(known)) || unequal(part).iter().any(known)
    }
}

/// Which parts of one conjunct are shown, given the earlier ones.
fn kept(known: &Known, parts: &[Term]) -> Vec<bool> {
    let n = parts.len();
    let bs: Vec<Vec<Bound>> = if n > MAX_PARTS {
        Vec::new()
    } else {
        parts.iter().map(bounds).collect()
    };
    let part = |k: usize| (&parts[k], bs[k].as_slice());
    (0..n)
        .map(|j| {
            if parts[j].is_true() || known.implies(&parts[j]) {
                return false;
            }
            n > MAX_PARTS
                || !(0..n).any(|k| {
                    k != j
                        && implies_with(part(k), part(j))
                        && (k < j || !implies_with(part(j), part(k)))
                })
        })
        .collect()
}

/// `a < b` or `a <= b` read left to right (`b > a` is `a < b`): (left, op, right).
fn ascending(t: &Term) -> Option<(Term, &'static str, Term)> {
    let K::Cmp(op, a, b) = t.kind() else {
        return None;
    };
    if a.sort() != Sort::Int {
        return None;
    }
    Some(match op {
        CmpOp::Lt => (a.clone(), "<", b.clone()),
        CmpOp::Le => (a.clone(), "<=", b.clone()),
        CmpOp::Gt => (b.clone(), "<", a.clone()),
        CmpOp::Ge => (b.clone(), "<=", a.clone()),
        _ => return None,
    })
}

/// One part as text: `not (-len(t) <= i < len(t))` for a negated bounds pair, an `or`
/// parenthesised (it is an operand of `and`).
fn part_text(t: &Term) -> String {
    match t.kind() {
        K::Not(x) if matches!(x.kind(), K::And(_)) && x.tree_size() <= MAX_PRINTED_NODES => {
            format!("not ({})", join(&parts(x)))
        }
        K::Or(_) if t.tree_size() <= MAX_PRINTED_NODES => format!("({t})"),
        _ => t.to_string(),
    }
}

/// Parts joined with `and`, neighbours that share an operand written as one chain
/// (`-len(t) <= i` and `i < len(t)`: `-len(t) <= i < len(t)`). (Every integer term prints
/// at or above `+`'s precedence, as a comparison's operand needs.)
fn join(parts: &[Term]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut j = 0;
    while j < parts.len() {
        let Some((a, op, b)) = ascending(&parts[j]) else {
            out.push(part_text(&parts[j]));
            j += 1;
            continue;
        };
        let mut links = vec![(op, b)];
        let mut k = j + 1;
        while let Some((x, op, y)) = parts.get(k).and_then(ascending) {
            if Some(&x) != links.last().map(|(_, b)| b) {
                break;
            }
            links.push((op, y));
            k += 1;
        }
        if links.len() == 1 {
            out.push(part_text(&parts[j]));
        } else {
            let mut chain = a.to_string();
            for (op, b) in links {
                chain = format!("{chain} {op} {b}");
            }
            out.push(chain);
        }
        j = k;
    }
    out.join(" and ")
}

/// The parts of a conjunct that are shown after the parts of `known` (empty: all implied).
fn shown_parts(known: &Known, conjunct: &Term) -> Vec<Term> {
    let ps: Vec<Term> = parts(conjunct).iter().map(|p| negated(known, p)).collect();
    let keep = kept(known, &ps);
    ps.into_iter()
        .zip(keep)
        .filter_map(|(p, k)| k.then_some(p))
        .collect()
}

/// `not (a and b)` where the earlier parts imply `b` means `not a` on this path (the
/// assert's failing branch below a bounds check that implies half of it).
fn negated(known: &Known, part: &Term) -> Term {
    let K::Not(x) = part.kind() else {
        return part.clone();
    };
    if !matches!(x.kind(), K::And(_)) || x.tree_size() > MAX_PRINTED_NODES {
        return part.clone();
    }
    let inner = parts(x);
    let rest: Vec<Term> = inner
        .iter()
        .filter(|q| !known.implies(q))
        .cloned()
        .collect();
    if rest.is_empty() || rest.len() == inner.len() {
        return part.clone();
    }
    Term::not(Term::and_all(rest))
}

/// One conjunct as shown, after the parts of `known`.
fn show(known: &Known, conjunct: &Term) -> Shown {
    let shown = shown_parts(known, conjunct);
    if shown.is_empty() {
        return Shown {
            text: join(&raw_parts(conjunct)),
            implied: true,
        };
    }
    Shown {
        text: join(&shown),
        implied: false,
    }
}

/// Every conjunct of a path condition as shown, each after the ones before it.
pub fn show_all(pc: &[Term]) -> Vec<Shown> {
    let mut known = Known::default();
    pc.iter()
        .map(|c| {
            let s = show(&known, c);
            for p in parts(c) {
                known.add(&p);
            }
            s
        })
        .collect()
}

/// A branch condition as shown below the path condition `before` it.
pub fn show_after(before: &[Term], branch: &Term) -> Shown {
    let mut known = Known::default();
    for c in before {
        for p in parts(c) {
            known.add(&p);
        }
    }
    show(&known, branch)
}

impl Session {
    /// The path condition of node `id`, one [`Shown`] per conjunct (same order and count as
    /// `Engine::path_condition`).
    pub fn path_shown(&self, id: NodeId) -> Vec<Shown> {
        show_all(&self.engine.path_condition(id))
    }

    /// The condition node `id`'s incoming edge added, as shown below its parent's path
    /// condition (`None` at the root or for an edge that added none).
    pub fn branch_shown(&self, id: NodeId) -> Option<String> {
        self.branch_shown_as(id).map(|s| s.text)
    }

    /// [`Session::branch_shown`], and whether the parts before it imply the condition.
    pub fn branch_shown_as(&self, id: NodeId) -> Option<Shown> {
        let node = self.tree().node(id);
        let branch = node.branch.as_ref()?;
        // (the newest conjuncts only: a tree's text stays linear in its depth)
        let before = node
            .parent
            .map(|p| self.tree().node(p).state.pc.newest(LABEL_CONTEXT))
            .unwrap_or_default();
        Some(show_after(&before, branch))
    }
}

#[cfg(test)]
#[path = "readable_tests.rs"]
mod tests;
