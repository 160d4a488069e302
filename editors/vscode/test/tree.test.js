// The extension's parts that run without VS Code: the tree view's model (lib/tree.js) and
// the manifest's launch configurations against its own schema.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { buildTree, describe, icon, threadOf } = require('../lib/tree');

// A response body of the shape `symdbg/tree` answers: a fork at node 1, one exception leaf,
// one open path (thread 2).
const BODY = {
  nodes: [
    { id: 0, parent: null, line: 5, label: 'if x > y:', kind: 'inner' },
    { id: 1, parent: 0, line: 6, label: 'm = x', kind: 'inner' },
    { id: 2, parent: 0, line: 8, label: 'm = y', kind: 'open', thread: 2 },
    { id: 3, parent: 1, line: 9, label: 'q = 1 // d', kind: 'leaf', outcome: 'exception', exception: 'ZeroDivisionError' },
  ],
};

test('buildTree links children under their parents, in order', () => {
  const { roots, byId } = buildTree(BODY);
  assert.deepEqual(roots.map((n) => n.id), [0]);
  assert.deepEqual(byId.get(0).children.map((n) => n.id), [1, 2]);
  assert.deepEqual(byId.get(1).children.map((n) => n.id), [3]);
  assert.deepEqual(byId.get(3).children, []);
});

test('buildTree keeps nodes whose parent is missing as roots, and tolerates no body', () => {
  const { roots } = buildTree({ nodes: [{ id: 7, parent: 3, line: 1, label: 'a' }] });
  assert.deepEqual(roots.map((n) => n.id), [7]);
  assert.deepEqual(buildTree(undefined).roots, []);
  assert.deepEqual(buildTree({}).roots, []);
});

test('rows show id, line, label, outcome and thread', () => {
  const { byId } = buildTree(BODY);
  assert.equal(describe(byId.get(0)).label, '[0] 5: if x > y:');
  assert.equal(describe(byId.get(3)).description, 'exception ZeroDivisionError');
  assert.equal(describe(byId.get(2)).description, 'thread 2');
  assert.equal(threadOf({ threadId: 4 }), 4);
  assert.equal(threadOf({ thread: null }), undefined);
  assert.equal(threadOf({}), undefined);
  assert.equal(icon(byId.get(3)), 'error');
  assert.equal(icon(byId.get(2)), 'debug-stackframe');
});

test('the manifest\'s launch configurations use only its launch arguments', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  const dbg = pkg.contributes.debuggers.find((d) => d.type === 'symdbg');
  assert.ok(dbg, 'the symdbg debug type');
  const props = new Set(Object.keys(dbg.configurationAttributes.launch.properties));
  const own = new Set(['type', 'request', 'name']);
  const configs = [...dbg.initialConfigurations, ...dbg.configurationSnippets.map((s) => s.body)];
  assert.ok(configs.length >= 2);
  for (const c of configs) {
    assert.equal(c.type, 'symdbg');
    assert.equal(c.request, 'launch');
    assert.ok('program' in c, `a configuration without program: ${JSON.stringify(c)}`);
    for (const k of Object.keys(c)) {
      assert.ok(own.has(k) || props.has(k), `${k} is not a launch argument of the schema`);
    }
  }
  assert.equal(pkg.main, './extension.js');
  assert.ok(fs.existsSync(path.join(__dirname, '..', 'extension.js')));
});
