//! The requests that look at a stopped thread: `stackTrace` (the call stack at its node),
//! `scopes` (`Locals`, `Globals`, `Path condition`, `Model`), `variables` (symbolic
//! values in minipy; tuples expand), `evaluate` (the TUI's `:`) and `exceptionInfo` (the
//! class, the line and the inputs that raise it).

use std::sync::atomic::Ordering;

use serde_json::{json, Value};

use super::adapter::{Adapter, Run};
use super::values::{tuple_elements, Container};
use crate::base::bindings::bindings;
use crate::session::value_origins::OriginLink;
use crate::session::NodeId;

impl Adapter {
    fn run_mut(&mut self) -> Result<&mut Run, String> {
        self.run.as_mut().ok_or_else(|| "no program".to_string())
    }

    fn thread_node(&self, args: &Value) -> Result<(i64, NodeId), String> {
        let run = self.run.as_ref().ok_or("no program")?;
        let (id, shown) = super::threads::thread_arg(args);
        let t = id
            .and_then(|id| run.threads.get(id))
            .ok_or_else(|| format!("no thread {shown} (a path that ended has no thread)"))?;
        Ok((t.id, t.pos))
    }

    /// The frame `frameId` names: (node, frames out from the innermost).
    fn frame(&self, args: &Value) -> Result<(NodeId, usize), String> {
        let run = self.run.as_ref().ok_or("no program")?;
        match args["frameId"].as_i64() {
            Some(f) => usize::try_from(f - 1)
                .ok()
                .and_then(|i| run.frames.get(i))
                .map(|&(_, n, up)| (n, up))
                .ok_or_else(|| format!("no frame {f} (frames last until the program moves)")),
            // No frame: the first thread's node, innermost frame.
            None => run
                .threads
                .list
                .first()
                .map(|t| (t.pos, 0))
                .ok_or_else(|| "no path is open".to_string()),
        }
    }

    pub(super) fn stack_trace(&mut self, args: &Value) -> Result<Value, String> {
        let (thread, node) = self.thread_node(args)?;
        let run = self.run_mut()?;
        let s = &run.session;
        let d = s.details(node);
        let view = s.view(node);
        let name = run.args.path().file_name().map_or_else(
            || s.source().name.clone(),
            |n| n.to_string_lossy().into_owned(),
        );
        let source = json!({
            "name": name,
            "path": std::fs::canonicalize(run.args.path())
                .unwrap_or_else(|_| run.args.path())
                .to_string_lossy(),
        });
        let n = d.frames.len();
        let mut frames = Vec::new();
        for (k, (name, _)) in d.frames.iter().enumerate().rev() {
            let up = n - 1 - k;
            let line = d.frame_lines.get(k).copied().flatten();
            let (line, column) = if up == 0 {
                match (view.raised_at, view.line) {
                    (Some((l, c)), _) => (l, c),
                    (None, Some(l)) => (l, view.column.unwrap_or(1)),
                    (None, None) => (line.or(view.place).unwrap_or(1), 1),
                }
            } else {
                (line.unwrap_or(1), 1)
            };
            run.frames.push((thread, node, up));
            let id = run.frames.len();
            frames.push(json!({
                "id": id,
                "name": name,
                "source": source,
                "line": line,
                "column": column,
            }));
        }
        let total = frames.len();
        Ok(json!({"stackFrames": frames, "totalFrames": total}))
    }

    pub(super) fn scopes(&mut self, args: &Value) -> Result<Value, String> {
        let (node, up) = self.frame(args)?;
        let run = self.run_mut()?;
        let scopes = [
            ("Locals", Container::Locals(node, up), "locals", false),
            ("Globals", Container::Globals(node), "globals", false),
            (
                "Path condition",
                Container::PathCondition(node),
                "registers",
                false,
            ),
            ("Model", Container::Model(node), "registers", true),
        ];
        let list: Vec<Value> = scopes
            .into_iter()
            .map(|(name, c, hint, expensive)| {
                json!({
                    "name": name,
                    "presentationHint": hint,
                    "variablesReference": run.refs.add(c),
                    "expensive": expensive,
                })
            })
            .collect();
        Ok(json!({ "scopes": list }))
    }

    pub(super) fn variables(&mut self, args: &Value) -> Result<Value, String> {
        let r = args["variablesReference"].as_i64().unwrap_or(0);
        let run = self.run_mut()?;
        let c = run
            .refs
            .get(r)
            .cloned()
            .ok_or_else(|| format!("no variables {r} (they last until the program moves)"))?;
        let s = &mut run.session;
        // A store's variables (node, frame from the outermost): each also shows where
        // its value came from (issue 29).
        let mut store: Option<(NodeId, usize)> = None;
        let vars: Vec<(String, String)> = match c {
            Container::Locals(node, up) => {
                let d = s.details(node);
                let n = d.frames.len();
                let k = n.checked_sub(1 + up);
                store = k.map(|k| (node, k));
                k.and_then(|k| d.frames.get(k))
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default()
            }
            Container::Globals(node) => {
                store = Some((node, 0));
                s.details(node)
                    .frames
                    .first()
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default()
            }
            Container::PathCondition(node) => {
                let d = s.details(node);
                d.pc.iter()
                    .zip(&d.origins)
                    .enumerate()
                    .map(|(i, (c, line))| (format!("#{} (line {line})", i + 1), c.clone()))
                    .collect()
            }
            Container::Model(node) => {
                s.cancel_handle().store(false, Ordering::SeqCst);
                match s.try_model(node) {
                    Ok(m) => {
                        let mut v: Vec<(String, String)> = m
                            .inputs
                            .iter()
                            .map(|(k, v)| (k.clone(), v.to_string()))
                            .collect();
                        // Each fold's κ on the path (the number of times its path ran).
                        for f in s.path_folds(node) {
                            if let Some(k) = m.havoc.get(&f.symbol) {
                                v.push((
                                    format!("{} (loop at line {})", f.kappa, f.loop_line),
                                    k.to_string(),
                                ));
                            }
                        }
                        v
                    }
                    Err(e) => vec![("(no model)".to_string(), e.to_string())],
                }
            }
            Container::Elements(v) => v,
            Container::Line(line) => {
                return Err(format!("{r} is a location (line {line}), not variables"))
            }
        };
        let list: Vec<Value> = vars
            .into_iter()
            .map(|(name, value)| {
                let mut children: Vec<(String, String)> = tuple_elements(&value)
                    .map(|els| {
                        els.into_iter()
                            .enumerate()
                            .map(|(i, e)| (format!("[{i}]"), e))
                            .collect()
                    })
                    .unwrap_or_default();
                let mut origin = None;
                if let Some((node, frame)) = store {
                    let chain = run.session.origin_chain_in_frame(node, frame, &name);
                    origin = chain.first().map(|l| l.origin.line);
                    children.extend(origin_children(&chain));
                }
                let reference = if children.is_empty() {
                    0
                } else {
                    run.refs.add(Container::Elements(children))
                };
                let mut v = json!({"name": name, "value": value, "variablesReference": reference});
                if is_origin(&name) {
                    v["presentationHint"] = json!({"kind": "virtual"});
                }
                if let Some(line) = origin {
                    // (DAP 1.68: a client may offer to go to where the value came from)
                    v["valueLocationReference"] = json!(run.refs.add(Container::Line(line)));
                }
                v
            })
            .collect();
        Ok(json!({ "variables": list }))
    }

    /// `locations` (DAP 1.68): the source line a variable's `valueLocationReference`
    /// names (where its value was assigned).
    pub(super) fn locations(&mut self, args: &Value) -> Result<Value, String> {
        let r = args["locationReference"].as_i64().unwrap_or(0);
        let run = self.run.as_ref().ok_or("no program")?;
        let Some(Container::Line(line)) = run.refs.get(r) else {
            return Err(format!(
                "no location {r} (locations last until the program moves)"
            ));
        };
        let path = run.args.path();
        let name = path.file_name().map_or_else(
            || run.session.source().name.clone(),
            |n| n.to_string_lossy().into_owned(),
        );
        Ok(json!({
            "source": {
                "name": name,
                "path": std::fs::canonicalize(&path).unwrap_or(path).to_string_lossy(),
            },
            "line": line,
        }))
    }

    /// `evaluate`: the expression's symbolic value at the frame's node and its value
    /// under the node's model, as the TUI's `:` says it.
    pub(super) fn evaluate(&mut self, args: &Value) -> Result<Value, String> {
        let (node, up) = self.frame(args)?;
        let text = args["expression"].as_str().unwrap_or_default().to_string();
        let run = self.run_mut()?;
        let s = &mut run.session;
        s.cancel_handle().store(false, Ordering::SeqCst);
        let e = s.evaluate(node, up, &text)?;
        let reference = e
            .here
            .as_ref()
            .ok()
            .and_then(|v| tuple_elements(v))
            .map_or(0, |els| {
                run.refs.add(Container::Elements(
                    els.into_iter()
                        .enumerate()
                        .map(|(i, e)| (format!("[{i}]"), e))
                        .collect(),
                ))
            });
        Ok(json!({
            "result": e.summary(),
            "type": e.ty.to_string(),
            "variablesReference": reference,
        }))
    }

    /// `exceptionInfo`: at an exception leaf, the class and a description with inputs
    /// that raise it (`ZeroDivisionError for x = 0, y = 3`); at a caught exception, what
    /// was caught where.
    pub(super) fn exception_info(&mut self, args: &Value) -> Result<Value, String> {
        let (thread, node) = self.thread_node(args)?;
        let run = self.run_mut()?;
        let s = &mut run.session;
        let view = s.view(node);
        let note = s.details(node).note;
        if let Some(class) = view.exception() {
            s.cancel_handle().store(false, Ordering::SeqCst);
            let inputs = match s.try_model(node) {
                Ok(m) if m.inputs.is_empty() => "every input".to_string(),
                Ok(m) => bindings(m.inputs.iter()),
                Err(e) => format!("no inputs known ({e})"),
            };
            let line = view
                .place
                .map(|l| format!(" at line {l}"))
                .unwrap_or_default();
            let kind = if view.invariant_failure {
                " (a broken invariant)"
            } else {
                ""
            };
            let description = format!("{class} for {inputs}{line}{kind}");
            return Ok(json!({
                "exceptionId": class.to_string(),
                "description": description,
                "breakMode": "unhandled",
                "details": {
                    "message": note.unwrap_or_else(|| description.clone()),
                    "typeName": class.to_string(),
                },
            }));
        }
        if let Some(caught) = view.caught.clone() {
            let class = caught
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_string();
            return Ok(json!({
                "exceptionId": class,
                "description": caught,
                "breakMode": "always",
                "details": {"message": caught, "typeName": class},
            }));
        }
        Err(format!("thread {thread} is not stopped at an exception"))
    }
}

/// The name of an origin entry among a variable's children (tuple elements are `[i]`).
fn is_origin(name: &str) -> bool {
    name.starts_with("origin")
}

/// A variable's origin chain as children: `origin` = `line 5 (node 7): s = s + n`, then
/// what that assignment read, `origin of i` = ..., each assignment once (at most
/// [`ORIGIN_CHILDREN`]).
fn origin_children(chain: &[OriginLink]) -> Vec<(String, String)> {
    chain
        .iter()
        .take(ORIGIN_CHILDREN)
        .map(|l| {
            let name = if l.level == 0 {
                "origin".to_string()
            } else {
                format!("origin of {}", l.name)
            };
            let what = match l.origin.kind {
                "assignment" => String::new(),
                k => format!(" ({k})"),
            };
            (
                name,
                format!(
                    "line {} (node {}): {}{what}",
                    l.origin.line, l.origin.node.0, l.statement
                ),
            )
        })
        .collect()
}

/// At most this many origin entries under one variable.
const ORIGIN_CHILDREN: usize = 8;
