//! The architecture invariants of docs/ARCHITECTURE.md, checked on the source text:
//! - every file belongs to one stage, and imports only its own stage or earlier ones
//!   (so engine and session never import cli or tui, and no two stages import each other);
//! - no import loop between files, apart from a module and its own submodules (Rust's way
//!   of splitting one unit over several files);
//! - only `solver` names `z3`;
//! - `base`, `lang`, `semantics`, `concrete`, `session`, `check` and `testgen` do no IO;
//! - the clients (`cli`, `check`, `testgen`, `tui`, `dap`; [`CLIENTS`]) reach the engine only through
//!   `session`: they import nothing of `semantics`, `transform`, `concrete`, `term`,
//!   `solver` or `engine`, from `lang` only the AST's types, and never call
//!   `engine()`, `engine_mut()` or `parts_mut()` (the session has none of them).
//! - every file under `src/` (unit-test files too) is small enough to read in one sitting:
//!   at most [`MAX_LINES`] lines.
//!
//! An import is any `crate::a::b` or `super::a` path outside comments (uses, grouped uses
//! and inline paths), resolved to the longest module path that is a file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The stages, lowest first: a file may import its own stage and the ones before it.
const STAGES: &[&str] = &[
    "base",
    "diagnostics",
    "lang",
    "semantics",
    "transform",
    "concrete",
    "term",
    "solver",
    "engine",
    "session",
    "check",
    "testgen",
    "files",
    "tui",
    "dap",
    "cli",
];

/// Stages that must not do IO (no files, terminal, clock or processes).
const NO_IO: &[&str] = &[
    "base",
    "lang",
    "semantics",
    "concrete",
    "session",
    "check",
    "testgen",
];

/// The clients of the session: they reach the engine only through `session`
/// ([`clients_reach_the_engine_only_through_the_session`]).
const CLIENTS: &[&str] = &["cli", "check", "testgen", "tui", "dap"];

/// The stages behind the session, which clients do not import.
const BEHIND_SESSION: &[&str] = &[
    "semantics",
    "transform",
    "concrete",
    "term",
    "solver",
    "engine",
];

/// The calls that hand a client the engine itself.
const ENGINE_HANDLES: &[&str] = &[".engine()", ".engine_mut()", ".parts_mut()"];

/// The longest a file under `src/` may be, in lines: a longer one is split into
/// submodules along its seams, each saying in its module doc comment what it holds.
const MAX_LINES: usize = 700;

type Module = Vec<String>;

struct File {
    path: PathBuf,
    /// The module path (`["engine", "step"]`); empty for lib.rs and main.rs.
    module: Module,
    /// The text with comments and the unit-test module removed.
    code: String,
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The text without `//` comments (doc comments included) and without a trailing
/// `#[cfg(test)] mod tests { ... }` (tests may reach anywhere).
fn strip(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let code = match line.find("//") {
            // A `//` inside a string literal is rare in this crate and harmless here: the
            // rest of such a line is dropped, which can only hide an import, never add one.
            Some(i) => &line[..i],
            None => line,
        };
        out.push_str(code);
        out.push('\n');
    }
    if let Some(i) = out.find("#[cfg(test)]\nmod tests {") {
        out.truncate(i);
    }
    out
}

/// The crate's files, without unit-test files (`tests.rs`, `tests/*`, `*_tests.rs`: tests
/// may reach anywhere).
fn files() -> Vec<File> {
    let root = src_dir();
    let mut paths = Vec::new();
    collect(&root, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .filter(|p| {
            !p.components().any(|c| c.as_os_str() == "tests")
                && !p
                    .file_stem()
                    .is_some_and(|s| s == "tests" || s.to_string_lossy().ends_with("_tests"))
        })
        .map(|path| {
            let rel = path.strip_prefix(&root).unwrap().with_extension("");
            let mut module: Module = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if module == ["lib"] || module == ["main"] {
                module.clear();
            }
            let code = strip(&std::fs::read_to_string(&path).unwrap());
            File { path, module, code }
        })
        .collect()
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every path the file names that starts with `crate` or `super`, expanded over groups
/// (`use super::{a, b::c}` gives `super::a` and `super::b::c`), as segments.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let starts = |w: &str| {
            let n = w.chars().count();
            i + n <= bytes.len()
                && bytes[i..i + n].iter().copied().eq(w.chars())
                && (i == 0 || !is_ident(bytes[i - 1]) && bytes[i - 1] != ':')
                && bytes.get(i + n) == Some(&':')
        };
        if starts("crate") || starts("super") {
            let (mut segs, next) = path_at(&bytes, i);
            // expand a group `{...}` after the prefix
            if bytes.get(next) == Some(&'{') {
                let close = matching(&bytes, next);
                let inner: String = bytes[next + 1..close].iter().collect();
                for part in split_top(&inner) {
                    let part = part.trim();
                    if part.is_empty() || part == "self" || part == "*" {
                        if part == "self" || part == "*" {
                            out.push(segs.clone());
                        }
                        continue;
                    }
                    let sub: Vec<char> = part.chars().collect();
                    let (tail, _) = path_at(&sub, 0);
                    let mut full = segs.clone();
                    full.extend(tail);
                    out.push(full);
                }
                i = close + 1;
            } else {
                segs.retain(|s| !s.is_empty());
                out.push(segs);
                i = next;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The `a::b::c` path starting at `i`; returns its segments and the index after the last
/// `::` if a group follows, else after the path.
fn path_at(s: &[char], mut i: usize) -> (Vec<String>, usize) {
    let mut segs = Vec::new();
    loop {
        let start = i;
        while i < s.len() && is_ident(s[i]) {
            i += 1;
        }
        if i > start {
            segs.push(s[start..i].iter().collect());
        }
        if i + 1 < s.len() && s[i] == ':' && s[i + 1] == ':' {
            i += 2;
            if s.get(i) == Some(&'{') {
                return (segs, i);
            }
        } else {
            return (segs, i);
        }
    }
}

fn matching(s: &[char], open: usize) -> usize {
    let mut depth = 0;
    for (k, &c) in s.iter().enumerate().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    s.len() - 1
}

fn split_top(s: &str) -> Vec<String> {
    let (mut parts, mut cur, mut depth) = (Vec::new(), String::new(), 0);
    for c in s.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    parts.push(cur);
    parts
}

/// The module a path names, as the longest prefix that is a file of the crate.
fn resolve(from: &Module, path: &[String], known: &BTreeSet<Module>) -> Option<Module> {
    let (mut abs, rest): (Module, &[String]) = match path.first().map(String::as_str) {
        Some("crate") => (Vec::new(), &path[1..]),
        Some("super") => {
            let supers = path.iter().take_while(|s| *s == "super").count();
            let up = from.len().saturating_sub(supers);
            (from[..up].to_vec(), &path[supers..])
        }
        _ => return None,
    };
    abs.extend(rest.iter().cloned());
    (1..=abs.len())
        .rev()
        .map(|k| abs[..k].to_vec())
        .find(|m| known.contains(m))
}

fn stage_of(m: &Module) -> Option<usize> {
    let top = m.first()?;
    STAGES.iter().position(|s| s == top)
}

fn imports() -> (Vec<File>, BTreeMap<Module, BTreeSet<Module>>) {
    let files = files();
    let known: BTreeSet<Module> = files.iter().map(|f| f.module.clone()).collect();
    let mut edges = BTreeMap::new();
    for f in &files {
        let deps: BTreeSet<Module> = paths(&f.code)
            .iter()
            .filter_map(|p| resolve(&f.module, p, &known))
            .filter(|m| *m != f.module)
            .collect();
        edges.insert(f.module.clone(), deps);
    }
    (files, edges)
}

#[test]
fn every_file_belongs_to_a_known_stage() {
    for f in files() {
        if f.module.is_empty() {
            continue;
        }
        assert!(
            stage_of(&f.module).is_some(),
            "{} is in no stage of docs/ARCHITECTURE.md (add it to STAGES in tests/it/architecture.rs and to the document)",
            f.path.display()
        );
    }
}

#[test]
fn no_file_imports_a_later_stage() {
    let (_, edges) = imports();
    let mut bad = Vec::new();
    for (from, deps) in &edges {
        let Some(s) = stage_of(from) else { continue };
        for to in deps {
            let t = stage_of(to).unwrap();
            if t > s {
                bad.push(format!("{} imports {}", from.join("/"), to.join("/")));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "imports against the stage order:\n{}",
        bad.join("\n")
    );
}

/// A module and its submodules may refer to each other (one unit split over files); any
/// other cycle between files is an import loop.
#[test]
fn no_import_loops_between_files() {
    let (_, edges) = imports();
    let related = |a: &Module, b: &Module| a.starts_with(b) || b.starts_with(a);
    let graph: BTreeMap<&Module, Vec<&Module>> = edges
        .iter()
        .map(|(a, ds)| (a, ds.iter().filter(|b| !related(a, b)).collect()))
        .collect();
    // Tarjan's strongly connected components (the graph has ~200 files: recursion is fine).
    struct T<'a> {
        g: &'a BTreeMap<&'a Module, Vec<&'a Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on: BTreeSet<&'a Module>,
        loops: Vec<Vec<String>>,
    }
    impl<'a> T<'a> {
        fn visit(&mut self, v: &'a Module) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on.insert(v);
            for &w in self.g.get(v).map(Vec::as_slice).unwrap_or(&[]) {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.on.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    comp.push(w.join("/"));
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.loops.push(comp);
                }
            }
        }
    }
    let mut t = T {
        g: &graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        loops: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    assert!(t.loops.is_empty(), "import loops: {:?}", t.loops);
}

#[test]
fn only_the_solver_names_z3() {
    for f in files() {
        if f.module.first().is_some_and(|m| m == "solver") {
            continue;
        }
        let names = f.code.contains("z3::") || f.code.contains("use z3");
        assert!(
            !names,
            "{} names z3 (only src/solver* may)",
            f.path.display()
        );
    }
}

#[test]
fn pure_stages_do_no_io() {
    let io = [
        "std::fs",
        "std::io::stdout",
        "std::io::stderr",
        "std::io::stdin",
        "std::process",
        "std::time::Instant",
        "SystemTime",
        "println!",
        "eprintln!",
        "print!(",
        "eprint!(",
    ];
    for f in files() {
        if !f
            .module
            .first()
            .is_some_and(|m| NO_IO.contains(&m.as_str()))
        {
            continue;
        }
        for word in io {
            assert!(
                !f.code.contains(word),
                "{} uses {word}: {:?} do no IO",
                f.path.display(),
                NO_IO
            );
        }
    }
}

/// A path into `lang` that a client may name: a type of the AST (`lang::Program`,
/// `lang::ast::StmtKind`), the few a front-end needs to read a program's statements; not
/// the parser, the type checker or anything else of the stage.
fn is_ast_type(path: &[String], module: &Module) -> bool {
    let ast = module == &["lang"] || module == &["lang", "ast"];
    // The segment after the module: `crate::lang::ast::Stmt` → `Stmt`.
    let item = path
        .iter()
        .skip_while(|s| *s == "crate" || *s == "super")
        .nth(module.len());
    ast && item.is_some_and(|s| s.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// The imports of the client files that break the boundary, as messages.
fn boundary_breaches(clients: &[&str]) -> Vec<String> {
    let files = files();
    let known: BTreeSet<Module> = files.iter().map(|f| f.module.clone()).collect();
    let mut bad = Vec::new();
    for f in &files {
        if !f
            .module
            .first()
            .is_some_and(|m| clients.contains(&m.as_str()))
        {
            continue;
        }
        for p in paths(&f.code) {
            let Some(to) = resolve(&f.module, &p, &known) else {
                continue;
            };
            let top = to[0].as_str();
            if BEHIND_SESSION.contains(&top) || (top == "lang" && !is_ast_type(&p, &to)) {
                bad.push(format!("{} names {}", f.path.display(), p.join("::")));
            }
        }
        for call in ENGINE_HANDLES {
            if f.code.contains(call) {
                bad.push(format!("{} calls {call}", f.path.display()));
            }
        }
    }
    bad
}

#[test]
fn clients_reach_the_engine_only_through_the_session() {
    let bad = boundary_breaches(CLIENTS);
    assert!(
        bad.is_empty(),
        "clients reach past the session (add what they need to src/session, re-export the \
         vocabulary there):\n{}",
        bad.join("\n")
    );
}

/// The boundary check must see what it is about: a known breach and known allowances.
#[test]
fn the_boundary_check_sees_engine_imports_and_allows_ast_types() {
    let m = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Module>();
    let p = |s: &str| s.split("::").map(str::to_string).collect::<Vec<_>>();
    assert!(is_ast_type(
        &p("crate::lang::ast::StmtKind"),
        &m(&["lang", "ast"])
    ));
    assert!(is_ast_type(&p("crate::lang::Program"), &m(&["lang"])));
    assert!(!is_ast_type(&p("crate::lang::parse_expr"), &m(&["lang"])));
    assert!(!is_ast_type(
        &p("crate::lang::types::check"),
        &m(&["lang", "types"])
    ));
}

/// The checker above must see the imports it is about: a few known ones.
#[test]
fn the_import_scanner_sees_grouped_and_inline_paths() {
    let code = "use crate::term::{Model, Sym};\nuse super::{state::Frame, step::{settle, Settled}};\nlet x = crate::solver::interruptible(f);\n";
    let p = paths(code);
    let has = |want: &[&str]| p.iter().any(|q| q == want);
    assert!(has(&["crate", "term", "Model"]), "{p:?}");
    assert!(has(&["super", "state", "Frame"]), "{p:?}");
    assert!(has(&["super", "step"]), "{p:?}");
    assert!(has(&["crate", "solver", "interruptible"]), "{p:?}");
    let (_, edges) = imports();
    let engine = edges.get(&vec!["engine".to_string()]).unwrap();
    assert!(engine.contains(&vec!["solver".to_string()]), "{engine:?}");
    assert!(engine.contains(&vec!["term".to_string()]), "{engine:?}");
}

/// Files small enough to read in one sitting: none under `src/` (unit-test files included)
/// is longer than [`MAX_LINES`].
#[test]
fn no_file_is_longer_than_max_lines() {
    let root = src_dir();
    let mut paths = Vec::new();
    collect(&root, &mut paths);
    paths.sort();
    // The walk sees the crate: its entry point and the submodules of a split file.
    let rel = |p: &Path| {
        p.strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/")
    };
    let seen: BTreeSet<String> = paths.iter().map(|p| rel(p)).collect();
    for known in [
        "lib.rs",
        "engine.rs",
        "engine/step/instr.rs",
        "lang/parser/blocks.rs",
    ] {
        assert!(seen.contains(known), "the walk of src/ misses {known}");
    }
    let long: Vec<String> = paths
        .iter()
        .filter_map(|p| {
            let lines = std::fs::read_to_string(p).unwrap().lines().count();
            (lines > MAX_LINES).then(|| format!("src/{}: {lines} lines", rel(p)))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files longer than {MAX_LINES} lines (split each into submodules along its seams, \
         with a module doc comment saying what each holds; docs/ARCHITECTURE.md):\n{}",
        long.join("\n")
    );
}
