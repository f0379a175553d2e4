// What the model is told about its turn budget as it spends it: at half and at four fifths of its
// model calls (so a planner can stop exploring while it still has calls to write its answer), and
// when one call is left.

export const BUDGET_WARNING_SHARES = [0.5, 0.8] as const;

/** The note to add after model call `turn` of `budget`, or null when there is nothing to say. */
export function budgetNote(turn: number, budget: number, terminalName: string): string | null {
  const left = budget - turn;
  if (left <= 0) return null;
  if (left === 1) return `You have one model call left. Call ${terminalName} now with your best result.`;
  const warned = BUDGET_WARNING_SHARES.some((share) => turn === Math.ceil(budget * share));
  if (!warned) return null;
  return `Budget: you have used ${turn} of your ${budget} model calls (${left} left). Keep the rest for what matters and call ${terminalName} before they run out.`;
}
