// extension.js under a stand-in `vscode` module (VS Code itself cannot run here): what
// `activate` registers, and that the adapter it starts is `<symdbg.path> dap`.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const Module = require('node:module');

function fakeVscode(settings) {
  const registered = { factories: {}, providers: {}, trees: {}, commands: {}, listeners: 0 };
  const disposable = { dispose() {} };
  const vscode = {
    registered,
    EventEmitter: class { constructor() { this.event = () => disposable; } fire() {} },
    DebugAdapterExecutable: class { constructor(command, args) { this.command = command; this.args = args; } },
    TreeItem: class { constructor(label, state) { this.label = label; this.collapsibleState = state; } },
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    ThemeIcon: class { constructor(id) { this.id = id; } },
    workspace: { getConfiguration: () => ({ get: (k) => settings[k] }) },
    window: {
      activeTextEditor: undefined,
      registerTreeDataProvider: (id, p) => { registered.trees[id] = p; return disposable; },
      showInformationMessage: () => Promise.resolve(undefined),
      showWarningMessage: () => Promise.resolve(undefined),
    },
    debug: {
      registerDebugAdapterDescriptorFactory: (t, f) => { registered.factories[t] = f; return disposable; },
      registerDebugConfigurationProvider: (t, p) => { registered.providers[t] = p; return disposable; },
      onDidReceiveDebugSessionCustomEvent: () => { registered.listeners++; return disposable; },
      onDidChangeActiveDebugSession: () => { registered.listeners++; return disposable; },
      onDidTerminateDebugSession: () => { registered.listeners++; return disposable; },
      activeDebugSession: undefined,
    },
    commands: { registerCommand: (c, f) => { registered.commands[c] = f; return disposable; } },
  };
  return vscode;
}

function loadExtension(vscode) {
  const original = Module._load;
  Module._load = function (request, ...rest) {
    return request === 'vscode' ? vscode : original.call(this, request, ...rest);
  };
  try {
    delete require.cache[require.resolve('../extension')];
    return require('../extension');
  } finally {
    Module._load = original;
  }
}

test('activate registers the symdbg debug type, its tree view and commands', () => {
  const vscode = fakeVscode({ path: '/opt/bin/symdbg' });
  const ext = loadExtension(vscode);
  const context = { subscriptions: [] };
  ext.activate(context);
  const r = vscode.registered;
  assert.deepEqual(Object.keys(r.factories), ['symdbg']);
  const exe = r.factories.symdbg.createDebugAdapterDescriptor({});
  assert.equal(exe.command, '/opt/bin/symdbg');
  assert.deepEqual(exe.args, ['dap']);
  assert.ok(r.trees['symdbg.tree'], 'the Symbolic tree view');
  assert.deepEqual(Object.keys(r.commands).sort(), ['symdbg.focusNode', 'symdbg.refreshTree']);
  assert.equal(r.listeners, 3);
  assert.ok(context.subscriptions.length >= 7);
});

test('without the symdbg.path setting the adapter is `symdbg dap` from the PATH', () => {
  const vscode = fakeVscode({});
  loadExtension(vscode).activate({ subscriptions: [] });
  const exe = vscode.registered.factories.symdbg.createDebugAdapterDescriptor({});
  assert.equal(exe.command, 'symdbg');
});

test('the tree view asks the session for symdbg/tree and shows its nodes', async () => {
  const vscode = fakeVscode({});
  loadExtension(vscode).activate({ subscriptions: [] });
  const tree = vscode.registered.trees['symdbg.tree'];
  const asked = [];
  const session = {
    type: 'symdbg',
    customRequest: async (command, args) => {
      asked.push([command, args]);
      return { nodes: [{ id: 0, line: 3, label: 'if x > 0:' }, { id: 1, parent: 0, line: 4, label: 'y = x', threadId: 1 }] };
    },
  };
  await tree.refresh(session);
  assert.deepEqual(asked, [['symdbg/tree', undefined]]);
  const roots = tree.getChildren();
  assert.equal(roots.length, 1);
  const item = tree.getTreeItem(roots[0]);
  assert.equal(item.label, '[0] 3: if x > 0:');
  const kids = tree.getChildren(roots[0]);
  assert.equal(tree.getTreeItem(kids[0]).description, 'thread 1');
  // Choosing a node focuses it.
  await vscode.registered.commands['symdbg.focusNode'](kids[0]);
  assert.deepEqual(asked[1], ['symdbg/focus', { node: 1 }]);
});

test('a launch without launch.json debugs the Python file in the editor', () => {
  const vscode = fakeVscode({});
  vscode.window.activeTextEditor = { document: { languageId: 'python' } };
  loadExtension(vscode).activate({ subscriptions: [] });
  const c = vscode.registered.providers.symdbg.resolveDebugConfiguration(undefined, {});
  assert.equal(c.type, 'symdbg');
  assert.equal(c.request, 'launch');
  assert.equal(c.program, '${file}');
});
