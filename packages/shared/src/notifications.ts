import { z } from 'zod';

// SPEC §3 Notification (server).
export const NOTIFICATION_TYPES = ['qr_access', 'qr_setup', 'family_qr_setup', 'family_emergency_access', 'info'] as const;
export const NOTIFICATION_LEVELS = ['error', 'warning', 'info'] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

export const notificationDataSchema = z.object({
  message: z.string(),
  title: z.string(),
  type: z.string(),
  level: z.enum(NOTIFICATION_LEVELS),
  is_read: z.boolean(),
});
export type NotificationData = z.infer<typeof notificationDataSchema>;

export const notificationSchema = z.object({
  notification_id: z.string(),
  time: z.string(),
  is_read: z.boolean(),
  is_hidden: z.boolean(),
  type: z.string(),
  level: z.enum(NOTIFICATION_LEVELS),
  title: z.string(),
  data: notificationDataSchema,
});
export type Notification = z.infer<typeof notificationSchema>;

/** SPEC §2 Notifications filters. */
export const NOTIFICATION_FILTERS = ['all', 'unread', 'qr_access', 'error', 'warning', 'info'] as const;
export type NotificationFilter = (typeof NOTIFICATION_FILTERS)[number];
