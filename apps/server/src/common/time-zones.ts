import type { Db } from '../db/database';
import { isValidTimeZone } from '../lib/time-zone';
import { createTimeZoneRepository } from './time-zones.repository';

// DESIGN §13: every person has an IANA time zone — their own, else their owner account's, else
// UTC (accounts made before migration 0022 have none). Schedules, doses and appointment times are
// wall-clock times of that zone. A zone the runtime no longer knows reads as UTC rather than failing.

export const FALLBACK_ZONE = 'UTC';

/** The zone someone chose: the person's own, else the account's; undefined when neither is a zone the runtime knows. */
function chosenZone(own: string | null | undefined, account: string | null | undefined): string | undefined {
  return [own, account].find((zone): zone is string => !!zone && isValidTimeZone(zone));
}

/** The zone that applies: the person's own, else the account's, else UTC. */
export function effectiveZone(own: string | null | undefined, account: string | null | undefined): string {
  return chosenZone(own, account) ?? FALLBACK_ZONE;
}

export function createTimeZones(db: Db) {
  const repo = createTimeZoneRepository(db);
  return {
    /** The zone of each person (id → zone); a missing person is absent from the map. */
    async ofPeople(profileIds: readonly string[]): Promise<Map<string, string>> {
      const rows = await repo.zonesOfPeople([...new Set(profileIds)]);
      return new Map(rows.map((r) => [r.id, effectiveZone(r.time_zone, r.account_zone)]));
    },

    /**
     * The zone each person has when one is known: their own, else their account's. A person with
     * neither (an account made before zones, or through the API without one) is absent, so the
     * caller can fall back on a zone of its own (the browser's, for a calendar download).
     */
    async chosenOfPeople(profileIds: readonly string[]): Promise<Map<string, string>> {
      const out = new Map<string, string>();
      for (const r of await repo.zonesOfPeople([...new Set(profileIds)])) {
        const zone = chosenZone(r.time_zone, r.account_zone);
        if (zone) out.set(r.id, zone);
      }
      return out;
    },

    /** One person's zone (UTC when the person is not found: the caller has checked access already). */
    async ofPerson(profileId: string): Promise<string> {
      return (await this.ofPeople([profileId])).get(profileId) ?? FALLBACK_ZONE;
    },

    /** The account's own zone (UTC when it has none). */
    async ofAccount(userId: string): Promise<string> {
      return effectiveZone(null, await repo.accountZone(userId));
    },
  };
}
