import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { StartupError } from '@verity/common';
import { MINIMUM_NODE_MAJOR, assertSupportedNode } from './startup.checks';

describe('start-up checks', () => {
  it('the minimum Node.js major is the one package.json declares', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
    assert.equal(pkg.engines.node, `>=${MINIMUM_NODE_MAJOR}`);
    assert.doesNotThrow(() => assertSupportedNode(`${MINIMUM_NODE_MAJOR}.0.0`));
    assert.throws(() => assertSupportedNode(`${MINIMUM_NODE_MAJOR - 1}.9.0`), StartupError);
  });
});
