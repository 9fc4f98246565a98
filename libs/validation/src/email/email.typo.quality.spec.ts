import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadBundledEmailLists } from './email.lists';
import { DomainTypoModel } from './email.typo';
import { loadTypoCorpora, measureTypoQuality, type TypoCorpus } from '@verity/testing';

// Floors per corpus (docs/models/email.md, "Typo model"): precision ≥ 99.5 % everywhere;
// recall ≥ 97 % on the generated and the frequency-weighted corpora. The peers' cases are
// few and partly written for their own lists and distance functions (SOURCES.md), so their
// recall floor is what the model reaches on them today.
const FLOORS: Record<TypoCorpus['name'], { precision: number; recall: number }> = {
  generated: { precision: 0.995, recall: 0.97 },
  frequent: { precision: 0.995, recall: 0.97 },
  peers: { precision: 0.995, recall: 0.88 },
};

describe('did_you_mean quality on the shipped corpora', () => {
  const corpora = loadTypoCorpora();
  const lists = loadBundledEmailLists();
  const model = new DomainTypoModel({ isKnown: (d) => lists.isKnownMailDomain(d) });
  const byName = (name: TypoCorpus['name']) => corpora.find((c) => c.name === name)!;

  it('has at least 500 generated typos and 500 legitimate domains', () => {
    const generated = byName('generated');
    assert.ok(generated.typos.length >= 500, `${generated.typos.length} typos`);
    assert.ok(generated.legit.length >= 500, `${generated.legit.length} legitimate domains`);
  });

  for (const corpus of corpora) {
    const floor = FLOORS[corpus.name];
    it(`keeps precision ≥ ${floor.precision} and recall ≥ ${floor.recall} on ${corpus.name}`, () => {
      const q = measureTypoQuality(corpus, (d) => model.suggest(d));
      const detail = JSON.stringify({ wrong: q.wrong, missed: q.missed, flagged: q.flagged });
      assert.ok(q.precision >= floor.precision, `precision ${q.precision} ${detail}`);
      assert.ok(q.recall >= floor.recall, `recall ${q.recall} ${detail}`);
    });
  }

  it("corrects every one of the biggest providers' most frequent typos", () => {
    const q = measureTypoQuality(byName('frequent'), (d) => model.suggest(d));
    assert.ok(q.top.of >= 40, `${q.top.of} most frequent typos`);
    assert.equal(q.top.right, q.top.of, JSON.stringify({ wrong: q.wrong, missed: q.missed }));
  });

  it('corrects typo-squats the bundled lists know, and keeps them disposable', () => {
    for (const [squat, meant] of [
      ['gmai.com', 'gmail.com'],
      ['gmil.com', 'gmail.com'],
      ['hotmil.com', 'hotmail.com'],
      ['btinernet.com', 'btinternet.com'],
    ]) {
      assert.equal(lists.isKnownMailDomain(squat), true, `${squat} is on a bundled list`);
      assert.equal(model.suggest(squat), meant, squat);
    }
    assert.equal(lists.isDisposable('gmai.com'), true);
  });
});
