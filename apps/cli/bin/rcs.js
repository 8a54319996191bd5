#!/usr/bin/env node
'use strict';
// `npx rcs` in a checkout: the TypeScript sources run through the workspace's SWC register, with its path aliases.
const path = require('node:path');
process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || path.join(__dirname, '..', '..', '..', 'tsconfig.base.json');
require('@swc-node/register');
require('../src/main.ts');
