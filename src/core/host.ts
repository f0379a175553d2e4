// The Host port: everything the core needs from its surroundings. `src/host/node` answers with the
// file system and child processes; `src/host/vscode` with the C# language server and VS Code tasks.
// Paths given to the Host are absolute and already checked to lie inside the workspace.

import type { CompilationDiagnostic } from './model';

/**
 * `durable`: on disk before the call returns (the bytes, then the folder entry), so writes made in
 * order survive a power loss in that order. Slower: only for write-ahead records and the writes they
 * cover (edit-journal-wal.ts). Hosts without a disk of their own (in-memory tests) may ignore it.
 */
export interface WriteOptions {
  durable?: boolean;
}

/** A file kept open for appending (HostFileSystem.openAppender); closed once, when its writer is done. */
export interface FileAppender {
  append(text: string): Promise<void>;
  close(): Promise<void>;
}

export interface ReadOptions {
  /** Refuse a file larger than this (checked before reading); the host's own limit applies without it. */
  maxBytes?: number;
  /**
   * The text a person sees: a host attached to an editor may answer with the editor's buffer, unsaved
   * edits included (re-encoded in the disk file's BOM and line endings). Set for the file reads of the
   * model's tools, a diff's "before" and the check of what an approved edit is applied to. Absent: the disk.
   */
  editorText?: boolean;
}

export interface HostFileSystem {
  /**
   * Whether file names ignore case here (one file for `A.cs` and `a.cs`). Absent: the platform's
   * default (Windows and macOS do; see path-case.ts).
   */
  readonly caseInsensitive?: boolean;
  /**
   * Null when the file does not exist (or is a folder). Bytes, so CRLF and encodings survive a round
   * trip. Only a regular file is opened (a FIFO, socket or device is refused with NotRegularFileError
   * before any open), and one larger than `maxBytes` is refused from its size (FileTooLargeError).
   */
  readFile(absPath: string, options?: ReadOptions): Promise<Uint8Array | null>;
  /**
   * The file's bytes in pieces, for files too big to hold whole (a TRX of thousands of failures); null
   * when it does not exist. A piece may be reused for the next one: use it before asking for the next.
   * Optional: without it a reader takes readFile's bytes.
   */
  readChunks?(absPath: string): Promise<AsyncIterable<Uint8Array> | null>;
  /** Creates parent folders as needed; writes atomically where the platform allows. */
  writeFile(absPath: string, data: Uint8Array | string, options?: WriteOptions): Promise<void>;
  /**
   * Writes text given in pieces, as writeFile does (atomically where the platform allows), without
   * joining them: a big results file is never one string. Optional: without it the pieces are joined.
   */
  writeChunks?(absPath: string, pieces: Iterable<string>): Promise<void>;
  /** Appends text (creating the file and its folders as needed): the run trace grows line by line. */
  appendFile(absPath: string, text: string): Promise<void>;
  /**
   * Opens a file for appending (creating it and its folders as needed) and keeps it open, so each
   * append is one write instead of an open, a write and a close: for a file one process appends to
   * often (a run's trace while the run is driven here). Optional: without it, appendFile each time.
   */
  openAppender?(absPath: string): Promise<FileAppender>;
  deleteFile(absPath: string, options?: WriteOptions): Promise<void>;
  exists(absPath: string): Promise<boolean>;
  /**
   * Files under `absDir`, as paths relative to it with forward slashes, skipping build output and
   * tool folders (bin, obj, .git, .ironbees, node_modules, .vs). `maxFiles` bounds the walk.
   */
  listFiles(absDir: string, options?: { maxFiles?: number }): Promise<string[]>;
}

export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  env?: Record<string, string>;
  /** Streamed output, for a terminal or a task's pseudoterminal. */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
  /** What the command is for, when the person should know (e.g. "baseline"): a terminal is named after it. */
  label?: string;
  /**
   * Run it in the sandbox (sandbox.ts) when one is active: the workspace it may write, and whether it
   * may reach the network (restore only). Set for every dotnet command that builds or runs code.
   */
  sandbox?: { workspaceRoot: string; network: boolean };
}

export interface RunResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** Killed (with its whole process tree) at the time limit. */
  timedOut: boolean;
  /** Killed because the signal aborted. */
  cancelled: boolean;
}

export interface ProcessRunner {
  /** Runs a command; never rejects for a non-zero exit, only for a command that cannot start. */
  run(command: string, args: readonly string[], options: RunOptions): Promise<RunResult>;
  /** True when the runner honours RunOptions.sandbox (the Node runner and VS Code tasks; scripted fakes do not). */
  readonly sandboxes?: boolean;
  /**
   * Stops at once what this runner's finished commands left running (build servers, nodes), nobody
   * else's; returns how many process groups it stopped (0 where commands get none: Windows).
   */
  stopLeftRunning?(): number;
}

export type SymbolKind =
  | 'class'
  | 'interface'
  | 'struct'
  | 'enum'
  | 'record'
  | 'method'
  | 'property'
  | 'field'
  | 'event'
  | 'namespace'
  | 'constructor'
  | 'delegate'
  | 'other';

export interface SymbolInfo {
  name: string;
  kind: SymbolKind;
  /** Workspace-relative, forward slashes. */
  filePath: string;
  line: number;
  column: number;
  containerName?: string;
}

export interface SymbolLocation {
  filePath: string;
  line: number;
  column: number;
  /** The source line, trimmed, for the model to read without another call. */
  preview: string;
}

/** A place in a workspace file: workspace-relative path, 1-based line and column. */
export interface SourcePosition {
  filePath: string;
  line: number;
  column: number;
}

/** Where the symbol used at some position is declared, and what it is. */
export interface SymbolDefinition extends SymbolInfo {
  preview: string;
}

/** A base or derived type; without a file position when it is declared outside the workspace. */
export interface RelatedType {
  name: string;
  kind: SymbolKind;
  containerName?: string;
  filePath?: string;
  line?: number;
  column?: number;
}

/** One type and its direct base types (base class, interfaces) and direct derived types. */
export interface TypeRelations {
  type: SymbolInfo;
  supertypes: RelatedType[];
  subtypes: RelatedType[];
}

/** A file's text as the coder staged it (null: staged for deletion); not on disk yet. */
export interface StagedText {
  path: string;
  text: string | null;
}

export interface SymbolQueryOptions {
  signal?: AbortSignal;
  /**
   * The run's staged edits (C# files): a provider that can (the Roslyn engine) answers on this text
   * instead of the disk's, so positions and names the model read in staged files are found.
   * Providers that cannot (a language server, the text index) answer from the disk.
   */
  staged?: readonly StagedText[];
}

export interface SymbolProvider {
  findSymbols(query: string, options?: SymbolQueryOptions & { kind?: SymbolKind; limit?: number }): Promise<SymbolInfo[]>;
  findReferences(symbolName: string, options?: SymbolQueryOptions & { limit?: number }): Promise<SymbolLocation[]>;
  /**
   * Go to definition: the declarations of the identifier at `at`. Empty when there is no
   * identifier there or it is declared outside the workspace. Optional: tools say so when absent.
   */
  findDefinitions?(at: SourcePosition, options?: SymbolQueryOptions): Promise<SymbolDefinition[]>;
  /** The types named `typeName` ("Shape" or "Geometry.Shape") with their direct base and derived types. */
  relatedTypes?(typeName: string, options?: SymbolQueryOptions): Promise<TypeRelations[]>;
  /** Tells the provider these files changed (the text index re-reads them). */
  invalidate?(relPaths: readonly string[]): void;
  /**
   * References of exactly the symbol at `at` (the compiler's answer: a same-named member elsewhere is
   * not one). Optional: without it, tools resolve the declaration and search by its name.
   */
  findReferencesAt?(at: SourcePosition, options?: SymbolQueryOptions & { limit?: number }): Promise<SymbolLocation[]>;
  /** Implementations of the interface, abstract or virtual member (or type) at `at`. */
  findImplementations?(at: SourcePosition, options?: SymbolQueryOptions): Promise<SymbolDefinition[]>;
  /** The types and members declared in one file, in source order. */
  outline?(relPath: string, options?: SymbolQueryOptions): Promise<SymbolInfo[]>;
  /**
   * A note to show the model once, e.g. "answers come from the text index because the C# engine
   * could not load: ...". Undefined when there is nothing (new) to say.
   */
  takeNotice?(): string | undefined;
}

/** A compile error found by checking staged text in memory. */
export interface CompileError {
  filePath: string;
  line: number;
  column: number;
  code: string;
  message: string;
  project?: string;
}

export interface CodeCheckResult {
  /** The projects compiled: those holding the changed files and those that depend on them. */
  projects: string[];
  /** Errors the code on disk does not have (at most some; `total` counts all). */
  errors: CompileError[];
  total: number;
  /**
   * Projects the engine cannot judge (packages not restored, a restore input staged, code only a
   * build generates, a load error): no errors are reported there, the build decides. Absent: none.
   */
  unknown?: UnknownProject[];
}

/** A project the in-memory check answers "unknown" for, and why. */
export interface UnknownProject {
  project: string;
  reason: string;
}

export interface CodeCheckOptions {
  signal?: AbortSignal;
  /**
   * Staged files that change the build itself (project files, Directory.*.props/targets,
   * global.json, nuget.config; workspace-relative): the projects they reach are answered "unknown".
   */
  buildInputs?: readonly string[];
}

/** Compiles staged text without writing it (the Roslyn engine). */
export interface CodeChecker {
  /** `text` null: the file is deleted. Throws EngineUnavailableError (with why) when it cannot check. */
  check(files: ReadonlyArray<{ path: string; text: string | null }>, options?: CodeCheckOptions): Promise<CodeCheckResult>;
  /** Starts loading now, without checking anything, so the first check finds it ready. */
  warmUp?(): void;
}

export interface DiagnosticsProvider {
  /** Errors for these files as the language server sees them now; empty when it has none. */
  errorsFor(relPaths: readonly string[], signal?: AbortSignal): Promise<CompilationDiagnostic[]>;
}

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface Clock {
  now(): number;
}

export interface Host {
  readonly workspaceRoot: string;
  readonly fs: HostFileSystem;
  readonly process: ProcessRunner;
  readonly symbols: SymbolProvider;
  /** Absent where no language server runs (the CLI); the validator then relies on the build. */
  readonly diagnostics?: DiagnosticsProvider;
  /** Absent where no compiler engine can run; check_code and the pre-review check then say so. */
  readonly codeCheck?: CodeChecker;
  readonly clock: Clock;
  readonly logger: Logger;
}
