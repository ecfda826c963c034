import { describe, expect, it } from 'vitest';
import { checkAuthResponseSchema } from '@kinchart/shared/auth';
import { readCheckAuthAnswer } from './check-auth';

const user = { id: 'u1', username: 'ana', email: 'ana@example.com' };

// The entry chunk reads check-auth without zod (decision 0017): the guard must read every answer
// the way the shared schema does — accept the same ones, keep the same fields.
describe('reading the check-auth answer without zod', () => {
  it.each([
    ['a signed-in answer', { authenticated: true, user }],
    ['an answer with extra keys', { authenticated: true, user: { ...user, role: 'admin' }, message: 'ok' }],
    ['authenticated false', { authenticated: false, user }],
    ['no user', { authenticated: true }],
    ['a user without an email', { authenticated: true, user: { id: 'u1', username: 'ana' } }],
    ['a numeric id', { authenticated: true, user: { ...user, id: 1 } }],
    ['a user list', { authenticated: true, user: [user] }],
    ['an error answer', { message: 'Not authenticated' }],
    ['text', 'Unauthorized'],
    ['nothing', undefined],
    ['null', null],
  ])('%s is read as checkAuthResponseSchema reads it', (_name, answer) => {
    const parsed = checkAuthResponseSchema.safeParse(answer);
    expect(readCheckAuthAnswer(answer)).toEqual(parsed.success ? parsed.data : null);
  });
});
