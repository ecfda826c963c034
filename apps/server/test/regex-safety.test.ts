import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trimEndChars, trimStartChars } from '@kinchart/shared/text';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';
import { importFile } from './export-helpers';
import { isFhirBase64 } from '../src/features/import/fhir-bundle';
import { safeSegment } from '../src/features/export/zip-names';
import { redactUrl } from '../src/plugins/logging';

// DESIGN §3: no regular expression applied to user input may backtrack super-linearly (lint keeps
// new ones out: eslint-plugin-regexp). These inputs froze the event loop with the old patterns —
// FHIR's own base64Binary pattern doubled its run time with every extra line — so each test here
// would run into the test timeout, not merely run slowly, if one came back.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Lines of four base64 characters and a line break, then one stray character: never valid. */
const attack = (lines: number) => `${'AAAA\n'.repeat(lines)}A`;

describe('inputs built to make a regular expression backtrack', () => {
  it('a signed-in user cannot freeze the server with a crafted attachment in a FHIR import: it is left out at once and the server goes on answering', async () => {
    const user = await signedInUser(t.app);
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { resource: { resourceType: 'Patient', name: [{ text: 'Probe' }] } },
        {
          resource: {
            resourceType: 'DocumentReference',
            status: 'current',
            content: [{ attachment: { contentType: 'application/pdf', data: attack(400) } }],
          },
        },
      ],
    };
    const res = await importFile(user.client, Buffer.from(JSON.stringify(bundle)), 'bundle.json');
    // Resource by resource (decision 0022): the attachment's resource is left out, said so.
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().report).toContainEqual(
      expect.objectContaining({
        resource_type: 'DocumentReference',
        imported: 0,
        dropped: [{ reason: 'not valid FHIR (content.0.attachment.data: must be base64)', count: 1 }],
      }),
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('FHIR base64 accepts groups of four separated by whitespace and refuses everything else', () => {
    expect(isFhirBase64('QUJD')).toBe(true);
    expect(isFhirBase64('QUJD\nREVG\r\n  R0g=')).toBe(true);
    expect(isFhirBase64('QUJDRA==')).toBe(true);
    expect(isFhirBase64(attack(10_000))).toBe(false);
    expect(isFhirBase64('')).toBe(false);
    expect(isFhirBase64('   ')).toBe(false);
    expect(isFhirBase64('QUJ')).toBe(false);
    expect(isFhirBase64('QU-D')).toBe(false);
  });

  it('names made of long runs of dots and spaces are trimmed in one pass', () => {
    const runs = `${'. '.repeat(50_000)}x${' .'.repeat(50_000)}`;
    expect(safeSegment(runs, 'file')).toBe('file');
    expect(safeSegment(`report${' .'.repeat(50_000)}`, 'file')).toBe('report');
    expect(trimEndChars(`a${'/'.repeat(100_000)}`, '/')).toBe('a');
    expect(trimEndChars('////', '/')).toBe('');
    expect(trimStartChars(`${'.'.repeat(100_000)}b.`, '.')).toBe('b.');
  });

  it('a URL made of repeated separators is logged without a quadratic scan', () => {
    const url = `/x?${'?'.repeat(100_000)}pin=1234`;
    expect(redactUrl(url)).toBe(`/x?${'?'.repeat(100_000)}pin=[redacted]`);
  });
});
