//! The one integration-test binary (one binary keeps link time down).
//! Each module is one theme:

/// The adversarial rounds' shared checks against python3 (fuzz5, fuzz6).
mod adversarial;
/// The architecture invariants of docs/ARCHITECTURE.md: stage order, no import loops, z3
/// only in the solver, no IO in the pure stages, no file under src/ past 700 lines.
mod architecture;
/// `--assume EXPR` on run, check, testgen, exec and the debugger (issue 16, item 4).
mod assume;
/// Preconditions over generated programs: models satisfy them, no leaf lost against `assume`.
mod assume_gen;
/// Random programs (as text: odd spacing, parentheses, continuation lines) against python3:
/// exception lines and columns, `--entry` as import + call, predicates called from code.
mod audit_positions;
/// The book's results for its examples (find, method frames, bounds).
mod book;
/// `symdbg check`: exhaustiveness and precision (the book's chapter 001 results).
/// Issue 16: run's summary names the bounds that cut paths.
mod bounds_summary;
mod check;
/// Issue 28: `--calls inline` and `--calls contract` agree on every input (python3 too).
mod contract_agree;
/// Issue 28: `check --calls contract` (abstract leaves, broken and weak contracts).
mod contract_check;
/// Issue 28: generated contracted programs against python3 (the soundness rule).
mod contract_gen;
/// Issue 28: `testgen` on contracted programs (both `--calls` modes) under real pytest.
mod contract_testgen;
/// Issue 28: `requires`/`ensures` contracts, their use at calls and their proofs.
mod contracts;
/// Issue 29: symbolic coverage against python3's line tracing, --coverage, --json, --lcov.
mod coverage;
/// Issue 29: coverage of the fold corpora and examples under `--fold auto` and `off`,
/// against python3's line tracing.
mod coverage_corpus;
/// Issue 29: symbolic coverage under `--fold auto` (folded loop and recursion bodies).
mod coverage_fold;
/// Issue 26: `symdbg dap`, the Debug Adapter Protocol server, through its stdin/stdout.
mod dap;
/// Issue 26, the client side: tests/dap's protocol tests (`DebugClient` driving `symdbg dap`
/// under `node --test`), the VS Code extension (unit tests, `vsce package`), the README's
/// editor snippets against the launch schema.
mod dap_client;
/// Issue 29, `symdbg diff`: one-token mutants against python3, exit codes, --json.
mod diff;
/// Issue 29, `symdbg diff` on printing programs and `diff --pytest` (real pytest).
mod diff_print;
/// Differential tests against python3: the corpus in tests/data/programs and the examples.
mod differential;
/// Issue 30: the first counterexample whatever the branch order (`run --first`, `e`).
mod directed;
/// The engine's API for front-ends: step, step over, finish frame, run to a line, limits.
mod engine_api;
/// Issue 23, the command line: misspelt commands, `check`'s exit code and minimal
/// counterexamples, `exec`'s traceback, `run`'s progress line, constant loops, natural order.
mod everyday;
/// `symdbg exec`: JSON shape, outcomes, exit codes, errors for bad inputs/files.
mod exec;
/// `Engine::explain`: unsat cores checked outside Z3, features of unknown leaves, cancel.
mod explain;
/// Issue 25's expressions: every short slice against python3 (rule, term, model, solver),
/// membership terms, conditional expressions in the engine.
mod expressions;
/// Compact symbolic execution: folded loops against unrolling and the interpreter.
mod fold;
/// Issue 31: an undecided fold leaf falls back to unrolling; fold and unroll find the
/// same bugs on the corpora.
mod fold_fallback;
/// Two-parameter templates of `for` loops (issue 27): the loop target assigned on both
/// paths, against python3 on a box, `check`, `testgen` and generated `for` loops.
mod fold_for_multi;
/// Issues 30, 31: leaf models below several folds: minimal, replayed, independent of the
/// time limit (`solver/bounded.rs`).
mod fold_models;
/// Two-parameter templates (issue 27, seed 004 §6): two-path loops against the
/// interpreter, classic unrolling and python3.
mod fold_multi;
/// Nested-loop templates (issue 27): outer loops over summed inner loops against the
/// interpreter, classic unrolling and python3.
mod fold_nested;
/// Recursion templates (issue 27): folded recursion against the interpreter and python3.
mod fold_rec;
mod fold_rec_two;
/// Issue 25, `for` loops: generated programs against python3, check, folds, invariants,
/// the loop head in the debugger, diagnostics.
mod for_loops;
/// fuzz4: an adversarial corpus against python3 (unrolled and folded), DAP bad input.
mod fuzz4;
/// fuzz5: a second adversarial corpus against python3, check, testgen, diff and coverage.
mod fuzz5;
/// fuzz6: a third adversarial corpus against python3, check, testgen, diff and coverage,
/// and hostile inputs fuzz5 did not try.
mod fuzz6;
/// Generator of random well-typed programs (shared by property tests).
mod gen;
/// `src/check.rs`'s exhaustiveness and precision over generated programs, with shrinking.
mod gen_check;
/// Hostile programs under time and memory limits: every limit ends cleanly.
mod hostile;
/// Issue 22 items 2, 4, 5, 6, 9: huge models, session restore, memory, folds, NFKC.
mod hostile_caps;
/// The files symdbg writes (never a user's), write errors, escaped user text, CPython's
/// compile-time refusals (issue 22 items 1, 7, 8, 10; issue 23 item 2).
mod hostile_files;
/// Hostile input for the front-end and the terminal: bursts, signals, control characters.
mod hostile_front;
/// The verdict rule for `invariant` loops over generated programs, against python3.
mod invariant_gen;
/// Broken invariants in the outputs: the failing line and column, models with the havoc'd
/// values, counterexamples that say whether they reproduce; the TUI's model pane.
mod invariant_reports;
/// The verdict rule over a family of programs (break/continue in else, except, havoc ×
/// initially valid / preserved / use case × module / function), checked with python3.
mod invariant_soundness;
/// Invariant-annotated loops: verifying programs and their one-token mutants.
mod invariants;
/// `check --jobs N`: the sequential output on every program; limits, panics, cancel.
mod jobs;
/// `check --jobs 2` == `--jobs 1` over the whole test suite (ignored) and a CI part.
mod jobs_campaign;
/// Issue 31, one model path: a leaf with a model in `run` has one in testgen and check.
mod model_path;
/// `testgen`'s mutation score on generated programs and a hand-written corpus (issue 31).
mod mutation;
/// Issue 29, value origins: every node of the example trees, structurally; each construct.
mod origins;
/// Front-end on files: diagnostics snapshots, round trips, generated programs.
mod parse;
/// Issue 25's `print`: generated programs that print against python3 (interpreter, every
/// leaf's stdout, `check`), `run --json`'s stdout items, exec, diagnostics, folds, sessions.
mod print;
/// Issue 25's `print` in the views: the debugger's pane, `--tree`, testgen's `capsys`
/// tests and their one-token mutants.
mod print_views;
/// The README's console blocks: every shown command prints what the README shows.
mod readme;
/// `symdbg run`: the --json schema, --dot, --counterexamples, exit codes.
mod run;
/// What several debugger tests read off the harness (status line, message).
mod screen;
/// Issue 29: the README's origins excerpt, origins box and coverage gutter.
mod showme_readme;
/// The solver's time limit (watchdog), Ctrl-C, minimal counterexamples, on the binary.
mod solver_limits;
/// The symbolic engine against python3: leaf models replayed, random inputs hit one leaf.
mod symbolic;
/// `symdbg testgen`: generated pytest files pass under real pytest, mutants fail some,
/// jsonl replay round-trips.
mod testgen;
/// `testgen`'s preference checks reuse earlier answers: the same tests (solver/prefer.rs).
mod testgen_cost;
/// Issue 25: testgen's pytest files pass on example programs and fail on exactly the
/// one-token mutants python3 tells apart on the tests' inputs (survivors counted).
mod testgen_mutants;
/// insta snapshots of `symdbg run --tree` for every example.
mod trees;
/// Issue 10: `--entry` as `import`, predicates as Python, exception columns, small ones.
mod trust;
/// The terminal UI: frame snapshots (TestBackend), refusals before the screen opens.
mod tui;
/// Preconditions in the TUI: `a` adds one and re-explores, `A` removes, bad ones refused.
mod tui_assume;
/// The terminal UI's key scenarios: keys in, app state and frame out.
mod tui_breaks;
mod tui_carry;
/// The real `symdbg FILE` in a pseudo-terminal: step, run, exception leaf, model, theme, quit.
mod tui_e2e;
/// Issue 16: `:` evaluate at a node, `W` watches, conditional breakpoints.
mod tui_eval;
/// Issue 23: the raising frame's store, the message log, busy keys, one parser for `W`.
mod tui_everyday;
/// Folded loops in the TUI: `F` and `=` (issue 15).
mod tui_fold;
/// Issue 23 item 10: gdb's habits: break at a typed line or function, run to cursor,
/// catch caught exceptions, frames up/down from any pane.
mod tui_gdb;
mod tui_keys;
/// The TUI's value origins (`O`): the box of origin chains, going to an origin's node.
mod tui_origins;
/// Issue 16 item 7: path conditions as people read them, sideways scrolling, the hint
/// line at 80×24.
mod tui_readable;
/// Issue 16: reload the program (`L`) when it changed on disk.
mod tui_reload;
/// Issue 29: `L` reports how the reloaded program's behaviour changed (session::diff).
mod tui_reload_diff;
/// Issue 16: save a session (`S`) and restore it (`--session`).
mod tui_session;
/// The TUI's why: origins in the path pane, pruned ghost rows (`p`), explanations (`w`).
mod tui_why;
/// What several modules share: running the real binary, python3 with pytest.
mod util;
/// Issue 12's engine half: successor tags, provenance, pruned branches, caught exceptions.
mod why_engine;
