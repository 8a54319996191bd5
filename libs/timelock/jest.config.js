/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'timelock',
  rootDir: __dirname,
  // The test oracle (the Rust tle crate compiled to wasm) ships wasm-bindgen glue as ESM only; SWC
  // compiles it to CommonJS like the preset's other ESM-only dependencies.
  transformIgnorePatterns: ['/node_modules/(?!(content-disposition|@ideallabs/timelock_wasm_wrapper)/)'],
};
