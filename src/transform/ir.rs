//! The engine's input: a structured IR in which every call of a user function is its own
//! instruction.
//!
//! The IR keeps minipy's structure (blocks, if, while, try, method frames, loop scopes) and
//! its expressions ([`Expr`]), but expressions no longer contain calls of user functions:
//! [`crate::transform::lower`] hoists them into [`InstrKind::Call`] instructions that assign
//! temporaries (`$1`, `$2`, ...), in Python's evaluation order and respecting short-circuit.
//! Builtins (`len`, `abs`, `min`, `max`), predicates and quantifiers stay in expressions:
//! they are formulas. Every instruction keeps the span of the source statement it came from.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use crate::base::{ExcClass, Span};
use crate::lang::{Expr, Type};

/// A sequence of instructions, shared between the IR and the engine's continuations.
pub type Block = Rc<[Instr]>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instr {
    pub kind: InstrKind,
    /// The source statement this instruction implements.
    pub span: Span,
    /// Which step of a loop's verification this instruction is, marked where the form is
    /// built ([`crate::transform::loop_form`]); `None` for the program's own instructions.
    /// The engine names these steps from it (successor tags, node labels).
    pub form: Option<FormStep>,
}

/// The steps of a loop's verification (the loop-scope form of a `while` with invariants,
/// and the check an unrolled annotated loop runs before every test).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormStep {
    /// The form's first `CheckInvariant`: is the invariant initially valid?
    InitialCheck,
    /// The `CheckInvariant` an unrolled loop runs before every test of its guard.
    TestCheck,
    /// A form's `havoc` of what the loop assigns.
    Havoc,
    /// The form's `assume Inv`.
    Assume,
    /// The form's `if guard:` inside the loop scope (an arbitrary iteration's test).
    Guard,
    /// The `continue` that ends the then-branch: the arbitrary iteration is over.
    IterationEnd,
    /// The `pass` of the else-branch: the loop ends (the use case).
    UseCase,
    /// A contracted function's body (see `transform/contract.rs`): the check of its
    /// `requires` lines on entry (inline).
    Requires,
    /// The method frame that runs the body (its `return e` assigns `result`).
    ContractFrame,
    /// The check of the `ensures` lines when the body returned.
    Ensures,
    /// The `return result` after the contract's last step.
    ContractReturn,
    /// The proof of a contract: `assume` a `requires` line.
    AssumeRequires,
    /// A use of the contract at a call: the check of `requires` under the arguments.
    UseRequires,
    /// A use of the contract: `result` becomes a fresh symbol `f@n`.
    UseResult,
    /// A use of the contract: `assume` an `ensures` line.
    AssumeEnsures,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstrKind {
    /// `x: int` at module level: `x` becomes a symbolic input.
    Declare {
        name: String,
        ty: Type,
    },
    /// `x = e` (also augmented assignments, as `x = x op e`).
    Assign {
        target: String,
        value: Expr,
    },
    /// A call of a user function: push a frame, run its body, bind `target` on return.
    Call {
        target: Option<String>,
        func: String,
        args: Vec<Expr>,
        /// The call expression `f(...)` (where a `RecursionError` is raised; its name,
        /// at the start, is where a `NameError` is).
        at: Span,
    },
    /// Look a callee up: CPython does it before it evaluates the arguments, so where the
    /// arguments contain calls (hoisted before the [`InstrKind::Call`]) this comes first.
    /// A defined function passes silently (no step); an undefined one raises NameError at
    /// its name, `at`.
    Lookup {
        func: String,
        at: Span,
    },
    /// An expression statement without calls (evaluated for its exceptions).
    Eval(Expr),
    /// `print(args)` with call-free arguments: evaluated left to right, then one line
    /// of output (the items' `str`s joined by spaces) is appended to the path's output.
    Print(Vec<Expr>),
    /// Raise `class` at `at` where `cond` holds, else go on: a `for` loop's
    /// `range(start, stop, step)` with a step that may be zero raises `ValueError` at
    /// the call, after its arguments are evaluated (see `transform/lower/for_loop.rs`).
    RaiseIf {
        cond: Expr,
        class: ExcClass,
        at: Span,
    },
    Pass,
    Break,
    Continue,
    Return(Option<Expr>),
    /// `assert cond`; `at` is where a failure is raised (where CPython 3.11 marks it:
    /// [`crate::semantics::assert_position`] of the source condition).
    Assert {
        cond: Expr,
        at: Span,
    },
    Assume(Expr),
    /// The loop-scope form's `assume Inv`: like `Assume`, but where evaluating the
    /// invariant would raise, the path is dropped as well. Sound: the initial and the
    /// preservation checks report such states as invariant failures, so no reachable loop
    /// head has one (a raise here would be a false alarm, and a catchable one).
    AssumeInvariant(Expr),
    /// `havoc x`: `x` gets a fresh value of its type. `keep_unbound` (the havocs of a loop's
    /// invariant form): if `x` may be unbound here it stays possibly unbound (the engine
    /// keeps a definedness flag), so reading it can still raise NameError/UnboundLocalError.
    Havoc {
        name: String,
        keep_unbound: bool,
    },
    /// Check a loop's invariant lines, in order (the span of each is where it fails). A
    /// failure is a verification verdict, not a Python exception: it ends the path as an
    /// exception leaf that no `except` catches, at the failing line. Also an exception
    /// raised while evaluating a line ends the path that way (the program without its
    /// annotations never evaluates them).
    CheckInvariant(Vec<Expr>),
    If {
        cond: Expr,
        then: Block,
        orelse: Block,
    },
    /// `guard` runs before every evaluation of `cond` (it computes the temporaries the
    /// condition needs when the source condition contains calls).
    While {
        guard: Block,
        cond: Expr,
        invariants: Vec<Expr>,
        body: Block,
        orelse: Option<Block>,
        /// For a loop with invariants: the book's loop-scope form (assert the invariant,
        /// havoc what the loop assigns, assume the invariant, one abstract iteration in a
        /// loop scope). The engine runs it instead of unrolling when asked to.
        abstraction: Option<Block>,
        /// For a loop with invariants: `[CheckInvariant(invariants)]`, run before every
        /// evaluation of the guard when the loop is unrolled (where the concrete
        /// interpreter checks them).
        check: Option<Block>,
    },
    Try {
        body: Block,
        handlers: Vec<Handler>,
    },
    /// A `def` statement: from here on the function's name is bound (Python binds at run time).
    Def(String),
    MethodFrame {
        result: String,
        body: Block,
    },
    /// The book's loop scope. `invs`: the invariant's conjuncts (one per `invariant` line),
    /// checked when a `continue` reaches the scope (preserved: `halt`; violated: an
    /// uncatchable invariant failure at the failing conjunct). `orelse` runs when the body
    /// completes normally (the loop's guard was false), outside the scope: a `break` or
    /// `continue` in a loop's `else` belongs to the enclosing loop.
    LoopScope {
        invs: Vec<Expr>,
        body: Block,
        orelse: Option<Block>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handler {
    /// `None` for a bare `except:`.
    pub class: Option<String>,
    pub body: Block,
    pub span: Span,
}

/// A user function with its lowered body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    pub name: String,
    pub params: Vec<(String, Type)>,
    pub ret: Option<Type>,
    pub body: Block,
    /// The `def` line.
    pub span: Span,
    /// A function with `requires`/`ensures` lines: its other bodies (`body` is the inline
    /// one, which checks the contract as the concrete interpreter does).
    pub contract: Option<ContractBodies>,
}

/// The bodies of a contracted function besides the inline one (`transform/contract.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractBodies {
    /// Prove the contract (`--entry f`): assume `requires`, run the body, check `ensures`.
    pub proof: Block,
    /// Use the contract at a call: check `requires`, a fresh `result`, assume `ensures`.
    pub use_: Block,
    /// The body prints, or calls a function that may: a contract says nothing of what a
    /// call prints, so its calls are always inlined (no choice; see `transform/contract.rs`).
    pub prints: bool,
}

/// A `@predicate`: a formula `body` over `params`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Predicate {
    pub name: String,
    pub params: Vec<(String, Type)>,
    pub body: Expr,
}

/// A lowered program.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Program {
    /// The module body.
    pub body: Block,
    /// The `--assume` preconditions (see [`crate::lang::Program::preconditions`]): run
    /// before `body` in a module run, before the entry function's body at the entry call
    /// in an `--entry` run.
    pub preconditions: Block,
    pub functions: BTreeMap<String, Function>,
    pub predicates: BTreeMap<String, Predicate>,
    /// The hidden variables of the `for` loops' `while` forms (`$i`, `$i.stop`,
    /// `$x_index`, ...; see [`is_for_var`]) with their types: no program can name them,
    /// views hide them (they are temporaries), and the fold's head state needs their sorts.
    pub for_vars: BTreeMap<String, Type>,
}

/// Whether a variable name is an IR temporary (hidden from the user's view of the store).
pub fn is_temp(name: &str) -> bool {
    name.starts_with('$')
}

/// Whether a variable is one of the hidden variables of a `for` loop's `while` form: `$`
/// and an identifier (other temporaries are `$1`, `$2`, ... and flags `$?x`).
pub fn is_for_var(name: &str) -> bool {
    name.strip_prefix('$')
        .and_then(|r| r.chars().next())
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The hidden builtin a tuple `for` loop reads its next element with: `$item(t, k)` is
/// `t[k]` for `0 <= k < len(t)`, which the loop's guard ensures, so it never raises.
pub const ITEM: &str = "$item";

/// The store key of a variable's definedness flag: after a loop's `havoc` (see
/// [`InstrKind::Havoc`]) a variable that may be unbound has, next to its value, this
/// entry holding a Bool term "it is bound". A temporary's name, so views hide it.
pub fn bound_flag_key(name: &str) -> String {
    format!("$?{name}")
}

/// Names assigned anywhere in a block (Python's rule for a function's locals).
pub fn assigned_names(block: &[Instr], out: &mut BTreeSet<String>) {
    for i in block {
        match &i.kind {
            InstrKind::Assign { target, .. } => {
                out.insert(target.clone());
            }
            InstrKind::Call {
                target: Some(t), ..
            } => {
                out.insert(t.clone());
            }
            InstrKind::Havoc { name, .. } => {
                out.insert(name.clone());
            }
            InstrKind::Declare { name, .. } => {
                out.insert(name.clone());
            }
            InstrKind::MethodFrame { result, body } => {
                out.insert(result.clone());
                assigned_names(body, out);
            }
            InstrKind::If { then, orelse, .. } => {
                assigned_names(then, out);
                assigned_names(orelse, out);
            }
            InstrKind::While {
                guard,
                body,
                orelse,
                ..
            } => {
                assigned_names(guard, out);
                assigned_names(body, out);
                if let Some(o) = orelse {
                    assigned_names(o, out);
                }
            }
            InstrKind::Try { body, handlers } => {
                assigned_names(body, out);
                for h in handlers {
                    assigned_names(&h.body, out);
                }
            }
            InstrKind::LoopScope { body, orelse, .. } => {
                assigned_names(body, out);
                if let Some(o) = orelse {
                    assigned_names(o, out);
                }
            }
            _ => {}
        }
    }
}
