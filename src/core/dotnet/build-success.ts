// MSBuild prints "Build succeeded." once every target of every project has finished and the build's result
// is success; the command then still has to hand that result back (from the MSBuild server, when one runs)
// and exit. Tests can start at that line instead of at the exit: the files they load are all written.
// The line is MSBuild's own summary, at the start of a line; a project's messages are indented.

const SUCCEEDED = /^Build succeeded\.\r?$/m;

/**
 * An onOutput that calls `onSucceeded` once, at the first stdout line that is exactly MSBuild's success
 * summary (lines split across chunks are joined first).
 */
export function watchForBuildSuccess(onSucceeded: () => void): (chunk: string, stream: 'stdout' | 'stderr') => void {
  let pending = '';
  let said = false;
  return (chunk, stream) => {
    if (said || stream !== 'stdout') return;
    const text = pending + chunk;
    const lastBreak = text.lastIndexOf('\n');
    pending = lastBreak >= 0 ? text.slice(lastBreak + 1) : text;
    if (lastBreak >= 0 && SUCCEEDED.test(text.slice(0, lastBreak + 1))) {
      said = true;
      onSucceeded();
    }
  };
}
