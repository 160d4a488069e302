//! symdbg: an interactive symbolic debugger for minipy, a statically typed subset of Python.
//!
//! The crate is laid out as a pipeline, one module per stage (see `docs/ARCHITECTURE.md`):
//!
//! - [`lang`]: pest grammar, AST with spans, pretty printer, type checker.
//! - [`semantics`]: the operator rules (Python's `//`, `%`, indexing, exception classes)
//!   shared by the concrete interpreter and the symbolic engine.
//! - [`transform`]: checked AST → the engine's IR (calls hoisted into instructions).
//! - [`concrete`]: the concrete interpreter with CPython's semantics (one input, one run).
//! - [`base`]: shared vocabulary (spans, escaping, exception classes).
//! - [`term`]: the formulas the engine builds, SMT-LIB, models and their evaluation.
//! - [`engine`]: the symbolic engine.
//! - [`solver`]: feasibility checks and models with Z3; the only module that names `z3`.
//! - [`session`]: one [`session::Session`] per program between the engine and every client:
//!   run policies, node views, replay.
//! - [`check`]: the book's exhaustiveness and precision tests (engine vs concrete runs).
//! - [`testgen`]: one test per leaf (pytest text or JSON lines), cross-checked concretely.
//! - [`diagnostics`]: errors about the program as data, rendered rustc-style.
//! - [`files`]: reading a program file and writing every file symdbg writes, for both
//!   front-ends.
//! - [`cli`]: the command line (`symdbg exec`, ...); with [`tui`] and [`files`], the only
//!   stages that do IO.
//! - [`tui`]: the terminal debugger (`symdbg FILE`): ratatui panes over an engine thread.
//! - [`dap`]: `symdbg dap`, the Debug Adapter Protocol server for editors.

/// std's `eprintln!` panics when stderr cannot be written (`2>/dev/full`, a full disk, a
/// closed terminal): this one writes what it can and goes on. Defined before the modules,
/// it (and `eprint!`) stands in for std's in the whole crate. A failed write is recorded
/// in [`STDERR_LOST`]: the command line then exits 2 where it would exit 0 (issue 22 item 7).
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stderr(), $($arg)*).is_err() {
            $crate::STDERR_LOST.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }};
}

/// std's `eprint!` without its panic (see `eprintln!` above).
macro_rules! eprint {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if write!(std::io::stderr(), $($arg)*).is_err() {
            $crate::STDERR_LOST.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }};
}

/// Set when `eprintln!`/`eprint!` could not write their text to stderr (a message lost).
pub static STDERR_LOST: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub mod base;
pub mod check;
pub mod cli;
pub mod concrete;
pub mod dap;
pub mod diagnostics;
pub mod engine;
pub mod files;
pub mod lang;
pub mod semantics;
pub mod session;
pub mod solver;
pub mod term;
pub mod testgen;
pub mod transform;
pub mod tui;
