export interface ToolCommand {
  cmd: string;
  args: string[];
}
export function npmCli(env?: NodeJS.ProcessEnv, execPath?: string): string;
export function npmCommand(args: readonly string[], env?: NodeJS.ProcessEnv): ToolCommand;
export function binCommand(pkg: string, args: readonly string[], name?: string): ToolCommand;
export function linuxOnlySkipReason(platform?: NodeJS.Platform, arch?: string): string | null;
