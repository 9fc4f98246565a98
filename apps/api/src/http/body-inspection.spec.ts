import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstBodyProblem, MAX_BODY_DEPTH } from './body-inspection';
import { isStorableText } from './storable-text';

const unstorable = (path: string) => ({ kind: 'unstorable', path });

/** `levels` arrays nested in one another, the innermost holding `inner`. */
function nestedArrays(levels: number, inner: unknown = 1): unknown {
  let value = inner;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

describe('body inspection', () => {
  it('accepts text PostgreSQL stores unchanged, paired surrogates included', () => {
    assert.equal(isStorableText('jane@example.com 😀 é'), true);
    assert.equal(isStorableText('a\u0000b'), false);
    assert.equal(isStorableText('\ud83d'), false);
    assert.equal(isStorableText('x\ude00'), false);
  });

  it('finds nothing in a storable body', () => {
    assert.equal(
      firstBodyProblem({ email: 'jane@example.com', tags: ['a', { b: 'c' }] }),
      undefined,
    );
    assert.equal(firstBodyProblem(null), undefined);
    assert.equal(firstBodyProblem(42), undefined);
  });

  it('names the first unstorable string by its path', () => {
    assert.deepEqual(firstBodyProblem('a\u0000'), unstorable(''));
    assert.deepEqual(firstBodyProblem({ email: 'a\u0000b' }), unstorable('email'));
    assert.deepEqual(
      firstBodyProblem({ ok: 'x', list: ['fine', { deep: '\ud800' }] }),
      unstorable('list.1.deep'),
    );
  });

  it('names an unstorable key, escaped, after the path that leads to it', () => {
    assert.deepEqual(firstBodyProblem({ outer: { 'k\u0000': 'v' } }), unstorable('outer.k\\u0000'));
    assert.deepEqual(
      firstBodyProblem({ first: 'a\u0000', second: { 'k\u0000': 1 } }),
      unstorable('first'),
    );
    assert.deepEqual(
      firstBodyProblem({ first: { inner: 'a\ud800' }, 'k\u0000': 1 }),
      unstorable('first.inner'),
    );
  });

  it(`takes ${MAX_BODY_DEPTH} levels of nesting and refuses one more`, () => {
    assert.equal(firstBodyProblem(nestedArrays(MAX_BODY_DEPTH)), undefined);
    assert.deepEqual(firstBodyProblem(nestedArrays(MAX_BODY_DEPTH + 1)), { kind: 'too_deep' });
    let objects: unknown = 'x';
    for (let i = 0; i < MAX_BODY_DEPTH + 1; i++) objects = { a: objects };
    assert.deepEqual(firstBodyProblem(objects), { kind: 'too_deep' });
  });

  it('walks bodies nested far deeper than the call stack allows without recursing', () => {
    // JSON.parse builds these without recursion; a recursive walk overflows the stack on them.
    const deepArrays = JSON.parse('['.repeat(200_000) + ']'.repeat(200_000)) as unknown;
    assert.deepEqual(firstBodyProblem(deepArrays), { kind: 'too_deep' });
    const deepObjects = JSON.parse('{"a":'.repeat(200_000) + '1' + '}'.repeat(200_000)) as unknown;
    assert.deepEqual(firstBodyProblem(deepObjects), { kind: 'too_deep' });
  });

  it('walks very wide arrays and objects with many keys, __proto__ among them', () => {
    const wide = Array.from({ length: 200_000 }, (_, i) => `x${i}`);
    assert.equal(firstBodyProblem({ list: wide }), undefined);
    wide[199_999] = 'x\u0000';
    assert.deepEqual(firstBodyProblem({ list: wide }), unstorable('list.199999'));
    const keyed = JSON.parse(
      `{${Array.from({ length: 50_000 }, (_, i) => `"k${i}":${i}`).join(',')},"__proto__":{"constructor":"\\u0000"}}`,
    ) as unknown;
    assert.deepEqual(firstBodyProblem(keyed), unstorable('__proto__.constructor'));
  });
});
