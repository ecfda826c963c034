import { beforeEach, describe, expect, it } from 'vitest';
import { clearAllDrafts, clearDraft, readDraft, saveDraft } from './drafts';

const DAY = 24 * 60 * 60 * 1000;

beforeEach(() => localStorage.clear());

describe('edits kept for want of a connection', () => {
  it('are offered back to their own account only; another account finds nothing and the edit is gone', () => {
    saveDraft('profile', 'u1', { name: 'Alice' }, 1_000);
    expect(readDraft('profile', 'u1', 2_000)).toEqual({ name: 'Alice' });
    expect(readDraft('profile', 'u2', 2_000)).toBeNull();
    expect(readDraft('profile', 'u1', 2_000)).toBeNull();
  });

  it('are dropped after a week', () => {
    saveDraft('profile', 'u1', { name: 'Alice' }, 0);
    expect(readDraft('profile', 'u1', 7 * DAY)).toBeNull();
    expect(localStorage.length).toBe(0);
  });

  it('leave the browser one by one after a save, or all at once at sign-out, other keys untouched', () => {
    localStorage.setItem('kinchart.selectedPerson.other', 'kept');
    saveDraft('profile', 'u1', { name: 'Alice' });
    saveDraft('member', 'u1', { name: 'Mia' });
    clearDraft('profile');
    expect(readDraft('profile', 'u1')).toBeNull();
    expect(readDraft('member', 'u1')).toEqual({ name: 'Mia' });
    clearAllDrafts();
    expect(readDraft('member', 'u1')).toBeNull();
    expect(localStorage.getItem('kinchart.selectedPerson.other')).toBe('kept');
  });

  it('an unreadable entry is removed rather than offered', () => {
    localStorage.setItem('kinchart.draft.profile', '{not json');
    expect(readDraft('profile', 'u1')).toBeNull();
    expect(localStorage.getItem('kinchart.draft.profile')).toBeNull();
  });
});
