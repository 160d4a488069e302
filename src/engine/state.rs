//! The symbolic state a SET node holds: stores, call stack, path condition, continuation.
//!
//! Everything here is persistent (structurally shared): a child state is its parent's with
//! a few changes, so cloning a state is a handful of reference-count bumps and a tree of
//! 50k nodes shares almost all of its stores. Stores are `rpds` red-black maps (ordered, so
//! dumps are deterministic); the path condition and the continuation are `Rc` linked lists.

use std::rc::Rc;

use rpds::RedBlackTreeMap;

use crate::base::ExcClass;
use crate::base::Span;
use crate::term::Term;
use crate::transform::ir::Block;

/// A variable store: name → symbolic value. A variable that a loop's `havoc` left possibly
/// unbound also has an entry [`crate::transform::ir::bound_flag_key`] (`$?x`) holding the
/// Bool term "x is bound"; assigning `x` removes it.
pub type Env = RedBlackTreeMap<Rc<str>, Term>;

/// One activation of a user function (or the module).
#[derive(Clone, Debug)]
pub struct Frame {
    /// `None` for the module frame.
    pub func: Option<Rc<str>>,
    pub locals: Env,
    /// The call instruction that created the frame.
    pub call_site: Option<Span>,
}

/// An abrupt completion on its way through the continuation.
#[derive(Clone, Debug)]
pub enum Abrupt {
    Break,
    Continue,
    Return(Option<Term>),
    Exception(ExcClass, Span),
    /// A loop invariant failed (or raised while being evaluated): a verification verdict
    /// that no handler catches and no frame unwinds; the path ends where it failed.
    Invariant(ExcClass, Span),
}

/// One item of the continuation: what remains to be done, innermost first.
#[derive(Clone, Debug)]
pub enum Kont {
    /// Run `block[index..]`.
    Block { block: Block, index: usize },
    /// Inside the `while` at `block[index]`.
    /// (`index` is a `u32` and `counts` 12 bytes: the item stays in 32 bytes.)
    Loop {
        block: Block,
        index: u32,
        counts: LoopCounts,
    },
    /// The guard block of the `while` at `block[index]` is running; then its condition.
    /// (The [`Kont::Loop`] below it holds the loop's counts.)
    Guard { block: Block, index: usize },
    /// Inside the `try` at `block[index]` (its handlers catch what reaches here).
    Try { block: Block, index: usize },
    /// A function frame boundary: on return, pop the frame and bind `target` in the caller.
    /// `entry`: the frame of an entry run's function (its return ends the path).
    Return {
        target: Option<Rc<str>>,
        entry: bool,
    },
    /// An entry run: after the module's top level, call this function with symbolic
    /// arguments.
    EnterEntry { func: Rc<str> },
    /// A `continue` reached the loop scope at `block[index]`: check its invariant next.
    ScopeCheck { block: Block, index: usize },
    /// A hand-written `method-frame(result=x)`: `return e` assigns `x`.
    MethodFrame { result: Rc<str> },
    /// Inside the `loop-scope` at `block[index]`.
    LoopScope { block: Block, index: usize },
    /// An exception was caught by a `try`'s handler: a visible step (its own node), which
    /// then runs the handler. (Boxed: the rarest and largest item; every other item fits
    /// in 24 bytes, and one continuation item is allocated per node.)
    Caught(Box<Caught>),
    /// A recursion fold's `[T, κ]` record (seed 004 §5.2, issue 27): directly above a
    /// frame's [`Kont::Return`], it stands for κ frames of the same function that return
    /// one after the other; a returned value passing through it becomes `v + add`.
    Folded(Rc<FoldedCalls>),
}

/// What a [`Kont::Folded`] record stands for.
#[derive(Clone, Debug)]
pub struct FoldedCalls {
    /// The fold's parameter κ (how many recursive calls the record stands for).
    pub kappa: crate::term::Sym,
    /// A two-parameter fold's λ (then it stands for κ + λ calls).
    pub lambda: Option<crate::term::Sym>,
    /// Added to a value returned through the κ frames (`None`: returned unchanged).
    pub add: Option<Term>,
}

/// What a path has done in one loop, for `--unroll` and its exemptions (issue 23 item 16,
/// [`crate::engine::forks`]), and how it runs the loop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoopCounts {
    /// The iterations that counted against `--unroll`.
    pub iteration: u32,
    /// The path condition's length when the current body started, modulo 2^16 (a body
    /// that adds exactly 65,536 conjuncts is taken for one that narrowed nothing: it is
    /// still bounded by [`crate::engine::CONCRETE_LOOP_LIMIT`]).
    pub pc_len: u16,
    /// The bodies started after a guard that was true as a constant (at most
    /// [`crate::engine::CONCRETE_LOOP_LIMIT`]).
    pub concrete: u16,
    /// The exempt bodies that narrowed the path condition without a fork (a test that
    /// only decided whether to leave the loop): past [`crate::engine::NARROWING_LIMIT`]
    /// they count.
    pub narrowed: u8,
    /// The current body started after a constant guard and has not counted yet.
    pub exempt: bool,
    /// One iteration chosen at a loop with invariants (`LoopMode::UnrollOnce`): when
    /// the body ends (or `continue`s), the `while` runs again, a choice node again.
    pub once: bool,
}

/// An exception (`class`, raised at `at`) caught by the `handler`-th handler of the `try`
/// at `block[index]`.
#[derive(Clone, Debug)]
pub struct Caught {
    pub block: Block,
    pub index: usize,
    pub handler: usize,
    pub class: ExcClass,
    pub at: Span,
}

/// A persistent stack of continuation items.
#[derive(Clone, Debug, Default)]
pub struct Cont(Option<Rc<(Kont, Cont)>>);

impl Cont {
    pub fn push(&self, k: Kont) -> Cont {
        Cont(Some(Rc::new((k, self.clone()))))
    }

    pub fn top(&self) -> Option<&Kont> {
        self.0.as_ref().map(|n| &n.0)
    }

    pub fn pop(&self) -> Cont {
        self.0.as_ref().map_or_else(Cont::default, |n| n.1.clone())
    }

    /// The item under the top one.
    pub fn second(&self) -> Option<&Kont> {
        self.0.as_ref().and_then(|n| n.1.top())
    }

    /// The identity of the top item's cell (items are shared between the states derived
    /// from one another until a state replaces them).
    pub fn top_id(&self) -> Option<usize> {
        self.0.as_ref().map(|n| Rc::as_ptr(n) as *const () as usize)
    }
}

/// Dropping a long list would recurse once per item: unlink the items that die with it.
impl Drop for Cont {
    fn drop(&mut self) {
        let mut cur = self.0.take();
        while let Some(rc) = cur {
            match Rc::try_unwrap(rc) {
                Ok((_, mut rest)) => cur = rest.0.take(),
                Err(_) => break,
            }
        }
    }
}

pub use crate::term::PathCondition;

/// A persistent call stack: pushing, popping and cloning are O(1), so the nodes of a deep
/// recursion share their callers' frames instead of each holding a copy of the stack
/// (which made memory grow with the square of the depth).
#[derive(Clone, Debug, Default)]
pub struct Frames {
    /// The innermost frame and the frames below it.
    head: Option<Rc<(Frame, Frames)>>,
    len: usize,
}

impl Frames {
    /// A stack of one frame (the module's, or an entry run's).
    pub fn new(bottom: Frame) -> Frames {
        let mut f = Frames::default();
        f.push(bottom);
        f
    }

    /// How many frames are active.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The innermost frame.
    pub fn last(&self) -> Option<&Frame> {
        self.head.as_ref().map(|n| &n.0)
    }

    /// The innermost frame, for writing (copied first if another state shares it).
    pub fn last_mut(&mut self) -> Option<&mut Frame> {
        self.head.as_mut().map(|n| &mut Rc::make_mut(n).0)
    }

    pub fn push(&mut self, frame: Frame) {
        let below = std::mem::take(self);
        *self = Frames {
            len: below.len + 1,
            head: Some(Rc::new((frame, below))),
        };
    }

    /// Pop the innermost frame (nothing on an empty stack).
    pub fn pop(&mut self) {
        if let Some(n) = self.head.take() {
            *self = n.1.clone();
        }
    }

    /// The frames, outermost first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Frame> {
        let mut out = Vec::with_capacity(self.len);
        let mut cur = &self.head;
        while let Some(n) = cur {
            out.push(&n.0);
            cur = &n.1.head;
        }
        out.into_iter().rev()
    }
}

/// A complete symbolic state.
#[derive(Clone, Debug)]
pub struct State {
    pub globals: Env,
    /// The call stack; `frames[0]` is the module frame (or the entry frame of an entry run).
    pub frames: Frames,
    /// Functions whose `def` has run. (Behind an `Rc`: an `rpds` map is 24 bytes, this 8,
    /// and a state of at most 88 bytes fits a smaller allocation; `def`s are rare.)
    pub defined: Rc<RedBlackTreeMap<Rc<str>, ()>>,
    pub pc: PathCondition,
    pub cont: Cont,
    /// An abrupt completion being propagated (only between a step and settling; boxed:
    /// every node holds a state, and settled states hold none).
    pub abrupt: Option<Box<Abrupt>>,
    /// How many `havoc`s this path has done (names fresh symbols `x!1`, `x!2`, ...).
    pub fresh: u32,
    /// What the path has printed so far.
    pub output: Output,
}

/// What a path has printed: a persistent list of lines (appending and cloning are O(1),
/// so a child state shares its parent's output). A line is the printed items as terms
/// (ints, bools and tuples); its text under a model is `semantics::print_line` of their
/// values. Output is behaviour, not a fork: a `print` adds a line and nothing to the path
/// condition.
#[derive(Clone, Debug, Default)]
pub struct Output(Option<Rc<OutputCell>>);

#[derive(Debug)]
struct OutputCell {
    line: Rc<[Term]>,
    before: Output,
    /// Lines up to and including this one.
    len: usize,
}

impl Output {
    /// This output followed by one more line.
    pub fn push(&self, items: Vec<Term>) -> Output {
        Output(Some(Rc::new(OutputCell {
            line: Rc::from(items),
            before: self.clone(),
            len: self.len() + 1,
        })))
    }

    /// The same lines (the same cells)?
    pub fn ptr_eq(&self, other: &Output) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }

    /// How many lines were printed.
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |c| c.len)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// The lines, first printed first.
    pub fn lines(&self) -> Vec<Rc<[Term]>> {
        let mut out = Vec::with_capacity(self.len());
        let mut cur = &self.0;
        while let Some(c) = cur {
            out.push(c.line.clone());
            cur = &c.before.0;
        }
        out.reverse();
        out
    }
}

/// Dropping a long output would recurse once per line: unlink the lines that die with it.
impl Drop for Output {
    fn drop(&mut self) {
        let mut cur = self.0.take();
        while let Some(rc) = cur {
            match Rc::try_unwrap(rc) {
                Ok(mut cell) => cur = cell.before.0.take(),
                Err(_) => break,
            }
        }
    }
}

impl State {
    pub fn frame(&self) -> &Frame {
        self.frames.last().expect("a state always has a frame")
    }

    pub fn frame_mut(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("a state always has a frame")
    }

    /// The name of the function whose frame is innermost (`None`: module code).
    pub fn func(&self) -> Option<&Rc<str>> {
        self.frame().func.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lists_drop_without_recursion() {
        // On the test harness's small stack: recursive drops would overflow it (the path
        // condition's own test is in `term/pc.rs`).
        let mut cont = Cont::default();
        for _ in 0..1_000_000 {
            cont = cont.push(Kont::MethodFrame {
                result: Rc::from("r"),
            });
        }
        drop(cont);
        let mut output = Output::default();
        for k in 0..1_000_000 {
            output = output.push(vec![Term::int(k)]);
        }
        assert_eq!(output.len(), 1_000_000);
        drop(output);
    }

    #[test]
    fn output_lines_are_in_print_order_and_shared() {
        let a = Output::default().push(vec![Term::int(1)]);
        let b = a.push(vec![]);
        let c = a.push(vec![Term::bool(true), Term::int(2)]);
        assert_eq!(a.len(), 1);
        assert_eq!(
            b.lines().iter().map(|l| l.len()).collect::<Vec<_>>(),
            [1, 0]
        );
        assert_eq!(
            c.lines().iter().map(|l| l.len()).collect::<Vec<_>>(),
            [1, 2]
        );
        assert!(Output::default().is_empty() && !a.is_empty());
    }
}

#[cfg(test)]
mod sizes {
    use super::*;

    /// Every node holds a state, a node of the tree and their links: their sizes are the
    /// memory per node (issue 13, docs/PERFORMANCE.md). A field that grows them should be
    /// boxed if it is rare.
    #[test]
    fn per_node_structures_stay_small() {
        let sizes = [
            ("State", std::mem::size_of::<State>()),
            ("Node", std::mem::size_of::<crate::engine::Node>()),
            ("Kont", std::mem::size_of::<Kont>()),
            ("Abrupt", std::mem::size_of::<Abrupt>()),
            ("Tag", std::mem::size_of::<crate::engine::Tag>()),
            ("Span", std::mem::size_of::<Span>()),
        ];
        eprintln!("{sizes:?}");
        // (State and a continuation item are each one allocation per node: 88 + 16 and
        // 32 + 8 + 16 bytes fit glibc's 112- and 64-byte chunks. A node's statement is
        // computed from its state, not stored: 88 bytes, not 112.)
        assert!(sizes[0].1 <= 88, "{sizes:?}");
        assert!(sizes[1].1 <= 88, "{sizes:?}");
        assert!(sizes[2].1 <= 32, "{sizes:?}");
    }
}
