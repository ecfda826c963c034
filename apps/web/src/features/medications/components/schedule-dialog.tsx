import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef, useState, type FormEvent } from 'react';
import type { Schedule } from '@kinchart/shared/care';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Field } from '../../../components/ui/field';
import { CheckboxField } from '../../../components/ui/form-controls';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../lib/toast';
import { useDeleteSchedule } from '../api/delete-schedule';
import { useSaveSchedule } from '../api/save-schedule';
import { activeIntlLocale, weekdayName } from '../utils/dose-time';
import {
  canAddTime,
  hasErrors,
  NO_ERRORS,
  serverScheduleErrors,
  toScheduleFormValues,
  validateSchedule,
  type ScheduleFormErrors,
  type ScheduleFormValues,
} from '../utils/schedule-form';

export interface ScheduleDialogProps {
  open: boolean;
  personId: string;
  medicationId: string;
  /** The medication's name as running text ("Albuterol"). */
  name: string;
  /** The stored schedule, or null to add one. */
  schedule: Schedule | null;
  onClose: () => void;
}

/** The schedule editor (issue 32): a fresh form each time it opens. */
export function ScheduleDialog(props: ScheduleDialogProps) {
  if (!props.open) return null;
  return <ScheduleEditor {...props} />;
}

/** ISO weekdays, Monday first (the order of the shared schema's `days`). */
const WEEK = [1, 2, 3, 4, 5, 6, 7] as const;

function ScheduleEditor({ personId, medicationId, name, schedule, onClose }: ScheduleDialogProps) {
  const { t } = useLingui();
  const locale = activeIntlLocale();
  const save = useSaveSchedule(personId, medicationId);
  const remove = useDeleteSchedule(personId, medicationId);
  const [values, setValues] = useState<ScheduleFormValues>(() => toScheduleFormValues(schedule));
  const [errors, setErrors] = useState<ScheduleFormErrors>(NO_ERRORS);
  const [confirming, setConfirming] = useState(false);
  const formId = useId();
  const daysHintId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const busy = save.isPending || remove.isPending;

  // A field's message goes once the person changes that field; the rest wait for the next Save.
  const set = <K extends keyof ScheduleFormValues>(key: K, value: ScheduleFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => (key === 'times' ? { ...e, times: {} } : { ...e, fields: { ...e.fields, [key]: undefined } }));
  };
  const setTime = (index: number, value: string) => {
    setValues((v) => ({ ...v, times: v.times.map((t, i) => (i === index ? value : t)) }));
    setErrors((e) => ({ ...e, times: Object.fromEntries(Object.entries(e.times).filter(([at]) => Number(at) !== index && at !== '-1')) }));
  };
  const toggleDay = (day: number, on: boolean) => {
    setValues((v) => ({ ...v, days: on ? [...v.days, day].sort((a, b) => a - b) : v.days.filter((d) => d !== day) }));
    setErrors((e) => ({ ...e, fields: { ...e.fields, days: undefined } }));
  };

  /** Focus the first field that has a message, so keyboard and screen reader users land on it. */
  const focusFirstInvalid = () =>
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid="true"] input')?.focus());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = validateSchedule(values);
    if ('errors' in checked) {
      setErrors(checked.errors);
      focusFirstInvalid();
      return;
    }
    setErrors(NO_ERRORS);
    try {
      await save.mutateAsync(checked.input);
      notify.success(t`Schedule saved for ${name}.`);
      onClose();
    } catch (error) {
      setErrors(serverScheduleErrors(error, t`The schedule could not be saved. Please try again.`));
      focusFirstInvalid();
    }
  };

  const confirmRemove = async () => {
    try {
      await remove.mutateAsync();
      setConfirming(false);
      notify.success(t`Schedule removed for ${name}.`);
      onClose();
    } catch (error) {
      setConfirming(false);
      setErrors(serverScheduleErrors(error, t`The schedule could not be removed. Please try again.`));
    }
  };

  const timesError = errors.times[-1];
  return (
    <>
      <Modal
        open
        onClose={busy ? () => undefined : onClose}
        title={t`Schedule for ${name}`}
        description={t`Times are in the person's time zone. Doses are listed on the dashboard's Today.`}
        size="lg"
        footer={
          <>
            {schedule ? (
              <Button variant="secondary" className="me-auto text-red-700!" disabled={busy} onClick={() => setConfirming(true)}>
                {t`Remove schedule`}
              </Button>
            ) : null}
            <Button variant="secondary" disabled={busy} onClick={onClose}>
              {t`Cancel`}
            </Button>
            <Button type="submit" form={formId} disabled={busy}>
              {save.isPending ? t`Saving...` : t`Save schedule`}
            </Button>
          </>
        }
      >
        <form id={formId} ref={formRef} noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-5">
          {errors.form ? (
            <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
              {errors.form}
            </p>
          ) : hasErrors(errors) ? (
            <p role="alert" className="sr-only">
              <Trans>Please correct the fields marked below.</Trans>
            </p>
          ) : null}
          <CheckboxField
            label={t`As needed (no fixed times)`}
            checked={values.as_needed}
            onChange={(e) => set('as_needed', e.currentTarget.checked)}
          />
          {values.as_needed ? null : (
            <>
              <fieldset className="flex flex-col gap-2" data-invalid={timesError ? 'true' : undefined}>
                <legend className="mb-1 text-sm font-semibold text-slate-800">
                  <Trans>Times of day</Trans>
                </legend>
                <ul className="grid gap-2 sm:grid-cols-2">
                  {values.times.map((time, index) => {
                    const number = index + 1;
                    return (
                      // The inputs are a list the person edits by position; the index is its identity.
                      <li key={index} className="flex items-start gap-2">
                        <Field
                          label={t({ message: `Time ${number}`, comment: 'The first, second… time of day a medication is taken' })}
                          type="time"
                          value={time}
                          required
                          error={errors.times[index]}
                          onChange={(e) => setTime(index, e.currentTarget.value)}
                          containerClassName="flex-1"
                        />
                        {values.times.length > 1 ? (
                          <Button
                            variant="ghost"
                            className="mt-6 text-red-700!"
                            aria-label={t`Remove time ${number}`}
                            onClick={() =>
                              set(
                                'times',
                                values.times.filter((_, i) => i !== index),
                              )
                            }
                          >
                            {t`Remove`}
                          </Button>
                        ) : null}
                      </li>
                    );
                  })}
                </ul>
                {timesError ? <p className="text-sm font-medium text-red-700">{timesError}</p> : null}
                {canAddTime(values) ? (
                  <Button variant="secondary" size="sm" className="self-start" onClick={() => set('times', [...values.times, ''])}>
                    {t`Add a time`}
                  </Button>
                ) : (
                  <p className="text-sm text-slate-700">
                    <Trans>At most 12 times a day.</Trans>
                  </p>
                )}
              </fieldset>
              <fieldset className="flex flex-col gap-2" aria-describedby={errors.fields.days ? daysHintId : undefined}>
                <legend className="mb-1 text-sm font-semibold text-slate-800">
                  <Trans>Days</Trans>
                </legend>
                <div className="flex flex-wrap gap-2" data-invalid={errors.fields.days ? 'true' : undefined}>
                  {WEEK.map((day) => (
                    <label key={day} className="relative">
                      <input
                        type="checkbox"
                        className="peer absolute inset-0 size-full cursor-pointer appearance-none rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
                        checked={values.days.includes(day)}
                        aria-invalid={errors.fields.days ? true : undefined}
                        onChange={(e) => toggleDay(day, e.currentTarget.checked)}
                      />
                      <span className="pointer-events-none flex min-h-11 min-w-12 items-center justify-center rounded-lg border border-slate-400 bg-white px-2 text-sm font-semibold text-slate-800 peer-checked:border-brand-700 peer-checked:bg-brand-700 peer-checked:text-white">
                        <span aria-hidden="true">{weekdayName(day, 'short', locale)}</span>
                        <span className="sr-only">{weekdayName(day, 'long', locale)}</span>
                      </span>
                    </label>
                  ))}
                </div>
                {errors.fields.days ? (
                  <p id={daysHintId} className="text-sm font-medium text-red-700">
                    {errors.fields.days}
                  </p>
                ) : null}
              </fieldset>
            </>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label={t`Start date`}
              type="date"
              value={values.start_date}
              hint={schedule ? undefined : t`Left empty: today`}
              error={errors.fields.start_date}
              onChange={(e) => set('start_date', e.currentTarget.value)}
            />
            <Field
              label={t`End date (optional)`}
              type="date"
              value={values.end_date}
              error={errors.fields.end_date}
              onChange={(e) => set('end_date', e.currentTarget.value)}
            />
            <Field
              label={t`Units per dose`}
              type="number"
              inputMode="decimal"
              min={0}
              step="any"
              value={values.dose_units}
              error={errors.fields.dose_units}
              onChange={(e) => set('dose_units', e.currentTarget.value)}
            />
            <Field
              label={t`Quantity on hand (optional)`}
              type="number"
              inputMode="decimal"
              min={0}
              step="any"
              value={values.quantity_on_hand}
              hint={t`Taking a dose lowers it.`}
              error={errors.fields.quantity_on_hand}
              onChange={(e) => set('quantity_on_hand', e.currentTarget.value)}
            />
            <Field
              label={t`Refill reminder, days before it runs out (optional)`}
              type="number"
              inputMode="numeric"
              min={0}
              max={90}
              step={1}
              value={values.refill_remind_days}
              error={errors.fields.refill_remind_days}
              onChange={(e) => set('refill_remind_days', e.currentTarget.value)}
              containerClassName="sm:col-span-2"
            />
          </div>
          <CheckboxField
            label={t`Send reminders`}
            hint={t`At each dose time, and before a refill is due. Family members who asked to be told of missed doses are told either way.`}
            checked={values.reminders}
            onChange={(e) => set('reminders', e.currentTarget.checked)}
          />
        </form>
      </Modal>
      <ConfirmDialog
        open={confirming}
        title={t`Remove schedule`}
        message={t`The schedule of ${name} will be removed. Doses already logged stay in the log.`}
        confirmLabel={t`Remove schedule`}
        busyLabel={t`Removing...`}
        busy={remove.isPending}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
