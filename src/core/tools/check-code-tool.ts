// check_code: the coder compiles its staged edits before submitting. The projects holding the
// edited files (and those depending on them) are compiled in memory with the staged text; the
// answer lists only errors the code on disk does not already have. Nothing is written.

import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';
import { checkReport, stagedSources } from '../csharp/engine/code-checker';
import { EngineUnavailableError } from '../csharp/engine/errors';

const checkCodeInput = z.object({}).passthrough();
export type CheckCodeInput = z.infer<typeof checkCodeInput>;

export const checkCodeTool: ToolDefinition<CheckCodeInput> = {
  name: 'check_code',
  description:
    'Compile your staged edits now, in memory (nothing is written), and list the compile errors they introduce: ' +
    'path:line:column, the CSxxxx code and the message. Errors that were already there before your edits are left out. ' +
    'It runs the C# compiler only: no analyzers, and edits to .csproj/.props files are not applied here (the build checks those), ' +
    'so a clean result is not a passing build, and it never runs tests. ' +
    'Call it after editing and before submit_changes; it takes seconds, a full build takes much longer. ' +
    'The same errors again mean your last edits did not touch their cause: read the lines they name before editing again.',
  input: checkCodeInput,
  readonly: true,
  timeoutMs: 300_000,
  execute: checkCode,
};

async function checkCode(_input: CheckCodeInput, ctx: ToolContext): Promise<ToolOutcome> {
  const checker = ctx.host.codeCheck;
  if (!checker)
    return {
      ok: false,
      error: 'check_code is not available in this host (no C# engine); submit_changes and the build will check your edits.',
    };
  const { files, unchecked } = await stagedSources(ctx.overlay);
  if (files.length === 0) {
    return {
      ok: true,
      content:
        unchecked.length > 0
          ? `No C# file is staged; ${unchecked.join(', ')} will be checked by the build.`
          : 'Nothing is staged yet: no edits to check.',
    };
  }
  try {
    const result = await checker.check(files, { signal: ctx.signal, buildInputs: unchecked });
    return { ok: true, content: checkReport(result, unchecked), data: result };
  } catch (error) {
    if (error instanceof EngineUnavailableError) {
      return { ok: false, error: `check_code cannot compile right now: ${error.message}. Submit your changes; the build will check them.` };
    }
    throw error;
  }
}
