//! Frame time of the terminal UI with a big tree (docs/PERFORMANCE.md, "Terminal UI").
//!
//! The program has N independent `if xi > 0: s += 1` (2^N paths, 3·2^N − 1 nodes); the
//! whole tree is explored once (`r`) through the UI's synchronous harness, so the app holds
//! every node as the real UI would. Then, on a 200×50 `TestBackend`:
//! - `full frame`: draw the whole screen (all six panes, status and hints) with the selected
//!   row in the middle of the tree;
//! - `scroll one row`: the `j` key with the selection on the last visible tree row, so the
//!   tree scrolls by one row, plus the redraw (what one key press costs the UI thread);
//! - `move one row`: `j` without scrolling plus the redraw.
//! - `next node with details`: `j` through the harness, which also runs the worker inline:
//!   the engine computes the new node's details (path condition, store, frames) and the app
//!   applies them before the redraw. In the real UI that work is on the engine thread.
//!
//! `cargo bench --bench tui_frame` (N = 15 by default: 98,303 nodes; `SYMDBG_BENCH_IFS=N`
//! changes it).

use criterion::{criterion_group, criterion_main, Criterion};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;

use symdbg::base::SourceMap;
use symdbg::engine::Config;
use symdbg::tui::app::{App, Pane};
use symdbg::tui::harness::Harness;
use symdbg::tui::tree::RowKind;
use symdbg::tui::{view, Setup};

const WIDTH: u16 = 200;
const HEIGHT: u16 = 50;

fn ifs(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s += &format!("x{i}: int\n");
    }
    s += "s = 0\n";
    for i in 0..n {
        s += &format!("if x{i} > 0:\n    s += 1\n");
    }
    s
}

/// The UI after exploring the whole tree of `n` ifs.
fn explored(n: usize) -> Harness {
    let setup = Setup {
        source: SourceMap::new(format!("ifs_{n}.py"), ifs(n)),
        entry: None,
        config: Config::default(),
        max_nodes: 10_000_000,
        theme: Some("symdbg-dark".to_string()),
        colors: Default::default(),
        bfs: false,
    };
    let mut h = match Harness::open(setup, WIDTH, HEIGHT) {
        Ok(h) => h,
        Err(d) => panic!("bench program does not load: {d:?}"),
    };
    h.keys("r");
    let nodes = h.app.tree.len();
    assert_eq!(nodes, 3 * (1 << n) - 1, "the whole tree is explored");
    h
}

/// Select the first tree node at or after `row`, with its details loaded (path condition,
/// store, ...: the worker answers at once in the harness); returns its row.
fn select_row(h: &mut Harness, row: usize) -> usize {
    let rows = h.app.tree.rows();
    let (r, id) = (row..rows.len())
        .find_map(|r| match rows[r].kind {
            RowKind::Node(id) => Some((r, id)),
            _ => None,
        })
        .expect("a node row after the middle");
    h.app.select(id);
    h.app.focus = Pane::Tree;
    h.pump();
    r
}

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

fn bench(c: &mut Criterion) {
    let n: usize = std::env::var("SYMDBG_BENCH_IFS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(15);
    let mut h = explored(n);
    let nodes = h.app.tree.len();
    let rows = h.app.tree.rows().len();
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("test backend");
    let mut group = c.benchmark_group(format!("tui_frame/{nodes}_nodes_{WIDTH}x{HEIGHT}"));

    // The selection in the middle of the tree, the view scrolled so it is mid-screen.
    select_row(&mut h, rows / 2);
    let app = &mut h.app;
    terminal.draw(|f| view::draw(f, app)).expect("draw");
    group.bench_function("full frame", |b| {
        b.iter(|| {
            // A fresh back buffer each time: ratatui redraws every cell (no diff shortcut).
            terminal.clear().expect("clear");
            terminal.draw(|f| view::draw(f, app)).expect("draw");
        })
    });

    // The same frame mapped to 256 colours (a terminal without 24-bit colour).
    app.colors = symdbg::tui::color::ColorDepth::Ansi256;
    group.bench_function("full frame, 256 colours", |b| {
        b.iter(|| {
            terminal.clear().expect("clear");
            terminal.draw(|f| view::draw(f, app)).expect("draw");
        })
    });
    app.colors = Default::default();

    // Selection on the last visible row: every `j` scrolls the tree by one row.
    // At the end of a small tree, start again from the middle.
    let middle = select_row(&mut h, rows / 2);
    let (middle_id, app) = (h.app.selected, &mut h.app);
    let to_bottom = |app: &mut App| {
        app.select(middle_id);
        app.scroll
            .insert(Pane::Tree, middle.saturating_sub(HEIGHT as usize));
    };
    to_bottom(app);
    terminal.draw(|f| view::draw(f, app)).expect("draw");
    let (mut scrolled, mut stuck) = (0usize, 0usize);
    group.bench_function("scroll one row (j + redraw)", |b| {
        b.iter(|| {
            let before = app.scroll.get(&Pane::Tree).copied();
            app.key(key('j'));
            terminal.draw(|f| view::draw(f, app)).expect("draw");
            if app.scroll.get(&Pane::Tree).copied() == before {
                stuck += 1;
                to_bottom(app);
            } else {
                scrolled += 1;
            }
        })
    });
    assert!(
        scrolled > 10 * stuck,
        "most `j`s scroll: {scrolled} scrolled, {stuck} did not"
    );

    // Selection mid-screen, moving down and up by one row: no scrolling.
    select_row(&mut h, rows / 2);
    let app = &mut h.app;
    terminal.draw(|f| view::draw(f, app)).expect("draw");
    let mut down = true;
    group.bench_function("move one row (j/k + redraw)", |b| {
        b.iter(|| {
            app.key(key(if down { 'j' } else { 'k' }));
            down = !down;
            terminal.draw(|f| view::draw(f, app)).expect("draw");
        })
    });

    // The same key through the harness: the worker (inline here, a thread in the real UI)
    // also computes the new node's details, and the app applies them before the redraw.
    // Every `j` reaches a node not seen yet, so its details are computed each time.
    select_row(&mut h, rows / 2);
    group.bench_function("next node with details (j + engine + redraw)", |b| {
        b.iter(|| h.keys("j"))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench
}
criterion_main!(benches);
