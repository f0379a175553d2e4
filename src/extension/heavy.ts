// The heavy half of the extension: the core runtime (the SDK, xstate, the tools, the agents) and
// the zod schema that checks the panel's messages. esbuild.mjs bundles it apart
// (dist/extension-heavy.js) and the light half loads it on first use, so activation only pays for
// what it wires up.

export { createExtensionRuntime } from './runtime';
export { webviewMessageSchema } from '../shared/protocol';
