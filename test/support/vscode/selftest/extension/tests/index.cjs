// The test entry VS Code loads in the extension host (extensionTestsPath): mocha, run in-process,
// ending with the plain `N passed, N failed` line. IRONBEES_SELFTEST_FAIL=1 adds a failing test so
// the runner's failure path is proven too. This is also the pattern for the real suites' index.
const path = require('node:path');
// mocha 12 is an ES module: require() gives its namespace, the class is its `Mocha` export.
const { Mocha } = require('mocha');

exports.run = () => {
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: 20000,
    color: false,
    reporter: path.join(__dirname, '..', '..', '..', '..', 'count-reporter.cjs'),
  });
  mocha.addFile(path.join(__dirname, 'hello.test.cjs'));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
};
