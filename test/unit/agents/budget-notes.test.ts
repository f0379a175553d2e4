import assert from 'node:assert/strict';
import { budgetNote } from '../../../src/core/agents/budget-notes';

describe('budgetNote', () => {
  it('warns at half and four fifths of a 25-call budget, and on the last call, and nowhere else', () => {
    const said = Array.from({ length: 25 }, (_, i) => i + 1)
      .map((turn) => [turn, budgetNote(turn, 25, 'submit_plan')] as const)
      .filter(([, note]) => note !== null);
    assert.deepEqual(said, [
      [
        13,
        'Budget: you have used 13 of your 25 model calls (12 left). Keep the rest for what matters and call submit_plan before they run out.',
      ],
      [
        20,
        'Budget: you have used 20 of your 25 model calls (5 left). Keep the rest for what matters and call submit_plan before they run out.',
      ],
      [24, 'You have one model call left. Call submit_plan now with your best result.'],
    ]);
  });

  it('a warning that falls on the last call becomes the last-call note', () => {
    assert.equal(budgetNote(3, 6, 't'), budgetNote(3, 6, 't'));
    assert.match(budgetNote(3, 6, 't') ?? '', /^Budget: you have used 3 of your 6/);
    assert.equal(budgetNote(5, 6, 't'), 'You have one model call left. Call t now with your best result.');
    assert.equal(budgetNote(6, 6, 't'), null);
  });
});
