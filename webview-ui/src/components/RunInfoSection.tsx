// Which provider and model answer, and which instructions files the agents were given.
// Its own small section, so it does not entangle the run view's other parts.

import type { ReactNode } from 'react';
import type { CodingState } from '../../../src/core/model';
import { instructionsRows, modelLine } from '../state/run-info';
import type { ModelInfo } from '../state/run-info';
import { send } from '../vscode-api';
import { Icon } from './common';

export function RunInfoSection({ info, run }: { info: ModelInfo | null; run: CodingState | null }): ReactNode {
  const model = modelLine(info);
  const files = instructionsRows(run);
  if (!model && files.length === 0) return null;
  return (
    <div className="run-info muted" data-testid="run-info">
      {model ? (
        <div
          data-testid="model-info"
          title={info?.runId ? 'The provider and model this run started with' : 'The provider and model the next run will use'}
        >
          <Icon name="hubot" /> {model}{' '}
          {info?.runId ? null : (
            <button type="button" className="link-button" data-testid="choose-model" onClick={() => send({ type: 'chooseModel' })}>
              Change…
            </button>
          )}
        </div>
      ) : null}
      {files.length > 0 ? (
        <div data-testid="instructions">
          <Icon name="book" /> Instructions read:
          <ul className="instructions-list">
            {files.map((file) => (
              <li key={file.path} data-testid="instructions-file" data-truncated={file.truncated ? 'true' : 'false'}>
                <code>{file.path}</code> <span className={file.truncated ? 'instructions-cut' : ''}>{file.note}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
