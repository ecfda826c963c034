import { describe, expect, it, vi } from 'vitest';
import { dispatchAppEvent, listenAppEvent } from './events';

describe('app events', () => {
  it('delivers familyMemberUpdated and filesUpdated to listeners until they unsubscribe', () => {
    const onFiles = vi.fn();
    const onFamily = vi.fn();
    const stopFiles = listenAppEvent('filesUpdated', onFiles);
    const stopFamily = listenAppEvent('familyMemberUpdated', onFamily);

    dispatchAppEvent('filesUpdated', { name: 'scan.pdf' });
    expect(onFiles).toHaveBeenCalledTimes(1);
    expect((onFiles.mock.calls[0]![0] as CustomEvent).detail).toEqual({ name: 'scan.pdf' });
    expect(onFamily).not.toHaveBeenCalled();

    stopFiles();
    dispatchAppEvent('filesUpdated');
    dispatchAppEvent('familyMemberUpdated');
    expect(onFiles).toHaveBeenCalledTimes(1);
    expect(onFamily).toHaveBeenCalledTimes(1);
    stopFamily();
  });
});
