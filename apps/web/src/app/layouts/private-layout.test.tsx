import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkAuthAnswer, json, mockFetch, renderRoutes } from '../../../test/utils';
import { NOTIFICATION_STREAM_URL } from '../../features/notifications/api/notification-stream';
import { FakeEventSource } from '../../features/notifications/testing/fake-event-source';
import { PrivateLayout } from './private-layout';

vi.mock('../../lib/toast');

beforeEach(() => {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => vi.unstubAllGlobals());

/* The private layout opens the notification stream (features/notifications), for a signed-in user only. */
describe('the notification stream', () => {
  it('is opened by the private layout for a signed-in user only', async () => {
    mockFetch((call) => (call.url.includes('check-auth') ? checkAuthAnswer('pat') : json([])));
    renderRoutes([{ element: <PrivateLayout />, children: [{ path: '/', element: <p>inside</p> }] }], '/');
    await screen.findByText('inside');
    expect(FakeEventSource.instances.map((s) => s.url)).toEqual([NOTIFICATION_STREAM_URL]);
  });

  it('is not opened for a signed-out visitor', async () => {
    mockFetch((call) => (call.url.includes('check-auth') ? checkAuthAnswer(null) : json([])));
    renderRoutes(
      [
        { element: <PrivateLayout />, children: [{ path: '/', element: <p>inside</p> }] },
        { path: '/login', element: <p>login</p> },
      ],
      '/',
    );
    await screen.findByText('login');
    expect(FakeEventSource.instances).toEqual([]);
  });
});
