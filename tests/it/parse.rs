//! The front-end on files: the diagnostics corpus (insta snapshots of rendered errors),
//! every example and corpus program parses and round-trips, and a proptest round trip over
//! generated well-typed programs.

use std::path::Path;

use proptest::prelude::*;
use symdbg::base::SourceMap;
use symdbg::diagnostics::render_all;
use symdbg::lang::{self, pretty};

use crate::gen;

fn render(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let name = format!(
        "{}/{}",
        path.parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy(),
        path.file_name().unwrap().to_string_lossy()
    );
    let map = SourceMap::new(name, text);
    match lang::load(&map.text) {
        Ok(_) => "accepted (no diagnostic)".to_string(),
        Err(diags) => render_all(&diags, &map, false),
    }
}

/// Every malformed program gets a located diagnostic; the rendered text is snapshotted.
#[test]
fn diagnostics_corpus() {
    insta::glob!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/parse/err"),
        "*.py",
        |path| {
            let out = render(path);
            assert!(out.starts_with("error"), "{}: {out}", path.display());
            insta::assert_snapshot!(out);
        }
    );
}

fn assert_round_trip(src: &str, what: &str) {
    let p = lang::parse(src).unwrap_or_else(|d| panic!("{what} does not parse: {d:?}"));
    let printed = pretty::program(&p);
    let q = lang::parse(&printed)
        .unwrap_or_else(|d| panic!("pretty output of {what} does not parse: {d:?}\n{printed}"));
    assert_eq!(p.without_spans(), q.without_spans(), "{what}:\n{printed}");
}

/// Examples, the differential corpus and the ok corpus parse, type-check and round-trip.
#[test]
fn good_programs_round_trip() {
    let mut seen = 0;
    for dir in ["examples", "tests/data/programs", "tests/data/parse/ok"] {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "py") {
                let src = std::fs::read_to_string(&path).unwrap();
                let what = path.display().to_string();
                if let Err(d) = lang::load(&src) {
                    let map = SourceMap::new(what.clone(), src.clone());
                    panic!("{what} is rejected:\n{}", render_all(&d, &map, false));
                }
                assert_round_trip(&src, &what);
                seen += 1;
            }
        }
    }
    assert!(seen > 0, "no programs found");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Generated well-typed programs: pretty → parse gives the same AST, and the type
    /// checker accepts them.
    #[test]
    fn generated_programs_round_trip(choices in gen::choices(400)) {
        let p = gen::program(&choices);
        let printed = pretty::program(&p);
        let q = lang::parse(&printed);
        prop_assert!(q.is_ok(), "does not parse: {:?}\n{}", q.err(), printed);
        let q = q.unwrap();
        prop_assert_eq!(p.without_spans(), q.without_spans(), "\n{}", printed);
        let checked = lang::types::check(&q);
        prop_assert!(checked.is_ok(), "rejected: {:?}\n{}", checked.err(), printed);
    }
}
