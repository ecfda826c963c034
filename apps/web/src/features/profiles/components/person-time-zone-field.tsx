import { Controller, useFormContext } from 'react-hook-form';
import { TimeZoneSelect } from '../../../components/ui/time-zone-select';
import type { ProfileFormInput } from '../lib/profile-form';

/**
 * Issue 32: the person's own time zone, or "Same as my account" (null) — dose times, reminders and
 * appointment times of this person follow it.
 */
export function PersonTimeZoneField({ className = '' }: { className?: string }) {
  const { control } = useFormContext<ProfileFormInput>();
  return (
    <Controller
      control={control}
      name="time_zone"
      render={({ field, fieldState }) => (
        <TimeZoneSelect
          label="Time zone"
          emptyLabel="Same as my account"
          value={field.value ?? ''}
          onChange={field.onChange}
          hint="Dose times, reminders and appointment times of this person follow this time zone."
          error={fieldState.error?.message}
          containerClassName={className}
        />
      )}
    />
  );
}
