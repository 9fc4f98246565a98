import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmailLists, loadBundledEmailLists } from './email.lists';

describe('createEmailLists', () => {
  const lists = createEmailLists({
    disposable: ['Trash.example'],
    disposableWildcard: ['burner.test'],
    free: ['freemail.test', 'trash.example', 'example.com'],
    roles: ['info', 'support'],
    disposableAllow: ['trash.example'],
    disposableDeny: ['evil.test'],
  });

  it('matches disposable domains exactly, by wildcard and by operator deny list', () => {
    assert.equal(lists.isDisposable('x.burner.test'), true);
    assert.equal(lists.isDisposable('evil.test'), true);
    assert.equal(lists.isDisposable('a.evil.test'), true);
    assert.equal(lists.isDisposable('good.test'), false);
  });

  it('lets the operator allow list win over every disposable source', () => {
    assert.equal(lists.isDisposable('trash.example'), false);
  });

  it('flags free providers except reserved names', () => {
    assert.equal(lists.isFreeProvider('freemail.test'), true);
    assert.equal(lists.isFreeProvider('example.com'), false);
  });

  it('detects role local parts case-insensitively, ignoring +detail', () => {
    assert.equal(lists.isRoleAccount('Info'), true);
    assert.equal(lists.isRoleAccount('support+billing'), true);
    assert.equal(lists.isRoleAccount('jane'), false);
  });
});

describe('loadBundledEmailLists', () => {
  const lists = loadBundledEmailLists({ disposableDeny: ['operator-burner.test'] });

  it('loads the npm lists', () => {
    assert.equal(lists.isDisposable('mailinator.com'), true);
    assert.equal(lists.isDisposable('gmail.com'), false);
    assert.equal(lists.isFreeProvider('gmail.com'), true);
    assert.equal(lists.isFreeProvider('mailinator.com'), false);
    assert.equal(lists.isRoleAccount('postmaster'), true);
  });

  it('applies operator overrides', () => {
    assert.equal(lists.isDisposable('operator-burner.test'), true);
  });
});
