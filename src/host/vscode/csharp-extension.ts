// Whether a C# language server is present, and waiting for it to finish loading the projects:
// diagnostics and symbols asked for before that are empty, not absent.

import * as vscode from 'vscode';

/** The C# extension (Roslyn language server) and C# Dev Kit, in the order they are preferred. */
export const CSHARP_EXTENSION_IDS = ['ms-dotnettools.csharp', 'ms-dotnettools.csdevkit', 'muhammad-sammy.csharp'] as const;

interface CSharpExports {
  initializationFinished?: () => Promise<void>;
}

export function findCSharpExtension(): vscode.Extension<unknown> | undefined {
  for (const id of CSHARP_EXTENSION_IDS) {
    const extension = vscode.extensions.getExtension(id);
    if (extension) return extension;
  }
  return undefined;
}

/** Resolves when the C# extension says its projects are loaded, or after `capMs`, whichever is first. */
export async function waitForCSharpReady(capMs: number): Promise<void> {
  const extension = findCSharpExtension();
  if (!extension) return;
  const ready = (async (): Promise<void> => {
    const exports = (extension.isActive ? extension.exports : await extension.activate()) as CSharpExports | undefined;
    await exports?.initializationFinished?.();
  })();
  await Promise.race([ready.catch(() => undefined), delay(capMs)]);
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
