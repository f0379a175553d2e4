// The validator's findings: build errors that open at file:line, and the test table with each
// failure's message. Failures the baseline already had are marked, so they are not blamed on the run.

import type { ReactNode } from 'react';
import { send } from '../vscode-api';
import { testChange, type MarkedBuildError, type ValidationView } from '../state/validation';
import { Badge, Icon, Section } from './common';

export function ValidationSection({ view }: { view: ValidationView }): ReactNode {
  return (
    <Section title="Validation" icon="beaker" testId="validation">
      {view.timedOut ? <div className="problem">A step hit its time limit.</div> : null}
      <div className="validation-line" data-testid="build-status">
        <Icon name={view.buildOk === false ? 'error' : view.buildOk ? 'pass' : 'circle-large-outline'} />
        <span>
          Build{' '}
          {view.buildOk === null
            ? 'not run'
            : view.buildOk
              ? 'succeeded'
              : `failed with ${view.buildErrors.length} error${view.buildErrors.length === 1 ? '' : 's'}`}
          {view.warningCount > 0 ? ` · ${view.warningCount} warning${view.warningCount === 1 ? '' : 's'}` : ''}
        </span>
        {view.baseline ? (
          <span className="muted" data-testid="build-before">
            {' '}
            (before: {view.baseline.buildOk ? 'built' : `${view.baseline.errorCount} error${view.baseline.errorCount === 1 ? '' : 's'}`})
          </span>
        ) : null}
      </div>
      {view.buildErrors.length > 0 ? (
        <ul className="build-errors" data-testid="build-errors">
          {view.buildErrors.map((error, i) => (
            <li key={i}>
              <BuildErrorView error={error} />
            </li>
          ))}
        </ul>
      ) : null}
      {view.tests ? (
        <table className="test-table" data-testid="test-table">
          <thead>
            <tr>
              <th>Total</th>
              <th>Passed</th>
              <th>Failed</th>
              <th>Skipped</th>
            </tr>
          </thead>
          <tbody>
            <tr data-testid="test-counts">
              <td data-testid="tests-total">{view.tests.totalText}</td>
              <td className="added">{view.tests.passed}</td>
              <td className={view.tests.failed > 0 ? 'removed' : ''} data-testid="failed-before-after">
                {view.baseline?.failedTests != null ? `${view.baseline.failedTests} → ` : ''}
                {view.tests.failed}
              </td>
              <td>{view.tests.skipped}</td>
            </tr>
          </tbody>
          {view.tests.onlyLastFailures ? (
            <caption className="muted" data-testid="only-last-failures">
              Only the tests that failed last time were run, and they still fail: the other tests were not run this time.
            </caption>
          ) : null}
        </table>
      ) : (
        <div className="muted">Tests not run yet.</div>
      )}
      {view.fixed.length > 0 ? (
        <ul className="failures" data-testid="test-fixed">
          {view.fixed.map((name) => (
            <li key={name} data-change="fixed">
              <Icon name="pass" /> <code>{name}</code>{' '}
              <Badge tone="ok" title="Failed before the run changed anything; passes now">
                fixed
              </Badge>
            </li>
          ))}
        </ul>
      ) : null}
      {view.failures.length > 0 ? (
        <ul className="failures" data-testid="test-failures">
          {view.failures.map((failure) => (
            <li key={failure.testName} data-change={testChange(failure)}>
              <div>
                <Icon name="error" /> <code>{failure.testName}</code>{' '}
                {failure.preExisting ? (
                  <Badge tone="warn" title="This test already failed before the run changed anything">
                    pre-existing · still failing
                  </Badge>
                ) : (
                  <Badge tone="error" title="This test passed (or did not fail) before the run changed anything">
                    new · newly failing
                  </Badge>
                )}
              </div>
              <pre className="failure-message">{failure.message}</pre>
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}

function BuildErrorView({ error }: { error: MarkedBuildError }): ReactNode {
  const text = `${error.code}: ${error.message}`;
  const badge = error.preExisting ? (
    <Badge tone="warn" title="The build had this error before the run changed anything">
      pre-existing
    </Badge>
  ) : (
    <Badge tone="error" title="The build did not have this error before the run">
      new
    </Badge>
  );
  if (error.filePath === null)
    return (
      <span data-change={error.preExisting ? 'pre-existing' : 'new'}>
        {text} {badge}
      </span>
    );
  const filePath = error.filePath;
  return (
    <button
      type="button"
      className="link build-error"
      data-change={error.preExisting ? 'pre-existing' : 'new'}
      title={`Open ${filePath}:${error.line}`}
      onClick={() => send({ type: 'openFile', filePath, line: Math.max(0, error.line), column: Math.max(0, error.column) })}
    >
      <code className="path">
        {filePath}:{error.line}:{error.column}
      </code>{' '}
      {text} {badge}
    </button>
  );
}
