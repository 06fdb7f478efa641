// The approval radios as a person sees them, while plans arrive late or not at all.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { approvalShown } from './approval-shown';

describe('the approval radios', () => {
  test('a click on Manual shows at once, while the last plan still says Automatic', () => {
    assert.deepEqual(approvalShown('Manual', false, { asked: 'Automatic', gets: 'Automatic' }), {
      checked: 'Manual',
      forced: false,
    });
  });

  test('a click back on Automatic shows at once, while the last plan was made for Manual', () => {
    assert.deepEqual(approvalShown('Automatic', false, { asked: 'Manual', gets: 'Manual' }), {
      checked: 'Automatic',
      forced: false,
    });
  });

  test('before any plan, the choice shows as it is', () => {
    assert.deepEqual(approvalShown('Automatic', false), { checked: 'Automatic', forced: false });
    assert.deepEqual(approvalShown('Manual', false), { checked: 'Manual', forced: false });
  });

  test('a plan that made an Automatic request Manual keeps Automatic refused while other choices are planned', () => {
    // OpenShift's short-lived cloud tokens: the planner gives Manual for an Automatic request.
    assert.deepEqual(approvalShown('Automatic', false, { asked: 'Automatic', gets: 'Manual' }), {
      checked: 'Manual',
      forced: true,
    });
  });

  test('a version that is not its channel head is Manual before its plan arrives', () => {
    assert.deepEqual(approvalShown('Automatic', true), { checked: 'Manual', forced: true });
    assert.deepEqual(approvalShown('Automatic', true, { asked: 'Automatic', gets: 'Automatic' }), {
      checked: 'Manual',
      forced: true,
    });
  });
});
