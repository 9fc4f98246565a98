import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';

/**
 * CI runs on Node.js 20 (the first-run tests and this one) and 24 (the whole suite) without
 * rebuilding node_modules: the one native addon, msgpackr-extract (Bull's job encoding), must
 * load its N-API build on both. msgpackr falls
 * back to plain JavaScript without a word when it does not, so this asks it.
 */
describe('native addons', () => {
  it(`load on this Node.js (${process.version}): msgpackr-extract under Bull`, () => {
    const fromBull = createRequire(require.resolve('bull'));
    const msgpackr = fromBull('msgpackr') as { isNativeAccelerationEnabled: boolean };
    assert.equal(msgpackr.isNativeAccelerationEnabled, true);
  });
});
