import { strict as assert } from 'node:assert';
import { focusStack, relativeFramePaths, shortenStack } from '../../../src/core/dotnet/stack-frames';

const ASYNC_STACK = [
  '   at Shop.Tests.Support.Orders.Expect(Order order) in /ws/tests/Support/Orders.cs:line 9',
  '   at Shop.Tests.CartTests.<Adds_items>d__4.MoveNext() in /ws/tests/CartTests.cs:line 31',
  '--- End of stack trace from previous location ---',
  '   at Xunit.Sdk.TestInvoker`1.RunAsync()',
].join('\n');

describe('stack frames shown for a failed test', () => {
  it('start at an async test method (its state machine frame), then the helper it called', () => {
    assert.equal(
      focusStack(ASYNC_STACK, 'Shop.Tests.CartTests.Adds_items', 15),
      [
        '   at Shop.Tests.CartTests.<Adds_items>d__4.MoveNext() in /ws/tests/CartTests.cs:line 31',
        '   at Shop.Tests.Support.Orders.Expect(Order order) in /ws/tests/Support/Orders.cs:line 9',
      ].join('\n'),
    );
  });

  it('find the method of a data-driven row by its name without arguments', () => {
    const stack =
      '   at Xunit.Assert.True(Boolean condition)\n   at Calc.Tests.AddTests.Adds(Int32 a) in /ws/AddTests.cs:line 5\n   at Runner.Invoke()';
    assert.equal(
      focusStack(stack, 'Calc.Tests.AddTests.Adds(a: 2)', 15),
      '   at Calc.Tests.AddTests.Adds(Int32 a) in /ws/AddTests.cs:line 5\n   at Xunit.Assert.True(Boolean condition)',
    );
  });

  it('keep the first frames, counting the rest, when no frame is the test method', () => {
    const stack = Array.from({ length: 20 }, (_, index) => `   at Lib.F${index}()`).join('\n');
    assert.equal(focusStack(stack, 'Other.Tests.T', 3), '   at Lib.F0()\n   at Lib.F1()\n   at Lib.F2()\n   … 17 more frames');
    assert.equal(
      shortenStack(focusStack(stack, 'Other.Tests.T', 15), 'Other.Tests.T', 4),
      '   at Lib.F0()\n   at Lib.F1()\n   at Lib.F2()\n   … 17 more frames',
    );
  });

  it('name workspace files relative to the workspace, Windows paths with forward slashes', () => {
    assert.equal(
      relativeFramePaths('   at A.B() in /home/me/repo/tests/A.cs:line 3\n   at C() in /elsewhere/C.cs:line 1', '/home/me/repo'),
      '   at A.B() in tests/A.cs:line 3\n   at C() in /elsewhere/C.cs:line 1',
    );
    assert.equal(
      relativeFramePaths('   at A.B() in C:\\src\\repo\\tests\\A.cs:line 3', 'C:\\src\\repo'),
      '   at A.B() in tests/A.cs:line 3',
    );
  });
});
