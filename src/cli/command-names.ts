// The CLI's command names, apart from args.ts so exit-codes.ts (UsageError) can name them without an
// import cycle (ARCHITECTURE.md: no cycles). args.ts re-exports both.

export const COMMAND_NAMES = [
  'run',
  'resume',
  'runs',
  'revert',
  'apply',
  'trace',
  'mcp',
  'acp',
  'serve',
  'bench',
  'checkpoints',
  'rewind',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];
