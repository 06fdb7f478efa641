import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderMarkdown } from './markdown';

test('markdown renders; raw HTML is escaped, not passed through', () => {
  const html = renderMarkdown('# Title\n\n**bold** <script>alert(1)</script> <img src=x onerror=alert(1)>');
  assert.match(html, /<h1>Title<\/h1>/);
  assert.match(html, /<strong>bold<\/strong>/);
  assert.ok(!html.includes('<script>'));
  assert.ok(!html.includes('<img src=x'));
  assert.match(html, /&lt;script&gt;/);
});

test('only http(s) links, opened safely; images only from allowed origins', () => {
  const html = renderMarkdown(
    '[ok](https://example.com) [bad](javascript:alert(1)) [data](data:text/html,x) ![img](https://example.com/a.png) ![x](javascript:1) [anchor](#install)',
    { imageOrigins: ['https://example.com'] },
  );
  assert.match(html, /<a href="https:\/\/example\.com" target="_blank" rel="noopener noreferrer nofollow">ok<\/a>/);
  assert.ok(!/href="javascript/i.test(html));
  assert.ok(!/href="data:/i.test(html));
  assert.match(
    html,
    /<img src="https:\/\/example\.com\/a\.png" alt="img" loading="lazy" referrerpolicy="no-referrer">/,
  );
  assert.ok(!/src="javascript/i.test(html));
  assert.match(html, /<a href="#install">anchor<\/a>/);
});

test('images from anywhere else are not loaded: a link to them instead, or their text', () => {
  const html = renderMarkdown(
    '![pixel](https://tracker.example/p.gif) ![self](/api/operators/x/y/uninstall) ![plain](http://mixed.example/a.png) ![x"onerror="1](https://t.example/a.png)',
  );
  assert.ok(!html.includes('<img'), html);
  assert.match(
    html,
    /<a href="https:\/\/tracker\.example\/p\.gif" target="_blank" rel="noopener noreferrer nofollow">\[image: pixel\]<\/a>/,
  );
  assert.ok(!html.includes('href="/api'));
  assert.ok(!html.includes('"onerror="'), 'alt text is escaped');
});

test('a contact address written as a mailto link is a link, not its markdown as text', () => {
  // The wording of crunchy-postgres-operator's description in certified-operators-v4.18.
  const html = renderMarkdown('please contact us at [info@crunchydata.com](mailto:info@crunchydata.com).');
  assert.match(html, /<a href="mailto:info@crunchydata\.com">info@crunchydata\.com<\/a>/);
  assert.ok(!html.includes('](mailto:'), html);
  const odd = renderMarkdown('[x](mailto:javascript:alert(1)) [y](mailto:a@b.c?body=x)');
  assert.ok(!odd.includes('href="mailto:javascript'), odd);
});
