// The node table: every workflow node declared once (CONTRIBUTING.md, "Add a workflow state"). What a
// node is (working, a gate that waits for a person, or terminal), what the status bar and the panel
// call it, whether someone may ask for a person there, which answers a gate takes, and where it sits
// on the main path all come from here: the statechart, the orchestrator, the CLI, the status bar and
// the panel read it rather than keeping lists of their own. Plain constants (no imports), so the
// webview bundle can read it too. The key order is the order of WORKFLOW_NODES, which is public.

export type NodeKind = 'working' | 'gate' | 'terminal';
/** The answers a person gives at a gate (ApprovalDecision's `type`). */
export type GateAnswer = 'APPROVE' | 'REJECT' | 'CONTINUE' | 'STOP';

export interface NodeSpec {
  kind: NodeKind;
  /** What the status bar says while the run is here (`Ironbees 2/5 · Validating`). */
  status: string;
  /** The step's name on the panel's timeline. */
  step: string;
  /** Someone working on the run may stop this step and ask for a person (REQUEST_HELP). */
  help: boolean;
  /** Gates: the answers they take. */
  answers: readonly GateAnswer[];
  /** Where the node shows on the timeline: its place on the main path, on the hand-off, or neither. */
  path: { main: number } | { handOff: number } | null;
}

const working = (status: string, step: string, help: boolean, path: NodeSpec['path']): NodeSpec => ({
  kind: 'working',
  status,
  step,
  help,
  answers: [],
  path,
});
const gate = (status: string, step: string, answers: readonly GateAnswer[], path: NodeSpec['path']): NodeSpec => ({
  kind: 'gate',
  status,
  step,
  help: false,
  answers,
  path,
});
const terminal = (status: string, step: string): NodeSpec => ({ kind: 'terminal', status, step, help: false, answers: [], path: null });

export const NODE_TABLE = {
  INIT: working('Checking the baseline', 'Baseline', false, { main: 0 }),
  PLAN: working('Planning', 'Plan', true, { main: 1 }),
  WAIT_PLAN_APPROVAL: gate('Plan ready for review', 'Approve plan', ['APPROVE', 'REJECT'], { main: 2 }),
  CODE: working('Coding', 'Code', true, { main: 3 }),
  WAIT_DIFF_APPROVAL: gate('Changes ready for review', 'Review changes', ['APPROVE', 'REJECT'], { main: 4 }),
  VALIDATE: working('Validating', 'Validate', true, { main: 5 }),
  DECIDE: working('Deciding', 'Decide', false, { main: 6 }),
  REVIEW: working('Reviewing the change', 'Code review', true, { main: 7 }),
  ESCALATE: working('Handing over', 'Escalate', false, { handOff: 0 }),
  WAIT_HUMAN: gate('Needs you', 'Your call', ['CONTINUE', 'STOP'], { handOff: 1 }),
  SUCCESS: terminal('Succeeded', 'Success'),
  FAILED: terminal('Failed', 'Failed'),
  CANCELLED: terminal('Cancelled', 'Cancelled'),
} as const satisfies Record<string, NodeSpec>;

export type WorkflowNode = keyof typeof NODE_TABLE;

/** Every node, in the table's order. */
export const WORKFLOW_NODES = Object.keys(NODE_TABLE) as WorkflowNode[];

export function nodeSpec(node: WorkflowNode): NodeSpec {
  return NODE_TABLE[node];
}

export function nodesOfKind(kind: NodeKind): WorkflowNode[] {
  return WORKFLOW_NODES.filter((node) => NODE_TABLE[node].kind === kind);
}

/** The gates that take an answer, e.g. APPROVE → the plan and the diff gates. */
export function gatesAnswering(answer: GateAnswer): WorkflowNode[] {
  return WORKFLOW_NODES.filter((node) => NODE_TABLE[node].answers.includes(answer));
}

/** The nodes a request for help may pull a run out of. */
export function helpNodes(): WorkflowNode[] {
  return WORKFLOW_NODES.filter((node) => NODE_TABLE[node].help);
}

function pathOf(which: 'main' | 'handOff'): WorkflowNode[] {
  const place = (node: WorkflowNode): number | undefined => {
    const path: NodeSpec['path'] = NODE_TABLE[node].path;
    return path && which in path ? (path as Record<string, number>)[which] : undefined;
  };
  return WORKFLOW_NODES.filter((node) => place(node) !== undefined).sort((a, b) => place(a)! - place(b)!);
}

/** The main path as the panel shows it (the loop CODE → VALIDATE → DECIDE → CODE drawn once). */
export const MAIN_PATH: readonly WorkflowNode[] = pathOf('main');
/** The hand-off to a person that a run may take instead of an ending. */
export const HAND_OFF_PATH: readonly WorkflowNode[] = pathOf('handOff');
