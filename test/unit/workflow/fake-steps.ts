// Fake step actors for the statechart: each step records the input it was started with and
// answers with whatever the test scripted for it, in order. A step with nothing scripted waits
// (until the test scripts an answer or the actor is stopped), so a test can hold a run at any step.

import { fromPromise } from 'xstate';
import type { PromiseActorLogic } from 'xstate';
import type { Baseline } from '../../../src/core/model';
import { decide } from '../../../src/core/workflow/machine';
import type {
  BaselineInput,
  CodeInput,
  CodeOutput,
  DecideInput,
  DecideOutput,
  HandoffInput,
  HandoffOutput,
  PlanInput,
  PlanOutput,
  ReviewInput,
  ReviewOutput,
  ValidateInput,
  ValidateOutput,
} from '../../../src/core/workflow/run-context';

export interface StepTypes {
  captureBaseline: { input: BaselineInput; output: Baseline };
  plan: { input: PlanInput; output: PlanOutput };
  code: { input: CodeInput; output: CodeOutput };
  validate: { input: ValidateInput; output: ValidateOutput };
  decide: { input: DecideInput; output: DecideOutput };
  writeHandoff: { input: HandoffInput; output: HandoffOutput };
  review: { input: ReviewInput; output: ReviewOutput };
}
export type StepName = keyof StepTypes;
export const STEP_NAMES: readonly StepName[] = ['captureBaseline', 'plan', 'code', 'validate', 'decide', 'writeHandoff', 'review'];

/** What a scripted step does: resolve with an output, or fail with an error. */
export type Answer<N extends StepName> = { output: StepTypes[N]['output'] } | { error: Error };

type Pending = (answer: Answer<StepName>) => void;

export class FakeSteps {
  /** Every input each step was started with, in order (deep copies: what the step really saw). */
  readonly inputs: { [N in StepName]: StepTypes[N]['input'][] } = {
    captureBaseline: [],
    plan: [],
    code: [],
    validate: [],
    decide: [],
    writeHandoff: [],
    review: [],
  };
  /** Steps that were stopped (their AbortSignal fired) before they answered. */
  readonly aborted: StepName[] = [];
  private readonly queues = new Map<StepName, Answer<StepName>[]>();
  private readonly waiting = new Map<StepName, Pending[]>();
  private readonly hooks = new Map<StepName, (input: unknown) => Promise<void>>();

  /**
   * @param autoDecide when true (the default) DECIDE answers at once with the real decide(); a
   *   test that must hold a run at DECIDE turns it off and scripts DECIDE like any other step.
   */
  constructor(private readonly autoDecide = true) {}

  /** Scripts the next answer(s) of a step; a step already waiting gets the first at once. */
  script<N extends StepName>(name: N, ...answers: Answer<N>[]): this {
    for (const answer of answers) {
      const waiter = this.waiting.get(name)?.shift();
      if (waiter) waiter(answer);
      else this.queueOf(name).push(answer);
    }
    return this;
  }

  /** Runs `hook` with the input each time the step starts, before it answers (e.g. to apply edits). */
  onStart<N extends StepName>(name: N, hook: (input: StepTypes[N]['input']) => Promise<void>): this {
    this.hooks.set(name, hook as (input: unknown) => Promise<void>);
    return this;
  }

  /** How many times a step has started. */
  calls(name: StepName): number {
    return this.inputs[name].length;
  }

  /** Answers not yet consumed: a test that scripted more than was used usually has a wrong path. */
  unused(): StepName[] {
    return STEP_NAMES.filter((n) => this.queueOf(n).length > 0);
  }

  /** The actors to hand to `runMachine.provide({ actors })` or to the orchestrator. */
  actors(): { [N in StepName]: PromiseActorLogic<StepTypes[N]['output'], StepTypes[N]['input']> } {
    return {
      captureBaseline: this.fake('captureBaseline'),
      plan: this.fake('plan'),
      code: this.fake('code'),
      validate: this.fake('validate'),
      decide: this.autoDecide
        ? fromPromise<DecideOutput, DecideInput>(async ({ input }) => {
            this.inputs.decide.push(structuredClone(input));
            return decide(input);
          })
        : this.fake('decide'),
      writeHandoff: this.fake('writeHandoff'),
      review: this.fake('review'),
    };
  }

  private queueOf(name: StepName): Answer<StepName>[] {
    let queue = this.queues.get(name);
    if (!queue) this.queues.set(name, (queue = []));
    return queue;
  }

  private fake<N extends StepName>(name: N): PromiseActorLogic<StepTypes[N]['output'], StepTypes[N]['input']> {
    return fromPromise<StepTypes[N]['output'], StepTypes[N]['input']>(async ({ input, signal }) => {
      (this.inputs[name] as StepTypes[N]['input'][]).push(structuredClone(input));
      await this.hooks.get(name)?.(input);
      const answer = await this.next(name, signal);
      if ('error' in answer) throw answer.error;
      return answer.output as StepTypes[N]['output'];
    });
  }

  private next(name: StepName, signal: AbortSignal): Promise<Answer<StepName>> {
    const ready = this.queueOf(name).shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(name) ?? [];
      this.waiting.set(name, waiters);
      const waiter: Pending = (answer) => {
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      };
      const onAbort = (): void => {
        waiters.splice(waiters.indexOf(waiter), 1);
        this.aborted.push(name);
        reject(new Error(`${name} was stopped`));
      };
      waiters.push(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
