//! The README's "Show me" blocks that are no console session (`tests/it/readme.rs` runs
//! those): the `store_origins` excerpt of `run --explain`, the origins box of `O` and the
//! coverage gutter are what the binary and the debugger show for the files they name.

use std::path::Path;

use serde_json::Value as Json;
use symdbg::base::SourceMap;
use symdbg::engine::Config;
use symdbg::session::{NodeKind as Kind, Outcome};
use symdbg::tui::harness::Harness;

use crate::util::symdbg;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

/// The lines of the README's ```text block that holds `marker`.
fn block_with(marker: &str) -> Vec<String> {
    let text = readme();
    let mut block: Vec<String> = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            if inside && block.iter().any(|l| l.contains(marker)) {
                return block;
            }
            inside = !inside;
            block.clear();
            continue;
        }
        if inside {
            block.push(line.to_string());
        }
    }
    panic!("no README block holds {marker:?}")
}

fn repo(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

/// The shown `"store_origins"` of a node is the one `run --json --explain` gives it.
#[test]
fn readme_store_origins_excerpt_is_what_run_explain_prints() {
    let block = block_with("\"store_origins\"");
    let command = block[0].strip_prefix("$ symdbg ").expect("a command line");
    let node: usize = block[1]
        .split("node ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.trim_end_matches(':').parse().ok())
        .expect("the node's id");
    // The excerpt: from `"store_origins":` to the line that closes its object.
    let start = block
        .iter()
        .position(|l| l.contains("\"store_origins\""))
        .unwrap();
    let mut text = String::new();
    for l in &block[start..] {
        text.push_str(l.trim());
        if l.trim_end().ends_with("}}") {
            break;
        }
    }
    let shown: Json = serde_json::from_str(&format!("{{{text}}}")).expect("the excerpt");
    let args: Vec<String> = command
        .split_whitespace()
        .map(|w| {
            if w.ends_with(".py") {
                repo(w)
            } else {
                w.to_string()
            }
        })
        .collect();
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    args.push("-q");
    let (code, out, err) = symdbg(&args);
    assert_eq!(code, 0, "{err}");
    let v: Json = serde_json::from_str(&out).unwrap();
    let n = v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == node)
        .expect("the node");
    assert_eq!(n["store_origins"], shown["store_origins"], "node {node}");
    // (`return n` at line 14, as the excerpt says)
    assert_eq!(n["line"], 14);
}

fn opened(rel: &str, config: Config) -> Harness {
    let text = std::fs::read_to_string(repo(rel)).unwrap();
    let setup = super::tui::setup(SourceMap::new(rel, text), None, config);
    let mut h = Harness::open(setup, 100, 40).unwrap_or_else(|d| panic!("{d:?}"));
    h.keys("r");
    h
}

/// The origins box the README shows is the debugger's, line by line.
#[test]
fn readme_origins_box_is_what_o_shows() {
    let block = block_with("origins at node");
    let at = block
        .iter()
        .position(|l| l.contains("origins at node"))
        .unwrap();
    let file = block[at]
        .split_whitespace()
        .find(|w| w.ends_with(".py)") || w.ends_with(".py"))
        .unwrap()
        .trim_end_matches(')');
    let shown: Vec<&str> = block[at + 1..]
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect();
    assert!(shown.len() >= 5, "{shown:?}");
    let mut h = opened(file, Config::default());
    let leaf = h
        .app
        .tree
        .nodes
        .iter()
        .find(|n| n.info.kind() == Kind::Leaf(Outcome::Normal))
        .map(|n| n.info.id())
        .expect("a normal leaf");
    h.app.select(leaf);
    h.pump();
    h.draw();
    h.keys("O");
    let screen = h.screen();
    let title = block[at].split('(').next().unwrap().trim();
    assert!(screen.contains(title), "{title}:\n{screen}");
    // The box's rows, in order: every shown row (the box shows all chains; the README
    // the last variable's).
    let lines: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let (top, left) = lines
        .iter()
        .enumerate()
        .find_map(|(k, l)| {
            Some((
                k,
                l.iter().position(|&c| {
                    c == '┌' && l.iter().collect::<String>().contains("origins at node")
                })?,
            ))
        })
        .expect("the box's top");
    let rows: Vec<String> = lines[top + 1..]
        .iter()
        .take_while(|l| l.get(left) == Some(&'│'))
        .map(|l| {
            let inner: String = l[left + 1..].iter().take_while(|&&c| c != '│').collect();
            inner.trim().to_string()
        })
        .collect();
    let first = rows
        .iter()
        .position(|r| r == shown[0])
        .unwrap_or_else(|| panic!("{:?} not in the box:\n{screen}", shown[0]));
    assert_eq!(
        &rows[first..first + shown.len()],
        &shown[..],
        "README's box against the debugger's:\n{screen}"
    );
}

/// The gutter the README shows for `examples/showme/loop.py --fold auto` is the code pane's.
#[test]
fn readme_gutter_is_what_the_code_pane_shows() {
    let block = block_with("│✗ 7");
    let mut config = Config::default();
    config.fold = symdbg::engine::fold::FoldMode::Auto;
    let h = opened("examples/showme/loop.py", config);
    let screen = h.screen();
    for l in &block {
        assert!(
            screen.contains(l.as_str()),
            "{l:?} not on the screen:\n{screen}"
        );
    }
    assert!(block.len() >= 6);
}
