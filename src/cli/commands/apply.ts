// `ironbees apply <runId>`: the change a `run --worktree` made on its branch, brought into the
// person's working tree as a reviewable diff. Each file is shown as a diff; with --yes every file is
// written, else the person is asked per file on a terminal. Only the working tree is written (nothing
// is staged or committed), so `git diff` shows exactly what came in. A file with local changes (it
// differs from what the run started from) is refused, naming it, unless --force.

import { ConfigurationError } from '../../core/errors';
import { GitRepo } from '../../core/workspace/git-worktrees';
import type { ChangedFile } from '../../core/workspace/git-worktrees';
import { applyFile, planApply } from '../../core/workflow/worktree-apply';
import type { ApplyArgs } from '../args';
import { ExitCode } from '../exit-codes';
import { LinePrompter, PromptClosedError } from '../prompts';
import { renderDiff } from '../render/diff';
import { isTty, writeLine } from '../terminal';
import type { CommandContext } from './context';
import { checkWorkspace } from './context';

export async function applyCommand(ctx: CommandContext, args: ApplyArgs): Promise<number> {
  await checkWorkspace(args.workspace);
  const repo = await GitRepo.open(ctx.deps.createHost(args.workspace, ctx.logger).process, args.workspace);
  const { branch, base, files, changedHere } = await planApply(repo, args.workspace, args.runId);
  if (files.length === 0) {
    writeLine(ctx.io.stdout, `Branch ${branch} changes no file; nothing to apply.`);
    return ExitCode.SUCCESS;
  }
  if (changedHere.length > 0 && !args.force) {
    throw new ConfigurationError(
      `These files have local changes the run did not start from: ${changedHere.join(', ')}. Commit or stash them, or overwrite them with --force.`,
    );
  }
  if (!args.yes && !isTty(ctx.io.stdin)) {
    throw new ConfigurationError('apply asks per file on a terminal; without one, pass --yes to apply every file.');
  }
  const applied = await review(ctx, args, repo, base, branch, files);
  if (applied === null) return ExitCode.USAGE;
  writeLine(
    ctx.io.stdout,
    `Applied ${applied.length} of ${files.length} file${files.length === 1 ? '' : 's'} from ${branch} to the working tree (nothing staged); review with git diff.`,
  );
  return ExitCode.SUCCESS;
}

/** Shows each file's diff, asks (unless --yes) and writes the approved ones; null when the prompt closed. */
async function review(
  ctx: CommandContext,
  args: ApplyArgs,
  repo: GitRepo,
  base: string,
  branch: string,
  files: readonly ChangedFile[],
): Promise<string[] | null> {
  const prompter = args.yes ? null : new LinePrompter({ input: ctx.io.stdin, output: ctx.io.stderr, terminal: true });
  const applied: string[] = [];
  try {
    for (const file of files) {
      writeLine(ctx.io.stderr, renderDiff(await repo.diffText(base, branch, file.path), ctx.colors));
      if (prompter && !/^y(es)?$/i.test((await prompter.ask(`Apply ${file.path}? [y/N] `)).trim())) continue;
      await applyFile(repo, branch, file);
      writeLine(ctx.io.stdout, `${file.status === 'A' ? 'created ' : file.status === 'D' ? 'deleted ' : 'modified'} ${file.path}`);
      applied.push(file.path);
    }
  } catch (error) {
    if (error instanceof PromptClosedError) return null;
    throw error;
  } finally {
    prompter?.close();
  }
  return applied;
}
