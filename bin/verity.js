#!/usr/bin/env node
// CLI entry: `verity start`, `verity accounts create`, `verity data update`.
require('../dist/apps/verity/src/main.js');
