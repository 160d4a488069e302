//! "Why": where each path-condition conjunct came from, which alternatives of a step were
//! dropped as infeasible, and which exception a `try` caught. Solver-free, and (except for
//! opaque calls) without storage: it is all recomputed from the tree.
//!
//! **Provenance.** A child's path condition is its parent's plus what its edge added
//! (`st.pc = parent.pc.and(succ.cond)`), and a path condition only grows, so the conjuncts
//! `P.pc.len() .. C.pc.len()` of any node below `C` were added by the edge `P → C`.
//! [`PathCondition::and`](super::state::PathCondition::and) adds nothing for `true` or for
//! a conjunct already present (syntactically equal): a conjunct has one origin, the first
//! edge that added it; a later step that requires it again adds nothing (its child's
//! `branch` is `None`, the engine asks no solver about it).
//!
//! **Pruned branches.** [`Engine::pruned`] re-runs the solver-free [`Stepper::step`] on the
//! node's settled state and keeps the successors that became no child. That is exact: the
//! step is deterministic in the state and the engine's configuration (`unroll`,
//! `recursion`), and the one setting that can change per step (`Engine::step_with`'s loop
//! mode) only chooses between successors with the condition `true`, which are never
//! dropped. Re-running costs one step per query and no memory per node; recording the
//! dropped alternatives at every step would cost memory on every branching node of every
//! tree, for a question asked about a few. Under an opaque call (`Config::frames == false`)
//! a step runs a whole callee through solver checks, which cannot be replayed without the
//! solver: those steps record what they drop (a side table, only in that mode).

use super::state::PathCondition;
use super::step::{action_span, next_action, Action, Stepper};
use super::tag::Tag;
use super::tree::{NodeId, NodeKind};
use super::{eval, Engine};
use crate::base::{ExcClass, SourceMap, Span};
use crate::term::Term;

/// Where a path-condition conjunct came from: the edge `node → child` added it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The node whose step added the conjunct.
    pub node: NodeId,
    /// The child that step made, on the path.
    pub child: NodeId,
    /// The statement `node` was about to run (its action), 1-based line and column.
    pub span: Span,
    pub line: usize,
    pub column: usize,
    /// Which way the step went, and in words ("then", "enter the loop", ...).
    pub tag: Tag,
    pub transition: String,
    /// The innermost function at `node` (`None`: module code).
    pub function: Option<String>,
}

/// An alternative of a step that did not become a node: its condition was infeasible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pruned {
    pub tag: Tag,
    /// What it would have added to the path condition.
    pub cond: Term,
    /// The conditions its path had added since the node (inside an opaque call: the
    /// callee's branches before this one); empty for an ordinary step. The alternative is
    /// infeasible: the node's path condition, `given` and `cond` together are unsat.
    pub given: Vec<Term>,
    /// The statement whose step it is, 1-based line and column.
    pub span: Span,
    pub line: usize,
    pub column: usize,
    /// The tag in words.
    pub text: String,
}

/// A caught exception: the node about to run a handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caught {
    pub class: ExcClass,
    /// Where it was raised.
    pub raised: Span,
    /// The `except ...:` line that catches it.
    pub handler: Span,
}

impl Caught {
    /// "IndexError raised at line 5, caught at line 9".
    pub fn text(&self, src: &SourceMap) -> String {
        format!(
            "{} raised at line {}, caught at line {}",
            self.class,
            src.line(self.raised.start),
            src.line(self.handler.start)
        )
    }
}

/// An alternative dropped inside an opaque call, as recorded by the step.
#[derive(Clone, Debug)]
pub(crate) struct Dropped {
    pub tag: Tag,
    pub cond: Term,
    /// The path condition of the state whose step it was.
    pub pc: PathCondition,
    pub at: Option<Span>,
}

impl Engine {
    /// The path condition at `id` (as [`Engine::path_condition`], oldest first), each
    /// conjunct with the edge that added it. Walks the root path; no solver.
    pub fn provenance(&self, id: NodeId, src: &SourceMap) -> Vec<(Term, Origin)> {
        let pc = self.path_condition(id);
        let path = self.tree.path(id);
        let mut out = Vec::with_capacity(pc.len());
        for pair in path.windows(2) {
            let (p, c) = (self.tree.node(pair[0]), self.tree.node(pair[1]));
            let (from, to) = (p.state.pc.len(), c.state.pc.len());
            if to <= from {
                continue;
            }
            let span = p.at().unwrap_or_default();
            let (line, column) = src.line_col(span.start);
            let tag = c.tag.clone().unwrap_or(Tag::Next);
            let origin = Origin {
                node: p.id,
                child: c.id,
                span,
                line,
                column,
                transition: tag.text_in(src, p.state.func().map(|f| &**f)),
                tag,
                function: p.state.func().map(|f| f.to_string()),
            };
            for t in &pc[from..to] {
                out.push((t.clone(), origin.clone()));
            }
        }
        out
    }

    /// The alternatives of the step of `id` that were dropped as infeasible (empty for a
    /// node not stepped). No solver: see the module documentation.
    pub fn pruned(&self, id: NodeId, src: &SourceMap) -> Vec<Pruned> {
        let node = self.tree.node(id);
        // A fold node's step is the replay of its path, not one `Stepper::step`: its
        // dropped alternatives are not recomputed here (issue 15 leaves them out).
        if node.kind != NodeKind::Inner || self.fold_at(id).is_some() {
            return Vec::new();
        }
        let base = node.state.pc.len();
        let pruned = |tag: Tag, cond: Term, given: Vec<Term>, span: Option<Span>| {
            let span = span.unwrap_or_default();
            let (line, column) = src.line_col(span.start);
            Pruned {
                text: tag.text_in(src, node.state.func().map(|f| &**f)),
                tag,
                cond,
                given,
                span,
                line,
                column,
            }
        };
        if let Some(dropped) = self.opaque_pruned.get(&id) {
            return dropped
                .iter()
                .map(|d| {
                    let given = d.pc.to_vec().split_off(base.min(d.pc.len()));
                    pruned(d.tag.clone(), d.cond.clone(), given, d.at)
                })
                .collect();
        }
        let stepper = Stepper {
            cx: eval::Context::new(&self.ir, &self.locals, &self.input_names),
            config: &self.config,
            types: &self.types,
        };
        let result = stepper.step(&node.state);
        if stepper.cx.limit.take().is_some() {
            // The step did not happen (an `unknown` leaf): nothing was weighed.
            return Vec::new();
        }
        let children: Vec<(&Tag, Option<&Term>)> = node
            .children
            .iter()
            .filter_map(|&c| {
                let c = self.tree.node(c);
                c.tag.as_ref().map(|t| (t, c.branch.as_ref()))
            })
            .collect();
        let span = action_span(&node.state);
        result
            .succs
            .into_iter()
            // Never dropped: nothing to check (`true`, or already in the path condition).
            .filter(|s| !s.cond.is_true() && !node.state.pc.contains(&s.cond))
            .filter(|s| !children.contains(&(&s.tag, Some(&s.cond))))
            .map(|s| pruned(s.tag, s.cond, Vec::new(), span))
            .collect()
    }

    /// At a node about to run an exception handler: which exception, raised where, caught
    /// by which `except` line.
    pub fn caught(&self, id: NodeId) -> Option<Caught> {
        let node = self.tree.node(id);
        if node.is_leaf() {
            return None;
        }
        match next_action(&node.state)? {
            Action::Caught { class, at, .. } => Some(Caught {
                class,
                raised: at,
                handler: action_span(&node.state)?,
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Check, Config, Limits, LoopMode, Outcome};

    fn explore(src: &str, config: Config) -> Engine {
        let (program, types, ir) = crate::transform::load(src).unwrap();
        let mut e = Engine::new(&program, types, ir, None, config).unwrap();
        e.recorded = Some(Default::default());
        e.run(e.tree().root(), Limits::default());
        e
    }

    fn examples() -> Vec<(String, String)> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
        let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "py"))
            .map(|p| {
                (
                    p.display().to_string(),
                    std::fs::read_to_string(&p).unwrap(),
                )
            })
            .collect();
        out.sort();
        out
    }

    /// The re-run of [`Engine::pruned`] finds exactly what the step dropped, and every
    /// child's way among the re-run's alternatives.
    #[test]
    fn pruned_rerun_equals_what_the_step_dropped() {
        let mut compared = 0;
        for (name, src) in examples() {
            for loops in [LoopMode::Unroll, LoopMode::Invariant] {
                let config = Config {
                    loops,
                    ..Config::default()
                };
                let e = explore(&src, config);
                let map = SourceMap::new(&name, src.as_str());
                let recorded = e.recorded.as_ref().unwrap();
                for n in e.tree().nodes().filter(|n| n.kind == NodeKind::Inner) {
                    let got: Vec<(Tag, Term)> = e
                        .pruned(n.id, &map)
                        .into_iter()
                        .map(|p| {
                            assert!(p.given.is_empty());
                            assert_eq!(Some(p.span), n.at(), "{name}");
                            (p.tag, p.cond)
                        })
                        .collect();
                    let want: Vec<(Tag, Term)> = recorded[&n.id]
                        .iter()
                        .map(|d| (d.tag.clone(), d.cond.clone()))
                        .collect();
                    assert_eq!(got, want, "{name} node {}", n.id.0);
                    compared += want.len();
                }
            }
        }
        assert!(compared > 20, "only {compared} pruned alternatives seen");
    }

    #[test]
    fn caught_exception_is_a_node() {
        let src = "t: tuple\ni: int\ntry:\n    x = t[i]\nexcept IndexError:\n    x = 0\ny = x\n";
        let e = explore(src, Config::default());
        let map = SourceMap::new("t.py", src);
        let caught: Vec<NodeId> = e
            .tree()
            .nodes()
            .filter(|n| e.caught(n.id).is_some())
            .map(|n| n.id)
            .collect();
        assert_eq!(caught.len(), 1);
        let node = e.tree().node(caught[0]);
        let c = e.caught(node.id).unwrap();
        assert_eq!(
            c.text(&map),
            "IndexError raised at line 4, caught at line 5"
        );
        assert!(matches!(
            node.tag,
            Some(Tag::Raise(ExcClass::IndexError, _))
        ));
        assert_eq!(map.line(node.at().unwrap().start), 5);
        // It is stepped: its one child runs the handler, nothing added.
        let [child] = node.children[..] else {
            panic!("{:?}", node.children)
        };
        let child = e.tree().node(child);
        assert_eq!(child.tag, Some(Tag::Handler));
        assert_eq!(child.branch, None);
        assert_eq!(map.line(child.at().unwrap().start), 6);
        // Provenance of the leaf below: the raise's condition comes from line 4.
        let leaf = e
            .tree()
            .subtree(child.id)
            .into_iter()
            .find(|&l| e.tree().node(l).outcome() == Some(Outcome::Normal))
            .unwrap();
        let prov = e.provenance(leaf, &map);
        assert_eq!(prov.len(), 1);
        assert_eq!(prov[0].1.line, 4);
        assert_eq!(prov[0].1.transition, "IndexError at 4:9");
        assert_eq!(prov[0].1.child, node.id);
    }

    #[test]
    fn opaque_calls_record_what_they_drop() {
        let src = "\
def f(a: int) -> int:
    if a > 0:
        if a < 0:
            return 1
        return 2
    return 3

x: int
y = f(x)
";
        let config = Config {
            frames: false,
            ..Config::default()
        };
        let e = explore(src, config);
        let map = SourceMap::new("t.py", src);
        let root = e.tree().root();
        let call = e.tree().node(root);
        assert_eq!(call.kind, NodeKind::Inner);
        assert!(call
            .children
            .iter()
            .all(|&c| e.tree().node(c).tag == Some(Tag::Call(std::rc::Rc::from("f")))));
        let pruned = e.pruned(root, &map);
        assert_eq!(pruned.len(), 1, "{pruned:?}");
        assert_eq!(pruned[0].tag, Tag::Then);
        assert_eq!(pruned[0].line, 3);
        assert_eq!(pruned[0].given.len(), 1, "{pruned:?}");
        assert_eq!(pruned[0].given[0].to_string(), "x > 0");
        // Provenance: both conditions added inside f come from the call line.
        for leaf in e.tree().nodes().filter(|n| n.is_leaf()) {
            for (_, o) in e.provenance(leaf.id, &map) {
                assert_eq!((o.line, o.node), (9, root));
                assert_eq!(o.transition, "call f");
            }
        }
    }

    /// A loop choice stepped against the configured mode: the other transition has the
    /// condition `true`, it is not a pruned alternative.
    #[test]
    fn loop_choice_has_no_pruned_alternative() {
        let src = "\
n: int
i = 0
while i < n:
    invariant i >= 0
    i = i + 1
";
        let (program, types, ir) = crate::transform::load(src).unwrap();
        let mut e = Engine::new(&program, types, ir, None, Config::default()).unwrap();
        let map = SourceMap::new("t.py", src);
        let mut id = e.tree().root();
        while !e.loop_choice(id) {
            id = e.step(id)[0];
        }
        let kids = e.step_with(id, LoopMode::UnrollOnce);
        assert_eq!(
            e.tree().node(kids[0]).tag,
            Some(Tag::Loop(LoopMode::UnrollOnce))
        );
        assert!(e.pruned(id, &map).is_empty());
        // An unrolled annotated loop checks its invariant before the test, then tests.
        let kids = e.step(kids[0]);
        let tags: Vec<_> = kids.iter().map(|&k| e.tree().node(k).tag.clone()).collect();
        assert_eq!(tags, [Some(Tag::InvariantHolds(Check::BeforeTest))]);
        let kids = e.step(kids[0]);
        let tags: Vec<_> = kids.iter().map(|&k| e.tree().node(k).tag.clone()).collect();
        assert_eq!(tags, [Some(Tag::Enter), Some(Tag::Leave)]);
    }
}
