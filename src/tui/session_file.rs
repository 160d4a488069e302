//! Session files: `S` in the debugger writes one, `symdbg FILE --session S` reopens it.
//!
//! The format is [`SessionFile`] as JSON (format version [`VERSION`]); README.md's "Saving
//! a session" shows an example. Reading never panics and never trusts the file: anything
//! that is not a session file of this version (not JSON, another format, a newer or older
//! version, fields of the wrong type, a file over [`MAX_BYTES`]) is an error with a
//! message, and the debugger starts fresh. A file written for another text of the program
//! (its hash differs) restores what still applies; the worker says what did not.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::carry::{Breakpoint, Carry};
use crate::base::{ExcClass, SourceMap};
use crate::session::{CallMode, Config, ExcStop, FoldMode, FrontierStep, LoopMode, StepKind};

/// The value of the `format` field.
pub const FORMAT: &str = "symdbg-session";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
/// Larger files are refused unread.
pub const MAX_BYTES: u64 = 64 << 20;
/// The file name suffix of the default session file beside the program.
pub const SUFFIX: &str = ".symdbg-session";

/// A saved debugger session, format version 1 (JSON, one object; every field is required,
/// unknown fields are ignored):
///
/// - `format`: `"symdbg-session"`; `version`: `1`.
/// - `program`: the program's file name as it was opened (informational).
/// - `program_hash`: `"fnv1a64:<16 hex digits>"`, FNV-1a (64 bit) of the program text as
///   symdbg read it (UTF-8, byte-order mark dropped, line ends normalised). When it
///   differs, the session is restored where it still applies and the status line says so.
/// - `options`: the options of the run that saved it (`entry`, `unroll`, `recursion`,
///   `loops`, `fold`, `calls`); informational: the command line's options win, a
///   difference is named in the status line. `calls` (`"inline"` or `"contract"`, the
///   mode in effect, issue 28; absent in older files) is the exception: without `--calls`
///   on the command line the saved mode is used, so the steps at calls replay the same.
/// - `breakpoints`: `[{"line": 1-based, "enabled": bool, "condition": null | "minipy
///   expression", "text": "the line's text when saved"}]`; `text` lets a breakpoint follow
///   its line in a changed program.
/// - `exceptions`: the exception breakpoint: `"off"`, `"any"` or a class name.
/// - `watches`, `assumptions`: lists of minipy expressions.
/// - `frontier`: the explored tree as the steps that built it, in order: `{"from": k,
///   "child": i, "step": S}` steps the `i`-th child (0-based) of the node stepped by entry
///   `k` (an earlier entry); the root's entry has neither `from` nor `child`. `S` is
///   `"step"` (an ordinary step) or, at a `while` with invariants, the transition taken:
///   `"invariant"`, `"unroll"` (unroll as any loop) or `"unroll_once"` (the debugger's
///   `u`); at a call of a function with a contract, `"inline"` (`i`) or `"contract"`
///   (`o`). Replaying the entries in order on the same program and options rebuilds the same
///   tree with the same node ids.
/// - `selected`: the selected node as child indices from the root (`[]`: the root).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionFile {
    pub format: String,
    pub version: u32,
    pub program: String,
    pub program_hash: String,
    pub options: SavedOptions,
    pub breakpoints: Vec<SavedBreakpoint>,
    pub exceptions: String,
    pub watches: Vec<String>,
    pub assumptions: Vec<String>,
    pub frontier: Vec<SavedStep>,
    pub selected: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedOptions {
    pub entry: Option<String>,
    pub unroll: u32,
    pub recursion: u32,
    pub loops: String,
    pub fold: String,
    /// Absent in files written before issue 28 (they load as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calls: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedBreakpoint {
    pub line: usize,
    pub enabled: bool,
    pub condition: Option<String>,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedStep {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub child: Option<u32>,
    pub step: String,
}

/// Just the fields that say what a file is, read first so that a file of another version
/// gets that message rather than a complaint about its fields.
#[derive(Deserialize)]
struct Header {
    format: Option<serde_json::Value>,
    version: Option<serde_json::Value>,
}

/// FNV-1a, 64 bit, as `fnv1a64:<hex>`: stable across builds and platforms.
pub fn program_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x}")
}

/// The default session file of a program: `prog.py` → `prog.py.symdbg-session`.
pub fn default_path(program: &Path) -> PathBuf {
    let mut name = program.as_os_str().to_owned();
    name.push(SUFFIX);
    PathBuf::from(name)
}

/// Everything a session file says, in the debugger's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restore {
    /// The settings, breakpoints with their saved line texts (see [`super::carry::remap`]).
    pub carry: Carry,
    pub texts: Vec<Option<String>>,
    pub frontier: Vec<FrontierStep>,
    pub selected: Vec<u32>,
    /// The program text changed since the file was written.
    pub changed: bool,
    /// Options that differ from this run's, in words (`--unroll 5`).
    pub other_options: Vec<String>,
    /// Entries the file had that make no sense (an unknown step or exception class).
    pub ignored: usize,
    /// The saved `--calls` mode, to use when the command line gave none (`None`: it
    /// did, or the file has none).
    pub calls: Option<CallMode>,
}

/// Read and check a session file for `source` opened with `config` and `entry`.
pub fn read(
    path: &Path,
    source: &SourceMap,
    config: &Config,
    entry: Option<&str>,
) -> Result<Restore, String> {
    let why = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        _ => e.to_string(),
    };
    // Only a regular file: a FIFO or a terminal would block the read, /dev/zero never end.
    if !std::fs::metadata(path).map_err(why)?.is_file() {
        return Err("not a regular file".to_string());
    }
    let file = std::fs::File::open(path).map_err(why)?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(format!("larger than {} MiB", MAX_BYTES >> 20));
    }
    let text = std::str::from_utf8(&bytes).map_err(|_| "not UTF-8 text".to_string())?;
    parse(text, source, config, entry)
}

/// [`read`] on a file's text.
pub fn parse(
    text: &str,
    source: &SourceMap,
    config: &Config,
    entry: Option<&str>,
) -> Result<Restore, String> {
    let header: Header =
        serde_json::from_str(text).map_err(|e| format!("not a session file: {e}"))?;
    if header.format.as_ref().and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(format!("not a session file (no \"format\": \"{FORMAT}\")"));
    }
    match header.version.as_ref().and_then(|v| v.as_u64()) {
        Some(v) if v == u64::from(VERSION) => {}
        Some(v) if v > u64::from(VERSION) => {
            return Err(format!(
                "written by a newer symdbg (format version {v}; this one reads version {VERSION})"
            ))
        }
        Some(v) => {
            return Err(format!(
                "format version {v} is not read by this symdbg (it reads version {VERSION})"
            ))
        }
        None => return Err("no format version".to_string()),
    }
    let file: SessionFile =
        serde_json::from_str(text).map_err(|e| format!("a damaged session file: {e}"))?;
    let mut ignored = 0;
    let exceptions = match file.exceptions.as_str() {
        "off" => ExcStop::Off,
        "any" => ExcStop::Any,
        name => match ExcClass::from_name(name) {
            Some(c) => ExcStop::Class(c),
            None => {
                ignored += 1;
                ExcStop::Off
            }
        },
    };
    let (breakpoints, texts) = file
        .breakpoints
        .into_iter()
        .map(|b| {
            (
                Breakpoint {
                    line: b.line,
                    enabled: b.enabled,
                    condition: b.condition,
                },
                Some(b.text),
            )
        })
        .unzip();
    let mut frontier = Vec::with_capacity(file.frontier.len());
    for s in file.frontier {
        let step = match s.step.as_str() {
            "step" => StepKind::Default,
            "invariant" => StepKind::Loop(LoopMode::Invariant),
            "unroll" => StepKind::Loop(LoopMode::Unroll),
            "unroll_once" => StepKind::Loop(LoopMode::UnrollOnce),
            "fold" => StepKind::Fold(FoldMode::Auto),
            "unfold" => StepKind::Fold(FoldMode::Off),
            "inline" => StepKind::Call(CallMode::Inline),
            "contract" => StepKind::Call(CallMode::Contract),
            _ => {
                // Keep the entry's place (later entries refer to it) as a step that
                // names no node.
                ignored += 1;
                frontier.push(FrontierStep {
                    at: Some((usize::MAX, 0)),
                    step: StepKind::Default,
                });
                continue;
            }
        };
        let at = match (s.from, s.child) {
            (None, None) => None,
            (Some(k), Some(i)) => Some((k, i)),
            _ => {
                ignored += 1;
                Some((usize::MAX, 0))
            }
        };
        frontier.push(FrontierStep { at, step });
    }
    let now = options(config, entry);
    let mut other_options = Vec::new();
    let o = &file.options;
    if o.entry != now.entry {
        other_options.push(match &o.entry {
            Some(f) => format!("--entry {f}"),
            None => "no --entry".to_string(),
        });
    }
    for (name, was, is) in [
        ("--unroll", o.unroll.to_string(), now.unroll.to_string()),
        (
            "--recursion",
            o.recursion.to_string(),
            now.recursion.to_string(),
        ),
        ("--loops", o.loops.clone(), now.loops.clone()),
        ("--fold", o.fold.clone(), now.fold.clone()),
    ] {
        if was != is {
            other_options.push(format!("{name} {was}"));
        }
    }
    // `--calls` (issue 28): the saved mode applies unless the command line names one.
    let saved_calls = match o.calls.as_deref() {
        Some("inline") => Some(CallMode::Inline),
        Some("contract") => Some(CallMode::Contract),
        Some(_) => {
            ignored += 1;
            None
        }
        None => None,
    };
    let calls = match (saved_calls, config.calls) {
        (Some(was), Some(is)) if was != is => {
            other_options.push(format!("--calls {}", call_name(was)));
            None
        }
        (Some(was), None) => Some(was),
        _ => None,
    };
    Ok(Restore {
        carry: Carry {
            breakpoints,
            exceptions,
            watches: file.watches,
            assumptions: file.assumptions,
        },
        texts,
        frontier,
        selected: file.selected,
        changed: file.program_hash != program_hash(&source.text),
        other_options,
        ignored,
        calls,
    })
}

/// The options of a run, as a session file records them.
pub fn options(config: &Config, entry: Option<&str>) -> SavedOptions {
    SavedOptions {
        entry: entry.map(str::to_string),
        unroll: config.unroll,
        recursion: config.recursion,
        loops: loop_name(config.loops).to_string(),
        fold: match config.fold {
            FoldMode::Off => "off",
            FoldMode::Auto => "auto",
        }
        .to_string(),
        calls: config.calls.map(|c| call_name(c).to_string()),
    }
}

/// A `--calls` mode's name, as the command line and session files spell it.
pub fn call_name(mode: CallMode) -> &'static str {
    match mode {
        CallMode::Inline => "inline",
        CallMode::Contract => "contract",
    }
}

fn loop_name(mode: LoopMode) -> &'static str {
    match mode {
        LoopMode::Invariant => "invariant",
        LoopMode::Unroll => "unroll",
        LoopMode::UnrollOnce => "unroll_once",
    }
}

/// The file for a session: its settings (`calls`: the mode in effect), tree and selection.
pub fn build(
    source: &SourceMap,
    config: &Config,
    entry: Option<&str>,
    calls: CallMode,
    carry: &Carry,
    frontier: &[FrontierStep],
    selected: Vec<u32>,
) -> SessionFile {
    SessionFile {
        format: FORMAT.to_string(),
        version: VERSION,
        program: source.name.clone(),
        program_hash: program_hash(&source.text),
        options: SavedOptions {
            calls: Some(call_name(calls).to_string()),
            ..options(config, entry)
        },
        breakpoints: carry
            .breakpoints
            .iter()
            .map(|b| SavedBreakpoint {
                line: b.line,
                enabled: b.enabled,
                condition: b.condition.clone(),
                text: source.line_text(b.line).trim().to_string(),
            })
            .collect(),
        exceptions: match carry.exceptions {
            ExcStop::Off => "off".to_string(),
            ExcStop::Any => "any".to_string(),
            ExcStop::Class(c) => c.name().to_string(),
        },
        watches: carry.watches.clone(),
        assumptions: carry.assumptions.clone(),
        frontier: frontier
            .iter()
            .map(|s| SavedStep {
                from: s.at.map(|(k, _)| k),
                child: s.at.map(|(_, i)| i),
                step: match s.step {
                    StepKind::Default => "step",
                    StepKind::Loop(m) => loop_name(m),
                    StepKind::Fold(FoldMode::Auto) => "fold",
                    StepKind::Fold(FoldMode::Off) => "unfold",
                    StepKind::Call(CallMode::Inline) => "inline",
                    StepKind::Call(CallMode::Contract) => "contract",
                }
                .to_string(),
            })
            .collect(),
        selected,
    }
}

/// The file's text: one field per line, and one line per breakpoint and per frontier
/// step (readable, and about a third of `serde_json`'s pretty form for a large tree).
pub fn to_text(file: &SessionFile) -> serde_json::Result<String> {
    use serde_json::to_string as json;
    /// A list as one line per element.
    fn lines<T: Serialize>(items: &[T]) -> serde_json::Result<String> {
        if items.is_empty() {
            return Ok("[]".to_string());
        }
        let rows: Vec<String> = items
            .iter()
            .map(|i| json(i).map(|t| format!("    {t}")))
            .collect::<Result<_, _>>()?;
        Ok(format!("[\n{}\n  ]", rows.join(",\n")))
    }
    let fields = [
        ("format", json(&file.format)?),
        ("version", json(&file.version)?),
        ("program", json(&file.program)?),
        ("program_hash", json(&file.program_hash)?),
        ("options", json(&file.options)?),
        ("breakpoints", lines(&file.breakpoints)?),
        ("exceptions", json(&file.exceptions)?),
        ("watches", json(&file.watches)?),
        ("assumptions", json(&file.assumptions)?),
        ("frontier", lines(&file.frontier)?),
        ("selected", json(&file.selected)?),
    ];
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("  \"{k}\": {v}"))
        .collect();
    Ok(format!("{{\n{}\n}}", body.join(",\n")))
}

/// Write `file` to `path` by the one rule for files symdbg writes
/// ([`super::output`]: an earlier session file or an empty one is replaced, atomically,
/// keeping its mode; the program, a link, a read-only file or any other file is not).
pub fn write(path: &Path, file: &SessionFile, program: Option<&Path>) -> Result<(), String> {
    let text = to_text(file).map_err(|e| e.to_string())? + "\n";
    let target = super::output::Target {
        path,
        kind: KIND,
        program,
        force: false,
    };
    super::output::write(&target, text.as_bytes()).map_err(|e| e.to_string())
}

/// Session files for [`super::output`].
pub const KIND: super::output::Kind = super::output::Kind {
    what: "session file",
    ours: written_by_symdbg,
};

/// Did symdbg write the file that starts with `head`? A JSON object whose first field is
/// `"format": "symdbg-session"` (as [`to_text`] writes it, whatever the spacing).
pub fn written_by_symdbg(head: &[u8]) -> bool {
    let squeezed: Vec<u8> = head
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    squeezed.starts_with(format!("{{\"format\":\"{FORMAT}\"").as_bytes())
}

#[cfg(test)]
mod tests;
