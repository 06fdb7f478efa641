import assert from 'node:assert/strict';
import { test } from 'node:test';
import { graphFromModel } from '../catalog/graph-view';
import { loadCatalog } from '../olm/fbc/load-catalog';
import { needsSharedCatalogs, sharedCatalog, whenSharedCatalogs } from '../testing/shared-catalogs';
import { summarizeChannel } from './graph-summary';

const px = whenSharedCatalogs(() =>
  loadCatalog(sharedCatalog('certified-operators-v4.18', 'portworx-certified')).packages.get('portworx-certified')!,
);

test('the channel, its size, its head and the installed version by version', needsSharedCatalogs, () => {
  const s = summarizeChannel(graphFromModel(px, 'stable'), 'portworx-operator.v24.2.0');
  assert.equal(s.channel, 'stable');
  assert.equal(s.sizeText, '48 versions');
  assert.deepEqual(s.head, { name: 'portworx-operator.v26.3.1', version: '26.3.1', inChannel: true });
  assert.deepEqual(s.installed, { name: 'portworx-operator.v24.2.0', version: '24.2.0', inChannel: true });
  assert.equal(s.from, undefined);
});

test(
  'an installed CSV the channel lacks is named as it is; a path start apart from it is named too',
  needsSharedCatalogs,
  () => {
    const s = summarizeChannel(graphFromModel(px, 'stable'), 'portworx-operator.v0.9.0', 'portworx-operator.v25.2.0');
    assert.deepEqual(s.installed, {
      name: 'portworx-operator.v0.9.0',
      version: 'portworx-operator.v0.9.0',
      inChannel: false,
    });
    assert.equal(s.from?.version, '25.2.0');
    assert.equal(
      summarizeChannel(graphFromModel(px, 'stable'), 'x', 'x').from,
      undefined,
      'the path from the installed one is not said twice',
    );
    assert.equal(
      summarizeChannel({ ...graphFromModel(px, 'stable'), nodes: graphFromModel(px, 'stable').nodes.slice(0, 1) })
        .sizeText,
      '1 version',
    );
  },
);
