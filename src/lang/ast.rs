//! The minipy abstract syntax tree.
//!
//! Every statement and expression carries a [`Span`] (byte offsets into the source; turn it
//! into line/column with [`crate::base::SourceMap`]). The tree is plain data: the parser
//! builds it, the type checker reads it, the pretty printer prints it back to source that
//! parses to the same tree (modulo spans, see [`Program::without_spans`]), and the
//! interpreters execute it.

use num_bigint::BigInt;

use crate::base::span::Span;

mod walk;

/// The three value types of minipy (plus `None` for procedures, see [`FunctionDef::ret`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    Int,
    Bool,
    Tuple,
}

impl Type {
    /// The name used in source annotations: `int`, `bool`, `tuple`.
    pub fn name(self) -> &'static str {
        match self {
            Type::Int => "int",
            Type::Bool => "bool",
            Type::Tuple => "tuple",
        }
    }
}

impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name with the place it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A whole module: its top-level statements in order (function definitions included, since
/// Python binds a function only when its `def` runs).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Program {
    pub body: Vec<Stmt>,
    /// Preconditions given on the command line (`--assume EXPR`, see
    /// [`crate::lang::assume`]): `assume` statements run first, before the module body in a
    /// module run, or in the entry function's frame before its body in an `--entry` run (at
    /// the entry call only, not at the function's other calls). Their spans are virtual
    /// ([`crate::base::span::VIRTUAL_BASE`]). Empty for a parsed file.
    pub preconditions: Vec<Stmt>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    /// From the first character of the statement to the end of its header line (compound
    /// statements) or of the statement (simple statements).
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StmtKind {
    /// `x: int` at module level without a value: declares a symbolic input.
    Declare {
        name: Ident,
        ty: Type,
    },
    /// `x = e`, or `x: int = e` when `ann` is set.
    Assign {
        target: Ident,
        ann: Option<Type>,
        value: Expr,
    },
    /// `x += e` (and `-= *= //= %=`); `op` is the arithmetic operator.
    AugAssign {
        target: Ident,
        op: BinOp,
        value: Expr,
    },
    /// An expression statement, e.g. a call `f(x)`.
    Expr(Expr),
    /// `print(e1, e2, ...)` (default `sep` and `end`; `print()` prints an empty line): a
    /// statement of its own, never a value. Its arguments are ints, bools and tuples,
    /// evaluated left to right; the line is their `str`s joined by spaces.
    Print(Vec<Expr>),
    Pass,
    Break,
    Continue,
    Return(Option<Expr>),
    Assert(Expr),
    /// `if c1: b1 elif c2: b2 ... else: orelse`; `branches` has at least one entry.
    If {
        branches: Vec<(Expr, Vec<Stmt>)>,
        orelse: Option<Vec<Stmt>>,
    },
    /// `while cond:` with optional leading `invariant e` lines and an optional `else:`.
    While {
        cond: Expr,
        invariants: Vec<Expr>,
        body: Vec<Stmt>,
        orelse: Option<Vec<Stmt>>,
    },
    /// `for target in iter:` with optional leading `invariant e` lines and an optional
    /// `else:`. `iter` is a call `range(stop)`, `range(start, stop)` or
    /// `range(start, stop, step)` ([`range_args`]), or an expression of type `tuple`
    /// (the type checker refuses anything else). Evaluated once, before the first
    /// iteration.
    For {
        target: Ident,
        iter: Expr,
        invariants: Vec<Expr>,
        body: Vec<Stmt>,
        orelse: Option<Vec<Stmt>>,
    },
    /// `try: body` followed by one or more `except [Name]:` handlers.
    Try {
        body: Vec<Stmt>,
        handlers: Vec<Handler>,
    },
    FunctionDef(FunctionDef),
    /// `havoc x`: forget the value of `x`.
    Havoc(Ident),
    /// `assume e`: add `e` to the path condition.
    Assume(Expr),
    /// `method-frame(result=x):` block: run the block as a callee body, `return e` assigns `x`.
    MethodFrame {
        result: Ident,
        body: Vec<Stmt>,
    },
    /// `loop-scope(inv=e):` block, the book's loop scope.
    LoopScope {
        inv: Expr,
        body: Vec<Stmt>,
    },
}

/// One `except [Name]:` clause. `class` is `None` for a bare `except:`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handler {
    pub class: Option<Ident>,
    pub body: Vec<Stmt>,
    /// The `except ...:` header line.
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    pub name: Ident,
    pub ty: Type,
}

/// `def name(params) -> ret:` at module level. `predicate` is set by `@predicate`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionDef {
    pub name: Ident,
    pub params: Vec<Param>,
    /// `None` when the function has no `-> T` annotation or says `-> None`.
    pub ret: Option<Type>,
    pub body: Vec<Stmt>,
    pub predicate: bool,
    /// The `requires` / `ensures` lines that start the body (issue 28).
    pub contract: Contract,
}

/// A function's contract: `requires e` and `ensures e` lines at the top of its body (not
/// Python: symdbg's annotations, like `invariant`). In `ensures`, [`RESULT`] names the
/// return value. The concrete interpreter checks `requires` when the function is entered
/// and `ensures` when it returns; the engine can use the contract at a call instead of
/// the body, and proves it for `--entry f`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Contract {
    pub requires: Vec<Expr>,
    pub ensures: Vec<Expr>,
}

impl Contract {
    pub fn is_empty(&self) -> bool {
        self.requires.is_empty() && self.ensures.is_empty()
    }
}

/// Which part of a contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Clause {
    Requires,
    Ensures,
}

impl Clause {
    /// The keyword (also the JSON name): `requires`, `ensures`.
    pub fn name(self) -> &'static str {
        match self {
            Clause::Requires => "requires",
            Clause::Ensures => "ensures",
        }
    }

    /// "precondition" / "postcondition".
    pub fn noun(self) -> &'static str {
        match self {
            Clause::Requires => "precondition",
            Clause::Ensures => "postcondition",
        }
    }
}

/// A contract line that does not hold: "precondition of f violated".
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ContractFailure {
    pub clause: Clause,
    pub function: String,
}

impl std::fmt::Display for ContractFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} of {} violated", self.clause.noun(), self.function)
    }
}

/// The name of the return value in `ensures` lines.
pub const RESULT: &str = "result";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExprKind {
    Int(BigInt),
    Bool(bool),
    Name(String),
    /// `()`, `tuple()`, `(x,)`, `(1, 2, 3)`.
    Tuple(Vec<Expr>),
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    /// Arithmetic (and tuple concatenation for `+`).
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `and` / `or`, short-circuiting. Chains are left-nested.
    BoolOp {
        op: BoolOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `a < b <= c`: `first` then one or more `(op, operand)`; each operand is evaluated once.
    Compare {
        first: Box<Expr>,
        rest: Vec<(CmpOp, Expr)>,
    },
    /// `t[i]`.
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    /// `t[lo:hi:step]`, each part optional (`t[:]`, `t[a:]`, `t[::-1]`); Python's clamping,
    /// never an `IndexError`; a zero step raises `ValueError`.
    Slice {
        base: Box<Expr>,
        lo: Option<Box<Expr>>,
        hi: Option<Box<Expr>>,
        step: Option<Box<Expr>>,
    },
    /// `then if cond else orelse`: `cond` first, then only the chosen side.
    IfExp {
        cond: Box<Expr>,
        then: Box<Expr>,
        orelse: Box<Expr>,
    },
    /// A call of a user function or of a builtin (`len`, `abs`, `min`, `max`).
    Call {
        func: Ident,
        args: Vec<Expr>,
    },
    /// `all(body for var in range(lo, hi))` / `any(...)`; `lo` is `None` for `range(hi)`.
    Quantifier {
        kind: Quantifier,
        var: Ident,
        lo: Option<Box<Expr>>,
        hi: Box<Expr>,
        body: Box<Expr>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Pos,
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    FloorDiv,
    Mod,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoolOp {
    And,
    Or,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `x in t` (an `int` in a `tuple`); never an operator of a term (see `Term::member`).
    In,
    /// `x not in t`.
    NotIn,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Quantifier {
    All,
    Any,
}

impl UnaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Pos => "+",
            UnaryOp::Not => "not",
        }
    }
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
        }
    }
}

impl BoolOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BoolOp::And => "and",
            BoolOp::Or => "or",
        }
    }
}

impl CmpOp {
    /// `in` / `not in`: an `int` and a `tuple`, not two values of one type.
    pub fn is_membership(self) -> bool {
        matches!(self, CmpOp::In | CmpOp::NotIn)
    }

    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::In => "in",
            CmpOp::NotIn => "not in",
        }
    }
}

impl Quantifier {
    pub fn name(self) -> &'static str {
        match self {
            Quantifier::All => "all",
            Quantifier::Any => "any",
        }
    }
}

/// The arguments of a `for` loop's `range(...)` (one to three of them: `stop`, `start,
/// stop` or `start, stop, step`), if `iter` is such a call (not counting its arguments).
pub fn range_args(iter: &Expr) -> Option<&[Expr]> {
    match &iter.kind {
        ExprKind::Call { func, args } if func.name == "range" => Some(args),
        _ => None,
    }
}

/// The name that denotes a `for x in t` loop's position (the index of the element the
/// next iteration takes: `0` before the first, `len(t)` after the last) in the loop's
/// `invariant` lines: `x_index`.
pub fn for_index_name(target: &str) -> String {
    format!("{target}_index")
}

/// The builtin functions of minipy.
pub const BUILTINS: &[&str] = &["len", "abs", "min", "max"];

/// Names minipy's syntax gives a meaning of its own (`all(... for k in range(...))`,
/// `tuple()`, annotations). With [`BUILTINS`], no definition, variable or parameter may take
/// them (CPython lets a program shadow them; minipy refuses rather than reading one name two
/// ways; `print(...)` is a statement, [`StmtKind::Print`]). Other names of Python's builtins
/// (`sum`, `str`, …) are ordinary names here.
pub const RESERVED: &[&str] = &["all", "any", "range", "tuple", "int", "bool", "print"];

/// A builtin or reserved name ([`BUILTINS`], [`RESERVED`]).
pub fn is_builtin_name(name: &str) -> bool {
    BUILTINS.contains(&name) || RESERVED.contains(&name)
}
