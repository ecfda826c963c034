import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { todayIsoDate } from '@kinchart/shared/common';
import {
  INVITATION_TTL_DAYS,
  SHARE_ROLES,
  createShareSchema,
  type CreateShareInput,
  type ShareCreated,
  type ShareRole,
} from '@kinchart/shared/people';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { StatusMessage } from '../../../components/ui/status-message';
import { translateMessageText } from '../../../i18n/message-text';
import { errorMessage, isReauthRequired } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useCreateShare } from '../api/create-share';
import { ROLE_DESCRIPTIONS, ROLE_LABELS, roleAccessLabel } from '../utils/role-words';
import type { SharePerson } from '../utils/share-person';
import { ShareList } from './share-list';

type CreateShareOutput = ReturnType<typeof createShareSchema.parse>;

export interface ShareAccessDialogProps {
  /** The dialog shows while a person is given; null closes it. */
  person: SharePerson | null;
  onClose: () => void;
}

/**
 * Settings → Share access (DESIGN §11): a new single-use invitation link for one person — role,
 * optional end date, optional email (the link goes there when the server sends email) — with Copy
 * link, and everyone who has access or a pending invitation, each with its role and Revoke. For the
 * person's owner and managers only.
 */
export function ShareAccessDialog({ person, onClose }: ShareAccessDialogProps) {
  if (!person) return null;
  // Keyed by person: a fresh form and no old link when it opens for someone else.
  return <ShareAccessPanel key={person.id} person={person} onClose={onClose} />;
}

/** The link just made, and the address it was meant for (the server says whether it emailed it). */
interface Created extends ShareCreated {
  email: string | null;
}

function ShareAccessPanel({ person, onClose }: { person: SharePerson; onClose: () => void }) {
  const { t } = useLingui();
  const name = person.label;
  const [created, setCreated] = useState<Created | null>(null);
  const [another, setAnother] = useState(false);
  return (
    <Modal
      open
      onClose={onClose}
      title={t`Share access to ${name}`}
      description={t`Invite someone to see or help keep this chart. They sign in with their own account.`}
      size="lg"
      footer={
        <Button variant="secondary" onClick={onClose}>
          {t`Close`}
        </Button>
      }
    >
      <div className="flex flex-col gap-6">
        {created ? (
          <InvitationLink
            created={created}
            onAnother={() => {
              setCreated(null);
              setAnother(true);
            }}
          />
        ) : (
          <NewInvitationForm personId={person.id} onCreated={setCreated} focusOnMount={another} />
        )}
        <ShareList person={person} />
      </div>
    </Modal>
  );
}

interface NewInvitationFormProps {
  personId: string;
  onCreated: (created: Created) => void;
  /** Back from a link to a fresh form: focus its chosen role (the dialog focuses it on first opening). */
  focusOnMount: boolean;
}

function NewInvitationForm({ personId, onCreated, focusOnMount }: NewInvitationFormProps) {
  const { t } = useLingui();
  const formId = useId();
  const rolesRef = useRef<HTMLFieldSetElement>(null);
  const headingId = useId();
  const create = useCreateShare(personId);
  const [status, setStatus] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<CreateShareInput, unknown, CreateShareOutput>({
    resolver: zodResolver(createShareSchema),
    defaultValues: { role: 'viewer', expires_at: '', email: '' },
  });

  useEffect(() => {
    if (focusOnMount) rolesRef.current?.querySelector<HTMLInputElement>('input:checked')?.focus();
    // When the form appears: focusOnMount never changes while one form is shown (a new form is mounted for "another").
  }, [focusOnMount]);

  const onSubmit = handleSubmit(async (values) => {
    setStatus(null);
    try {
      onCreated({ ...(await create.mutateAsync(values)), email: values.email });
    } catch (error) {
      // Creating a share needs a recent password (DESIGN §5); the prompt was cancelled.
      if (isReauthRequired(error)) setStatus(t`The invitation was not created: your password was not confirmed.`);
      else setStatus(errorMessage(error, t`Failed to create the invitation`, t`Error creating the invitation`));
    }
  });

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        <Trans>New invitation</Trans>
      </h3>
      <form id={formId} onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-busy={isSubmitting}>
        <fieldset ref={rolesRef} className="flex flex-col gap-2" disabled={isSubmitting}>
          <legend className="mb-1 text-sm font-medium text-slate-800">{t({ message: 'Role', context: 'sharing role' })}</legend>
          {SHARE_ROLES.map((role) => (
            <RoleOption key={role} role={role} {...register('role')} />
          ))}
          {errors.role?.message ? <p className="text-sm font-medium text-red-700">{translateMessageText(errors.role.message)}</p> : null}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label={t`Access ends (optional)`}
            type="date"
            min={todayIsoDate()}
            hint={t`Leave empty to keep access until you revoke it.`}
            disabled={isSubmitting}
            error={fieldError(errors.expires_at?.message)}
            {...register('expires_at')}
          />
          <Field
            label={t`Email (optional)`}
            type="email"
            autoComplete="off"
            hint={t`We email the link to this address when this server sends email. It also labels the invitation in the list.`}
            disabled={isSubmitting}
            error={fieldError(errors.email?.message)}
            {...register('email')}
          />
        </div>
        <div>
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? t`Creating link...` : t`Create invitation link`}
          </Button>
        </div>
        <StatusMessage message={status} />
      </form>
    </section>
  );
}

function RoleOption({ role, ...field }: UseFormRegisterReturn<'role'> & { role: ShareRole }) {
  const { t } = useLingui();
  const id = useId();
  return (
    <label
      htmlFor={id}
      className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 px-3 py-2 has-checked:border-brand-700 has-checked:bg-brand-50"
    >
      {/* The whole card is the label (a large target); the name is the role, its line the description. */}
      <input
        id={id}
        type="radio"
        value={role}
        aria-labelledby={`${id}-name`}
        aria-describedby={`${id}-description`}
        className="mt-1 size-4 shrink-0 accent-brand-700"
        {...field}
      />
      <span className="flex flex-col">
        <span id={`${id}-name`} className="font-semibold text-slate-900">
          {t(ROLE_LABELS[role])}
        </span>
        <span id={`${id}-description`} className="text-sm text-slate-700">
          {t(ROLE_DESCRIPTIONS[role])}
        </span>
      </span>
    </label>
  );
}

/** Who sends the link: the server did, by email, or the inviter does. */
function sending(created: Created): string {
  const email = created.email;
  if (created.emailed && email) return t`We emailed the link to ${email}. You can also copy it.`;
  if (email) return t`This server does not send email, so send the link to ${email} yourself.`;
  return t`Send the link yourself.`;
}

/** "Editor access, until Mar 4, 2026." */
function accessWords(created: Created): string {
  const access = roleAccessLabel(created.role);
  if (!created.expires_at)
    return t({ message: `${access}, no end date.`, comment: 'An invitation link just made: "Editor access, no end date."' });
  const date = formatDate(created.expires_at);
  return t({ message: `${access}, until ${date}.`, comment: 'An invitation link just made: "Editor access, until Mar 4, 2026."' });
}

/** A form's message: the shared schema's English, in the reader's language. */
const fieldError = (message: string | undefined) => (message ? translateMessageText(message) : undefined);

/** The link just made, with Copy link; the confirmation shows beside the button and is announced. */
function InvitationLink({ created, onAnother }: { created: Created; onAnother: () => void }) {
  const { t } = useLingui();
  const headingId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const copyRef = useRef<HTMLButtonElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  // The server answers with the full link (its PUBLIC_URL); a bare path is read against this site.
  const link = new URL(created.invite_url, window.location.origin).href;

  // The form that had focus is gone: focus goes to the obvious next step, and is announced with the section.
  useEffect(() => copyRef.current?.focus(), []);

  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopy('copied');
    } catch {
      setCopy('failed');
      inputRef.current?.select();
    }
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4">
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        <Trans>Invitation link</Trans>
      </h3>
      <p className="text-sm text-slate-800">
        {accessWords(created)} {sending(created)}{' '}
        {plural(INVITATION_TTL_DAYS, { one: 'It works once and expires in # day.', other: 'It works once and expires in # days.' })}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          ref={inputRef}
          readOnly
          value={link}
          aria-label={t`Invitation link`}
          onFocus={(event) => event.currentTarget.select()}
          className="block w-full min-w-0 rounded-lg border border-slate-400 bg-white px-3 py-2 font-mono text-sm text-slate-900"
        />
        <Button ref={copyRef} onClick={() => void onCopy()} className="shrink-0">
          {t`Copy link`}
        </Button>
      </div>
      <div role="status" aria-live="polite">
        {copy === 'copied' ? <p className="text-sm font-semibold text-green-800">{t`Link copied to clipboard!`}</p> : null}
      </div>
      {copy === 'failed' ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          <Trans>The link could not be copied. Select it and copy it by hand.</Trans>
        </p>
      ) : null}
      <div>
        <Button variant="secondary" size="sm" onClick={onAnother}>
          {t`Create another link`}
        </Button>
      </div>
    </section>
  );
}
