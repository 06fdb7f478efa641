import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logFormat } from './logger';

test('one log format per run: text on a terminal, JSON lines otherwise, LOG_FORMAT decides when given', () => {
  assert.equal(logFormat({}, true), 'pretty');
  assert.equal(logFormat({}, false), 'json');
  assert.equal(logFormat({ LOG_FORMAT: 'json' }, true), 'json');
  assert.equal(logFormat({ LOG_FORMAT: 'pretty' }, false), 'pretty');
  assert.equal(
    logFormat({ LOG_FORMAT: 'yaml' }, false),
    'json',
    'a format it does not know is the default for the output',
  );
});
