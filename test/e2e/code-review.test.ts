// The code review in the browser: code-server with the packaged .vsix, the scripted demo model, one
// iteration and `ironbees.review: advisory`. After the change is accepted and the tests pass, the
// demo reviewer passes it and points at the line it changed: the panel's Code review section shows
// the score and the issue linked to file:line; a click on the link opens the file there, where the
// issue is a comment of "Ironbees review" on that line, its words shown as text. Screenshots go to
// media/screenshots/ for the README (code-review-panel, code-review-comment).

import { strict as assert } from 'node:assert';
import { readmeShot, runCommand } from '../support/e2e';
import { UI_STEP_MS, runDemoToSuccess, useDemoWorkbench } from '../support/e2e/agent-run';

const REQUEST = 'Fix the failing Calculator test';
const ISSUE_AT = 'src/Calculator/Calculator.cs:18';
const DEMO_ISSUE = '[scripted demo model, not an LLM] This line was changed, and I cannot judge code: nobody has reviewed it yet.';

describe('e2e: the code review in the panel and on the line', function () {
  this.timeout(900_000);
  const workbench = useDemoWorkbench('code-review-failure', { 'ironbees.maxIterations': 1, 'ironbees.review': 'advisory' });

  it('shows the score and the issue linked to file:line; the link opens the file at the issue’s comment', async function () {
    const page = workbench().page;
    const panel = await runDemoToSuccess(page, REQUEST);

    // 1. The panel's Code review: passed at 10/10, one minor issue linked to the changed line.
    const review = panel.getByTestId('review');
    await review.waitFor({ state: 'visible', timeout: UI_STEP_MS });
    assert.equal(await panel.getByTestId('review-score').getAttribute('data-pass'), 'true');
    assert.match(await panel.getByTestId('review-score').innerText(), /passed\s+score 10\/10/);
    const issues = panel.getByTestId('review-issue');
    assert.equal(await issues.count(), 1);
    assert.equal(await issues.first().getAttribute('data-severity'), 'minor');
    assert.equal((await issues.first().locator('.review-location').innerText()).trim(), ISSUE_AT);
    assert.match(await issues.first().innerText(), new RegExp(DEMO_ISSUE.replace(/[[\]().*+?^$|\\]/g, '\\$&')));
    await review.scrollIntoViewIfNeeded();
    await readmeShot(page, 'code-review-panel');

    // 2. The link opens the file at that line, where the issue is a comment thread of Ironbees review;
    // a minor issue starts folded, and opened it reads as the reviewer wrote it, as text.
    await issues.first().locator('.review-location').click();
    await page.locator('.tab', { hasText: 'Calculator.cs' }).first().waitFor({ state: 'visible', timeout: UI_STEP_MS });
    await runCommand(page, 'Comments: Expand All Comments', UI_STEP_MS);
    const thread = page.locator('.review-widget', { hasText: 'Ironbees review: minor (score 10/10)' });
    await thread.waitFor({ state: 'visible', timeout: UI_STEP_MS });
    // The paragraphs' breaks are the renderer's; the words are what the test checks.
    const body = (await thread.locator('.comment-body').first().innerText()).replace(/\s+/g, ' ').trim();
    assert.equal(body, `Minor: ${DEMO_ISSUE} Suggested fix: Read the change yourself before you keep it.`);
    await readmeShot(page, 'code-review-comment');
  });
});
