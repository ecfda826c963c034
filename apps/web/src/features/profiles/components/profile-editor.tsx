import { useEffect, useRef, useState } from 'react';
import { FormProvider, useForm, type FieldErrors } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocation, useNavigate } from 'react-router';
import type { PatientProfile } from '@kinchart/shared/profile';
import { Button } from '../../../components/ui/button';
import { Tabs } from '../../../components/ui/tabs';
import { useUnsavedChangesGuard } from '../../../components/ui/unsaved-changes-guard';
import { useUpdateProfile } from '../api/update-profile';
import { errorMessage } from '../../../lib/api-client';
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

type EditorTab = 'basic' | 'medical' | 'contacts' | 'providers' | 'medications';

/** SPEC §9: the profile save redirects to /dashboard after 2000 ms. */
export const PROFILE_SAVE_REDIRECT_MS = 2000;

const panelClass = 'rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6';

/**
 * SPEC §2 Full profile editor: five tabs; Save Changes sends the whole profile (height in cm,
 * weight in kg) and goes to the dashboard 2 s after the message; Cancel goes back. The list tabs
 * save on their own (SPEC §7), so the saved profile carries no lists.
 */
export function ProfileEditor({ profile }: { profile: PatientProfile }) {
  const navigate = useNavigate();
  const location = useLocation();
  const update = useUpdateProfile();
  const [tab, setTab] = useState<EditorTab>('basic');
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

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);
  // Leaving with unsaved fields asks first; the list tabs save on their own and need no asking.
  const guard = useUnsavedChangesGuard(form.formState.isDirty);

  const focusFirstInvalid = useFocusFirstInvalid(form.setFocus, (field) => {
    const target = tabOfField(field);
    setTab(target === 'additional' ? 'basic' : target);
  });
  const onInvalid = (errors: FieldErrors<ProfileFormInput>) => {
    setStatus('Please correct the highlighted fields.');
    focusFirstInvalid(errors);
  };

  const save = form.handleSubmit(async (values) => {
    setStatus(null);
    try {
      const answer = await update.mutateAsync(toProfilePayload(values));
      setStatus(answer.message || 'Profile updated successfully!');
      setSaved(true);
      guard.release();
      redirectTimer.current = window.setTimeout(() => void navigate('/dashboard'), PROFILE_SAVE_REDIRECT_MS);
    } catch (error) {
      setStatus(errorMessage(error, 'An error occurred', 'Error updating profile'));
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
      <Tabs<EditorTab>
        label="Profile sections"
        value={tab}
        onChange={setTab}
        items={[
          {
            id: 'basic',
            label: 'Basic Information',
            content: (
              <div className={`${panelClass} flex flex-col gap-8`}>
                <BasicInfoFields variant="profile" />
                <section aria-labelledby="profile-additional-heading" className="flex flex-col gap-4">
                  <h2 id="profile-additional-heading" className="text-lg font-semibold text-slate-900">
                    Additional Information
                  </h2>
                  <AdditionalInfoFields />
                </section>
              </div>
            ),
          },
          {
            id: 'medical',
            label: 'Medical Conditions',
            content: (
              <div className={panelClass}>
                <MedicalConditionsFields />
              </div>
            ),
          },
          {
            id: 'contacts',
            label: 'Emergency Contacts',
            content: (
              <div className={panelClass}>
                <OwnEmergencyContacts contacts={profile.emergency_contacts} />
              </div>
            ),
          },
          {
            id: 'providers',
            label: 'Healthcare Providers',
            content: (
              <div className={panelClass}>
                <OwnHealthcareProviders providers={profile.healthcare_providers} />
              </div>
            ),
          },
          {
            id: 'medications',
            label: 'Medications',
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
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={cancel} disabled={form.formState.isSubmitting}>
            Cancel
          </Button>
          <Button onClick={() => void save()} disabled={busy}>
            {form.formState.isSubmitting ? 'Saving...' : 'Save Changes'}
          </Button>
        </div>
      </div>
      {guard.dialog}
    </FormProvider>
  );
}
