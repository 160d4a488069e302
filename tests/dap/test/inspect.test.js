// scopes (Locals, Globals, Path condition, Model), variables (symbolic values in minipy
// syntax, tuples expand into elements) and evaluate (watch, hover, repl: the value on the
// path and under the model, checked against python3 on the model's inputs).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { start, stop, launch, stopped, program, scopes, variables, model } = require('../lib/session');
const { spawnSync } = require('node:child_process');

const CALLS = program('calls.py');

/** Stopped inside bigger on the x > y branch (`return a`, line 8). */
async function inThenBranch(t) {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: CALLS, stopOnEntry: true });
  const { threadId } = await stopped(s, 'entry');
  await s.dc.stepInRequest({ threadId });
  await stopped(s, 'step');
  await s.dc.nextRequest({ threadId });
  const st = await stopped(s, 'step');
  assert.equal(st.top.line, 8);
  return { s, st };
}

test('scopes are Locals, Globals, Path condition and Model', async (t) => {
  const { s, st } = await inThenBranch(t);
  const sc = await scopes(s, st.top.id);
  assert.deepEqual(Object.keys(sc), ['Locals', 'Globals', 'Path condition', 'Model']);
  for (const v of Object.values(sc)) {
    assert.ok(v.variablesReference > 0);
  }
});

test('Locals are the call\'s parameters as symbolic values; Globals the module\'s inputs', async (t) => {
  const { s, st } = await inThenBranch(t);
  const sc = await scopes(s, st.top.id);
  const locals = await variables(s, sc.Locals.variablesReference);
  assert.equal(locals.byName.a.value, 'x');
  assert.equal(locals.byName.b.value, 'y');
  const globals = await variables(s, sc.Globals.variablesReference);
  assert.equal(globals.byName.x.value, 'x');
  assert.equal(globals.byName.y.value, 'y');
  // The caller's frame: its Locals are the module's variables.
  const outer = st.frames[1];
  const outerScopes = await scopes(s, outer.id);
  const outerLocals = await variables(s, outerScopes.Locals.variablesReference);
  assert.ok('x' in outerLocals.byName);
});

test('the path condition has one variable per conjunct with its line; the model satisfies it', async (t) => {
  const { s, st } = await inThenBranch(t);
  const sc = await scopes(s, st.top.id);
  const pc = await variables(s, sc['Path condition'].variablesReference);
  assert.equal(pc.list.length, 1, JSON.stringify(pc.list));
  assert.equal(pc.list[0].value, 'x > y');
  assert.match(pc.list[0].name, /line 7/);
  const m = await model(s, st.top.id);
  assert.deepEqual(Object.keys(m).sort(), ['x', 'y']);
  assert.ok(Number(m.x) > Number(m.y), `model ${JSON.stringify(m)} does not satisfy x > y`);
});

test('a tuple expands into its elements', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: CALLS, stopOnEntry: false }, { breakpoints: [{ line: 14 }] });
  const st = await stopped(s, 'breakpoint');
  assert.equal(st.top.line, 14);
  const sc = await scopes(s, st.top.id);
  const vars = await variables(s, sc.Locals.variablesReference);
  const pair = vars.byName.pair;
  assert.ok(pair, `no pair in ${Object.keys(vars.byName)}`);
  assert.ok(pair.variablesReference > 0, 'a tuple is structured');
  const all = await variables(s, pair.variablesReference);
  // The elements, then where the value came from (issue 29: origin entries).
  const els = all.list.filter((e) => !e.name.startsWith('origin'));
  assert.equal(els.length, 3);
  assert.deepEqual(els.map((e) => e.name), ['[0]', '[1]', '[2]']);
  assert.equal(els[2].value, '7');
  assert.equal(els[0].value, vars.byName.m.value);
  const ints = (await variables(s, sc.Globals.variablesReference)).byName;
  const under = await variables(s, ints.x.variablesReference);
  assert.ok(
    under.list.every((e) => e.name.startsWith('origin')),
    `an int has no elements: ${JSON.stringify(under.list)}`,
  );
});

test('each variable shows where its value came from: its origin and what that read', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: CALLS, stopOnEntry: false }, { breakpoints: [{ line: 14 }] });
  const st = await stopped(s, 'breakpoint');
  const sc = await scopes(s, st.top.id);
  const vars = (await variables(s, sc.Locals.variablesReference)).byName;
  const lines = require('node:fs').readFileSync(CALLS, 'utf8').split('\n');
  const lineOf = (text) => lines.findIndex((l) => l.startsWith(text)) + 1;
  // `m = bigger(x, y)`: its own origin first, then what that assignment read.
  const m = await variables(s, vars.m.variablesReference);
  assert.equal(m.list[0].name, 'origin');
  assert.match(m.list[0].value, new RegExp(`^line ${lineOf('m = bigger')} \\(node \\d+\\): m = bigger\\(x, y\\) \\(return\\)$`));
  assert.deepEqual(m.list[0].presentationHint, { kind: 'virtual' });
  // Through the call: the parameter it returned (bound at the call), and the input.
  const [param, input] = m.byName['origin of a'] ? ['a', 'x'] : ['b', 'y'];
  assert.match(m.byName[`origin of ${param}`].value, new RegExp(`^line ${lineOf('m = bigger')} \\(node \\d+\\): m = bigger\\(x, y\\) \\(parameter\\)$`), JSON.stringify(m.list));
  assert.match(m.byName[`origin of ${input}`].value, new RegExp(`^line ${lineOf(`${input}: int`)} \\(node \\d+\\): ${input}: int \\(input\\)$`));
  // The tuple: its elements, then its origin and, through `m`, the call's.
  const pair = await variables(s, vars.pair.variablesReference);
  assert.match(pair.byName.origin.value, new RegExp(`^line ${lineOf('pair = ')} `));
  assert.match(pair.byName['origin of m'].value, new RegExp(`^line ${lineOf('m = bigger')} `));
  // valueLocationReference: the `locations` request names the origin's line in the program.
  assert.ok(vars.m.valueLocationReference > 0, JSON.stringify(vars.m));
  const loc = await s.dc.customRequest('locations', { locationReference: vars.m.valueLocationReference });
  assert.equal(loc.body.line, lineOf('m = bigger'));
  assert.match(loc.body.source.path, /calls\.py$/);
  await assert.rejects(
    s.dc.customRequest('locations', { locationReference: 9999 }),
    /no location 9999/,
  );
  // Inside the call: a parameter's origin is the call (its kind said).
  const inner = await start();
  t.after(() => stop(inner));
  await launch(inner, { program: CALLS, stopOnEntry: false }, { breakpoints: [{ line: 8 }] });
  const st2 = await stopped(inner, 'breakpoint');
  const sc2 = await scopes(inner, st2.top.id);
  const a = (await variables(inner, sc2.Locals.variablesReference)).byName.a;
  const aOrigin = await variables(inner, a.variablesReference);
  assert.match(aOrigin.list[0].value, /\(parameter\)$/, JSON.stringify(aOrigin.list));
});

test('evaluate answers in watch, hover and repl: the value under the model is python3\'s', async (t) => {
  const { s, st } = await inThenBranch(t);
  const m = await model(s, st.top.id);
  const expr = 'a * 3 - b';
  // python3's value of the expression on the model's inputs (a = x, b = y here).
  const py = spawnSync('python3', ['-c', `x = ${m.x}; y = ${m.y}; a = x; b = y; print(${expr})`], { encoding: 'utf8' });
  assert.equal(py.status, 0, py.stderr);
  const want = py.stdout.trim();
  for (const context of ['watch', 'hover', 'repl']) {
    const r = await s.dc.evaluateRequest({ expression: expr, frameId: st.top.id, context });
    assert.match(r.body.result, /x|y/, `no symbolic value in ${r.body.result}`);
    assert.match(r.body.result, new RegExp(`here ${want}\\b`), `python3 says ${want}: ${r.body.result}`);
  }
  const truth = await s.dc.evaluateRequest({ expression: 'a > b', frameId: st.top.id, context: 'repl' });
  assert.match(truth.body.result, /always true/);
  const either = await s.dc.evaluateRequest({ expression: 'a > 0', frameId: st.top.id, context: 'repl' });
  assert.match(either.body.result, /can be either/);
});

test('evaluate of a bad expression is an error response with the reason', async (t) => {
  const { s, st } = await inThenBranch(t);
  await assert.rejects(
    s.dc.evaluateRequest({ expression: 'a +', frameId: st.top.id, context: 'repl' }),
    (e) => e.message.length > 0,
  );
  await assert.rejects(
    s.dc.evaluateRequest({ expression: 'nope + 1', frameId: st.top.id, context: 'watch' }),
    /nope/,
  );
});
