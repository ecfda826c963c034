import { createHash, randomBytes, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

/** 32 random bytes as base64url: 43 characters (DESIGN §5, §7). */
export const randomToken = (): string => randomBytes(32).toString('base64url');

export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

export const nowIso = (now: Date = new Date()): string => now.toISOString();
