import { i18n } from '@lingui/core';
import { afterEach, describe, expect, it } from 'vitest';
import { describeAccess, describeAccesses, formatWhen } from './describe-access';

describe('the access history in words', () => {
  it.each([
    ['GET /api/user/files/:id/content', 'Opened a record file'],
    ['GET /api/user/files', 'Viewed record files'],
    ['POST /api/user/files', 'Added record files'],
    ['DELETE /api/user/appointments/:appointment_id', 'Deleted appointments'],
    ['PUT /api/user/family/members/:id/medications/:medId', 'Changed medications'],
    ['GET /api/user/people/:personId', 'Viewed the profile'],
    ['PUT /api/user/family/members/:id', 'Changed the profile'],
    ['PUT /api/user/family/members/:id/qr/toggle', 'Changed the emergency code'],
    ['GET /api/user/people/:personId/shares', 'Viewed who has access'],
    // Issue 32.
    ['GET /api/calendar/:file', 'Viewed the calendar feed'],
    ['GET /api/user/appointments.ics', 'Viewed appointments'],
    ['GET /api/user/people/:personId/doses', 'Viewed doses'],
    ['PUT /api/user/people/:personId/doses/:doseId', 'Changed doses'],
    ['POST /api/user/people/:personId/doses', 'Added doses'],
    ['DELETE /api/user/people/:personId/doses/:doseId', 'Deleted doses'],
    ['GET /api/user/people/:personId/schedules', 'Viewed medication schedules'],
    ['PUT /api/user/people/:personId/medications/:medicationId/schedule', 'Changed medication schedules'],
    ['GET /api/user/people/:personId/adherence', 'Viewed adherence'],
    ['PUT /api/user/people/:personId/reminder-settings', 'Changed reminder settings'],
  ])('%s reads "%s"', (what, words) => {
    expect(describeAccess({ what })).toBe(words);
  });

  it('passes words and unknown routes through as they are', () => {
    expect(describeAccess({ what: 'Accepted an invitation (Editor)' })).toBe('Accepted an invitation (Editor)');
    expect(describeAccess({ what: 'GET /api/user/something-new' })).toBe('GET /api/user/something-new');
  });

  it('shows a time as a date and a clock time, and odd text as it is', () => {
    expect(formatWhen('2026-03-04T09:05:00')).toBe('Mar 4, 2026, 9:05 AM');
    expect(formatWhen('soon')).toBe('soon');
  });
});

describe("the access history in the reader's language (issue 35)", () => {
  afterEach(() => i18n.activate('en'));

  it('reads the share events the server words in English back through the catalog, roles included', () => {
    expect(describeAccess({ what: 'Changed a role (Viewer to Manager)' })).toBe('Changed a role (Viewer to Manager)');
    expect(describeAccess({ what: 'Ended a passed-on share (Editor)' })).toBe('Ended a passed-on share (Editor)');
  });

  it("joins what several reads touched with the active language's list words, and keeps the case of each phrase", () => {
    const event = {
      what: 'GET /api/user/files',
      what_all: ['GET /api/user/files', 'GET /api/user/files/:id/content', 'GET /api/user/conditions'],
    };
    expect(describeAccesses(event)).toBe('Viewed record files and conditions; opened a record file');
    i18n.loadAndActivate({ locale: 'fr', messages: {} });
    expect(describeAccesses(event)).toBe('Viewed record files et conditions; Opened a record file');
    expect(formatWhen('2026-03-04T09:05:00')).toBe('4 mars 2026, 9:05');
  });
});
