import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { addLocalNotification, clearLocalNotifications } from '../../../lib/local-notifications';
import { NotificationsIndicator } from './notifications-indicator';
import { makeNotification } from '../testing/fixtures';

afterEach(clearLocalNotifications);

const item = (id: string, isRead: boolean) => makeNotification(id, { is_read: isRead, title: 't', message: 'm' });

describe('notifications indicator', () => {
  it('links to /notifications and names the unread count, server and local together', async () => {
    mockFetch(() => json([item('a', false), item('b', true), item('c', false)]));
    addLocalNotification('File "x.pdf" uploaded');
    renderRoutes([{ path: '/', element: <NotificationsIndicator /> }], '/');
    const link = await screen.findByRole('link', { name: 'Notifications, 3 unread' });
    expect(link.getAttribute('href')).toBe('/notifications');
    expect(link.textContent).toBe('3');
  });

  it('reads "0 unread" and shows no badge when everything is read', async () => {
    mockFetch(() => json([item('b', true)]));
    renderRoutes([{ path: '/', element: <NotificationsIndicator /> }], '/');
    const link = await screen.findByRole('link', { name: 'Notifications, 0 unread' });
    expect(link.textContent).toBe('');
  });
});
