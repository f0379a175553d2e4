// Keeps the live activity under the step it belongs to. Activity is told as it happens, while each
// state reaches the terminal only after it is persisted: when validation ends and the coder starts
// at once, the coder's first lines would come before the `DECIDE` and `CODE` lines, under
// `VALIDATE`. So activity that arrives while the last state shown is not a step that runs an agent
// is held, and printed right after the next such state is shown.

import type { ActivityEvent } from '../core/activity';
import type { WorkflowNode } from '../core/model';
import { STEP_AGENTS } from '../core/workflow/step-actors';

/** The nodes whose step runs an agent (PLAN runs the planner, CODE the coder). */
const AGENT_NODES: ReadonlySet<string> = new Set(Object.keys(STEP_AGENTS).map((step) => step.toUpperCase()));

export class StepOrderedActivity {
  private shown: WorkflowNode | null = null;
  private held: ActivityEvent[] = [];

  constructor(private readonly print: (event: ActivityEvent) => void) {}

  /** An activity event as it happens. */
  event(event: ActivityEvent): void {
    if (this.held.length || !this.underAgentStep()) this.held.push(event);
    else this.print(event);
  }

  /** A state was just shown: held activity of an agent step comes out under it. */
  stateShown(node: WorkflowNode): void {
    this.shown = node;
    if (this.underAgentStep()) this.flush();
  }

  /** Whatever is still held (the run ended or was interrupted before its state was shown). */
  flush(): void {
    const held = this.held;
    this.held = [];
    for (const event of held) this.print(event);
  }

  private underAgentStep(): boolean {
    // Before the first state (a resumed run starting in its step) nothing is known: print as it comes.
    return this.shown === null || AGENT_NODES.has(this.shown);
  }
}
