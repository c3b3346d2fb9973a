import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { escapeHtml, html } from './html.ts';
import { relativePath, relativizeLinks } from './layout.ts';

test('relative paths work from every depth', () => {
  assert.equal(relativePath('/crawler/gptbot.html', '/data/agents.json'), '../data/agents.json');
  assert.equal(relativePath('/index.html', '/tools/'), 'tools/');
  assert.equal(relativePath('/tools/ai-access.html', '/tools/ai-access'), 'ai-access');
  assert.equal(relativePath('/tools/ai-access.html', '/tools/'), './');
  assert.equal(relativePath('/index.html', '/index.html'), 'index.html');
});

test('links and forms into the site become relative; <link> elements and other hosts stay absolute', () => {
  const page =
    '<link rel="canonical" href="https://b.io/x.html"><a class="c" href="https://b.io/data/a.json">a</a><form method="get" action="https://b.io/tools/x"></form><a href="https://b.io.evil/x">e</a>';
  assert.equal(
    relativizeLinks(page, 'https://b.io', '/tools/x.html'),
    '<link rel="canonical" href="https://b.io/x.html"><a class="c" href="../data/a.json">a</a><form method="get" action="x"></form><a href="https://b.io.evil/x">e</a>',
  );
});

test('html escapes every interpolated value, so a record cannot inject markup', () => {
  assert.equal(html`<p title="${'"x" & <y>'}">${'<script>'}</p>`.text, '<p title="&quot;x&quot; &amp; &lt;y&gt;">&lt;script&gt;</p>');
  assert.equal(escapeHtml("it's"), 'it&#39;s');
});
