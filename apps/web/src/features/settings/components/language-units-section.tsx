import { useId, useState } from 'react';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { UNIT_SYSTEMS, type UnitSystem } from '@kinchart/shared/i18n';
import type { Preferences } from '@kinchart/shared/care';
import { StatusMessage } from '../../../components/ui/status-message';
import { LanguageSelect } from '../../../i18n/language-select';
import { useLanguage } from '../../../i18n/language-provider';
import { errorMessage } from '../../../lib/api-client';
import { useUpdatePreferences } from '../api/preferences';
import { WithPreferences } from './with-preferences';

/** Issue 35: how heights and weights are entered and shown (storage stays cm and kg, SPEC §9). */
const UNIT_LABELS: Record<UnitSystem, MessageDescriptor> = {
  imperial: msg`Imperial (ft/in, lbs)`,
  metric: msg`Metric (cm, kg)`,
};

/**
 * Settings → Account Settings → Language and units (issue 35, DESIGN §15): the language of every
 * screen, email, reminder and PDF — the footer's chooser, labelled, saved on the account by the
 * signed-in layout — and the units heights and weights are entered and shown in.
 */
export function LanguageUnitsSection() {
  return (
    <div className="flex flex-col gap-4">
      <LanguageSelect showLabel className="flex-wrap" />
      <WithPreferences>{(preferences) => <UnitsChoice preferences={preferences} />}</WithPreferences>
    </div>
  );
}

function UnitsChoice({ preferences }: { preferences: Preferences }) {
  const { t } = useLingui();
  const id = useId();
  const { setUnits } = useLanguage();
  const update = useUpdatePreferences();
  const [units, setChosen] = useState<UnitSystem>(preferences.units);
  const [status, setStatus] = useState<string | null>(null);

  const choose = async (next: UnitSystem) => {
    const before = units;
    setStatus(null);
    setChosen(next);
    setUnits(next);
    try {
      await update.mutateAsync({ units: next });
      setStatus(t`Units saved successfully.`);
    } catch (error) {
      setChosen(before);
      setUnits(before);
      setStatus(errorMessage(error, t`Failed to save your units`, t`Error saving your units`));
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={id} className="font-medium text-slate-800">
          {t`Units`}
        </label>
        <select
          id={id}
          value={units}
          disabled={update.isPending}
          onChange={(event) => {
            const next = UNIT_SYSTEMS.find((system) => system === event.target.value);
            if (next) void choose(next);
          }}
          className="min-h-11 rounded-lg border border-slate-400 bg-white px-2 py-1 text-base text-slate-900"
        >
          {UNIT_SYSTEMS.map((system) => (
            <option key={system} value={system}>
              {t(UNIT_LABELS[system])}
            </option>
          ))}
        </select>
      </div>
      <StatusMessage message={status} />
    </div>
  );
}
