// What the sandbox refused, said in the result (../sandbox.ts). A test that opened a socket, wrote
// outside the workspace or read the home folder fails inside the sandbox with an ordinary .NET error
// ("Connection refused", "Read-only file system", "Could not find file '/home/…'"); without a word
// from us the model would take it for a bug in the code. A failure (or a build error) that shows one of
// these while the sandbox is on gets a first line naming the refusal and the way out.

import * as os from 'node:os';
import type { CompilationError, TestFailure } from '../model';

export const SANDBOX_NOTE_PREFIX = '[sandbox]';

const NETWORK =
  /SocketException|Network is unreachable|Connection refused|No such host is known|Name or service not known|Temporary failure in name resolution|HttpRequestException|ENETUNREACH|ECONNREFUSED/i;
const WRITE = /Read-only file system|EROFS/i;

export const NETWORK_NOTE = `${SANDBOX_NOTE_PREFIX} network is disabled for tests and builds; run with --sandbox off to allow`;
export const WRITE_NOTE = `${SANDBOX_NOTE_PREFIX} writing outside the workspace, the temp folder and the NuGet caches is refused; run with --sandbox off to allow`;
export const HOME_NOTE = `${SANDBOX_NOTE_PREFIX} the home folder is hidden (only the NuGet caches and the dotnet CLI home are there); run with --sandbox off to allow`;

/** The notes `text` calls for (network, write, home), in that order. */
export function sandboxNotesFor(text: string, home: string = os.homedir()): string[] {
  const notes: string[] = [];
  if (NETWORK.test(text)) notes.push(NETWORK_NOTE);
  if (WRITE.test(text)) notes.push(WRITE_NOTE);
  if (home && home !== '/' && mentionsMissingUnder(text, home)) notes.push(HOME_NOTE);
  return notes;
}

/** A "not found" or "denied" error about a path under the home folder. */
function mentionsMissingUnder(text: string, home: string): boolean {
  const escaped = home.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `(Could not find (file|a part of the path)|No such file or directory|Permission denied|Access to the path)[^\\n]*${escaped}/`,
  ).test(text);
}

function withNotes(message: string, notes: readonly string[]): string {
  const missing = notes.filter((note) => !message.includes(note));
  return missing.length > 0 ? `${missing.join('\n')}\n${message}` : message;
}

/** Each failure the sandbox explains starts with the notes (first, so a shortened message keeps them). */
export function explainSandboxFailures(failures: TestFailure[]): void {
  for (const failure of failures) {
    const notes = sandboxNotesFor(`${failure.message}\n${failure.stackTrace}`);
    if (notes.length > 0) failure.message = withNotes(failure.message, notes);
  }
}

/** The same for build errors (an MSBuild Exec that reached for the network, a task writing into the home folder). */
export function explainSandboxBuildErrors(errors: CompilationError[]): void {
  for (const error of errors) {
    const notes = sandboxNotesFor(error.message);
    if (notes.length > 0) error.message = withNotes(error.message, notes);
  }
}
