// The commits of a run in a worktree: one per applied iteration, exactly the files it applied, the
// coder's summary as the message.

import type { CodingState, WorkflowNode } from '../model';
import type { GitRepo } from '../workspace/git-worktrees';

/** Commits the run's applied edits in the worktree: once per iteration, when its validation is done. */
export class IterationCommits {
  private last: CodingState | null = null;
  private previous: WorkflowNode | null = null;

  constructor(
    private readonly repo: GitRepo,
    private readonly workspace: string,
  ) {}

  get lastNode(): WorkflowNode | null {
    return this.last?.currentNode ?? null;
  }

  readonly states = (states: AsyncIterable<CodingState>): AsyncIterable<CodingState> => this.follow(states);

  private async *follow(states: AsyncIterable<CodingState>): AsyncIterable<CodingState> {
    for await (const state of states) {
      // The iteration's edits are written as its validation starts: once it is done, they are all there.
      if (this.previous === 'VALIDATE' && state.currentNode !== 'VALIDATE') await this.commit(state);
      this.previous = state.currentNode;
      this.last = state;
      yield state;
    }
  }

  /** What was applied but not committed yet (a run stopped during its validation). */
  async commitRest(): Promise<void> {
    if (this.last) await this.commit(this.last);
  }

  /** Exactly the files the iteration applied: never build output or the run's own folder. */
  private async commit(state: CodingState): Promise<void> {
    const files = Array.isArray(state.metadata.approvedFiles) ? state.metadata.approvedFiles.filter((f) => typeof f === 'string') : [];
    const summary = typeof state.metadata.coderSummary === 'string' ? state.metadata.coderSummary.trim() : '';
    const message = summary || `Ironbees run ${state.stateId}, iteration ${state.iterationCount}`;
    await this.repo.commitFiles(this.workspace, message, files as string[]);
  }
}
