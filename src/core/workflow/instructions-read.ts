// What the state keeps of the instructions files the agents were given: one entry per path, the
// latest read winning (a file may have changed between the planner and a later coder turn).

import type { InstructionsFileRead } from '../agents/instructions';

export function mergeInstructionsRead(
  before: readonly InstructionsFileRead[] | undefined,
  now: readonly InstructionsFileRead[] | undefined,
): InstructionsFileRead[] {
  const byPath = new Map<string, InstructionsFileRead>();
  for (const file of [...(before ?? []), ...(now ?? [])]) {
    byPath.delete(file.path);
    byPath.set(file.path, file);
  }
  return [...byPath.values()];
}
