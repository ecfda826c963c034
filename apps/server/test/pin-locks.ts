import type { Db } from '../src/db/database';

/**
 * Lets every running per-address PIN lock of a code run out, as 15 minutes passing would (DESIGN
 * §7: 5 wrong PINs in a row lock the PIN for that client address; migration 0019).
 */
export async function expireAddressLocks(db: Db, shareId: string): Promise<void> {
  const share = await db.selectFrom('emergency_shares').select('id').where('share_id', '=', shareId).executeTakeFirstOrThrow();
  await db
    .updateTable('emergency_pin_locks')
    .set({ locked_until: new Date(Date.now() - 1000).toISOString() })
    .where('emergency_share_id', '=', share.id)
    .where('locked_until', 'is not', null)
    .execute();
}
