// A shared install link: what it carries comes back whole, and every hostile value is named.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InstallChoices } from './install-request';
import { emptyOpenShiftChoice } from './openshift-option-fields';
import { MAX_CONFIG_CHARS, readShareLink, shareLink } from './share-link';

const choices: InstallChoices = {
  catalog: { namespace: 'olm', name: 'olm-console-demo' },
  package: 'quillmq',
  channel: 'stable',
  version: 'quillmq.v2.0.0',
  namespace: 'team1-operator',
  installMode: 'SingleNamespace',
  watched: ['team1'],
  approval: 'Manual',
  viewerNamespace: 'team1',
  config: { nodeSelector: { zone: 'a' }, env: [{ name: 'LOG', value: 'debug' }] },
  serviceAccount: { name: 'deployer', grant: false },
  openshift: emptyOpenShiftChoice,
};

const read = (query: string) => readShareLink(new URLSearchParams(query));

describe('a shared install link', () => {
  test('opens the wizard with every choice it was made with', () => {
    const link = shareLink(choices);
    assert.match(link, /^\/operatorhub\/olm\/olm-console-demo\/quillmq\/install\?/);
    const back = readShareLink(new URL(link, 'https://console.example').searchParams);
    assert.deepEqual(back.problems, []);
    assert.equal(back.shared, true);
    assert.deepEqual(back.choices, {
      channel: 'stable',
      version: 'quillmq.v2.0.0',
      namespace: 'team1-operator',
      installMode: 'SingleNamespace',
      watched: ['team1'],
      approval: 'Manual',
      config: { nodeSelector: { zone: 'a' }, env: [{ name: 'LOG', value: 'debug' }] },
      serviceAccount: { name: 'deployer', grant: false },
    });
  });

  test('an own-namespace link carries no watched namespaces', () => {
    const link = shareLink({ ...choices, installMode: 'OwnNamespace', watched: ['stale'] });
    assert.equal(new URL(link, 'https://c.example').searchParams.has('watch'), false);
  });

  test('each bad value is named with what is wrong, and not used', () => {
    const { choices: c, problems } = read(
      'into=Team_1&mode=Everywhere&approval=Sometimes&watch=ok&watch=NOT!&grant=yes&channel=&version=a%00b',
    );
    assert.deepEqual(c, {});
    assert.deepEqual(
      problems.map((p) => p.param),
      ['channel', 'version', 'into', 'mode', 'watch', 'approval', 'grant', 'grant'],
    );
    assert.match(problems.find((p) => p.param === 'into')!.message, /"Team_1" is no namespace name/);
    assert.match(problems.find((p) => p.param === 'mode')!.message, /must be one of AllNamespaces, OwnNamespace/);
  });

  test('a parameter given twice is refused rather than one of them guessed', () => {
    const { choices: c, problems } = read('into=team1&into=team2');
    assert.equal(c.namespace, undefined);
    assert.deepEqual(problems, [{ param: 'into', message: 'is given more than once' }]);
  });

  test('a config that is not a Subscription spec.config is refused with the field', () => {
    const cases: [string, RegExp][] = [
      ['{', /is not JSON/],
      ['[1]', /must be a JSON object/],
      ['{"image":"evil"}', /"image", which is no field of spec.config/],
      ['{"nodeSelector":{"a":1}}', /nodeSelector must be an object of strings/],
      ['{"tolerations":5}', /tolerations must be a list of tolerations/],
      ['{"env":[{"value":"x"}]}', /env must be a list of \{name, value\}/],
      ['{"resources":{"requests":{"cpu":{"x":1}}}}', /resources must be an object of requests and limits/],
      [`{"annotations":{"a":"${'x'.repeat(MAX_CONFIG_CHARS)}"}}`, /longer than 8000 characters/],
    ];
    for (const [config, message] of cases) {
      const r = read(`config=${encodeURIComponent(config)}`);
      assert.equal(r.choices.config, undefined, config.slice(0, 40));
      assert.match(r.problems[0]?.message ?? '', message, config.slice(0, 40));
    }
  });

  test('a link with nothing in it has no problems and no choices', () => {
    assert.deepEqual(read(''), { choices: {}, problems: [], shared: false });
    assert.equal(read('channel=stable&version=quillmq.v2.0.0').shared, false, "a package page's link is not shared");
  });
});
