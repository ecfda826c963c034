import { useLingui } from '@lingui/react/macro';
import { Controller, useFormContext } from 'react-hook-form';
import { translateMessageText } from '../../../i18n/message-text';
import { TimeZoneSelect } from '../../../components/ui/time-zone-select';
import type { ProfileFormInput } from '../lib/profile-form';

/**
 * Issue 32: the person's own time zone, or "Same as my account" (null) — dose times, reminders and
 * appointment times of this person follow it.
 */
export function PersonTimeZoneField({ className = '' }: { className?: string }) {
  const { t } = useLingui();
  const { control } = useFormContext<ProfileFormInput>();
  return (
    <Controller
      control={control}
      name="time_zone"
      render={({ field, fieldState }) => (
        <TimeZoneSelect
          label={t`Time zone`}
          emptyLabel={t`Same as my account`}
          value={field.value ?? ''}
          onChange={field.onChange}
          hint={t`Dose times, reminders and appointment times of this person follow this time zone.`}
          error={fieldState.error?.message ? translateMessageText(fieldState.error.message) : undefined}
          containerClassName={className}
        />
      )}
    />
  );
}
