//! Fuzz the front-end: any bytes → parse + type check must not panic; diagnostics must
//! render; an accepted program must pretty-print to source that parses to the same AST.
#![no_main]

use libfuzzer_sys::fuzz_target;
use symdbg::diagnostics::render_all;
use symdbg::lang::{self, pretty};
use symdbg::base::SourceMap;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let map = SourceMap::new("fuzz.py", text);
    let program = match lang::parse(text) {
        Ok(p) => p,
        Err(diags) => {
            assert!(render_all(&diags, &map, false).contains("error"));
            return;
        }
    };
    // Every parsed program round-trips through the pretty printer.
    let printed = pretty::program(&program);
    let again = lang::parse(&printed).expect("pretty output must parse");
    assert_eq!(program.without_spans(), again.without_spans());
    // The type checker never panics; its diagnostics render.
    if let Err(diags) = lang::types::check(&program) {
        assert!(render_all(&diags, &map, false).contains("error"));
    }
});
