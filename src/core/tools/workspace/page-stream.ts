// A page of a file too big to hold as text (over MAX_TEXT_FILE_BYTES): the bytes are read as a stream,
// only the lines of the page are kept (each at most `maxChars`), and every line is counted. Memory is
// the page, whatever the file: a file of millions of short lines is never split into an array.

import { UnsupportedFileError } from '../../workspace/text-codec';

export interface StreamedPage {
  /** The page's lines (LF endings, a first-line BOM dropped), each cut at `maxChars`. */
  lines: string[];
  /** Every line of the file, counted as splitLines would (a final newline ends the last line). */
  total: number;
}

export async function pageFromStream(
  chunks: AsyncIterable<Uint8Array>,
  filePath: string,
  first: number,
  count: number,
  maxChars: number,
): Promise<StreamedPage> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const lines: string[] = [];
  let lineNo = 1;
  let current = '';
  let pending = false;
  let checkedBinary = false;
  const inPage = (): boolean => lineNo >= first && lineNo < first + count;
  const take = (piece: string): void => {
    if (inPage() && current.length < maxChars) current += piece.slice(0, maxChars - current.length);
  };
  for await (const chunk of chunks) {
    if (!checkedBinary) {
      checkedBinary = true;
      if (chunk.subarray(0, 8192).includes(0))
        throw new UnsupportedFileError(filePath, 'looks binary (it contains NUL bytes); only text files can be read or edited');
    }
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw new UnsupportedFileError(filePath, 'is not valid UTF-8; only UTF-8 text files can be read or edited');
    }
    let at = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', at)) {
      take(text.slice(at, newline));
      if (inPage()) lines.push(current.endsWith('\r') ? current.slice(0, -1) : current);
      current = '';
      pending = false;
      lineNo += 1;
      at = newline + 1;
    }
    if (at < text.length) {
      take(text.slice(at));
      pending = true;
    }
  }
  if (pending) {
    if (inPage()) lines.push(current.endsWith('\r') ? current.slice(0, -1) : current);
    lineNo += 1;
  }
  return { lines, total: lineNo - 1 };
}
