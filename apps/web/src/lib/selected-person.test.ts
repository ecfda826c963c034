import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { getSelectedPersonId, setSelectedPersonId, useSelectedPersonId } from './selected-person';

afterEach(() => setSelectedPersonId(null));

describe('the person chosen on the dashboard', () => {
  it('is kept for the tab (sessionStorage) and readers re-render when it changes', () => {
    const { result } = renderHook(() => useSelectedPersonId());
    expect(result.current).toBeNull();
    act(() => setSelectedPersonId('mia'));
    expect(result.current).toBe('mia');
    expect(getSelectedPersonId()).toBe('mia');
    expect(sessionStorage.getItem('kinchart.selectedPerson')).toBe('mia');
    act(() => setSelectedPersonId(null));
    expect(result.current).toBeNull();
    expect(sessionStorage.getItem('kinchart.selectedPerson')).toBeNull();
  });

  it('an empty id means My Profile', () => {
    setSelectedPersonId('');
    expect(getSelectedPersonId()).toBeNull();
  });
});
