// polkadot.js reports every subscription of a dropped connection with console.error, asynchronously; when a test's
// local node goes away those lines arrive after the test ended, and Jest fails the run for logging late. The adapter
// already turns a drop into ChainUnavailableError, which the tests assert, so these lines carry nothing.
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]): void => {
  if (args.some((arg) => typeof arg === 'string' && arg.includes('RPC-CORE'))) return;
  consoleError(...args);
};
