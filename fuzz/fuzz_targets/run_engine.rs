//! Fuzz the whole pipeline on small bounds: any bytes → parse → type check → lower → a
//! symbolic exploration of at most 64 nodes (100 ms per solver check), models at its
//! leaves, every term printed in minipy and SMT-LIB; and a concrete run on default inputs
//! with a small step budget. Nothing may panic, overflow the stack or run away.
#![no_main]

use std::collections::BTreeMap;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use symdbg::concrete::{self, Value};
use symdbg::engine::{Config, Engine, Limits, Strategy};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok((program, types, ir)) = symdbg::transform::load(text) else {
        return;
    };
    let mut config = Config::default();
    config.unroll = 2;
    config.recursion = 2;
    config.timeout_ms = Some(100);
    if let Ok(mut engine) = Engine::new(&program, types.clone(), ir, None, config) {
        let limits = Limits {
            max_nodes: Some(64),
            time: Some(Duration::from_secs(2)),
            strategy: Strategy::Dfs,
        };
        let root = engine.tree().root();
        engine.run(root, limits);
        let ids: Vec<_> = engine.tree().nodes().map(|n| n.id).collect();
        for id in ids {
            for t in engine.path_condition(id) {
                let _ = (t.to_string(), t.to_smt2());
            }
            for (_, t) in engine.store(id) {
                let _ = (t.to_string(), t.to_smt2());
            }
            if engine.tree().node(id).is_leaf() {
                let _ = engine.model(id);
            }
        }
    }
    let inputs: BTreeMap<String, Value> = program
        .inputs()
        .map(|(name, ty)| (name.name.clone(), Value::default_of(ty)))
        .collect();
    let config = concrete::Config {
        recursion_limit: 200,
        max_steps: 20_000,
    };
    let _ = concrete::run(&program, &types, None, &inputs, &config);
});
