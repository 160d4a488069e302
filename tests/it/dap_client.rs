//! Issue 26, the client side, run by `cargo test`: the protocol tests of tests/dap (the VS
//! Code team's `DebugClient` from `@vscode/debugadapter-testsupport` driving the built
//! `symdbg dap`, under node's test runner), the VS Code extension of editors/vscode (its
//! unit tests, and `vsce package` building the .vsix), and the README's editor snippets
//! against the extension's launch schema.
//!
//! The node packages come from `npm ci` (the committed package-lock.json files), which
//! `scripts/setup` runs; without them these tests fail saying so.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::util::triple;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `dir` (relative to the repository) after checking that `npm ci` ran there.
fn installed(dir: &str, package: &str) -> PathBuf {
    let dir = repo().join(dir);
    let node_modules = dir.join("node_modules");
    assert!(
        node_modules.join(package).join("package.json").is_file(),
        "{} lacks {package}: run scripts/setup (npm ci in {})",
        node_modules.display(),
        dir.strip_prefix(repo()).unwrap_or(&dir).display()
    );
    dir
}

/// `program args...` in `dir` with `SYMDBG_BIN` set to the built binary: (code, out, err).
fn run_in(dir: &Path, program: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("SYMDBG_BIN", env!("CARGO_BIN_EXE_symdbg"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run {program}: {e} (scripts/setup installs Node.js and npm)")
        });
    triple(out)
}

#[test]
fn dap_protocol_tests_pass_under_debugclient() {
    let dir = installed("tests/dap", "@vscode/debugadapter-testsupport");
    let (code, out, err) = run_in(&dir, "node", &["--test"]);
    assert_eq!(
        code, 0,
        "node --test in tests/dap failed:\n{out}\n{err}\n(by hand: cd tests/dap && SYMDBG_BIN={} npm test)",
        env!("CARGO_BIN_EXE_symdbg")
    );
    // Not an empty run: the runner's summary counts the tests it ran.
    let passed = out
        .lines()
        .find_map(|l| l.strip_prefix("# pass "))
        .and_then(|n| n.trim().parse::<usize>().ok())
        .unwrap_or(0);
    assert!(passed >= 10, "node --test ran {passed} tests:\n{out}");
}

#[test]
fn vscode_extension_unit_tests_pass() {
    let dir = installed("editors/vscode", "@vscode/vsce");
    let (code, out, err) = run_in(&dir, "node", &["--test", "test/"]);
    assert_eq!(
        code, 0,
        "node --test in editors/vscode failed:\n{out}\n{err}"
    );
    assert!(!out.contains("# pass 0"), "no extension test ran:\n{out}");
}

#[test]
fn vscode_extension_packages_with_vsce() {
    let dir = installed("editors/vscode", "@vscode/vsce");
    let tmp = std::env::temp_dir().join(format!("symdbg-vsix-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temporary directory");
    let vsix = tmp.join("symdbg.vsix");
    let vsce = dir.join("node_modules/.bin/vsce");
    let vsce = vsce.to_str().expect("utf-8 path");
    let (code, out, err) = run_in(
        &dir,
        vsce,
        &[
            "package",
            "--allow-missing-repository",
            "--out",
            vsix.to_str().expect("utf-8 path"),
        ],
    );
    assert_eq!(code, 0, "vsce package failed:\n{out}\n{err}");
    let size = std::fs::metadata(&vsix).map(|m| m.len()).unwrap_or(0);
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(size > 0, "vsce wrote no .vsix:\n{out}\n{err}");
    // What goes into the package: the extension's code and manifest, no node_modules.
    let (code, out, err) = run_in(&dir, vsce, &["ls"]);
    assert_eq!(code, 0, "vsce ls failed:\n{out}\n{err}");
    let files: BTreeSet<&str> = out.lines().map(str::trim).collect();
    for f in [
        "package.json",
        "extension.js",
        "lib/tree.js",
        "README.md",
        "LICENSE",
    ] {
        assert!(files.contains(f), "{f} is not in the package: {files:?}");
    }
    assert!(
        files.iter().all(|f| !f.starts_with("node_modules")
            && !f.starts_with("test/")
            && !f.ends_with(".vsix")),
        "the package carries development files: {files:?}"
    );
}

/// The launch arguments the extension declares (`configurationAttributes.launch`).
fn schema_arguments() -> BTreeSet<String> {
    let text = std::fs::read_to_string(repo().join("editors/vscode/package.json"))
        .expect("editors/vscode/package.json");
    let pkg: serde_json::Value = serde_json::from_str(&text).expect("package.json is JSON");
    let debuggers = pkg["contributes"]["debuggers"]
        .as_array()
        .expect("contributes.debuggers");
    let symdbg = debuggers
        .iter()
        .find(|d| d["type"] == "symdbg")
        .expect("the symdbg debug type");
    symdbg["configurationAttributes"]["launch"]["properties"]
        .as_object()
        .expect("launch properties")
        .keys()
        .cloned()
        .collect()
}

/// The launch arguments of the adapter's schema (src/dap/SCHEMA.md): the first column of
/// the table under "## `launch` arguments".
fn adapter_arguments() -> BTreeSet<String> {
    let text = std::fs::read_to_string(repo().join("src/dap/SCHEMA.md")).expect("SCHEMA.md");
    let start = text
        .find("## `launch` arguments")
        .expect("SCHEMA.md has a section on the launch arguments");
    text[start..]
        .lines()
        .skip(1)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.split('|').nth(1))
        .filter_map(|cell| {
            let name = cell.trim().strip_prefix('`')?.strip_suffix('`')?;
            Some(name.to_string())
        })
        .collect()
}

#[test]
fn the_extension_declares_the_adapters_launch_arguments() {
    let adapter = adapter_arguments();
    // Issue 26 names these; the adapter may add its own.
    for name in [
        "program",
        "entry",
        "unroll",
        "recursion",
        "fold",
        "loops",
        "assume",
        "timeoutMs",
        "stopOnEntry",
    ] {
        assert!(
            adapter.contains(name),
            "SCHEMA.md lacks `{name}`: {adapter:?}"
        );
    }
    assert_eq!(schema_arguments(), adapter);
}

/// The fenced blocks of the README's "Editors" section: (info string, text).
fn editor_snippets(readme: &str) -> Vec<(String, String)> {
    let start = readme
        .find("\n## Editors")
        .expect("README has a section \"## Editors\"");
    let section = &readme[start + 1..];
    let end = section[3..].find("\n## ").map_or(section.len(), |e| e + 3);
    let mut out = Vec::new();
    let mut block: Option<(String, String)> = None;
    for line in section[..end].lines() {
        let fence = line.trim_start();
        if let Some(info) = fence.strip_prefix("```") {
            match block.take() {
                Some(b) => out.push(b),
                None => block = Some((info.trim().to_string(), String::new())),
            }
            continue;
        }
        if let Some((_, text)) = block.as_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    out
}

/// The launch arguments a snippet passes, read as its editor reads it.
fn snippet_arguments(lang: &str, text: &str) -> Option<BTreeSet<String>> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
            .collect()
    };
    let mut keys = BTreeSet::new();
    match lang {
        // launch.json: every configuration's keys but the client's own.
        "json" | "jsonc" => {
            let v: serde_json::Value = serde_json::from_str(text)
                .unwrap_or_else(|e| panic!("README's launch.json is not JSON ({e}):\n{text}"));
            for c in v["configurations"].as_array()? {
                for k in c.as_object()?.keys() {
                    if !["type", "request", "name"].contains(&k.as_str()) {
                        keys.insert(k.clone());
                    }
                }
            }
        }
        // nvim-dap: the fields of the tables in `dap.configurations.<ft>`.
        "lua" => {
            let at = text.find("dap.configurations")?;
            for line in text[at..].lines().skip(1) {
                let l = line.trim_start();
                if let Some((k, _)) = l.split_once('=') {
                    let k = k.trim();
                    if !k.is_empty() && ident(k) == k && !["type", "request", "name"].contains(&k) {
                        keys.insert(k.to_string());
                    }
                }
            }
        }
        // Helix: the `args = { ... }` tables of `[[language.debugger.templates]]`.
        "toml" => {
            let at = text.find("[[language.debugger.templates]]")?;
            for line in text[at..].lines() {
                let l = line.trim_start();
                let Some(args) = l.strip_prefix("args") else {
                    continue;
                };
                let args = args.trim_start().strip_prefix('=')?.trim();
                let inner = args.strip_prefix('{')?.strip_suffix('}')?;
                // `key = value` pairs (a list's strings may hold `,` and `=`: only a key
                // that is a name counts).
                for part in inner.split(',') {
                    if let Some((k, _)) = part.split_once('=') {
                        let k = k.trim();
                        if !k.is_empty() && ident(k) == k {
                            keys.insert(k.to_string());
                        }
                    }
                }
            }
        }
        // dape: the keywords of the configuration (dape sends them as launch arguments).
        "elisp" | "emacs-lisp" => {
            for word in text.split(|c: char| c.is_whitespace() || c == '(' || c == ')') {
                if let Some(k) = word.strip_prefix(':') {
                    let k = ident(k);
                    // (`:json-false` is a value; dap-mode's `:name` names the template and
                    // `:dap-server-path` is the adapter's command line)
                    if !["type", "request", "name", "json-false", "dap-server-path"]
                        .contains(&k.as_str())
                    {
                        keys.insert(k);
                    }
                }
            }
        }
        _ => return None,
    }
    Some(keys)
}

#[test]
fn readme_editor_snippets_use_the_adapters_argument_names() {
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("README.md");
    let schema = schema_arguments();
    let mut seen = BTreeSet::new();
    for (lang, text) in editor_snippets(&readme) {
        let Some(keys) = snippet_arguments(&lang, &text) else {
            continue;
        };
        assert!(
            keys.contains("program"),
            "a {lang} snippet of README's Editors section passes no `program`:\n{text}"
        );
        let unknown: Vec<&String> = keys.difference(&schema).collect();
        assert!(
            unknown.is_empty(),
            "README's {lang} snippet passes {unknown:?}, which the adapter does not read \
             (its launch arguments: {schema:?}):\n{text}"
        );
        seen.insert(lang);
    }
    for lang in ["json", "lua", "toml", "elisp"] {
        assert!(
            seen.contains(lang),
            "README's Editors section has no {lang} configuration (seen: {seen:?})"
        );
    }
}

#[test]
fn readme_launch_argument_table_is_the_adapters() {
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("README.md");
    let start = readme
        .find("\n## Editors")
        .expect("README's Editors section");
    let table: BTreeSet<String> = readme[start..]
        .lines()
        .skip_while(|l| !l.starts_with("| argument |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| {
            let cell = l.split('|').nth(1)?.trim();
            Some(cell.strip_prefix('`')?.strip_suffix('`')?.to_string())
        })
        .collect();
    assert_eq!(table, adapter_arguments());
}
