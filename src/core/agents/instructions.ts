// The team's own instructions for agents: AGENTS.md (the format Codex, Copilot, Cline, Zed, Junie
// and Claude Code read) at the workspace root and in the folders on the path of the files a step
// works on, nearer files taking precedence as the format intends; CLAUDE.md and
// .github/copilot-instructions.md when the workspace has no AGENTS.md; plus the files the person
// names (--context FILE, the "ironbees.contextFiles" setting). They go into every agent's system
// prompt, which is the cached prefix, capped in size with a note when cut.

import * as path from 'node:path';
import type { Host } from '../host';
import { errorMessage } from '../errors';
import { resolveWorkspacePath } from '../workspace/paths';

/** The whole instructions section at most; each file gets what is left, in order. */
export const MAX_INSTRUCTIONS_CHARS = 24_000;

export interface InstructionsFileRead {
  /** Workspace-relative (forward slashes), or absolute for a --context file outside the workspace. */
  path: string;
  chars: number;
  truncated: boolean;
}

export interface Instructions {
  /** The section for the system prompt; '' when there is nothing. */
  text: string;
  files: InstructionsFileRead[];
}

export interface InstructionsOptions {
  /** Workspace-relative files the step works on (the plan's files for the coder); [] for the root alone. */
  workFiles: readonly string[];
  /** Files the person named, absolute (or workspace-relative). */
  contextFiles?: readonly string[];
  maxChars?: number;
  warn?: (message: string) => void;
}

const FALLBACKS = ['CLAUDE.md', '.github/copilot-instructions.md'];

/** AGENTS.md candidates, root first, then each folder down to the nearest of every work file. */
export function agentsFileCandidates(workFiles: readonly string[]): string[] {
  const folders = new Set<string>(['']);
  for (const file of workFiles) {
    const parts = file
      .replace(/\\/g, '/')
      .split('/')
      .filter((part) => part && part !== '.');
    for (let depth = 1; depth < parts.length; depth++) folders.add(parts.slice(0, depth).join('/'));
  }
  // Shallow to deep, so the nearest file comes last and the note can say the later one wins.
  return [...folders]
    .sort((a, b) => depthOf(a) - depthOf(b) || a.localeCompare(b))
    .map((folder) => (folder ? `${folder}/AGENTS.md` : 'AGENTS.md'));
}

function depthOf(folder: string): number {
  return folder ? folder.split('/').length : 0;
}

export async function loadInstructions(host: Host, options: InstructionsOptions): Promise<Instructions> {
  // Every candidate is read at once (the fallbacks too, used only without a root AGENTS.md): a step
  // waits for these before its first model call, and one after another they were a wait each.
  const candidates = agentsFileCandidates(options.workFiles);
  const [agentsFiles, fallbacks, contextFiles] = await Promise.all([
    Promise.all(candidates.map((rel) => readInside(host, rel))),
    Promise.all(FALLBACKS.map((rel) => readInside(host, rel))),
    Promise.all((options.contextFiles ?? []).map((file) => readContextFile(host, file, options.warn))),
  ]);
  const found: Array<{ path: string; text: string }> = [];
  candidates.forEach((rel, i) => {
    const text = agentsFiles[i];
    if (text !== null) found.push({ path: rel, text });
  });
  if (!found.some((file) => file.path === 'AGENTS.md')) {
    FALLBACKS.forEach((rel, i) => {
      const text = fallbacks[i];
      if (text !== null) found.unshift({ path: rel, text });
    });
  }
  for (const file of contextFiles) if (file !== null) found.push(file);
  return render(found, options.maxChars ?? MAX_INSTRUCTIONS_CHARS);
}

/** A file the person named: its path as shown (workspace-relative when inside), or null with a warning. */
async function readContextFile(host: Host, file: string, warn?: (message: string) => void): Promise<{ path: string; text: string } | null> {
  const abs = path.resolve(host.workspaceRoot, file);
  const inside = path.relative(host.workspaceRoot, abs);
  // A file of the workspace goes through the containment check like any other (a link in the
  // repository must not make it read a file outside); a file outside was named by the person.
  if (!inside.startsWith('..') && !path.isAbsolute(inside)) {
    try {
      resolveWorkspacePath(host.workspaceRoot, inside);
    } catch (error) {
      warn?.(`The context file ${file} is left out: ${errorMessage(error)}`);
      return null;
    }
  }
  const bytes = await host.fs.readFile(abs).catch((error: unknown) => {
    warn?.(`Could not read the context file ${file}: ${errorMessage(error)}`);
    return null;
  });
  if (bytes === null) {
    warn?.(`The context file ${file} does not exist; it is left out.`);
    return null;
  }
  const rel = path.relative(host.workspaceRoot, abs);
  return { path: rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : abs, text: decode(bytes) };
}

/** Through the one containment check: plan paths come from the model. */
async function readInside(host: Host, rel: string): Promise<string | null> {
  let abs: string;
  try {
    abs = resolveWorkspacePath(host.workspaceRoot, rel).abs;
  } catch {
    return null;
  }
  const bytes = await host.fs.readFile(abs).catch(() => null);
  return bytes === null ? null : decode(bytes);
}

function decode(bytes: Uint8Array): string {
  return new TextDecoder('utf-8')
    .decode(bytes)
    .replace(/^\uFEFF/, '')
    .replace(/\r\n/g, '\n')
    .trim();
}

function render(found: ReadonlyArray<{ path: string; text: string }>, maxChars: number): Instructions {
  const files: InstructionsFileRead[] = [];
  const parts: string[] = [];
  let left = maxChars;
  for (const file of found) {
    if (!file.text) continue;
    const truncated = file.text.length > left;
    const body = truncated
      ? `${file.text.slice(0, Math.max(0, left))}\n[… cut: ${file.text.length - Math.max(0, left)} more characters of ${file.path} not shown (instructions are capped at ${maxChars} characters)]`
      : file.text;
    left -= Math.min(file.text.length, Math.max(0, left));
    files.push({ path: file.path, chars: file.text.length, truncated });
    parts.push(`### ${file.path}\n\n${body}`);
  }
  if (parts.length === 0) return { text: '', files };
  const text =
    `## The team's instructions for this repository\n\n` +
    `Follow these as you work. Where two disagree, the file nearer to the code you are changing wins, and the person's request wins over both.\n\n` +
    parts.join('\n\n');
  return { text, files };
}
