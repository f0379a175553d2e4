// Asking for a run: the request (a quick pick that remembers the last requests, where typing a new
// one is the first choice) and the solution or project to work on (picked only when there are
// several).

import * as path from 'node:path';
import * as vscode from 'vscode';

const RECENT_KEY = 'ironbees.recentRequests';
const MAX_RECENT = 10;
const TARGET_GLOB = '**/*.{sln,slnx,csproj}';
const TARGET_EXCLUDE = '**/{bin,obj,node_modules,.git,.ironbees,.vs}/**';

export class RecentRequests {
  constructor(private readonly memento: vscode.Memento) {}

  list(): string[] {
    const stored = this.memento.get<unknown>(RECENT_KEY);
    return Array.isArray(stored) ? stored.filter((r): r is string => typeof r === 'string') : [];
  }

  async remember(request: string): Promise<void> {
    const next = [request, ...this.list().filter((r) => r !== request)].slice(0, MAX_RECENT);
    await this.memento.update(RECENT_KEY, next);
  }
}

/** The request, or undefined when the person dismissed the picker. */
export function askForRequest(recent: readonly string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
    pick.title = 'Ironbees: Run Agent';
    pick.placeholder = 'What should the agent do? e.g. "Fix the failing Calculator test"';
    pick.ignoreFocusOut = true;
    pick.matchOnDescription = false;
    const recentItems = recent.map((request) => ({ label: request, description: 'recent' }));
    pick.items = recentItems;
    pick.onDidChangeValue((value) => {
      const typed = value.trim() ? [{ label: value, description: 'new request', alwaysShow: true }] : [];
      pick.items = [...typed, ...recentItems.filter((item) => item.label !== value)];
    });
    let answered = false;
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0]?.label ?? pick.value;
      if (!chosen.trim()) return;
      answered = true;
      resolve(chosen.trim());
      pick.hide();
    });
    pick.onDidHide(() => {
      if (!answered) resolve(undefined);
      pick.dispose();
    });
    pick.show();
  });
}

/** Solutions (preferred) or projects in the folder, workspace-relative with forward slashes. */
export async function findTargets(folder: vscode.WorkspaceFolder): Promise<string[]> {
  const found = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, TARGET_GLOB), TARGET_EXCLUDE, 500);
  const relative = found.map((uri) => path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/')).sort();
  const solutions = relative.filter((file) => /\.slnx?$/i.test(file));
  return solutions.length ? solutions : relative;
}

/**
 * The target of the run: the only one, or the person's pick. Undefined means "let the core find
 * it" (no candidates: the core explains); null means the person dismissed the pick.
 */
export async function pickTarget(folder: vscode.WorkspaceFolder): Promise<string | undefined | null> {
  const targets = await findTargets(folder);
  if (targets.length <= 1) return targets[0];
  const chosen = await vscode.window.showQuickPick(
    targets.map((target) => ({
      label: path.basename(target),
      description: path.dirname(target) === '.' ? '' : path.dirname(target),
      target,
    })),
    { title: 'Ironbees: which solution or project?', placeHolder: 'The agent builds and tests this one', ignoreFocusOut: true },
  );
  return chosen ? chosen.target : null;
}
