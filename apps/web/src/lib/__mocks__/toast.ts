import { vi } from 'vitest';

/**
 * The one toast mock for component tests (`vi.mock('…/lib/toast')` picks it up): every notice is a
 * spy to assert on, and nothing is rendered or loaded.
 */
export const notify = { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() };
export const preloadToasts = vi.fn();
export const useToastContainerRequested = (): boolean => false;
