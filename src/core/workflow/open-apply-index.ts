// The index of open apply records (edit-journal-wal.ts), so a start reads only the applies that may
// have been cut short instead of walking every past run: start-up must not grow with run history.
//
// `.ironbees/runs/.open-applies/<runId>` exists from before the run's apply record is written until
// after the record is marked done, so at every moment every open record has a marker (a marker whose
// record is missing or done is what a crash between two of those steps leaves: recovery removes it).
// The marker and the record are written durably, in that order, before the first workspace file.
// It lives under runs/ because that folder is already kept out of git by every version's .gitignore
// (and by the ones people write), and because clearing runs/ clears the index with what it indexes.
//
// Runs written before the index existed have records and no markers. The first start that finds no
// `.open-applies/.indexed` walks runs/ once, as earlier versions did at every start, marks the open
// records it finds, then writes `.indexed`; from then on the index is authoritative and a record
// without a marker is never read. A crash during that walk leaves `.indexed` unwritten, so the walk
// simply runs again.

import * as path from 'node:path';
import type { Host } from '../host';

export const OPEN_APPLIES_DIR = '.open-applies';
/** Written once the index holds every open record: its absence means "walk runs/ once first". */
export const INDEXED_FILE = '.indexed';

const INDEXED_TEXT =
  'Every open apply record under runs/ has a file named after its run in this folder; Ironbees reads only those at start-up.\n' +
  'Delete this file to make the next start look through every run folder again.\n';

export class OpenApplyIndex {
  readonly dir: string;

  constructor(
    private readonly host: Host,
    runsDir: string,
  ) {
    this.dir = path.join(runsDir, OPEN_APPLIES_DIR);
  }

  /** Before the record is written: from here until `unmark`, a start looks at this run. */
  async mark(runId: string): Promise<void> {
    await this.host.fs.writeFile(path.join(this.dir, runId), '', { durable: true });
  }

  /**
   * After the record is marked done (durably). Not flushed itself: a marker that comes back after a
   * power loss points at a done record, and the next start removes it again.
   */
  async unmark(runId: string): Promise<void> {
    await this.host.fs.deleteFile(path.join(this.dir, runId));
  }

  /** The runs marked open, in order; only names a run id can have (temporary files start with a dot). */
  async marked(): Promise<string[]> {
    if (!(await this.host.fs.exists(this.dir))) return [];
    const names = await this.host.fs.listFiles(this.dir, { maxFiles: 100_000 });
    return names.filter((name) => /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(name)).sort();
  }

  /** True once every open record of an earlier version has been marked (see the header). */
  async isAuthoritative(): Promise<boolean> {
    return this.host.fs.exists(path.join(this.dir, INDEXED_FILE));
  }

  /**
   * After the one walk of runs/ has marked every open record it found (each marker durably, so before
   * this). Not flushed itself: a power loss that takes it away only makes the next start walk again,
   * and flushing it cost the first run in a workspace four waits on the disk before its baseline.
   */
  async becomeAuthoritative(): Promise<void> {
    await this.host.fs.writeFile(path.join(this.dir, INDEXED_FILE), INDEXED_TEXT);
  }
}
