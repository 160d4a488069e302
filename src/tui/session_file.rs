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
use crate::engine::fold::FoldMode;
use crate::engine::{Config, LoopMode};
use crate::session::{ExcStop, FrontierStep, StepKind};

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
///   `loops`, `fold`); informational: the command line's options win, a difference is
///   named in the status line.
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
///   `u`). Replaying the entries in order on the same program and options rebuilds the same
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
    }
}

fn loop_name(mode: LoopMode) -> &'static str {
    match mode {
        LoopMode::Invariant => "invariant",
        LoopMode::Unroll => "unroll",
        LoopMode::UnrollOnce => "unroll_once",
    }
}

/// The file for a session: its settings, tree and selection.
pub fn build(
    source: &SourceMap,
    config: &Config,
    entry: Option<&str>,
    carry: &Carry,
    frontier: &[FrontierStep],
    selected: Vec<u32>,
) -> SessionFile {
    SessionFile {
        format: FORMAT.to_string(),
        version: VERSION,
        program: source.name.clone(),
        program_hash: program_hash(&source.text),
        options: options(config, entry),
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

/// Write `file` to `path` (a temporary file beside it, then a rename: a crash never leaves
/// half a session file).
pub fn write(path: &Path, file: &SessionFile) -> std::io::Result<()> {
    let text = to_text(file).map_err(std::io::Error::other)?;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text + "\n")?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "x: int\nif x > 0:\n    y = 1\n";

    fn source() -> SourceMap {
        SourceMap::new("t.py", SRC)
    }

    fn sample() -> SessionFile {
        let carry = Carry {
            breakpoints: vec![Breakpoint {
                line: 3,
                enabled: false,
                condition: Some("x > 5".to_string()),
            }],
            exceptions: ExcStop::Class(ExcClass::from_name("ZeroDivisionError").unwrap()),
            watches: vec!["x + 1".to_string()],
            assumptions: vec!["x < 100".to_string()],
        };
        let frontier = vec![
            FrontierStep {
                at: None,
                step: StepKind::Default,
            },
            FrontierStep {
                at: Some((0, 1)),
                step: StepKind::Loop(LoopMode::UnrollOnce),
            },
        ];
        build(
            &source(),
            &Config::default(),
            None,
            &carry,
            &frontier,
            vec![1, 0],
        )
    }

    #[test]
    fn a_written_file_reads_back_as_it_was() {
        let file = sample();
        assert_eq!(file.breakpoints[0].text, "y = 1");
        let text = serde_json::to_string_pretty(&file).unwrap();
        let r = parse(&text, &source(), &Config::default(), None).unwrap();
        assert!(!r.changed);
        assert!(r.other_options.is_empty());
        assert_eq!(r.ignored, 0);
        assert_eq!(r.carry.breakpoints[0].condition.as_deref(), Some("x > 5"));
        assert!(!r.carry.breakpoints[0].enabled);
        assert_eq!(r.carry.watches, vec!["x + 1"]);
        assert_eq!(r.carry.assumptions, vec!["x < 100"]);
        assert!(matches!(r.carry.exceptions, ExcStop::Class(_)));
        assert_eq!(r.frontier[1].at, Some((0, 1)));
        assert_eq!(r.frontier[1].step, StepKind::Loop(LoopMode::UnrollOnce));
        assert_eq!(r.selected, vec![1, 0]);
        // The root's entry has no `from`/`child` keys at all.
        assert!(
            to_text(&file).unwrap().contains("{\"step\":\"step\"}"),
            "{text}"
        );
    }

    #[test]
    fn the_text_has_one_step_per_line_and_parses_back() {
        let file = sample();
        let text = to_text(&file).unwrap();
        assert!(
            text.contains("\n    {\"from\":0,\"child\":1,\"step\":\"unroll_once\"}\n"),
            "{text}"
        );
        assert!(text.contains("\n  \"version\": 1,\n"), "{text}");
        let back: SessionFile = serde_json::from_str(&text).unwrap();
        assert_eq!(back, file);
        let empty = SessionFile {
            breakpoints: Vec::new(),
            frontier: Vec::new(),
            ..file
        };
        let back: SessionFile = serde_json::from_str(&to_text(&empty).unwrap()).unwrap();
        assert_eq!(back, empty);
    }

    #[test]
    fn another_program_text_or_other_options_are_noticed() {
        let text = serde_json::to_string(&sample()).unwrap();
        let other = SourceMap::new("t.py", "x: int\n");
        assert!(
            parse(&text, &other, &Config::default(), None)
                .unwrap()
                .changed
        );
        let config = Config {
            unroll: 7,
            ..Config::default()
        };
        let r = parse(&text, &source(), &config, Some("f")).unwrap();
        assert_eq!(r.other_options, vec!["no --entry", "--unroll 3"]);
    }

    #[test]
    fn hostile_files_are_errors_with_a_reason() {
        let ok = serde_json::to_value(sample()).unwrap();
        let with = |k: &str, v: serde_json::Value| {
            let mut o = ok.clone();
            o[k] = v;
            o.to_string()
        };
        let cases: Vec<(String, &str)> = vec![
            (String::new(), "not a session file"),
            ("{".to_string(), "not a session file"),
            ("[1, 2]".to_string(), "not a session file"),
            ("null".to_string(), "not a session file"),
            ("{}".to_string(), "no \"format\""),
            (with("format", "other".into()), "no \"format\""),
            (with("version", 2.into()), "newer symdbg (format version 2"),
            (with("version", 0.into()), "format version 0 is not read"),
            (with("version", "1".into()), "no format version"),
            (with("frontier", "x".into()), "damaged"),
            (with("selected", serde_json::json!([-1])), "damaged"),
            (with("selected", serde_json::json!([1e30])), "damaged"),
            (
                with("breakpoints", serde_json::json!([{"line": 1}])),
                "damaged",
            ),
            ("[".repeat(100_000), "not a session file"),
        ];
        for (text, want) in cases {
            let err = parse(&text, &source(), &Config::default(), None).unwrap_err();
            assert!(err.contains(want), "{text:.80}: {err}");
        }
    }

    #[test]
    fn unknown_steps_and_classes_are_ignored_in_place() {
        let mut file = sample();
        file.exceptions = "NoSuchError".to_string();
        file.frontier[0].step = "leap".to_string();
        file.frontier.push(SavedStep {
            from: Some(0),
            child: None,
            step: "step".to_string(),
        });
        let text = serde_json::to_string(&file).unwrap();
        let r = parse(&text, &source(), &Config::default(), None).unwrap();
        assert_eq!(r.ignored, 3);
        assert_eq!(r.carry.exceptions, ExcStop::Off);
        // Entries keep their places: entry 1 still refers to entry 0.
        assert_eq!(r.frontier.len(), 3);
        assert_eq!(r.frontier[1].at, Some((0, 1)));
    }

    #[test]
    fn only_regular_files_are_read() {
        let config = Config::default();
        for p in ["/dev/zero", "/dev/null", "/tmp"] {
            let err = read(Path::new(p), &source(), &config, None).unwrap_err();
            assert_eq!(err, "not a regular file", "{p}");
        }
        let dir = std::env::temp_dir().join(format!("symdbg-sf-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let err = read(&fifo, &source(), &config, None).unwrap_err();
            assert_eq!(err, "not a regular file");
        }
        // Too large: refused after reading at most MAX_BYTES + 1 bytes.
        let big = dir.join("big");
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(MAX_BYTES + 1).unwrap();
        let err = read(&big, &source(), &config, None).unwrap_err();
        assert!(err.contains("larger than 64 MiB"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_hash_is_fnv1a() {
        // The FNV-1a 64 test vectors.
        assert_eq!(program_hash(""), "fnv1a64:cbf29ce484222325");
        assert_eq!(program_hash("a"), "fnv1a64:af63dc4c8601ec8c");
        assert_eq!(
            default_path(Path::new("dir/p.py")),
            PathBuf::from("dir/p.py.symdbg-session")
        );
    }

    #[test]
    fn write_replaces_the_file_whole() {
        let dir = std::env::temp_dir().join(format!("symdbg-sf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("p.py.symdbg-session");
        std::fs::write(&p, "old").unwrap();
        write(&p, &sample()).unwrap();
        let r = read(&p, &source(), &Config::default(), None).unwrap();
        assert_eq!(r.selected, vec![1, 0]);
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary left"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(read(&p, &source(), &Config::default(), None)
            .unwrap_err()
            .contains("no such file"));
    }
}
