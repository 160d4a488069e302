// Exception stops and exceptionInfo: the class, the line, a description with the model,
// and that model reproduces the exception in python3 (CPython is the oracle); the
// `caught` filter stops where a handler catches; without filters the run goes through.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { start, stop, launch, stopped, program, model, python } = require('../lib/session');

const DIVIDE = program('divide.py');

test('an uncaught ZeroDivisionError stops with exceptionInfo whose model python3 reproduces', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: DIVIDE, stopOnEntry: false }, { exceptions: ['uncaught'] });
  const st = await stopped(s, 'exception');
  // Raised in ratio's `return a // b`, called from line 11.
  assert.deepEqual(st.frames.map((f) => f.line), [8, 11]);
  assert.equal(st.top.name, 'ratio');

  const info = (await s.dc.exceptionInfoRequest({ threadId: st.threadId })).body;
  assert.equal(info.exceptionId, 'ZeroDivisionError');
  assert.match(info.description, /^ZeroDivisionError for /);
  assert.match(info.description, /line 8/);

  // The Model scope has the inputs; the description names the same values.
  const m = await model(s, st.top.id);
  assert.deepEqual(Object.keys(m).sort(), ['x', 'y']);
  assert.equal(m.x, '3');
  for (const [k, v] of Object.entries(m)) {
    assert.ok(info.description.includes(`${k} = ${v}`), `${k} = ${v} not in ${info.description}`);
  }
  const py = python(DIVIDE, m);
  assert.notEqual(py.status, 0, 'python3 ran without an exception');
  assert.match(py.stderr, /ZeroDivisionError/);
  assert.match(py.stderr, /line 8, in ratio/);
});

test('an AssertionError after a loop: exceptionInfo\'s model fails the assert in python3', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  const loop = program('loop.py');
  await launch(s, { program: loop, unroll: 5, stopOnEntry: false }, { exceptions: ['uncaught'] });
  const st = await stopped(s, 'exception');
  assert.equal(st.top.line, 11);
  const info = (await s.dc.exceptionInfoRequest({ threadId: st.threadId })).body;
  assert.equal(info.exceptionId, 'AssertionError');
  const m = await model(s, st.top.id);
  assert.deepEqual(m, { n: '2' });
  const py = python(loop, m);
  assert.match(py.stderr, /AssertionError/);
  // And python3 on another input passes: the stop is about this input.
  assert.equal(python(loop, { n: '3' }).status, 0);
});

test('the caught filter stops at the handler; uncaught alone runs through a caught raise', async (t) => {
  const caught = program('caught.py');
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: caught, stopOnEntry: false }, { exceptions: ['caught'] });
  const st = await stopped(s, 'exception');
  // At the `except` line, before the handler runs.
  assert.equal(st.top.line, 7);
  const info = (await s.dc.exceptionInfoRequest({ threadId: st.threadId })).body;
  assert.equal(info.exceptionId, 'ZeroDivisionError');
  const m = await model(s, st.top.id);
  assert.deepEqual(m, { x: '0' });

  const s2 = await start();
  t.after(() => stop(s2));
  await launch(s2, { program: caught, stopOnEntry: false }, { exceptions: ['uncaught'] });
  await s2.log.next('terminated');
  assert.equal(s2.log.all('stopped').length, 0);
});

test('exceptionInfo where no exception is refused; an unknown filter is refused', async (t) => {
  const s = await start();
  t.after(() => stop(s));
  await launch(s, { program: DIVIDE, stopOnEntry: true });
  const st = await stopped(s, 'entry');
  await assert.rejects(s.dc.exceptionInfoRequest({ threadId: st.threadId }), /not stopped at an exception|exception/);
  await assert.rejects(s.dc.setExceptionBreakpointsRequest({ filters: ['all'] }), /all/);
});
