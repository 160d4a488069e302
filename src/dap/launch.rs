//! The `launch` request's arguments (names exactly as `src/dap/SCHEMA.md` lists them) and
//! opening a session on the program they name.

use std::path::PathBuf;

use serde::Deserialize;

use crate::diagnostics::render_all;
use crate::session::{CallMode, Config, FoldMode, Loaded, LoopMode, Session};

/// `launch`'s `arguments`. Unknown fields (a client's own, such as `type`, `request`,
/// `name`, `__sessionId`) are ignored.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LaunchArgs {
    pub program: Option<String>,
    pub entry: Option<String>,
    #[serde(default = "default_unroll", deserialize_with = "count")]
    pub unroll: u32,
    #[serde(default = "default_recursion", deserialize_with = "count")]
    pub recursion: u32,
    #[serde(default)]
    pub fold: FoldArg,
    #[serde(default)]
    pub loops: LoopsArg,
    /// `--calls` (issue 28): absent, the command line's default (the contract when
    /// proving the `entry` function's, else inline).
    #[serde(default)]
    pub calls: Option<CallsArg>,
    #[serde(default)]
    pub assume: Vec<String>,
    #[serde(default = "default_timeout", deserialize_with = "count")]
    pub timeout_ms: u64,
    #[serde(default)]
    pub stop_on_entry: bool,
    /// symdbg's `--max-nodes` (an extension of the list).
    #[serde(default = "default_max_nodes", deserialize_with = "count")]
    pub max_nodes: usize,
}

/// A count given as a JSON number or as its decimal text (`"5"`): Helix's debug templates
/// pass only strings, lists of strings and booleans.
fn count<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned + std::str::FromStr,
    T::Err: std::fmt::Display,
{
    use serde::de::Error;
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(s) => s
            .trim()
            .parse()
            .map_err(|e| D::Error::custom(format!("`{s}` is not a count: {e}"))),
        v => T::deserialize(&v).map_err(|e| match v {
            // (an out-of-range number says only "invalid number" here)
            serde_json::Value::Number(n) => {
                D::Error::custom(format!("{n} is not a count (a whole number from 0)"))
            }
            _ => D::Error::custom(e),
        }),
    }
}

fn default_unroll() -> u32 {
    3
}
fn default_recursion() -> u32 {
    5
}
fn default_timeout() -> u64 {
    10_000
}
fn default_max_nodes() -> usize {
    100_000
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum FoldArg {
    Auto,
    #[default]
    Off,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LoopsArg {
    #[default]
    Invariant,
    Unroll,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum CallsArg {
    Inline,
    Contract,
}

impl LaunchArgs {
    /// Read `arguments` (`Err`: which argument is wrong, named, and why in serde's words).
    pub fn parse(arguments: Option<&serde_json::Value>) -> Result<LaunchArgs, String> {
        let v = arguments.cloned().unwrap_or_else(|| serde_json::json!({}));
        // (serde_path_to_error names the argument that is wrong)
        let args: LaunchArgs = serde_path_to_error::deserialize(v).map_err(|e| {
            let field = e.path().to_string();
            match field.as_str() {
                "." => format!("bad launch arguments: {}", e.inner()),
                _ => format!("bad launch argument `{field}`: {}", e.inner()),
            }
        })?;
        if args.program.as_deref().is_none_or(str::is_empty) {
            return Err("launch: the argument `program` (the minipy file) is missing".into());
        }
        Ok(args)
    }

    pub fn path(&self) -> PathBuf {
        PathBuf::from(self.program.as_deref().unwrap_or_default())
    }

    pub fn config(&self) -> Config {
        Config {
            unroll: self.unroll,
            recursion: self.recursion,
            timeout_ms: (self.timeout_ms > 0).then_some(self.timeout_ms),
            loops: match self.loops {
                LoopsArg::Invariant => LoopMode::Invariant,
                LoopsArg::Unroll => LoopMode::Unroll,
            },
            frames: true,
            fold: match self.fold {
                FoldArg::Auto => FoldMode::Auto,
                FoldArg::Off => FoldMode::Off,
            },
            calls: self.calls.map(|c| match c {
                CallsArg::Inline => CallMode::Inline,
                CallsArg::Contract => CallMode::Contract,
            }),
        }
    }

    /// Read the program and build its session; `Err`: the diagnostics, rendered as the
    /// command line renders them (no colour). `notes`: warnings to show (`--entry`'s).
    pub fn open(&self, notes: &mut Vec<String>) -> Result<Session, String> {
        let path = self.path();
        // (a FIFO or a device would block the adapter in the read)
        if std::fs::metadata(&path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            return Err(format!(
                "error: `{}` is not a regular file",
                crate::files::program::display_name(&path)
            ));
        }
        let source = crate::files::program::read_program(&path).map_err(|e| {
            let mut m = format!("error: {}", e.message);
            for n in &e.notes {
                m.push_str(&format!("\n  = note: {n}"));
            }
            m
        })?;
        let entry = self.entry.as_deref().filter(|e| !e.is_empty());
        let mut loaded = Loaded::new(source.clone()).map_err(|d| render_all(&d, &source, false))?;
        loaded
            .assume(entry, &self.assume)
            .map_err(|d| render_all(&d, &loaded.source, false))?;
        notes.extend(loaded.entry_warning(entry).map(|w| format!("warning: {w}")));
        notes.extend(loaded.entry_hint(entry).map(|w| format!("note: {w}")));
        let source = loaded.source.clone();
        Session::new(loaded, entry, self.config()).map_err(|d| render_all(&d, &source, false))
    }
}

#[cfg(test)]
mod tests {
    use super::LaunchArgs;
    use serde_json::json;

    #[test]
    fn counts_are_numbers_or_their_decimal_text() {
        let a = LaunchArgs::parse(Some(&json!({
            "program": "p.py", "unroll": "7", "recursion": 2, "timeoutMs": " 500 ",
            "maxNodes": "1000"
        })))
        .unwrap();
        assert_eq!(
            (a.unroll, a.recursion, a.timeout_ms, a.max_nodes),
            (7, 2, 500, 1000)
        );
        let d = LaunchArgs::parse(Some(&json!({ "program": "p.py" }))).unwrap();
        assert_eq!((d.unroll, d.recursion), (3, 5));
        for bad in [json!("seven"), json!(-1), json!("-1"), json!(true)] {
            let e =
                LaunchArgs::parse(Some(&json!({ "program": "p.py", "unroll": bad }))).unwrap_err();
            assert!(e.starts_with("bad launch argument `unroll`: "), "{e}");
        }
    }

    /// A wrong argument is named with the value the client sent (fuzz5: `"unroll": -3`
    /// said only "invalid number").
    #[test]
    fn a_bad_argument_is_named_with_its_value() {
        for (field, bad, shown) in [
            ("unroll", json!(-3), "-3"),
            ("maxNodes", json!(1.5), "1.5"),
            ("recursion", json!(true), "true"),
            ("timeoutMs", json!("soon"), "`soon`"),
            ("fold", json!("sideways"), "sideways"),
            ("stopOnEntry", json!("yes"), "yes"),
        ] {
            let mut args = json!({ "program": "p.py" });
            args[field] = bad;
            let e = LaunchArgs::parse(Some(&args)).unwrap_err();
            assert!(
                e.starts_with(&format!("bad launch argument `{field}`: ")),
                "{field}: {e}"
            );
            assert!(e.contains(shown), "{field}: {e}");
        }
    }
}
