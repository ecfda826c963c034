import { useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLocation } from 'react-router';
import { useHashTarget } from '../../../lib/use-hash-target';
import { editorTabOfHash } from '../lib/editor-anchors';
import { FormProvider, useForm, type FieldErrors } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { FamilyMember } from '@kinchart/shared/profile';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { Tabs } from '../../../components/ui/tabs';
import { useUnsavedChangesGuard } from '../../../components/ui/unsaved-changes-guard';
import { notify } from '../../../lib/toast';
import { MemberQrPanel } from '../../emergency/components/member-qr-panel';
import { useFamilyMember } from '../api/get-family-member';
import { useUpdateFamilyMember } from '../api/update-family-member';
import { errorMessage } from '../../../lib/api-client';
import { useFocusFirstInvalid } from '../lib/use-focus-first-invalid';
import {
  familyFormSchema,
  tabOfField,
  toFamilyFormValues,
  toFamilyPayload,
  type FamilyFormInput,
  type FamilyFormOutput,
  type ProfileTab,
} from '../lib/profile-form';
import { AdditionalInfoFields } from './additional-info-fields';
import { BasicInfoFields } from './basic-info-fields';
import { MedicalConditionsFields } from './medical-conditions-fields';
import { MemberEmergencyContacts, MemberHealthcareProviders, MemberMedications } from './member-profile-lists';
import { StatusMessage } from '../../../components/ui/status-message';
import { useUnits } from '../../../i18n/language-provider';
import { translateMessageText } from '../../../i18n/message-text';

type MemberTab = ProfileTab | 'qr';

export interface FamilyMemberEditorProps {
  /** 'modal': a dialog whose Save Changes closes it; 'page': Update Family Member, then the caller moves on (SPEC §2). */
  variant: 'modal' | 'page';
  /** The id from the route (/edit-family-member/{id}). */
  memberId?: string | undefined;
  /** A member passed in (the settings cards); wins over `memberId`. */
  member?: { id: string; name?: string | null | undefined } | undefined;
  onSaved: () => void;
  onCancel: () => void;
}

const panelClass = 'rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6';

/** The dialog around the editor, or nothing but the editor and its buttons on the page. */
function Frame({
  variant,
  description,
  onClose,
  body,
  actions,
}: {
  variant: FamilyMemberEditorProps['variant'];
  description?: string | null | undefined;
  onClose: () => void;
  body: ReactNode;
  actions: ReactNode;
}) {
  const { t } = useLingui();
  if (variant === 'modal') {
    return (
      <Modal open onClose={onClose} title={t`Edit Family Member`} description={description ?? undefined} size="xl" footer={actions}>
        {body}
      </Modal>
    );
  }
  return (
    <>
      {body}
      <div className="mt-6 flex flex-wrap justify-end gap-2">{actions}</div>
    </>
  );
}

/**
 * SPEC §2 Family member dialogs — Edit Family Member, as a modal or as the /edit-family-member/{id}
 * page. It reads the member id from the route or from a member passed in and loads the member. The
 * member's own fields are sent with one PUT (SPEC §7); its lists are saved entry by entry as they
 * are changed, the way the own profile's are. Leaving with unsaved fields asks first.
 */
export function FamilyMemberEditor(props: FamilyMemberEditorProps) {
  const { t } = useLingui();
  const id = props.member?.id ?? props.memberId;
  const query = useFamilyMember(id);

  if (query.isSuccess) {
    const { variant, onSaved, onCancel } = props;
    return <MemberForm key={query.data.id} member={query.data} variant={variant} onSaved={onSaved} onCancel={onCancel} />;
  }

  const closeButton = (
    <Button variant="secondary" onClick={props.onCancel}>
      {props.variant === 'modal' ? t`Close` : t`Cancel`}
    </Button>
  );
  let body: ReactNode;
  if (!id) body = <StatusMessage message={t`No member ID provided`} />;
  else if (query.isError) body = <StatusMessage message={errorMessage(query.error, t`Failed to load family member data`)} />;
  else
    body = (
      <p role="status" className="py-8 text-slate-700">
        <Trans>Loading family member...</Trans>
      </p>
    );
  return <Frame variant={props.variant} description={props.member?.name} onClose={props.onCancel} body={body} actions={closeButton} />;
}

function MemberForm({
  member,
  variant,
  onSaved,
  onCancel,
}: Pick<FamilyMemberEditorProps, 'variant' | 'onSaved' | 'onCancel'> & { member: FamilyMember }) {
  const { t } = useLingui();
  const units = useUnits();
  const update = useUpdateFamilyMember();
  // The lists as the server holds them now: each list tab saves on its own and the member is read
  // again, while the fields below keep what the person is typing.
  const current = useFamilyMember(member.id).data ?? member;
  const { hash } = useLocation();
  const [tab, setTab] = useState<MemberTab>(() => editorTabOfHash(hash) ?? 'basic');
  useHashTarget();
  const [status, setStatus] = useState<string | null>(null);
  const form = useForm<FamilyFormInput, unknown, FamilyFormOutput>({
    resolver: zodResolver(familyFormSchema),
    defaultValues: toFamilyFormValues(member),
    shouldFocusError: false,
  });

  const guard = useUnsavedChangesGuard(form.formState.isDirty);
  const cancel = () => guard.confirmLeave(onCancel);

  const focusFirstInvalid = useFocusFirstInvalid(form.setFocus, (field) => setTab(tabOfField(field)));
  const onInvalid = (errors: FieldErrors<FamilyFormInput>) => {
    setStatus(t`Please correct the highlighted fields.`);
    focusFirstInvalid(errors);
  };

  const save = form.handleSubmit(async (values) => {
    setStatus(null);
    try {
      const answer = await update.mutateAsync({ id: member.id, input: toFamilyPayload(values, units, member) });
      notify.success(answer.message ? translateMessageText(answer.message) : t`Family member updated successfully!`);
      guard.release();
      onSaved();
    } catch (error) {
      setStatus(errorMessage(error, t`Failed to update family member`));
    }
  }, onInvalid);

  const busy = form.formState.isSubmitting;
  const saveLabel = variant === 'modal' ? t`Save Changes` : t`Update Family Member`;

  const body = (
    <FormProvider {...form}>
      <Tabs<MemberTab>
        label={t`Family member sections`}
        value={tab}
        onChange={setTab}
        items={[
          {
            id: 'basic',
            label: t`Basic Information`,
            content: (
              <div className={panelClass}>
                <BasicInfoFields variant="member" />
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
            id: 'additional',
            label: t`Additional Information`,
            content: (
              <div className={panelClass}>
                <AdditionalInfoFields />
              </div>
            ),
          },
          {
            id: 'contacts',
            label: t`Emergency Contacts`,
            content: (
              <div className={panelClass}>
                <MemberEmergencyContacts memberId={member.id} contacts={current.emergency_contacts} />
              </div>
            ),
          },
          {
            id: 'providers',
            label: t`Healthcare Providers`,
            content: (
              <div className={panelClass}>
                <MemberHealthcareProviders memberId={member.id} providers={current.healthcare_providers} />
              </div>
            ),
          },
          {
            id: 'medications',
            label: t`Medications`,
            content: (
              <div className={panelClass}>
                <MemberMedications memberId={member.id} medications={current.medications} />
              </div>
            ),
          },
          {
            id: 'qr',
            label: t`Emergency QR`,
            // The panel brings its own card.
            content: <MemberQrPanel memberId={member.id} memberName={member.name} />,
          },
        ]}
      />
      <StatusMessage message={status} className="mt-4" />
      {guard.dialog}
    </FormProvider>
  );

  const actions = (
    <>
      <Button variant="secondary" onClick={cancel} disabled={busy}>
        <Trans>Cancel</Trans>
      </Button>
      <Button onClick={() => void save()} disabled={busy}>
        {busy ? t`Saving...` : saveLabel}
      </Button>
    </>
  );

  return <Frame variant={variant} description={member.name} onClose={cancel} body={body} actions={actions} />;
}
