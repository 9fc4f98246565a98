import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadBundledEmailLists } from './email.lists';
import { DomainTypoModel } from './email.typo';
import { loadTypoCorpus, measureTypoQuality } from '@verity/testing';

describe('did_you_mean quality on the shipped corpora', () => {
  const corpus = loadTypoCorpus();
  const lists = loadBundledEmailLists();
  const model = new DomainTypoModel({ isKnown: (d) => lists.isKnownMailDomain(d) });

  it('has at least 500 typos and 500 legitimate domains', () => {
    assert.ok(corpus.typos.length >= 500, `${corpus.typos.length} typos`);
    assert.ok(corpus.legit.length >= 500, `${corpus.legit.length} legitimate domains`);
  });

  it('keeps precision ≥ 99.5 % and recall ≥ 97 %', () => {
    const q = measureTypoQuality(corpus, (d) => model.suggest(d));
    const detail = JSON.stringify({ wrong: q.wrong, missed: q.missed, flagged: q.flagged });
    assert.ok(q.precision >= 0.995, `precision ${q.precision} ${detail}`);
    assert.ok(q.recall >= 0.97, `recall ${q.recall} ${detail}`);
  });
});
