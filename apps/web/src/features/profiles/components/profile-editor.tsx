import { useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { FormProvider, useForm, type FieldErrors } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocation, useNavigate } from 'react-router';
import { useHashTarget } from '../../../lib/use-hash-target';
import { editorTabOfHash } from '../lib/editor-anchors';
import type { PatientProfile } from '@kinchart/shared/profile';
import { Button } from '../../../components/ui/button';
import { Tabs } from '../../../components/ui/tabs';
import { useUnsavedChangesGuard } from '../../../components/ui/unsaved-changes-guard';
import { useUpdateProfile } from '../api/update-profile';
import { errorMessage } from '../../../lib/api-client';
import { clearDraft, readDraft, saveDraft } from '../../../lib/drafts';
import { useFocusFirstInvalid } from '../lib/use-focus-first-invalid';
import {
  profileFormSchema,
  tabOfField,
  toProfileFormValues,
  toProfilePayload,
  type ProfileFormInput,
  type ProfileFormOutput,
} from '../lib/profile-form';
import { AdditionalInfoFields } from './additional-info-fields';
import { BasicInfoFields } from './basic-info-fields';
import { MedicalConditionsFields } from './medical-conditions-fields';
import { OwnEmergencyContacts, OwnHealthcareProviders, OwnMedications } from './own-profile-lists';
import { StatusMessage } from '../../../components/ui/status-message';
import { useUnits } from '../../../i18n/language-provider';
import { translateMessageText } from '../../../i18n/message-text';

type EditorTab = 'basic' | 'medical' | 'contacts' | 'providers' | 'medications';

/** The name of this editor's kept edit (lib/drafts, docs/decisions/0036). */
const DRAFT = 'profile';

/** SPEC §9: the profile save redirects to /dashboard after 2000 ms. */
export const PROFILE_SAVE_REDIRECT_MS = 2000;

const panelClass = 'rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6';

/**
 * SPEC §2 Full profile editor: five tabs; Save Changes sends the whole profile (height in cm,
 * weight in kg) and goes to the dashboard 2 s after the message; Cancel goes back. The list tabs
 * save on their own (SPEC §7), so the saved profile carries no lists.
 */
export function ProfileEditor({ profile }: { profile: PatientProfile }) {
  const { t } = useLingui();
  const units = useUnits();
  const navigate = useNavigate();
  const location = useLocation();
  const update = useUpdateProfile();
  const [tab, setTab] = useState<EditorTab>(() => editorTabOfHash(location.hash) ?? 'basic');
  useHashTarget();
  const [status, setStatus] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const redirectTimer = useRef<number | undefined>(undefined);

  // The profile as it was when the editor opened; later refetches (a list tab saving) must not
  // overwrite what the person is typing in the other tabs.
  const form = useForm<ProfileFormInput, unknown, ProfileFormOutput>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: toProfileFormValues(profile),
    shouldFocusError: false,
  });

  // Issue 30, item 22: a save made offline waits here for the connection (the form stays as it
  // is), and its values are kept on the device meanwhile, for this account only, so closing the
  // tab does not lose them. They are offered back the next time the editor opens.
  const [waiting, setWaiting] = useState(false);
  const [keptEdit, setKeptEdit] = useState<Partial<ProfileFormInput> | null>(() => {
    const kept = readDraft(DRAFT, profile.id);
    return typeof kept === 'object' && kept !== null ? kept : null;
  });
  const saving = useRef<AbortController | null>(null);

  useEffect(
    () => () => {
      window.clearTimeout(redirectTimer.current);
      // Closed while a save waits: stop waiting; the kept edit is offered back next time.
      saving.current?.abort();
    },
    [],
  );
  // Leaving with unsaved fields asks first; the list tabs save on their own and need no asking.
  const guard = useUnsavedChangesGuard(form.formState.isDirty);

  const focusFirstInvalid = useFocusFirstInvalid(form.setFocus, (field) => {
    const target = tabOfField(field);
    setTab(target === 'additional' ? 'basic' : target);
  });
  const onInvalid = (errors: FieldErrors<ProfileFormInput>) => {
    setStatus(t`Please correct the highlighted fields.`);
    focusFirstInvalid(errors);
  };

  const restoreKeptEdit = () => {
    if (!keptEdit) return;
    // Kept as defaults, so the restored fields count as unsaved changes.
    form.reset({ ...toProfileFormValues(profile), ...keptEdit }, { keepDefaultValues: true });
    setKeptEdit(null);
  };
  const discardKeptEdit = () => {
    clearDraft(DRAFT);
    setKeptEdit(null);
  };

  const save = form.handleSubmit(async (values) => {
    setStatus(null);
    setKeptEdit(null);
    const controller = new AbortController();
    saving.current = controller;
    try {
      const answer = await update.mutateAsync({
        profile: toProfilePayload(values, units, profile),
        signal: controller.signal,
        onWaiting: () => {
          setWaiting(true);
          saveDraft(DRAFT, profile.id, form.getValues());
        },
      });
      clearDraft(DRAFT);
      setWaiting(false);
      setStatus(answer.message ? translateMessageText(answer.message) : t`Profile updated successfully!`);
      setSaved(true);
      guard.release();
      redirectTimer.current = window.setTimeout(() => void navigate('/dashboard'), PROFILE_SAVE_REDIRECT_MS);
    } catch (error) {
      if (controller.signal.aborted) return;
      setWaiting(false);
      setStatus(errorMessage(error, t`An error occurred`, t`Error updating profile`));
    } finally {
      if (saving.current === controller) saving.current = null;
    }
  }, onInvalid);

  const cancel = () => {
    // Opened straight from an address there is nothing to go back to.
    if (location.key === 'default') void navigate('/dashboard');
    else void navigate(-1);
  };

  const busy = form.formState.isSubmitting || saved;

  return (
    <FormProvider {...form}>
      {keptEdit ? (
        <div className="mb-6 flex flex-col gap-3 rounded-2xl border-2 border-amber-700 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center sm:justify-between">
          <p className="font-semibold">
            <Trans>Changes you made while offline have not been saved yet.</Trans>
          </p>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={restoreKeptEdit}>
              <Trans>Restore my changes</Trans>
            </Button>
            <Button size="sm" variant="secondary" onClick={discardKeptEdit}>
              <Trans>Discard them</Trans>
            </Button>
          </div>
        </div>
      ) : null}
      <Tabs<EditorTab>
        label={t`Profile sections`}
        value={tab}
        onChange={setTab}
        items={[
          {
            id: 'basic',
            label: t`Basic Information`,
            content: (
              <div className={`${panelClass} flex flex-col gap-8`}>
                <BasicInfoFields variant="profile" />
                <section aria-labelledby="profile-additional-heading" className="flex flex-col gap-4">
                  <h2 id="profile-additional-heading" className="text-lg font-semibold text-slate-900">
                    <Trans>Additional Information</Trans>
                  </h2>
                  <AdditionalInfoFields />
                </section>
              </div>
            ),
          },
          {
            id: 'medical',
            label: t`Medical Conditions`,
            content: (
              <div className={panelClass}>
                <MedicalConditionsFields />
              </div>
            ),
          },
          {
            id: 'contacts',
            label: t`Emergency Contacts`,
            content: (
              <div className={panelClass}>
                <OwnEmergencyContacts contacts={profile.emergency_contacts} />
              </div>
            ),
          },
          {
            id: 'providers',
            label: t`Healthcare Providers`,
            content: (
              <div className={panelClass}>
                <OwnHealthcareProviders providers={profile.healthcare_providers} />
              </div>
            ),
          },
          {
            id: 'medications',
            label: t`Medications`,
            content: (
              <div className={panelClass}>
                <OwnMedications medications={profile.medications} />
              </div>
            ),
          },
        ]}
      />
      <div className="mt-6 flex flex-col gap-3">
        <StatusMessage message={status} />
        <p role="status" className="rounded-lg bg-amber-50 px-3 py-2 font-medium text-amber-950 empty:hidden">
          {waiting ? t`You are offline. Your changes are kept on this device and will be saved once the connection is back.` : ''}
        </p>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={cancel} disabled={form.formState.isSubmitting}>
            <Trans>Cancel</Trans>
          </Button>
          <Button onClick={() => void save()} disabled={busy}>
            {waiting ? t`Waiting for connection…` : form.formState.isSubmitting ? t`Saving...` : t`Save Changes`}
          </Button>
        </div>
      </div>
      {guard.dialog}
    </FormProvider>
  );
}
