//! `setBreakpoints` and `setExceptionBreakpoints`: what the adapter keeps of them, checked
//! against the program (a line needs a statement, a condition must type-check on its line,
//! a hit condition must be a count), and the stops a continue searches for.

use std::path::Path;

use serde_json::{json, Value};

use super::adapter::{Adapter, Breakpoint, ExcFilters, HitCondition};
use super::wire::event;
use crate::session::{ExcStop, Session, Stops};

impl Adapter {
    pub(super) fn set_breakpoints(&mut self, args: &Value) -> Result<Value, String> {
        let run = self.run.as_ref().ok_or("no program")?;
        let path = args["source"]["path"].as_str().unwrap_or_default();
        let ours = same_file(Path::new(path), &run.args.path());
        let mut list = Vec::new();
        let mut next_id = self.next_bp_id;
        let asked = args["breakpoints"].as_array().cloned().unwrap_or_default();
        // (old clients send only `lines`)
        let asked: Vec<Value> = if asked.is_empty() {
            args["lines"]
                .as_array()
                .map(|l| l.iter().map(|n| json!({ "line": n })).collect())
                .unwrap_or_default()
        } else {
            asked
        };
        for b in &asked {
            // (a line that is no positive number is named as sent: `-3`, `"5"`, missing)
            let line = b["line"]
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .unwrap_or(0);
            let not_a_line = (line == 0 && b["line"] != json!(0)).then(|| {
                format!(
                    "no line {}: a breakpoint's line is a number from 1",
                    b["line"]
                )
            });
            let condition = b["condition"]
                .as_str()
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(String::from);
            let hit = b["hitCondition"]
                .as_str()
                .map(str::trim)
                .filter(|c| !c.is_empty());
            let mut bp = Breakpoint {
                id: {
                    next_id += 1;
                    next_id
                },
                line,
                condition,
                hit_condition: None,
                verified: false,
                message: not_a_line,
                hits: 0,
            };
            if bp.message.is_none() && !ours {
                bp.message = Some(format!(
                    "`{path}` is not the program being debugged ({})",
                    run.args.program.as_deref().unwrap_or_default()
                ));
            } else if bp.message.is_none() {
                match hit.map(HitCondition::parse) {
                    Some(Err(m)) => bp.message = Some(m),
                    Some(Ok(h)) => bp.hit_condition = Some(h),
                    None => {}
                }
                if bp.message.is_none() {
                    verify(&run.session, &mut bp);
                }
            }
            list.push(bp);
        }
        self.next_bp_id = next_id;
        let body: Vec<Value> = list.iter().map(shown).collect();
        if ours {
            self.breakpoints = list;
        }
        Ok(json!({ "breakpoints": body }))
    }

    /// After a restart: the breakpoints checked against the new text (`breakpoint` events
    /// for those that changed).
    pub(super) fn reverify(&mut self) {
        let Some(run) = &self.run else { return };
        let mut changed = Vec::new();
        for b in &mut self.breakpoints {
            let before = (b.verified, b.message.clone());
            b.message = None;
            b.verified = false;
            verify(&run.session, b);
            if before != (b.verified, b.message.clone()) {
                changed.push(shown(b));
            }
        }
        for b in changed {
            self.send(event(
                "breakpoint",
                json!({"reason": "changed", "breakpoint": b}),
            ));
        }
    }

    pub(super) fn set_exception_breakpoints(&mut self, args: &Value) -> Result<Value, String> {
        let filters: Vec<&str> = args["filters"]
            .as_array()
            .map(|f| f.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(bad) = filters
            .iter()
            .find(|f| !["uncaught", "caught", "invariant"].contains(f))
        {
            return Err(format!(
                "unknown exception filter `{bad}` (symdbg has uncaught, caught and invariant)"
            ));
        }
        self.exceptions = ExcFilters {
            uncaught: filters.contains(&"uncaught"),
            caught: filters.contains(&"caught"),
            invariant: filters.contains(&"invariant"),
        };
        let verified: Vec<Value> = filters.iter().map(|_| json!({"verified": true})).collect();
        Ok(json!({ "breakpoints": verified }))
    }

    /// What a continue stops at: the verified breakpoints' lines and conditions, the
    /// exception filters (`invariant` alone: every exception leaf, the others walked past
    /// by the caller), the hits seen so far.
    pub(super) fn stops(&self) -> Stops {
        let bps = self.breakpoints.iter().filter(|b| b.verified);
        let e = self.exceptions;
        Stops {
            lines: bps.clone().map(|b| b.line).collect(),
            conditions: bps
                .filter_map(|b| Some((b.line, b.condition.clone()?)))
                .collect(),
            exceptions: if e.uncaught || e.invariant {
                ExcStop::Any
            } else {
                ExcStop::Off
            },
            caught: if e.caught { ExcStop::Any } else { ExcStop::Off },
            seen: self
                .run
                .as_ref()
                .map(|r| r.seen.clone())
                .unwrap_or_default(),
            bfs: false,
        }
    }
}

/// Check a breakpoint against the program: its line must have a statement and its
/// condition must type-check there.
fn verify(s: &Session, bp: &mut Breakpoint) {
    match s.locate(&bp.line.to_string()) {
        Err(m) => {
            bp.message = Some(m);
            return;
        }
        Ok(loc) if loc.line != bp.line => {
            bp.message = Some(format!(
                "line {} has no statement (the next one is line {}): no path stops here",
                bp.line, loc.line
            ));
            return;
        }
        Ok(_) => {}
    }
    if let Some(c) = &bp.condition {
        if let Err(m) = s.check_condition(bp.line, c) {
            bp.message = Some(format!("condition `{c}`: {m}"));
            return;
        }
    }
    bp.verified = true;
}

fn shown(b: &Breakpoint) -> Value {
    let mut v = json!({"id": b.id, "verified": b.verified, "line": b.line});
    if let Some(m) = &b.message {
        v["message"] = json!(m);
    }
    v
}

/// Do two paths name the same file? (a client may send an absolute path for a relative
/// `program`)
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}
