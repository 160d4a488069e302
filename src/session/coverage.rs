//! Symbolic coverage (issue 29): which source lines and branch directions some input
//! reaches, which none can, and which the tree cannot tell yet.
//!
//! Computed from the tree as it is (explored in full or not):
//! - the *counted* lines are the first lines of the program's own statements (module code
//!   and function bodies): not `def`, input declarations, `try:`/`except` headers, the
//!   temporaries of the lowering, `assume`, `invariant`s, the loop-scope forms, `@predicate`
//!   bodies or `--assume` expressions;
//! - a line is `reached` when a node about to run it lies on a concrete path (every node
//!   is feasible: its path condition has a model, and the model's run passes the node);
//!   `exception-only` when, besides, every path through it is explored and ends in an
//!   exception;
//! - a line no node reaches is `unexplored` when a *cut* could still reach it — an open
//!   node, a `bound` or `unknown` leaf, a path under a loop invariant's `havoc` (its
//!   state is abstract), a folded loop head whose exits cannot be placed on its path
//!   ([`folds`]: otherwise a folded path's statements are reached when some input runs
//!   it at least once before an exit), an invariant failure (the program without
//!   its annotations goes on), an opaque call's callee: what the cut's continuation can
//!   still run (the rest of its blocks, loops and handlers, and every function those call)
//!   — and `unreachable` otherwise: no input reaches it.
//!
//! Branch directions (`if`/`elif` then/else, `while`/`for` enter/leave) are classified
//! the same way from the children of the nodes at their statement.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::Session;
use crate::base::Span;
use crate::engine::state::{Cont, Kont, State};
use crate::engine::{NodeKind, Outcome, Tag};
use crate::transform::ir::{self, Instr, InstrKind};

mod folds;
mod text;
pub(crate) use folds::FoldMemo;
pub use text::{lcov_written_by_symdbg, LCOV_HEADER};

/// What is known of one line (or branch direction).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LineCoverage {
    /// Some input reaches it (the tree holds a concrete path through it).
    Reached,
    /// Reached, and every path through it is explored and ends in an exception.
    ExceptionOnly,
    /// Not reached so far, but a cut, `unknown` or open path might reach it.
    Unexplored,
    /// No input reaches it (the tree is complete for it).
    Unreachable,
}

impl LineCoverage {
    /// The JSON name: `reached`, `exception-only`, `unexplored`, `unreachable`.
    pub fn name(self) -> &'static str {
        match self {
            LineCoverage::Reached => "reached",
            LineCoverage::ExceptionOnly => "exception-only",
            LineCoverage::Unexplored => "unexplored",
            LineCoverage::Unreachable => "unreachable",
        }
    }

    /// Some input executes it.
    pub fn is_reached(self) -> bool {
        matches!(self, LineCoverage::Reached | LineCoverage::ExceptionOnly)
    }
}

/// One branching statement and its two directions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BranchCoverage {
    pub line: usize,
    /// `if`, `elif`, `while` or `for`.
    pub kind: &'static str,
    /// The directions: then/else (`if`), enter the body/leave the loop (`while`, `for`).
    pub directions: [LineCoverage; 2],
}

impl BranchCoverage {
    /// The names of the two directions.
    pub fn direction_names(&self) -> [&'static str; 2] {
        match self.kind {
            "while" | "for" => ["enter", "leave"],
            _ => ["then", "else"],
        }
    }
}

/// The coverage of a tree: every counted line and every branch, in line order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    pub lines: BTreeMap<usize, LineCoverage>,
    pub branches: Vec<BranchCoverage>,
}

impl Coverage {
    /// How many lines have each status.
    pub fn counts(&self) -> BTreeMap<LineCoverage, usize> {
        let mut out = BTreeMap::new();
        for c in self.lines.values() {
            *out.entry(*c).or_insert(0) += 1;
        }
        out
    }

    /// The lines no node reached, claimed unreachable or not: "unreached so far" unless
    /// the tree is complete for them.
    pub fn complete(&self) -> bool {
        !self.lines.values().any(|c| *c == LineCoverage::Unexplored)
            && !self
                .branches
                .iter()
                .any(|b| b.directions.contains(&LineCoverage::Unexplored))
    }
}

/// How the leaves under a node end, for `exception-only`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    /// No leaf that counts (only infeasible leaves).
    None,
    /// Every counted leaf is an exception (none is cut or open).
    Exception,
    /// Some leaf ends otherwise, or the subtree is not complete.
    Other,
}

impl Fate {
    fn join(self, other: Fate) -> Fate {
        match (self, other) {
            (Fate::None, x) | (x, Fate::None) => x,
            (Fate::Exception, Fate::Exception) => Fate::Exception,
            _ => Fate::Other,
        }
    }
}

/// The lines a walk counts and the branch points, from the IR.
struct Statements {
    lines: HashSet<usize>,
    /// Branching statements by their instruction's address ([`branch_key`]): line,
    /// span, kind (`if`, `elif`, `while`, `for`).
    branches: HashMap<usize, (usize, Span, &'static str)>,
}

impl Session {
    /// The coverage of the tree as explored so far (see the module documentation). Asks
    /// the solver about the fold exits it has not asked yet ([`folds`]).
    pub fn coverage(&mut self) -> Coverage {
        self.update_fold_memo();
        self.coverage_now()
    }

    fn coverage_now(&self) -> Coverage {
        let stmts = self.statements();
        let tree = self.tree();
        // Fates bottom-up: children have larger ids than their parents.
        let mut fate = vec![Fate::None; tree.len()];
        for node in tree.nodes().collect::<Vec<_>>().into_iter().rev() {
            let own = match node.kind {
                NodeKind::Open => Fate::Other,
                NodeKind::Leaf(Outcome::Infeasible) => Fate::None,
                NodeKind::Leaf(Outcome::Exception(_)) if !node.invariant_failure() => {
                    Fate::Exception
                }
                NodeKind::Leaf(_) => Fate::Other,
                NodeKind::Inner => node
                    .children
                    .iter()
                    .fold(Fate::None, |f, c| f.join(fate[c.index()])),
            };
            fate[node.id.index()] = own;
        }
        let mut reach = Reach::new(self);
        let mut at_line: HashMap<usize, Fate> = HashMap::new();
        // Per branch span: the fates of each direction taken, and whether a direction may
        // be hidden (an open node, an unknown or bound child).
        let mut taken: HashMap<usize, [Option<Fate>; 2]> = HashMap::new();
        // Per branch span and direction: a path that is not concrete (under an
        // invariant's havoc) goes that way, or the step was not decided.
        let mut maybe: HashMap<usize, [bool; 2]> = HashMap::new();
        // The lines nodes on abstract paths are about to run: possibly reached.
        let mut abstract_lines: HashSet<usize> = HashSet::new();
        let mut abstract_branches: HashSet<Span> = HashSet::new();
        // Under a loop invariant's `havoc` the state is abstract ([`Session::abstract_paths`]).
        let abstract_at = self.abstract_paths();
        // Folded paths: what runs before each exit (by statement span).
        let folded = self.fold_coverage(&fate, &abstract_at, &stmts.lines);
        for (line, f) in folded.at_line {
            at_line
                .entry(line)
                .and_modify(|g| *g = g.join(f))
                .or_insert(f);
        }
        abstract_lines.extend(folded.abstract_lines);
        abstract_branches.extend(folded.abstract_branches);
        let (fold_cuts, span_taken, span_maybe) =
            (folded.cuts, folded.span_taken, folded.span_maybe);
        for node in tree.nodes() {
            let abstract_state = abstract_at[node.id.index()];
            let cut = node.is_open()
                || matches!(node.kind, NodeKind::Leaf(Outcome::Bound | Outcome::Unknown))
                || node.invariant_failure()
                || fold_cuts.contains(&node.id);
            if cut {
                reach.add_state(&node.state);
                if let Some(p) = node.parent {
                    reach.add_state(&tree.node(p).state);
                }
            }
            if node.is_leaf() {
                continue;
            }
            let Some(span) = node.at() else { continue };
            if !self.config().frames {
                // An opaque call runs its callee inside one step: no node shows its lines.
                reach.callee_of(&node.state);
            }
            let line = self.source().line(span.start);
            // (a node whose leaves are all infeasible still reached the line)
            let here = match fate[node.id.index()] {
                Fate::None => Fate::Other,
                f => f,
            };
            if stmts.lines.contains(&line) {
                if abstract_state {
                    abstract_lines.insert(line);
                } else {
                    at_line
                        .entry(line)
                        .and_modify(|f| *f = f.join(here))
                        .or_insert(here);
                }
            }
            // (a fold node's children are its exits: [`folds`] placed them)
            if self.engine.fold_at(node.id).is_some() {
                continue;
            }
            let Some(key) = branch_at(&node.state) else {
                continue;
            };
            if abstract_state {
                // (the copies of a loop's body under its invariant: by their span)
                abstract_branches.insert(span);
                continue;
            }
            if !stmts.branches.contains_key(&key) {
                continue;
            }
            if node.is_open() {
                maybe.insert(key, [true, true]);
            }
            for &c in node.children.iter() {
                let child = tree.node(c);
                let dir = match child.tag {
                    Some(Tag::Then | Tag::Enter) => 0,
                    Some(Tag::Else | Tag::Leave) => 1,
                    _ => {
                        // a bound, a limit, a loop transition: either way may follow
                        maybe.insert(key, [true, true]);
                        continue;
                    }
                };
                if matches!(child.kind, NodeKind::Leaf(Outcome::Unknown)) {
                    maybe.entry(key).or_default()[dir] = true;
                    continue;
                }
                let slot = &mut taken.entry(key).or_default()[dir];
                let f = match fate[c.index()] {
                    Fate::None => Fate::Other,
                    f => f,
                };
                *slot = Some(slot.map_or(f, |s| s.join(f)));
            }
        }
        let mut possible = reach.lines;
        possible.extend(abstract_lines);
        // (exception-only only when no other path might reach it)
        let status = |reached: Option<Fate>, maybe: bool| match reached {
            Some(Fate::Exception) if !maybe => LineCoverage::ExceptionOnly,
            Some(_) => LineCoverage::Reached,
            None if maybe => LineCoverage::Unexplored,
            None => LineCoverage::Unreachable,
        };
        let lines: BTreeMap<usize, LineCoverage> = stmts
            .lines
            .iter()
            .map(|&l| {
                let reached = at_line.get(&l).copied();
                (l, status(reached, possible.contains(&l)))
            })
            .collect();
        // (a `for` with a symbolic step is two `while`s: one branch point by its span)
        type Joined = (usize, &'static str, [Option<Fate>; 2], [bool; 2]);
        let mut joined: BTreeMap<(usize, usize), Joined> = BTreeMap::new();
        for (key, &(line, span, kind)) in &stmts.branches {
            let mut t = taken.get(key).copied().unwrap_or_default();
            let mut m = maybe.get(key).copied().unwrap_or_default();
            if let Some(f) = span_taken.get(&span) {
                for d in 0..2 {
                    t[d] = match (t[d], f[d]) {
                        (Some(a), Some(b)) => Some(a.join(b)),
                        (a, b) => a.or(b),
                    };
                }
            }
            if span_maybe.contains(&span) {
                m = [true, true];
            }
            let e = joined
                .entry((span.start, span.end))
                .or_insert((line, kind, [None; 2], [false; 2]));
            for d in 0..2 {
                e.2[d] = match (e.2[d], t[d]) {
                    (Some(a), Some(b)) => Some(a.join(b)),
                    (a, b) => a.or(b),
                };
                // (a cut or abstract path may reach the statement and go either way)
                e.3[d] |=
                    m[d] || reach.branches.contains(&span) || abstract_branches.contains(&span);
            }
        }
        let branches = joined
            .into_values()
            .map(|(line, kind, t, m)| BranchCoverage {
                line,
                kind,
                directions: [status(t[0], m[0]), status(t[1], m[1])],
            })
            .collect();
        Coverage { lines, branches }
    }

    /// The counted lines and branch points of the program.
    fn statements(&self) -> Statements {
        let mut s = Statements {
            lines: HashSet::new(),
            branches: HashMap::new(),
        };
        let ir = self.ir();
        let mut blocks: Vec<&[Instr]> = vec![&ir.body[..]];
        blocks.extend(ir.functions.values().map(|f| &f.body[..]));
        while let Some(block) = blocks.pop() {
            for i in block {
                if i.form.is_some() {
                    continue;
                }
                if let Some(line) = self.counted_line(i) {
                    s.lines.insert(line);
                }
                if let Some(key) = branch_key(i) {
                    let line = self.source().line(i.span.start);
                    let kind = self.branch_kind(i.span);
                    // (a `for` with a symbolic step forks on its sign with an `if`)
                    if !(kind == "for" && matches!(i.kind, InstrKind::If { .. })) {
                        s.branches.insert(key, (line, i.span, kind));
                    }
                }
                nested(i, &mut |b| blocks.push(b));
            }
        }
        s
    }

    /// The line an instruction counts, if it counts one.
    fn counted_line(&self, i: &Instr) -> Option<usize> {
        if i.form.is_some() {
            return None;
        }
        let counts = match &i.kind {
            InstrKind::Assign { target, .. } => !ir::is_temp(target),
            InstrKind::Call { .. }
            | InstrKind::Eval(_)
            | InstrKind::RaiseIf { .. }
            | InstrKind::Pass
            | InstrKind::Break
            | InstrKind::Continue
            | InstrKind::Return(_)
            | InstrKind::Print(_)
            | InstrKind::Assert { .. }
            | InstrKind::If { .. }
            | InstrKind::While { .. } => true,
            InstrKind::Declare { .. }
            | InstrKind::Lookup { .. }
            | InstrKind::Assume(_)
            | InstrKind::AssumeInvariant(_)
            | InstrKind::Havoc { .. }
            | InstrKind::CheckInvariant(_)
            | InstrKind::Try { .. }
            | InstrKind::Def(_)
            | InstrKind::MethodFrame { .. }
            | InstrKind::LoopScope { .. } => false,
        };
        let line = self.source().line(i.span.start);
        (counts && crate::base::span::Line::of(line).in_file().is_some()).then_some(line)
    }

    /// `if`, `elif`, `while` or `for`, from the statement's first word (an `elif`'s span
    /// is its condition's: the word before it).
    fn branch_kind(&self, span: Span) -> &'static str {
        let all = &self.source().text;
        let text = all.get(span.start..span.end).unwrap_or("");
        let before = all.get(..span.start).unwrap_or("");
        let line_start = before.rfind('\n').map_or(0, |k| k + 1);
        let word = before[line_start..].trim_end_matches(|c: char| c == '(' || c.is_whitespace());
        if word.trim_start() == "elif" {
            return "elif";
        }
        ["elif", "if", "while", "for"]
            .into_iter()
            .find(|k| {
                text.strip_prefix(k)
                    .is_some_and(|r| r.starts_with(|c: char| !c.is_alphanumeric() && c != '_'))
            })
            .unwrap_or("if")
    }
}

/// A branching statement of the program, by its instruction's address (the IR's blocks
/// are shared with the engine's continuations): a `while` (also a `for`'s), or an `if`
/// that is not one the lowering made of `and`/`or`, a comparison chain or a conditional
/// expression with calls (those only bind temporaries).
fn branch_key(i: &Instr) -> Option<usize> {
    let real = match &i.kind {
        InstrKind::While { .. } => true,
        InstrKind::If { then, orelse, .. } => !(only_temps(then) && only_temps(orelse)),
        _ => false,
    };
    (real && i.form.is_none()).then_some(i as *const Instr as usize)
}

/// Does a block only compute temporaries (the lowering's own `if`s)?
fn only_temps(block: &[Instr]) -> bool {
    block.iter().all(|i| match &i.kind {
        InstrKind::Assign { target, .. } => ir::is_temp(target),
        InstrKind::Call {
            target: Some(t), ..
        } => ir::is_temp(t),
        InstrKind::Lookup { .. } | InstrKind::RaiseIf { .. } => true,
        InstrKind::If { then, orelse, .. } => only_temps(then) && only_temps(orelse),
        _ => false,
    })
}

/// The branching statement a settled state is about to run (its [`branch_key`]).
fn branch_at(state: &State) -> Option<usize> {
    let (block, index) = match state.cont.top()? {
        Kont::Block { block, index } | Kont::Guard { block, index } => (block, *index),
        _ => return None,
    };
    branch_key(block.get(index)?)
}

/// The blocks nested in an instruction (the program's own: not the verification forms).
fn nested<'a>(i: &'a Instr, f: &mut dyn FnMut(&'a [Instr])) {
    match &i.kind {
        InstrKind::If { then, orelse, .. } => {
            f(then);
            f(orelse);
        }
        InstrKind::While {
            guard,
            body,
            orelse,
            ..
        } => {
            f(guard);
            f(body);
            if let Some(o) = orelse {
                f(o);
            }
        }
        InstrKind::Try { body, handlers } => {
            f(body);
            for h in handlers {
                f(&h.body);
            }
        }
        InstrKind::MethodFrame { body, .. } => f(body),
        InstrKind::LoopScope { body, orelse, .. } => {
            f(body);
            if let Some(o) = orelse {
                f(o);
            }
        }
        _ => {}
    }
}

/// The lines the cuts' continuations might still run.
struct Reach<'s> {
    session: &'s Session,
    lines: HashSet<usize>,
    /// Continuation cells walked already (a cell's rest was walked with it).
    cells: HashSet<usize>,
    /// Block suffixes walked already: (block address, index).
    suffixes: HashSet<(usize, usize)>,
    functions: HashSet<String>,
    /// The branching statements (by span) they might still run.
    branches: HashSet<Span>,
}

impl<'s> Reach<'s> {
    fn new(session: &'s Session) -> Reach<'s> {
        Reach {
            session,
            lines: HashSet::new(),
            cells: HashSet::new(),
            suffixes: HashSet::new(),
            functions: HashSet::new(),
            branches: HashSet::new(),
        }
    }

    fn add_state(&mut self, state: &State) {
        let mut cont: Cont = state.cont.clone();
        while let Some(item) = cont.top() {
            let Some(id) = cont.top_id() else { break };
            if !self.cells.insert(id) {
                break;
            }
            match item {
                Kont::Block { block, index } => self.suffix(block, *index),
                Kont::Loop { block, index, .. } => {
                    let i = *index as usize;
                    self.range(&block[i.min(block.len())..(i + 1).min(block.len())]);
                }
                Kont::Guard { block, index }
                | Kont::ScopeCheck { block, index }
                | Kont::LoopScope { block, index } => {
                    let i = *index;
                    self.range(&block[i.min(block.len())..(i + 1).min(block.len())]);
                }
                Kont::Try { block, index } => {
                    if let Some(InstrKind::Try { handlers, .. }) =
                        block.get(*index).map(|i| &i.kind)
                    {
                        for h in handlers {
                            self.range(&h.body);
                        }
                    }
                }
                Kont::Caught(c) => {
                    if let Some(InstrKind::Try { handlers, .. }) =
                        c.block.get(c.index).map(|i| &i.kind)
                    {
                        if let Some(h) = handlers.get(c.handler) {
                            self.range(&h.body);
                        }
                    }
                }
                Kont::EnterEntry { func } => self.function(func),
                // (a recursion fold's κ frames only return through the call's own line,
                // which the path has reached)
                Kont::Return { .. } | Kont::MethodFrame { .. } | Kont::Folded(_) => {}
            }
            cont = cont.pop();
        }
    }

    /// An opaque call's callee (and what it calls).
    fn callee_of(&mut self, state: &State) {
        if let Some(Kont::Block { block, index }) = state.cont.top() {
            if let Some(InstrKind::Call { func, .. }) = block.get(*index).map(|i| &i.kind) {
                self.function(func);
            }
        }
    }

    fn suffix(&mut self, block: &ir::Block, index: usize) {
        if self.suffixes.insert((block.as_ptr() as usize, index)) {
            self.range(&block[index.min(block.len())..]);
        }
    }

    fn range(&mut self, instrs: &[Instr]) {
        let mut todo: Vec<&[Instr]> = vec![instrs];
        while let Some(b) = todo.pop() {
            for i in b {
                if let Some(l) = self.session.counted_line(i) {
                    self.lines.insert(l);
                }
                if branch_key(i).is_some() {
                    self.branches.insert(i.span);
                }
                if let InstrKind::Call { func, .. } = &i.kind {
                    self.function(func);
                }
                // The verification forms hold the program's own statements too (a loop
                // under its invariant runs the body inside them).
                if let InstrKind::While {
                    abstraction, check, ..
                } = &i.kind
                {
                    if let Some(a) = abstraction {
                        todo.push(a);
                    }
                    if let Some(c) = check {
                        todo.push(c);
                    }
                }
                nested(i, &mut |blk| todo.push(blk));
            }
        }
    }

    fn function(&mut self, name: &str) {
        if !self.functions.insert(name.to_string()) {
            return;
        }
        let session = self.session;
        if let Some(f) = session.ir().functions.get(name) {
            self.range(&f.body);
        }
    }
}
