// The symdbg extension: the `symdbg` debug type runs `symdbg dap` (the path is the
// `symdbg.path` setting) and the "Symbolic tree" view in the Run and Debug side bar shows
// the adapter's tree (the custom `symdbg/tree` request, refreshed on each
// `symdbg/treeChanged` event); choosing a node sends `symdbg/focus`, which stops a thread
// there. Plain JavaScript: no build step.
'use strict';

const vscode = require('vscode');
const { buildTree, describe, icon } = require('./lib/tree');

class TreeProvider {
  constructor() {
    this.emitter = new vscode.EventEmitter();
    this.onDidChangeTreeData = this.emitter.event;
    this.session = undefined;
    this.roots = [];
  }

  /** Ask the session for its tree again (or clear the view without a symdbg session). */
  async refresh(session) {
    this.session = session;
    this.roots = [];
    if (session && session.type === 'symdbg') {
      try {
        const body = await session.customRequest('symdbg/tree');
        this.roots = buildTree(body).roots;
      } catch (err) {
        this.roots = [{ id: -1, label: `no tree: ${err.message || err}`, children: [] }];
      }
    }
    this.emitter.fire();
  }

  getTreeItem(node) {
    const row = describe(node);
    const state = node.children.length === 0
      ? vscode.TreeItemCollapsibleState.None
      : vscode.TreeItemCollapsibleState.Expanded;
    const item = new vscode.TreeItem(row.label, state);
    item.description = row.description;
    item.tooltip = row.tooltip;
    item.iconPath = new vscode.ThemeIcon(icon(node));
    if (node.id >= 0) {
      item.command = { command: 'symdbg.focusNode', title: 'Focus', arguments: [node] };
    }
    return item;
  }

  getChildren(node) {
    return node ? node.children : this.roots;
  }
}

/** A launch without launch.json (F5 on a .py file) debugs the file in the editor. */
class ConfigurationProvider {
  resolveDebugConfiguration(folder, config) {
    if (!config.type && !config.request && !config.name) {
      const editor = vscode.window.activeTextEditor;
      if (editor && editor.document.languageId === 'python') {
        config.type = 'symdbg';
        config.name = 'symdbg: current file';
        config.request = 'launch';
        config.program = '${file}';
        config.stopOnEntry = true;
      }
    }
    if (!config.program) {
      return vscode.window.showInformationMessage('symdbg: set "program" to the minipy file to debug')
        .then(() => undefined);
    }
    return config;
  }
}

function activate(context) {
  const tree = new TreeProvider();
  const command = () => vscode.workspace.getConfiguration('symdbg').get('path') || 'symdbg';
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory('symdbg', {
      createDebugAdapterDescriptor: () => new vscode.DebugAdapterExecutable(command(), ['dap']),
    }),
    vscode.debug.registerDebugConfigurationProvider('symdbg', new ConfigurationProvider()),
    vscode.window.registerTreeDataProvider('symdbg.tree', tree),
    vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
      if (e.session.type === 'symdbg' && e.event === 'symdbg/treeChanged') {
        tree.refresh(e.session);
      }
    }),
    vscode.debug.onDidChangeActiveDebugSession((s) => tree.refresh(s)),
    vscode.debug.onDidTerminateDebugSession((s) => {
      if (tree.session === s) {
        tree.refresh(undefined);
      }
    }),
    vscode.commands.registerCommand('symdbg.refreshTree', () => tree.refresh(vscode.debug.activeDebugSession)),
    vscode.commands.registerCommand('symdbg.focusNode', async (node) => {
      const session = tree.session;
      if (session && node && typeof node.id === 'number') {
        try {
          await session.customRequest('symdbg/focus', { node: node.id });
        } catch (err) {
          vscode.window.showWarningMessage(`symdbg: ${err.message || err}`);
        }
      }
    }),
  );
}

function deactivate() {}

module.exports = { activate, deactivate };
