//! One iteration of a loop enumerated from a head state (NEXT.md §1.3 step 3): the
//! structural restrictions (S1), the head symbols, and every cyclic path, for the
//! one-path templates ([`super::template`]) and the two-path ones ([`super::multi`]).

use std::collections::BTreeSet;
use std::rc::Rc;

use super::super::state::{Cont, Env, Frame, Frames, Kont, LoopCounts, PathCondition, State};
use super::super::step::{next_action, settle, Settled, Stepper};
use super::basics::{at_guard, head_sym, refuse, sig_of, step_word, NoTemplate};
use super::basics::{MAX_PATHS, MAX_STEPS};
use super::StepSig;
use crate::base::Span;
use crate::term::{Sort, Sym, Term};
use crate::transform::ir::{Block, InstrKind};

/// S1: the structural restrictions of v1. `unrolled`: a loop with invariant lines is
/// unrolled like any loop (`--loops unroll`), so it may fold too.
pub(super) fn structural(
    block: &Block,
    index: usize,
    unrolled: bool,
    ir: &crate::transform::ir::Program,
) -> Result<(), NoTemplate> {
    let instr = &block[index];
    let InstrKind::While {
        guard,
        body,
        abstraction,
        ..
    } = &instr.kind
    else {
        return Err(refuse("not a while loop", instr.span));
    };
    if abstraction.is_some() && !unrolled {
        return Err(refuse(
            "the loop has invariant lines (the invariant transition applies; with --loops unroll it folds like any loop)",
            instr.span,
        ));
    }
    if !guard.is_empty() {
        return Err(refuse("the loop condition calls a function", instr.span));
    }
    fn body_ok(
        b: &[crate::transform::ir::Instr],
        ir: &crate::transform::ir::Program,
    ) -> Result<(), NoTemplate> {
        for i in b {
            let bad = match &i.kind {
                InstrKind::If { then, orelse, .. } => {
                    body_ok(then, ir)?;
                    body_ok(orelse, ir)?;
                    None
                }
                // A call of a function without loops or recursion is analysed through
                // (issue 27).
                InstrKind::Call { func, .. } => {
                    super::calls::callee_ok(ir, func).map_err(|why| refuse(why, i.span))?;
                    None
                }
                InstrKind::Lookup { .. } => None,
                // An inner loop is summed where its run has a closed form
                // ([`super::nested`]), else the enumeration says why not.
                InstrKind::While { .. } => None,
                InstrKind::Try { .. } => Some("the body contains a try statement"),
                InstrKind::Havoc { .. }
                | InstrKind::Assume(_)
                | InstrKind::AssumeInvariant(_)
                | InstrKind::CheckInvariant(_)
                | InstrKind::MethodFrame { .. }
                | InstrKind::LoopScope { .. } => Some("the body contains a verification statement"),
                InstrKind::Def(_) | InstrKind::Declare { .. } => Some("the body defines a name"),
                _ => None,
            };
            if let Some(why) = bad {
                return Err(refuse(why, i.span));
            }
        }
        Ok(())
    }
    body_ok(body, ir)
}

/// Is the state still inside the `while` at `block[index]`?
fn in_loop(state: &State, block: &Block, index: usize) -> bool {
    let mut cur = state.cont.clone();
    while let Some(k) = cur.top() {
        if let Kont::Loop {
            block: b, index: i, ..
        } = k
        {
            if Rc::ptr_eq(b, block) && *i as usize == index {
                return true;
            }
        }
        cur = cur.pop();
    }
    false
}

/// One enumerated cyclic path.
#[derive(Clone)]
pub(super) struct Cyclic {
    pub(super) sigs: Vec<StepSig>,
    pub(super) steps: Vec<(Span, &'static str)>,
    pub(super) conds: Vec<Term>,
    pub(super) env: Env,
}

/// Every variable of a head state and its head symbol.
pub(super) type Head = Vec<(Rc<str>, Sym)>;

/// The head symbols and the cyclic paths of the `while` at `block[index]` in function
/// `func` (`None`: module code). `stepper` must not bound unrolling.
pub(super) fn cyclic_paths(
    stepper: &Stepper,
    block: &Block,
    index: usize,
    func: Option<&Rc<str>>,
) -> Result<(Head, Vec<Cyclic>), NoTemplate> {
    let span = block[index].span;
    let unrolled = stepper.config.loops == crate::engine::LoopMode::Unroll;
    structural(block, index, unrolled, stepper.cx.program)?;
    let ir = stepper.cx.program;
    let types = stepper.types;
    let mut head = Vec::new();
    let mut globals = Env::new();
    // The module's variables, with the hidden variables of its `for` loops.
    let mut module_for = BTreeSet::new();
    crate::transform::ir::assigned_names(&ir.body, &mut module_for);
    let module_for = module_for
        .into_iter()
        .filter_map(|n| Some((ir.for_vars.get(&n)?, n)))
        .map(|(ty, n)| (n, *ty));
    for (name, ty) in types.globals.clone().into_iter().chain(module_for) {
        let sym = head_sym(&name, Sort::of_type(ty));
        globals = globals.insert(Rc::from(name.as_str()), Term::var(sym.clone()));
        head.push((Rc::<str>::from(name.as_str()), sym));
    }
    let mut frames = Frames::new(Frame {
        func: None,
        locals: Env::new(),
        call_site: None,
    });
    if let Some(f) = func {
        let mut locals = Env::new();
        let names: BTreeSet<&String> = stepper
            .cx
            .locals
            .get(&**f)
            .map(|s| s.iter().collect())
            .unwrap_or_default();
        for name in names {
            let ty = types
                .locals
                .get(&**f)
                .and_then(|l| l.get(name.as_str()))
                .or_else(|| ir.for_vars.get(name.as_str()))
                .copied();
            let Some(ty) = ty else { continue };
            let sym = head_sym(name, Sort::of_type(ty));
            locals = locals.insert(Rc::from(name.as_str()), Term::var(sym.clone()));
            head.retain(|(n, _)| **n != **name);
            head.push((Rc::from(name.as_str()), sym));
        }
        frames.push(Frame {
            func: Some(f.clone()),
            locals,
            call_site: None,
        });
    }
    let cont = Cont::default()
        .push(Kont::Loop {
            block: block.clone(),
            index: u32::try_from(index).expect("a block of fewer than 2^32 instructions"),
            counts: LoopCounts::default(),
        })
        .push(Kont::Guard {
            block: block.clone(),
            index,
        });
    let start = State {
        globals,
        frames,
        // The functions the body may call (a state where one is not defined yet steps
        // the loop classically: the replay's call raises, off the path).
        defined: std::rc::Rc::new(
            ir.functions
                .keys()
                .map(|f| (Rc::<str>::from(f.as_str()), ()))
                .collect(),
        ),
        pc: PathCondition::default(),
        cont,
        abrupt: None,
        fresh: 0,
        output: Default::default(),
    };
    // Enumerate one iteration depth-first.
    let mut paths = 0usize;
    let mut cyclic = Vec::new();
    let mut work = vec![(start, Vec::new(), Vec::new(), Vec::new())];
    while let Some((state, sigs, steps, conds)) = work.pop() {
        if sigs.len() > MAX_STEPS {
            return Err(refuse("an iteration takes too many steps", span));
        }
        let at = super::super::step::action_span(&state).unwrap_or(span);
        let action = next_action(&state);
        if let Some(super::super::step::Action::Instr(i)) = &action {
            // A folded run would lose the lines the κ iterations print.
            if matches!(i.kind, crate::transform::ir::InstrKind::Print(_)) {
                return Err(refuse("the body prints", at));
            }
        }
        let inner = super::inner_loop(&action, span);
        let result = match &inner {
            Some((b, i)) => super::super::step::StepResult {
                succs: vec![super::summarize_inner(stepper, &state, b, *i)?],
                exhaustive: true,
            },
            None => stepper.step(&state),
        };
        if let Some(reason) = stepper.cx.limit.take() {
            return Err(refuse(
                format!("an iteration goes past a limit: {reason}"),
                at,
            ));
        }
        // Reverse so the first successor is explored first (else before then for an if).
        for succ in result.succs.into_iter().rev() {
            if succ.cond.is_false() {
                continue;
            }
            let sig = sig_of(&state, &succ.state);
            let word = if inner.is_some() {
                "inner loop"
            } else {
                step_word(&action, &succ.state)
            };
            let mut ns = succ.state;
            let (mut sigs, mut steps, mut conds) = (sigs.clone(), steps.clone(), conds.clone());
            sigs.push(sig);
            steps.push((at, word));
            conds.push(succ.cond);
            match settle(&mut ns, ir) {
                Settled::Done { .. } => paths += 1,
                Settled::Running if at_guard(&ns, block, index) && in_loop(&ns, block, index) => {
                    paths += 1;
                    let env = match &ns.frame().func {
                        Some(_) => ns.frame().locals.clone(),
                        None => ns.globals.clone(),
                    };
                    cyclic.push(Cyclic {
                        sigs,
                        steps,
                        conds,
                        env,
                    });
                }
                Settled::Running if !in_loop(&ns, block, index) => paths += 1,
                Settled::Running => work.push((ns, sigs, steps, conds)),
            }
            if paths > MAX_PATHS {
                return Err(refuse(
                    format!("an iteration has more than {MAX_PATHS} paths"),
                    span,
                ));
            }
        }
    }
    if cyclic.is_empty() {
        return Err(refuse(
            "no path through the body comes back to the loop head",
            span,
        ));
    }
    Ok((head, cyclic))
}
