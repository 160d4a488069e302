//! Test generation: one test per leaf of an explored tree, as data and text (no IO).
//!
//! [`collect`] walks the leaves of an explored engine in node-id order. Every `normal`,
//! `return` and `exception` leaf with a model becomes a [`Test`]: the model's inputs (the
//! engine's models are minimal: shortest tuples, smallest ints, see `solver/minimize.rs`)
//! and the behaviour to expect. The expected behaviour is what symdbg's concrete
//! interpreter does on those inputs, cross-checked against what the leaf says (outcome,
//! exception class and line, final module variables or return value): a difference is an
//! engine bug, recorded in [`Test::disagreement`] (the test keeps the concrete result, the
//! CPython semantics). Every other leaf (`bound`, `unknown`, `infeasible`, no model, a model
//! whose concrete run exhausts the step budget) and every node left open is listed in
//! [`Suite::skipped`] with the reason.
//!
//! The tests run the program under real Python, so programs with verification statements
//! (`assume`, `havoc`, `loop-scope`, `method-frame`) are refused ([`refuse_non_python`]).
//! `invariant` lines are annotations of a loop: the tests run the program without them
//! (the pytest loader blanks them), as CPython would, and the caller explores
//! [`without_invariants`] of the program. `requires`/`ensures` lines (issue 28) are
//! checked as symdbg's interpreter checks them (the pytest loader turns them into checks
//! around the function); leaves below a use of a contract get a test only where their
//! model reproduces them ([`contracts`]). `@predicate` is Python syntax (the tests define
//! `predicate` as the identity decorator). Renderers: [`pytest`] (a pytest module that loads the program
//! from its path at test time) and [`jsonl`] (one object per test, replayed by
//! `symdbg exec --replay`).

pub mod contracts;
pub mod jsonl;
pub mod pytest;
mod python;
pub mod regression;

pub use python::{has_invariants, refuse_non_python, without_invariants};

use std::collections::{BTreeMap, BTreeSet};

use crate::base::bindings::bindings;
use crate::base::span::Line;
use crate::base::SourceMap;
use crate::session::program::{outcome_text, ConcreteConfig, RunResult};
use crate::session::{FoldParam, NodeId, NodeModel, Outcome, Session, Value};

/// What a test expects of one run: how it ends and the values it leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expect {
    /// `normal`, `return` or `exception` (for a leaf: also `bound`, ...; for a concrete run
    /// also `step_limit`, ...).
    pub outcome: String,
    /// The exception class (`AssertionError`).
    pub exception: Option<String>,
    /// The 1-based line where the exception was raised (innermost frame).
    pub line: Option<usize>,
    /// Module runs: the final module variables (at the raise, for an exception). Entry
    /// runs: empty.
    pub store: BTreeMap<String, Value>,
    /// Entry runs that return: the returned value (`None`: the function returned `None`).
    pub return_value: Option<Value>,
    /// What the run printed (CPython's stdout), up to where it ended.
    pub stdout: String,
}

impl Expect {
    /// The expectation of a concrete run (module run, or entry run when `entry`).
    pub fn of_run(r: &RunResult, source: &SourceMap, entry: bool) -> Expect {
        let exception = r.outcome.exception().map(|c| c.name().to_string());
        Expect {
            outcome: r.outcome.name().to_string(),
            line: exception
                .as_ref()
                .and(r.exception_at)
                .map(|s| source.line(s.start)),
            exception,
            store: if entry {
                BTreeMap::new()
            } else {
                r.store.clone()
            },
            return_value: if entry { r.return_value.clone() } else { None },
            stdout: r.stdout.clone(),
        }
    }

    /// For people: `exception AssertionError at line 23, x = -1` or `return 3`.
    pub fn describe(&self) -> String {
        let mut s = self.outcome.clone();
        if let Some(e) = &self.exception {
            s.push_str(&format!(" {e}"));
        }
        if let Some(l) = self.line {
            s.push_str(&format!(" at line {l}"));
        }
        if self.outcome == "return" {
            let v = self
                .return_value
                .as_ref()
                .map_or("None".to_string(), Value::to_string);
            s.push_str(&format!(" {v}"));
        }
        if !self.store.is_empty() {
            s.push_str(&format!(", {}", bindings(&self.store)));
        }
        if !self.stdout.is_empty() {
            s.push_str(&format!(", prints {:?}", self.stdout));
        }
        s
    }

    /// The test-name suffix: `normal`, `return`, or the exception class in snake case
    /// (`assertion_error`).
    pub fn name_suffix(&self) -> String {
        match &self.exception {
            Some(class) => snake_case(class),
            None => self.outcome.clone(),
        }
    }
}

/// One generated test.
#[derive(Clone, Debug)]
pub struct Test {
    pub leaf: NodeId,
    /// `test_leaf7_assertion_error`.
    pub name: String,
    /// The model's inputs (module inputs, or the entry function's parameters).
    pub inputs: BTreeMap<String, Value>,
    /// The concrete interpreter's behaviour on `inputs`.
    pub expect: Expect,
    /// What the leaf said, when it differs from `expect` (an engine bug).
    pub disagreement: Option<Expect>,
    /// The leaf's path condition, as Python-like text (`x <= 1 and -x < 0`).
    pub path_condition: String,
    /// The source lines the concrete run executed.
    pub lines: BTreeSet<usize>,
    /// The folds on the leaf's path (`--fold auto`): the model's κ and the real count.
    pub folds: Vec<FoldParam>,
}

impl Test {
    /// A fold whose model κ is not the concrete run's iteration count (an engine bug).
    pub fn wrong_kappa(&self) -> Option<&FoldParam> {
        self.folds.iter().find(|f| !f.agrees())
    }
}

/// A leaf (or open node) without a test, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub node: NodeId,
    /// The line of the node's statement (or of its exception).
    pub line: Option<usize>,
    pub reason: String,
}

/// The tests of one exploration.
#[derive(Clone, Debug)]
pub struct Suite {
    /// The program has a `print`: the tests assert what each run prints.
    pub prints: bool,
    /// The `--entry` function, if any.
    pub entry: Option<String>,
    /// The `--assume` preconditions of the exploration: every test's inputs satisfy them.
    pub assumptions: Vec<String>,
    pub tests: Vec<Test>,
    pub skipped: Vec<Skipped>,
}

impl Suite {
    /// The tests whose leaf disagreed with the concrete interpreter.
    pub fn disagreements(&self) -> impl Iterator<Item = &Test> {
        self.tests
            .iter()
            .filter(|t| t.disagreement.is_some() || t.wrong_kappa().is_some())
    }
}

/// How the file says where it came from and where the program is.
#[derive(Clone, Debug, Default)]
pub struct Header {
    /// The command that generated the file (`symdbg testgen examples/x.py -o t.py`).
    pub command: String,
    /// The exploration bounds (`--unroll 3 --recursion 5`).
    pub bounds: String,
    /// The program's path relative to the directory of the test file (forward slashes).
    pub program_path: String,
    /// The program has `invariant` lines: the tests blank them before running it.
    pub invariants: bool,
    /// The program has `requires`/`ensures` lines: the tests check them as `exec` does.
    pub contracts: bool,
    /// What the tests are, as comment lines (each starting with `# `) in place of the
    /// usual "one test per leaf" (`symdbg diff --pytest`'s regression tests).
    pub about: Option<String>,
    /// The environment variable `SYMDBG_PROGRAM`, when set, names the program the tests
    /// run instead of `program_path` (the regression tests of `symdbg diff --pytest` run
    /// against either version).
    pub program_env: bool,
}

/// Conjuncts as one condition: `a and (b or c)` (a conjunct with an `or` or an `if` in
/// parentheses, so the text means what the path condition means).
pub fn conjunction(conjuncts: &[String]) -> String {
    let part = |c: &String| {
        if c.contains(" or ") || c.contains(" if ") {
            format!("({c})")
        } else {
            c.clone()
        }
    };
    match conjuncts {
        [one] => one.clone(),
        _ => conjuncts.iter().map(part).collect::<Vec<_>>().join(" and "),
    }
}

/// `AssertionError` → `assertion_error`.
pub fn snake_case(class: &str) -> String {
    let mut out = String::new();
    for (i, c) in class.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The leaf's own behaviour under its model (outcome, exception, line, values).
fn leaf_expect(session: &Session, leaf: NodeId, model: &NodeModel) -> Expect {
    let source = session.source();
    let node = session.tree().node(leaf);
    let entry = session.entry().is_some();
    let outcome = node.outcome().unwrap_or(Outcome::Unknown);
    let exception = match outcome {
        Outcome::Exception(c) => Some(c.name().to_string()),
        _ => None,
    };
    Expect {
        outcome: outcome.name().to_string(),
        line: exception
            .as_ref()
            .and(node.exception_at())
            .map(|s| source.line(s.start)),
        exception,
        store: if entry {
            BTreeMap::new()
        } else {
            model.store.clone()
        },
        return_value: if entry && outcome == Outcome::Return {
            model.return_value.clone()
        } else {
            None
        },
        // (an item the model cannot evaluate: a disagreement, shown as this text)
        stdout: model
            .stdout
            .clone()
            .unwrap_or_else(|| "(output not evaluated)".to_string()),
    }
}

/// Why a leaf gets no test, or `None` if it claims a concrete result.
fn no_test_reason(session: &Session, id: NodeId) -> Option<String> {
    let node = session.tree().node(id);
    if node.is_open() {
        return Some(
            "open: not explored (the exploration stopped before it, e.g. at --max-nodes)".into(),
        );
    }
    let config = session.config();
    match node.outcome()? {
        Outcome::Normal | Outcome::Return | Outcome::Exception(_) => None,
        Outcome::Bound => Some(format!(
            "bound: the path was cut by --unroll {} or --recursion {}",
            config.unroll, config.recursion
        )),
        Outcome::Unknown => Some(format!(
            "unknown: the solver could not decide the path ({})",
            node.unknown_reason().unwrap_or("unknown")
        )),
        Outcome::Infeasible => Some("infeasible: no input takes this path".into()),
        Outcome::Halt => Some("halt: a loop scope's leaf, no concrete run ends there".into()),
        Outcome::StepLimit => Some("step limit: the path used up its step budget".into()),
    }
}

/// How [`collect_with`] picks tests.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Keep a test only if its run executes a source line that no earlier kept test
    /// executes.
    pub new_lines_only: bool,
    /// Add boundary tests: per leaf, a model at each comparison of its path at distance 0
    /// and 1 from where it flips (when its inputs are new).
    pub thorough: bool,
}

/// The tests of an explored engine (see the module docs). `new_lines_only`: keep a test
/// only if its run executes a source line that no earlier kept test executes.
pub fn collect(session: &mut Session, new_lines_only: bool) -> Suite {
    collect_with(
        session,
        &Options {
            new_lines_only,
            thorough: false,
        },
    )
}

/// [`collect`] with all options.
pub fn collect_with(session: &mut Session, options: &Options) -> Suite {
    let candidates: Vec<NodeId> = session
        .tree()
        .nodes()
        .filter(|n| n.is_leaf() || n.is_open())
        .map(|n| n.id)
        .collect();
    collect_nodes_with(session, &candidates, options)
}

/// [`collect`] for the given leaves (and open nodes) only, in this order.
pub fn collect_nodes(session: &mut Session, candidates: &[NodeId], new_lines_only: bool) -> Suite {
    let options = Options {
        new_lines_only,
        thorough: false,
    };
    collect_nodes_with(session, candidates, &options)
}

/// The models a leaf's tests use, the first one first: the discriminating model (else the
/// minimal one, the model every command finds: `Session::try_model`), the boundary models
/// (`Session::tight_models`), below a fold the minimal model and one with each κ (and λ)
/// above the first's where the path allows it, and `--thorough`'s boundary models; each
/// with inputs no earlier one has.
fn leaf_models(
    session: &mut Session,
    id: NodeId,
    base: NodeModel,
    thorough: bool,
    tight_covered: &mut BTreeSet<String>,
) -> Vec<NodeModel> {
    let base_copy = base.clone();
    let first = session
        .discriminating_model(id, &base, false)
        .unwrap_or(base);
    let folded = session.folds_above(id) > 0;
    let mut models = vec![first];
    // The default's boundary test: each comparison at its flip (`x >= 10` at `x == 10`).
    models.extend(session.tight_models(id, &base_copy, tight_covered));
    // Below a fold, the minimal model too (often κ = 0: the loop body never runs).
    if folded {
        models.push(base_copy);
    } else {
        // Each `min`/`max` of the leaf's values decided by its other operand (below a
        // fold the second count's test does it).
        models.extend(session.other_side_model(id, &models[0]));
    }
    // Below a fold, a second count: each κ (and λ) above the first test's where the path
    // allows it (the loop body runs more often).
    if folded {
        models.extend(session.discriminating_model(id, &models[0], true));
    }
    if thorough {
        let more = session.boundary_models(id, &models[0]);
        models.extend(more);
    }
    let mut seen = BTreeSet::new();
    models.retain(|m| seen.insert(format!("{:?}", m.inputs)));
    near_first(&mut models);
    models
}

/// Drop the models after the first that are far larger than it. A second test is worth its
/// run only near the first's size: a model the minimiser could not shrink (its budget or a
/// solver call ran out, which on a busy machine happens where it did not on an idle one)
/// may hold a tuple of 30,000 elements, a test that takes seconds and catches nothing the
/// small one misses.
fn near_first(models: &mut Vec<NodeModel>) {
    let Some(first) = models.first() else {
        return;
    };
    let limit = 4 * weight(first) + 64;
    let mut k = 0;
    models.retain(|m| {
        k += 1;
        k == 1 || weight(m) <= limit
    });
}

/// What running a test on `m` costs, roughly: tuple elements, integer bits, and each loop
/// count (κ: the iterations a folded loop runs).
fn weight(m: &NodeModel) -> u64 {
    use num_traits::ToPrimitive;
    let bits = |v: &num_bigint::BigInt| v.bits();
    let inputs: u64 = m
        .inputs
        .values()
        .map(|v| match v {
            Value::Int(i) => bits(i),
            Value::Bool(_) => 1,
            Value::Tuple(t) => t.len() as u64 + t.iter().map(bits).sum::<u64>(),
        })
        .sum();
    let counts: u64 = m
        .havoc
        .values()
        .map(|v| match v {
            Value::Int(i) => i.magnitude().to_u64().unwrap_or(u64::MAX).min(1 << 20),
            _ => 0,
        })
        .sum();
    inputs.saturating_add(counts)
}

/// [`collect_nodes`] with all options.
pub fn collect_nodes_with(
    session: &mut Session,
    candidates: &[NodeId],
    options: &Options,
) -> Suite {
    let entry = session.entry().map(str::to_string);
    let mut suite = Suite {
        prints: session.program().prints(),
        entry: entry.clone(),
        assumptions: session.source().assumptions.clone(),
        tests: Vec::new(),
        skipped: Vec::new(),
    };
    let mut covered = BTreeSet::new();
    let config = ConcreteConfig::default();
    // Every claiming leaf's model first, as `check` asks for them (one model path); the
    // discriminating models after.
    let mut base_models = session.leaf_models();
    // The comparisons a boundary test has made tight so far (the next leaves' boundary
    // tests try the others first).
    let mut tight_covered = BTreeSet::new();
    for &id in candidates {
        let line = session.node_line(id);
        let skip = |reason: String| Skipped {
            node: id,
            line,
            reason,
        };
        if let Some(reason) = no_test_reason(session, id) {
            suite.skipped.push(skip(reason));
            continue;
        }
        // An exception raised by an `--assume` expression itself: the program never ran
        // (and the tests run it without the preconditions).
        if let Some(Line::Assume(k)) = line.map(Line::of) {
            suite.skipped.push(skip(format!(
                "raised in --assume #{k}: the precondition fails, not the program"
            )));
            continue;
        }
        let base = match base_models
            .remove(&id)
            .unwrap_or_else(|| session.try_model(id))
        {
            Ok(m) => m,
            Err(why) => {
                suite.skipped.push(skip(format!("no model: {why}")));
                continue;
            }
        };
        // Below a use of a contract (issue 28), the minimal model too, and a test only for
        // the models whose run reproduces the leaf (`contracts::not_reproduced`).
        let abstract_leaf = session.is_abstract(id);
        let base_copy = abstract_leaf.then(|| base.clone());
        let mut models = leaf_models(session, id, base, options.thorough, &mut tight_covered);
        if let Some(m) = base_copy {
            if !models.iter().any(|k| k.inputs == m.inputs) {
                models.push(m);
            }
        }
        let (mut written, mut not_reproduced) = (0, None);
        for (n, model) in models.into_iter().enumerate() {
            let first = written == 0;
            let run = match session.run_concrete(&model.inputs, &config) {
                Ok(r) => r,
                Err(d) if first => {
                    suite
                        .skipped
                        .push(skip(format!("the model does not run: {}", d.message)));
                    break;
                }
                Err(_) => continue,
            };
            // An abstract leaf's claim: its values with the calls' real results.
            let mut model = model;
            if abstract_leaf {
                let why = match contracts::reproduced(session, id, &model, &run) {
                    Ok(bound) => match session.leaf_values(id, &bound, entry.is_some()) {
                        Some(v) => {
                            (model.store, model.return_value) = (v.store, v.return_value);
                            model.stdout = v.stdout;
                            None
                        }
                        None => Some(contracts::NotReproduced::Unevaluated),
                    },
                    Err(why) => Some(why),
                };
                if let Some(why) = why {
                    not_reproduced = Some(match not_reproduced.take() {
                        Some(earlier) => why.worse(earlier),
                        None => why,
                    });
                    continue;
                }
            }
            let source = session.source();
            let expect = Expect::of_run(&run, source, entry.is_some());
            if !matches!(expect.outcome.as_str(), "normal" | "return" | "exception") {
                if first {
                    suite.skipped.push(skip(format!(
                        "its model's concrete run ends as {}",
                        outcome_text(run.outcome)
                    )));
                    break;
                }
                continue;
            }
            let lines: BTreeSet<usize> = run.trace.iter().map(|s| source.line(s.start)).collect();
            if options.new_lines_only && lines.is_subset(&covered) {
                if first {
                    suite.skipped.push(skip(
                        "covers no line that an earlier test does not (--new-lines-only)".into(),
                    ));
                    break;
                }
                continue;
            }
            covered.extend(lines.iter().copied());
            let said = leaf_expect(session, id, &model);
            // Each conjunct once (a guard and an index check can add the same one).
            let path_condition = conjunction(&session.path_condition_texts(id));
            let folds = session.fold_params(id, &model.inputs, &model.havoc, &run);
            let name = if first {
                format!("test_leaf{}_{}", id.0, expect.name_suffix())
            } else {
                format!("test_leaf{}_{}_{}", id.0, expect.name_suffix(), n + 1)
            };
            written += 1;
            suite.tests.push(Test {
                leaf: id,
                name,
                inputs: model.inputs,
                disagreement: (said != expect).then_some(said),
                expect,
                path_condition,
                lines,
                folds,
            });
        }
        // An abstract leaf none of whose models reproduces it (and that no other reason
        // skipped): listed, never a test with a wrong expected value.
        if written == 0 && suite.skipped.last().map(|s| s.node) != Some(id) {
            if let Some(why) = not_reproduced {
                suite.skipped.push(skip(why.reason()));
            }
        }
    }
    suite
}

#[cfg(test)]
mod tests;
