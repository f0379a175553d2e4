// What a run's states look like to an ACP client: the plan as a `plan` update, each staged edit as a
// `tool_call` with `diff` content, validation results and the hand-off as agent messages. Pure
// mapping, so the protocol's shapes are decided in one place.

import * as path from 'node:path';
import type { PermissionOption, PlanEntry, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk' with {
  'resolution-mode': 'import',
};
import type { CodingState, ExecutionPlan, FileEdit, TestResult } from '../core/model';
import { failuresIn } from '../core/model';

/** The answers a plan permission request offers. */
export const PLAN_OPTIONS: PermissionOption[] = [
  { optionId: 'approve', name: 'Approve the plan', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject (say why in your next message)', kind: 'reject_once' },
];

/** The answers a staged edit's permission request offers: this file, every file left, or not this one. */
export const DIFF_OPTIONS: PermissionOption[] = [
  { optionId: 'approve', name: 'Apply this change', kind: 'allow_once' },
  { optionId: 'approve_all', name: 'Apply all changes', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject this change', kind: 'reject_once' },
];

export function text(value: string): SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: value } };
}

export function planUpdate(plan: ExecutionPlan, status: PlanEntry['status']): SessionUpdate {
  return {
    sessionUpdate: 'plan',
    entries: plan.steps.map((step) => ({
      content: `${step.description} (${step.actionType} ${step.filePath})`,
      priority: plan.complexity === 'HIGH' ? 'high' : plan.complexity === 'LOW' ? 'low' : 'medium',
      status,
    })),
  };
}

/** The plan as a reader sees it in the permission request. */
export function planText(plan: ExecutionPlan): string {
  const steps = plan.steps.map((step) => `${step.number}. ${step.description} — ${step.actionType} ${step.filePath}\n   ${step.rationale}`);
  const known = plan.knownFailures?.length ? [`Tests that already fail and stay failing: ${plan.knownFailures.join(', ')}`] : [];
  return [plan.summary, '', ...steps, ...known].join('\n');
}

export function planToolCall(toolCallId: string, plan: ExecutionPlan): SessionUpdate {
  return {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: `Plan: ${plan.summary}`,
    kind: 'think',
    status: 'pending',
    content: [{ type: 'content', content: { type: 'text', text: planText(plan) } }],
  };
}

export function diffContent(workspaceRoot: string, edit: FileEdit): ToolCallContent {
  return {
    type: 'diff',
    path: path.join(workspaceRoot, edit.filePath),
    oldText: edit.originalContent,
    newText: edit.newContent ?? '',
  };
}

export function editToolCall(toolCallId: string, workspaceRoot: string, edit: FileEdit): SessionUpdate {
  return {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: `${edit.type === 'CREATE' ? 'Create' : edit.type === 'DELETE' ? 'Delete' : 'Edit'} ${edit.filePath}`,
    kind: edit.type === 'DELETE' ? 'delete' : 'edit',
    status: 'pending',
    content: [diffContent(workspaceRoot, edit)],
    locations: [{ path: path.join(workspaceRoot, edit.filePath) }],
  };
}

function testsLine(test: TestResult): string {
  const failed = failuresIn(test);
  const names = test.failures.slice(0, 5).map((failure) => `\n  - ${failure.testName}${failure.preExisting ? ' (failed before)' : ''}`);
  return `tests: ${test.passed} passed, ${failed} failed, ${test.skipped} skipped of ${test.total}${names.join('')}`;
}

/** One message after a validation: the build, then the tests. */
export function validationText(state: CodingState): string {
  const build = state.buildResult;
  if (!build) return '';
  if (!build.success) {
    const errors = build.errors.filter((error) => !error.preExisting);
    const first = errors
      .slice(0, 5)
      .map((error) => `\n  - ${error.filePath ?? ''}(${error.line},${error.column}): ${error.code} ${error.message}`);
    return `Validation (attempt ${state.iterationCount}): the build failed with ${errors.length} new error(s)${first.join('')}\n`;
  }
  const test = state.testResult;
  return `Validation (attempt ${state.iterationCount}): build succeeded; ${test ? testsLine(test) : 'no tests ran'}\n`;
}

/** The run's end, or why it waits for a person: the hand-off as the agent's last words of the turn. */
export function handoffText(state: CodingState): string {
  const handoff = typeof state.metadata.handoffPath === 'string' ? ` The hand-off is in ${state.metadata.handoffPath}.` : '';
  switch (state.currentNode) {
    case 'SUCCESS':
      return `Done: the changes are applied and the build and tests are green (run ${state.stateId}).${handoff}\n`;
    case 'FAILED':
      return `The run failed (run ${state.stateId}).${handoff}\n`;
    case 'CANCELLED':
      return `The run was stopped (run ${state.stateId}).${handoff}\n`;
    case 'WAIT_HUMAN':
      return `I need a person to continue (run ${state.stateId}).${handoff} Reply with guidance to continue, or "stop" to end the run.\n`;
    default:
      return '';
  }
}

/** Said once per file when the run first reads an editor buffer that differs from the saved file. */
export function unsavedText(rel: string, writesThrough: boolean): string {
  const how = writesThrough ? 'written through the editor' : 'written to the disk';
  return (
    `${rel} has unsaved changes in the editor: Ironbees reads and edits that text. The build and tests use the saved ` +
    `files, so an approved edit to it is ${how}, your changes included; otherwise save it before validation.\n`
  );
}

/** After a validation: files whose unsaved editor text it did not build (no approved edit wrote them). */
export function unvalidatedText(rels: readonly string[]): string {
  return `Validation used the saved copy of ${rels.join(', ')}: the unsaved changes in the editor were not built or tested.\n`;
}
