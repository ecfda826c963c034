import { z } from 'zod';

// SPEC §3 Notification (server). `share_accepted`: an invitation to one of the owner's people was
// accepted (DESIGN §11).
export const NOTIFICATION_TYPES = [
  'qr_access',
  'qr_setup',
  'family_qr_setup',
  'family_emergency_access',
  'info',
  'share_accepted',
] as const;
/** The types the server writes. Answers keep `type: string`: an imported export may carry others. */
export const notificationTypeSchema = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof notificationTypeSchema>;
export const NOTIFICATION_LEVELS = ['error', 'warning', 'info'] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

/**
 * What the owner can do straight from a notification. `unlock_pin`: the PIN of a code was locked
 * or disabled after wrong tries; `member_id` names the family member's code, null for the owner's
 * own (DESIGN §7: "the owner lifts a lock or re-enables with one action"). Never a share id.
 */
export const notificationActionSchema = z.object({ kind: z.literal('unlock_pin'), member_id: z.string().nullable() }).strict();
export type NotificationAction = z.infer<typeof notificationActionSchema>;

export const notificationDataSchema = z.object({
  action: notificationActionSchema.optional(),
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

/** PUT /api/user/notifications/mark-all-read: `updated` is how many it marked read. */
export const markAllReadResponseSchema = z.object({ message: z.string(), updated: z.number() });
export type MarkAllReadResponse = z.infer<typeof markAllReadResponseSchema>;

/** PUT /api/user/notifications/{id}/hide. */
export const hideNotificationResponseSchema = z.object({ message: z.string(), notification_id: z.string(), is_hidden: z.literal(true) });
export type HideNotificationResponse = z.infer<typeof hideNotificationResponseSchema>;

/** SPEC §2 Notifications filters. */
export const NOTIFICATION_FILTERS = ['all', 'unread', 'qr_access', 'error', 'warning', 'info'] as const;
export type NotificationFilter = (typeof NOTIFICATION_FILTERS)[number];
