// A CRD `pattern` read as Kubernetes reads it: Go's RE2 syntax and its compile errors word for
// word, an unanchored search, and time linear in the value even for a pattern that makes a
// backtracking engine run for ever.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compilePattern, patternError } from './pattern';

function matches(pattern: string, value: string): boolean {
  const c = compilePattern(pattern);
  assert.ok(c.ok, `${pattern} should compile`);
  return c.matches(value);
}

describe('schema patterns (RE2)', () => {
  test('nested quantifiers answer at once on a value that defeats a backtracking engine', () => {
    // JavaScript's RegExp takes about 2^40 steps here; RE2 takes one pass.
    assert.equal(matches('^(a+)+$', `${'a'.repeat(40)}!`), false);
    assert.equal(matches('^(a+)+$', 'a'.repeat(40)), true);
    assert.equal(matches('^(a|aa)*$', `${'a'.repeat(5000)}!`), false);
  });

  test('a pattern is searched anywhere in the value unless it anchors itself, as regexp.MatchString', () => {
    assert.equal(matches('abc', 'xxabcxx'), true);
    assert.equal(matches('abc', 'ab'), false);
    assert.equal(matches('^abc$', 'xxabcxx'), false);
  });

  test('the DNS-1123 label pattern accepts and refuses what it did before', () => {
    const dns = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
    assert.equal(matches(dns, 'my-app-1'), true);
    for (const bad of ['-app', 'app-', 'My-App', 'a_b', '']) assert.equal(matches(dns, bad), false, bad);
  });

  test('Go syntax JavaScript lacks is read as Go reads it', () => {
    assert.equal(matches('^(?P<x>a)$', 'a'), true);
    assert.equal(matches('^(?i)managed$', 'Managed'), true);
    assert.equal(matches('^[a-z0-9\\_-]+$', 'disk_1-a'), true);
    assert.equal(matches('^\\pL+$', 'héllo'), true);
    // `$` is the end of the text (no multi-line), `.` is one character and not a newline.
    assert.equal(matches('^a$', 'a\n'), false);
    assert.equal(matches('^.$', '😀'), true);
  });

  test("what RE2 refuses comes back with Go's regexp.Compile error, word for word", () => {
    assert.equal(patternError('(?=a)'), 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`');
    assert.equal(patternError('(a)\\1'), 'error parsing regexp: invalid escape sequence: `\\1`');
    assert.equal(patternError('+'), 'error parsing regexp: missing argument to repetition operator: `+`');
    assert.equal(patternError('a{1001}'), 'error parsing regexp: invalid repeat count: `{1001}`');
    assert.equal(patternError('^[a-z]+$'), undefined);
    assert.equal(compilePattern('(?=a)').ok, false);
  });

  test('a pattern is compiled once and the cache stays bounded', () => {
    assert.equal(compilePattern('^x+$'), compilePattern('^x+$'));
    for (let i = 0; i < 2000; i++) compilePattern(`^p${i}$`);
    // Still correct after the oldest were dropped.
    assert.equal(matches('^p0$', 'p0'), true);
  });
});
