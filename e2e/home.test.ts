import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useHarness } from './support/harness';

describe('home page', () => {
  // The console refuses to start without a cluster to serve.
  const h = useHarness({ suite: 'home', sandbox: { demo: false } });

  test('the home page renders its heading and the main navigation', async () => {
    const page = await h.open('/');
    const heading = page.getByRole('heading', { level: 1 });
    assert.equal(await heading.textContent(), 'Operator Lifecycle Manager');
    assert.equal(await page.getByRole('navigation', { name: 'Main' }).isVisible(), true);
    assert.equal(await page.title(), 'OLM Console');
    await page.close();
  });
});
