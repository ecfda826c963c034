// Issue 35 (docs/decisions/0054): a server answer's code is shown from the reader's catalog, its
// English `message` when the code is unknown; the generated catalog entries follow the registry.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { i18n } from '@lingui/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kinchart/shared/messages';
import { ApiError, serverMessage } from '../lib/api-client';
import { serverText } from './server-messages';
import { translateMessageText } from './message-text';

const SPANISH = {
  'server.password_must_at_least_characters': 'La contraseña debe tener al menos {min} caracteres',
  'server.not_found': 'No encontrado',
  'server.must_real_calendar_date': 'debe ser una fecha real del calendario',
  'server.field_problem': '{field}: {problem}',
};

describe('server messages in the reader’s language', () => {
  beforeEach(() => {
    i18n.loadAndActivate({ locale: 'es', messages: SPANISH });
  });
  afterEach(() => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
  });

  it('shows a 400’s code in Spanish, with its params', () => {
    const body = { message: 'Password must be at least 8 characters', code: 'password_must_at_least_characters', params: { min: '8' } };
    expect(serverText(body)).toBe('La contraseña debe tener al menos 8 caracteres');
    expect(serverMessage(new ApiError(400, 'Bad Request', body))).toBe('La contraseña debe tener al menos 8 caracteres');
  });

  it('shows the English message for a code it does not know', () => {
    expect(serverText({ message: 'Something new', code: 'something_new' })).toBe('Something new');
    expect(serverText({ message: 'Bad thing', code: 'unknown', params: { detail: 'Bad thing' } })).toBe('Bad thing');
  });

  it('shows the registry’s English for a known code the catalog lacks', () => {
    expect(
      serverText({
        message: 'Too many incorrect PINs. Please try again in 3 minutes.',
        code: 'pin_locked_minutes',
        params: { minutes: '3' },
      }),
    ).toBe('Too many incorrect PINs. Please try again in 3 minutes.');
  });

  it('translates a param that is itself a known message', () => {
    const body = {
      message: 'dob: must be a real calendar date',
      code: 'field_problem',
      params: { field: 'dob', problem: 'must be a real calendar date' },
    };
    expect(serverText(body)).toBe('dob: debe ser una fecha real del calendario');
  });

  it('translates an English text by its code (a shared schema message under a field)', () => {
    expect(translateMessageText('Not found')).toBe('No encontrado');
    expect(translateMessageText('Nobody wrote this')).toBe('Nobody wrote this');
  });

  it('answers undefined when there is no message', () => {
    expect(serverText(undefined)).toBeUndefined();
    expect(serverText({ ok: true })).toBeUndefined();
    expect(serverMessage(new Error('x'))).toBeUndefined();
  });
});

describe('the generated catalog entries', () => {
  it('are what scripts/gen-server-messages.mjs writes from the registry (run it after changing messages.ts)', async () => {
    const script = path.resolve(import.meta.dirname, '../../scripts/gen-server-messages.mjs');
    const { GENERATED, serverMessagesModule } = (await import(/* @vite-ignore */ pathToFileURL(script).href)) as {
      GENERATED: string;
      serverMessagesModule: (messages: Record<string, string>) => Promise<string>;
    };
    expect(fs.readFileSync(GENERATED, 'utf8')).toBe(await serverMessagesModule(MESSAGES));
  });
});
