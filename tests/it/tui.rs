//! The terminal UI's frames: insta snapshots of whole screens drawn into ratatui's
//! TestBackend by the synchronous harness (the worker runs inline, so the same keys give
//! the same screen; the solver time is hidden), and the real binary's refusals (malformed
//! program, no terminal) that must happen before any screen opens.

use super::util::symdbg as symdbg_bin;

use symdbg::base::SourceMap;
use symdbg::engine::Config;
use symdbg::tui::harness::Harness;
use symdbg::tui::keys;
use symdbg::tui::Setup;

/// Open `examples/NAME` in the harness on a `w`×`h` screen.
pub fn open(name: &str, entry: Option<&str>, w: u16, h: u16) -> Harness {
    let path = format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("read example");
    open_source(&format!("examples/{name}"), &text, entry, w, h)
}

/// The debugger's setup for `source`, as `symdbg FILE [--entry E]` with `config` makes it
/// (the harness's node limit).
pub fn setup(source: SourceMap, entry: Option<String>, config: Config) -> Setup {
    Setup {
        source,
        entry,
        config,
        max_nodes: 10_000,
        theme: None,
        colors: Default::default(),
        bfs: false,
    }
}

pub fn open_source(name: &str, text: &str, entry: Option<&str>, w: u16, h: u16) -> Harness {
    let setup = setup(
        SourceMap::new(name, text),
        entry.map(str::to_string),
        Config::default(),
    );
    match Harness::open(setup, w, h) {
        Ok(h) => h,
        Err(d) => panic!("cannot open {name}: {d:?}"),
    }
}

#[test]
fn start_screen() {
    let h = open("inversion.py", None, 120, 32);
    let screen = h.screen();
    assert!(screen.contains("○ [0] 18: if x > 1:"), "{screen}");
    assert!(screen.contains("▶18 if x > 1:"), "{screen}");
    insta::assert_snapshot!("tui_start", screen);
}

#[test]
fn stepping_into_a_call() {
    let mut h = open("power.py", None, 120, 32);
    h.keys("ss");
    let screen = h.screen();
    // The call stack shows the callee's frame on top, with its parameters.
    assert!(screen.contains("▸ power"), "{screen}");
    assert!(screen.contains("→ power"), "{screen}");
    insta::assert_snapshot!("tui_step_into_call", screen);
}

#[test]
fn exception_leaf_with_its_model() {
    let mut h = open("inversion.py", None, 120, 32);
    h.keys("rem");
    let screen = h.screen();
    assert!(screen.contains("AssertionError at line 23"), "{screen}");
    assert!(screen.contains("x = 1"), "{screen}");
    insta::assert_snapshot!("tui_exception_model", screen);
    h.keys("R");
    let screen = h.screen();
    assert!(
        screen.contains("concrete run: exception AssertionError at line 23"),
        "{screen}"
    );
    assert!(screen.contains("follows this path"), "{screen}");
    insta::assert_snapshot!("tui_exception_replay", screen);
}

#[test]
fn help_overlay_lists_every_key() {
    let mut h = open("inversion.py", None, 120, 46);
    h.keys("?");
    let screen = h.screen();
    // A help taller than the screen scrolls (j): every key is on one of its pages.
    let mut pages = screen.clone();
    for _ in 0..h.app.help_max_scroll {
        h.keys("j");
        pages.push_str(&h.screen());
    }
    // Each row of the key table is on a page: its keys, then its description (wrapped
    // under itself; the help drops the README's backticks).
    let pages = pages
        .lines()
        .map(|l| l.trim_matches(|c: char| c == '│' || c.is_whitespace()))
        .collect::<Vec<_>>()
        .join(" ");
    let pages = words(&pages);
    for row in symdbg::tui::keys::ROWS {
        let shown = words(&format!("{} {}", row.label(), keys::plain(row.what)));
        assert!(pages.contains(&shown), "help lacks {shown}:\n{pages}");
    }
    insta::assert_snapshot!("tui_help", screen);
    h.keys("x");
    assert!(!h.screen().contains("any key closes"));
}

/// `text` with every run of whitespace one space.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The README's key tables are the key table's rows (issue 24): the debugger's keys, then
/// the breakpoint list's, a prompt's, then the overlays', each row's keys and description exactly as `tui::keys` has them,
/// so the help, the hint line and the README cannot drift apart.
#[test]
fn readme_key_tables_are_the_keymap() {
    use keys::Context;
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    // Every table whose header starts with `| keys`: its rows.
    let mut tables: Vec<Vec<String>> = Vec::new();
    let mut lines = readme.lines().peekable();
    while let Some(line) = lines.next() {
        if !line.starts_with("| keys") {
            continue;
        }
        lines.next(); // |---|---|
        let mut rows = Vec::new();
        while let Some(row) = lines.next_if(|l| l.starts_with('|')) {
            rows.push(row.to_string());
        }
        tables.push(rows);
    }
    let of = |keep: &dyn Fn(Context) -> bool| -> Vec<String> {
        keys::ROWS
            .iter()
            .filter(|r| keep(r.context))
            .map(|r| r.markdown())
            .collect()
    };
    let want = vec![
        of(&|c| matches!(c, Context::Normal | Context::Any | Context::Mouse)),
        of(&|c| c == Context::Breakpoints),
        of(&|c| c == Context::Prompt),
        of(&|c| c == Context::Overlay),
    ];
    assert_eq!(tables.len(), want.len(), "README's key tables: {tables:#?}");
    for (got, want) in tables.iter().zip(&want) {
        for (k, (g, w)) in got.iter().zip(want).enumerate() {
            assert_eq!(g, w, "README key table row {}", k + 1);
        }
        assert_eq!(
            got.len(),
            want.len(),
            "README key table: {got:#?}\nwant {want:#?}"
        );
    }
}

#[test]
fn narrow_terminal() {
    let mut h = open("inversion.py", None, 70, 30);
    h.keys("re");
    let screen = h.screen();
    // One detail pane: the path condition; its title says Tab reaches the others.
    assert!(
        screen.contains("path condition [7] · Tab: store, call stack, model"),
        "{screen}"
    );
    assert!(!screen.contains("call stack ["), "{screen}");
    insta::assert_snapshot!("tui_narrow", screen);
}

#[test]
fn too_small_terminal_gets_a_message() {
    let mut h = open("inversion.py", None, 50, 12);
    let screen = h.screen();
    assert!(screen.contains("at least 60×16"), "{screen}");
    assert!(screen.contains("50×12"), "{screen}");
    assert!(!screen.contains("tree"), "{screen}");
    // Growing the terminal brings the layout back.
    h.resize(100, 30);
    assert!(h.screen().contains("tree: 1 node "));
}

#[test]
fn malformed_program_prints_its_diagnostic_and_opens_no_screen() {
    let path = std::env::temp_dir().join(format!("symdbg-tui-bad-{}.py", std::process::id()));
    std::fs::write(&path, "x: int\nif x >\n    pass\n").unwrap();
    let (code, stdout, stderr) = symdbg_bin(&[path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 2);
    assert!(stdout.is_empty(), "no screen: {stdout:?}");
    assert!(stderr.contains("expected an expression"), "{stderr}");
    assert!(stderr.contains(":2:"), "{stderr}");
}

#[test]
fn bad_entry_and_theme_are_reported_before_the_screen() {
    let (code, stdout, stderr) = symdbg_bin(&["examples/power.py", "--entry", "nope"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.contains("there is no function `nope`"), "{stderr}");
    let (code, _, stderr) = symdbg_bin(&["examples/power.py", "--theme", "nope"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("there is no theme `nope`"), "{stderr}");
}

#[test]
fn not_a_terminal_is_refused_with_a_message() {
    // Under `cargo test`, stdout is a pipe.
    let (code, stdout, stderr) = symdbg_bin(&["examples/inversion.py"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(stderr.contains("needs a terminal"), "{stderr}");
}

#[test]
fn subcommands_still_parse_next_to_the_file_form() {
    let (code, stdout, _) = symdbg_bin(&["run", "examples/inversion.py", "--counterexamples"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("AssertionError"), "{stdout}");
    let (code, stdout, _) = symdbg_bin(&["exec", "examples/inversion.py", "--input", "x=-5"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("x = 5"), "{stdout}");
    // No file and no subcommand: usage, exit 2.
    let (code, stdout, _) = symdbg_bin(&[]);
    assert_eq!(code, 2);
    assert!(stdout.contains("symdbg FILE"), "{stdout}");
}

/// A tree of `n` nodes without an engine: a chain in which every other node branches
/// into a leaf and the rest of the chain.
pub fn synthetic_app(n: u32) -> symdbg::tui::app::App {
    use symdbg::session::{FoldMark, NodeId, NodeKind as Kind, NodeRow, NodeView, Outcome};
    use symdbg::tui::protocol::{Delta, Reply};
    let source = SourceMap::new("big.py", "x: int\nif x > 0:\n    x = x - 1\n");
    let mut app = symdbg::tui::app::App::new(source, None);
    app.show_timing = false;
    let mut nodes = Vec::with_capacity(n as usize);
    let mut spine = 0;
    for id in 0..n {
        let (parent, leaf) = match id {
            0 => (None, false),
            _ if id % 2 == 1 => (Some(spine), true),
            _ => (Some(spine), false),
        };
        let kind = if leaf {
            Kind::Leaf(Outcome::Normal)
        } else {
            Kind::Inner
        };
        nodes.push(NodeRow {
            view: NodeView {
                id: NodeId(id),
                parent: parent.map(NodeId),
                depth: 0,
                kind,
                line: Some(2),
                column: Some(1),
                statement: String::new(),
                place: Some(2),
                raised_at: None,
                return_value: None,
                unknown_reason: None,
                label: None,
                caught: None,
                invariant_failure: false,
                store: Vec::new(),
                frames: 1,
                func: None,
                loop_choice: false,
                call_choice: false,
                contract_failure: None,
                is_abstract: false,
            },
            branch: parent.map(|_| format!("x > {id}")),
            branch_implied: false,
            label: None,
            summary: if leaf {
                format!("normal  x = {id}")
            } else {
                String::new()
            },
            at_annotated_loop: false,
            fold: FoldMark::default(),
        });
        if !leaf && id > 0 {
            spine = id;
        }
    }
    app.apply(Reply::Ready(Delta {
        nodes,
        ..Delta::default()
    }));
    app.take_commands();
    app
}

#[test]
fn a_tree_of_100k_nodes_scrolls() {
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;
    use symdbg::tui::harness::{buffer_text, parse_keys};
    let mut app = synthetic_app(100_000);
    let mut term = Terminal::new(TestBackend::new(120, 40)).unwrap();
    let started = std::time::Instant::now();
    term.draw(|f| symdbg::tui::view::draw(f, &mut app)).unwrap();
    for key in parse_keys("G<PgUp><PgUp>kkk") {
        app.key(key);
        app.take_commands();
        term.draw(|f| symdbg::tui::view::draw(f, &mut app)).unwrap();
    }
    eprintln!("100k nodes: 7 frames in {:?}", started.elapsed());
    let screen = buffer_text(term.backend().buffer());
    // The last node is the chain's last leaf; two pages and three rows up from it.
    assert!(
        app.selected.0 < 99_999 && app.selected.0 > 99_900,
        "{}",
        app.selected.0
    );
    assert!(
        screen.contains(&format!("[{}]", app.selected.0)),
        "{screen}"
    );
    assert!(screen.contains("tree: 100000 nodes"), "{screen}");
}

#[test]
fn help_scrolls_in_a_short_terminal() {
    let mut h = open("inversion.py", None, 80, 24);
    h.keys("?");
    let screen = h.screen();
    assert!(screen.contains("j/k scroll ("), "{screen}");
    assert!(!screen.contains("Ctrl-C      quit"), "{screen}");
    // The recipe comes first, so it shows without scrolling.
    assert!(screen.contains("To find a bug"), "{screen}");
    // j scrolls (not closes) until the last line is on screen, then stops there.
    for _ in 0..h.app.help_max_scroll + 3 {
        h.keys("j");
    }
    assert_eq!(h.app.mode, symdbg::tui::app::Mode::Help);
    let screen = h.screen();
    // (the key table's last row is the help's last line)
    let last = keys::ROWS.last().expect("a key table");
    assert!(screen.contains(&keys::plain(last.what)), "{screen}");
    assert!(screen.contains("(0 more below)"), "{screen}");
    h.keys("k");
    assert!(h.screen().contains("(1 more below)"));
    h.keys("x");
    assert_eq!(h.app.mode, symdbg::tui::app::Mode::Normal);
}
