//! `run --dot` well-formedness: one digraph, balanced braces and quotes, one line per SET
//! node and one per edge (matching the `--json` tree), outcome colours.

use std::io::Write;
use std::process::{Command, Stdio};

use regex::Regex;
use serde_json::Value;

/// Check `text` against the same run's JSON `doc`.
pub fn check(text: &str, doc: &Value, what: &str) {
    assert!(text.starts_with("digraph SET {\n"), "{what}: {text}");
    assert!(text.ends_with("}\n"), "{what}");
    // Braces balance outside quoted strings, and every line closes its strings.
    let mut depth = 0i64;
    for line in text.lines() {
        let mut quoted = false;
        let mut escaped = false;
        for c in line.chars() {
            match (quoted, escaped, c) {
                (true, true, _) => escaped = false,
                (true, false, '\\') => escaped = true,
                (_, false, '"') => quoted = !quoted,
                (false, _, '{') => depth += 1,
                (false, _, '}') => depth -= 1,
                _ => {}
            }
            assert!(depth >= 0, "{what}: unbalanced braces at {line}");
        }
        assert!(!quoted, "{what}: an unclosed string in {line}");
    }
    assert_eq!(depth, 0, "{what}: unbalanced braces");
    let node_re = Regex::new(r#"^  n(\d+) \[label="(?:[^"\\]|\\.)*".*\];$"#).unwrap();
    let edge_re = Regex::new(r#"^  n(\d+) -> n(\d+)(?: \[label="(?:[^"\\]|\\.)*"\])?;$"#).unwrap();
    let nodes = super::schema::nodes(doc);
    let mut seen = vec![0usize; nodes.len()];
    let mut edges = 0;
    for line in text.lines() {
        if let Some(c) = node_re.captures(line) {
            let id: usize = c[1].parse().unwrap();
            assert!(id < nodes.len(), "{what}: {line}");
            seen[id] += 1;
            let n = &nodes[id];
            match (n["kind"].as_str(), n["outcome"].as_str()) {
                (Some("leaf"), Some("exception")) => assert!(line.contains("color=red"), "{line}"),
                (Some("leaf"), Some("infeasible")) => {
                    assert!(line.contains("color=green"), "{line}")
                }
                (Some("leaf"), Some("normal" | "return")) => {
                    assert!(line.contains("color=blue"), "{line}")
                }
                (Some("leaf"), Some("bound")) => assert!(line.contains("dashed"), "{line}"),
                (Some("leaf"), Some("unknown")) => assert!(line.contains("orange"), "{line}"),
                (Some("open"), _) => assert!(line.contains("(open)"), "{line}"),
                (Some("inner"), _) => {
                    let label = format!("label=\"{}: ", n["line"]);
                    assert!(line.contains(&label), "{what}: {line}");
                }
                _ => {}
            }
        } else if let Some(c) = edge_re.captures(line) {
            let (from, to): (usize, usize) = (c[1].parse().unwrap(), c[2].parse().unwrap());
            assert_eq!(
                nodes[to]["parent"].as_u64(),
                Some(from as u64),
                "{what}: {line}"
            );
            assert_eq!(
                line.contains("label="),
                nodes[to]["branch"].is_string(),
                "{line}"
            );
            edges += 1;
        } else {
            let known = ["digraph SET {", "}", "  graph [", "  node [", "  edge ["];
            assert!(known.iter().any(|k| line.starts_with(k)), "{what}: {line}");
        }
    }
    assert!(
        seen.iter().all(|&s| s == 1),
        "{what}: one line per node {seen:?}"
    );
    assert_eq!(edges, nodes.len() - 1, "{what}: one edge per non-root node");
    if let Some(Err(e)) = graphviz_accepts(text) {
        panic!("{what}: dot rejects the output: {e}");
    }
}

/// Graphviz's verdict on `text` (`dot -Tsvg`), or `None` where `dot` is not installed.
fn graphviz_accepts(text: &str) -> Option<Result<(), String>> {
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(text.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    Some(if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    })
}
