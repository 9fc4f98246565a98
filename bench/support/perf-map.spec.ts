import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { latestMapLines } from './perf-map';

describe('latestMapLines', () => {
  it('drops the lines a later line overlaps, and keeps the rest in address order', () => {
    const lines = [
      '1000 100 JS:*boot /dist/boot.js:1:1', // freed, then 1080.. reused below
      '3000 10 JS:*kept /dist/kept.js:1:1',
      '2000 100 JS:*old /dist/old.js:1:1', // replaced by the next line at the same address
      '2000 80 JS:*new /dist/new.js:1:1',
      '1080 40 JS:*hot /dist/hot.js:1:1',
      '',
    ];
    assert.deepEqual(latestMapLines(lines), [
      '1080 40 JS:*hot /dist/hot.js:1:1',
      '2000 80 JS:*new /dist/new.js:1:1',
      '3000 10 JS:*kept /dist/kept.js:1:1',
    ]);
  });

  it('keeps ranges that only touch', () => {
    const lines = ['10 10 a', '20 10 b', '0 10 c'];
    assert.deepEqual(latestMapLines(lines), ['0 10 c', '10 10 a', '20 10 b']);
  });
});
