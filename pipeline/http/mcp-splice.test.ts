import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { knownBody } from './document-answer.ts';
import { type SerializedOutput, spliceOutput } from './mcp.ts';
import { toolCallAnswerFrame } from '../tools/registry/tool-call-answer.ts';

const utf8 = new TextEncoder();
const TOKEN = '00000000-0000-4000-8000-000000000000';
const TEXT_MARK = JSON.stringify(`${TOKEN}-text`);
const JSON_MARK = JSON.stringify({ [`${TOKEN}-json`]: 0 });
const etagOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex').slice(0, 32);

/** An output as a tool thread makes it: the whole answer in the frame's layout, and views of its two forms. */
function threadOutput(summary: string, id: number, output: unknown): SerializedOutput {
  const json = JSON.stringify(output);
  const [before, between, after] = toolCallAnswerFrame(summary, id);
  const answer = utf8.encode(before + JSON.stringify(json) + between + json + after);
  const stringAt = utf8.encode(before).length;
  const jsonAt = stringAt + utf8.encode(JSON.stringify(json)).length + utf8.encode(between).length;
  return {
    token: TOKEN,
    id,
    run: {
      status: 'answered',
      form: 'serialized',
      summary,
      answer,
      etag: etagOf(answer),
      json: answer.subarray(jsonAt, jsonAt + utf8.encode(json).length),
      jsonString: answer.subarray(stringAt, jsonAt - utf8.encode(between).length),
    },
  };
}

const sdkAnswer = (text: string) => new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });

test("an SDK answer in the thread's layout is answered with the thread's own bytes and ETag, given back once sent", async () => {
  const output = threadOutput('One crawler: "GPTBot" é', 7, { crawler: 'gptbot', note: 'a "quote" \\ é 😀' });
  const [before, between, after] = toolCallAnswerFrame(output.run.summary, 7);
  const released: (readonly Uint8Array[])[] = [];
  const response = await spliceOutput(sdkAnswer(before + TEXT_MARK + between + JSON_MARK + after), output, undefined, (sent) => released.push(sent));
  assert.equal(knownBody(response), output.run.answer, 'the very bytes the thread wrote');
  assert.equal(response.headers.get('etag'), `"${output.run.etag}"`);
  assert.equal(response.headers.get('content-length'), String(output.run.answer.length));
  assert.deepEqual(released, [], 'not given back before it is sent');
});

test('an SDK answer in another layout gets the output spliced into its placeholders, relocated and tagged with its own ETag', async () => {
  const output = threadOutput('See https://index.example/crawler/gptbot.html', 3, { page: 'https://index.example/crawler/gptbot.html', note: 'é "q"' });
  // The same members in another order, as another SDK version might write them.
  const sdk = `{"jsonrpc":"2.0","id":3,"result":{"structuredContent":${JSON_MARK},"content":[{"type":"text","text":${JSON.stringify(output.run.summary)}},{"type":"text","text":${TEXT_MARK}}]}}`;
  const released: (readonly Uint8Array[])[] = [];
  const relocation = { from: 'https://index.example', to: 'http://127.0.0.1:8080' };
  const response = await spliceOutput(sdkAnswer(sdk), output, relocation, (sent) => released.push(sent));
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  const json = new TextDecoder().decode(output.run.json);
  assert.equal(
    text,
    `{"jsonrpc":"2.0","id":3,"result":{"structuredContent":${json},"content":[{"type":"text","text":"See http://127.0.0.1:8080/crawler/gptbot.html"},{"type":"text","text":${JSON.stringify(json)}}]}}`,
  );
  assert.equal(response.headers.get('etag'), `"${etagOf(bytes)}"`);
  assert.equal(response.headers.get('content-length'), String(bytes.length));
  assert.deepEqual(released, [[output.run.answer]], "the thread's buffer is given back once copied");
});
