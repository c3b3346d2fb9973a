import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { isSlip, stemOf, suggestionIndex, suggestToken } from './suggest-token.ts';

const index = suggestionIndex(
  ['GPTBot', 'Googlebot', 'Googlebot-Image', 'AwarioRssBot', 'AwarioSmartBot', 'MojeekBot', 'Applebot-Extended', 'Applebot'].map((name) => ({
    name,
    token: name,
  })),
);
const read = (value: string) => {
  const s = suggestToken(value, index);
  return s === null ? null : `${s.token} (${s.basis})`;
};

describe('did you mean: readings of the name, in order', () => {
  it('the stem is the name without a generic ending, and a name that is only the ending stays whole', () => {
    assert.equal(stemOf('MojeekBot'), 'mojeek');
    assert.equal(stemOf('Mojeek-Bot'), 'mojeek');
    assert.equal(stemOf('SEOkicks-Robot'), 'seokicks');
    assert.equal(stemOf('bot'), 'bot');
  });

  it('each reading answers for its shape', () => {
    assert.equal(read('MojeekBot/2.0'), 'MojeekBot (version)');
    assert.equal(read('GPTBot2'), 'GPTBot (product-token)');
    assert.equal(read('mojeek'), 'MojeekBot (stem)');
    assert.equal(read('Mojeek_Bot'), 'MojeekBot (stem)');
    assert.equal(read('Applebot-Ext'), 'Applebot-Extended (prefix)');
    assert.equal(read('Googlebot-Image-HD'), 'Googlebot-Image (suffix)');
    assert.equal(read('GTPBot'), 'GPTBot (spelling)');
  });

  it("a name that starts two crawlers' names says nothing", () => {
    assert.equal(read('Awario'), null);
    assert.equal(read('Awario-Bot'), null);
  });

  it('a start too short to tell, a different letter, or nothing at all gives no suggestion', () => {
    assert.equal(read('Goo'), null);
    assert.equal(read('MoodleBot'), null);
    assert.equal(read(''), null);
    assert.equal(read('*'), null);
  });

  it('a slip is a swap of neighbours, a separator or a doubled letter, never another letter', () => {
    assert.equal(isSlip('gtpbot', 'gptbot'), true);
    assert.equal(isSlip('gptbott', 'gptbot'), true);
    assert.equal(isSlip('perplexityuser', 'perplexity-user'), true);
    assert.equal(isSlip('gptbo', 'gptbot'), false);
    assert.equal(isSlip('ioncrawl', 'oncrawl'), false);
    assert.equal(isSlip('moodlebot', 'googlebot'), false);
    assert.equal(isSlip('gptbot', 'gptbot'), false);
  });

  it('a 100,000-character value is read like any other', () => {
    assert.equal(suggestToken('x'.repeat(100_000), index), null);
    assert.equal(suggestToken(`GPTBot/${'1'.repeat(100_000)}`, index)?.token, 'GPTBot');
  });
});
