// How file bytes become the text a model reads and edits, and back. The model always sees LF line
// endings and no BOM; the file keeps the BOM and line endings it had, so an edit to a CRLF file
// written by Visual Studio does not turn every line into a change.

import { AgentModeError } from '../errors';

export type LineEnding = 'lf' | 'crlf';

export interface TextFormat {
  bom: boolean;
  eol: LineEnding;
}

export const DEFAULT_TEXT_FORMAT: TextFormat = Object.freeze({ bom: false, eol: 'lf' });

const BOM = '\uFEFF';
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A file the tools cannot edit as text without damaging it. */
export class UnsupportedFileError extends AgentModeError {
  constructor(
    readonly filePath: string,
    reason: string,
  ) {
    super(`${filePath} ${reason}`, 'UNSUPPORTED_FILE', { filePath });
  }
}

/** The exact file content as a string (BOM kept as U+FEFF), or an error for binary and non-UTF-8 files. */
export function decodeBytes(filePath: string, bytes: Uint8Array): string {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    throw new UnsupportedFileError(filePath, 'is UTF-16; only UTF-8 text files can be read or edited');
  }
  if (bytes.subarray(0, 8192).includes(0)) {
    throw new UnsupportedFileError(filePath, 'looks binary (it contains NUL bytes); only text files can be read or edited');
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new UnsupportedFileError(filePath, 'is not valid UTF-8; only UTF-8 text files can be read or edited');
  }
}

/**
 * The line ending a file uses. A file with mixed endings follows its majority, because that is
 * what its editor most likely writes; the minority lines change when the file is edited.
 */
export function detectFormat(raw: string): TextFormat {
  const crlf = raw.match(/\r\n/g)?.length ?? 0;
  const lf = (raw.match(/\n/g)?.length ?? 0) - crlf;
  return { bom: raw.startsWith(BOM), eol: crlf > lf ? 'crlf' : 'lf' };
}

/** The text the model sees: no BOM, LF line endings. */
export function toLogical(raw: string): string {
  return (raw.startsWith(BOM) ? raw.slice(1) : raw).replace(/\r\n/g, '\n');
}

/** The exact content to write for `logical` text in a file of this format. */
export function fromLogical(logical: string, format: TextFormat): string {
  const body = format.eol === 'crlf' ? logical.replace(/\n/g, '\r\n') : logical;
  return format.bom ? BOM + body : body;
}
