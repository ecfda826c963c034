import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../lib/toast';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { useDeleteAccount } from '../api/delete-account';

/** The password prompt of SPEC §4 account deletion, as a labelled dialog instead of window.prompt. */
function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useLingui();
  const formId = useId();
  const navigate = useNavigate();
  const remove = useDeleteAccount();
  const [status, setStatus] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<{ password: string }>({ defaultValues: { password: '' } });

  const onSubmit = handleSubmit(async ({ password }) => {
    setStatus(null);
    try {
      const answer = await remove.mutateAsync({ password });
      notify.success(serverText(answer) ?? t`Account deleted successfully`);
      // The session is gone and the cache cleared; SPEC §4: then to /login.
      await navigate('/login', { replace: true });
    } catch (error) {
      setStatus(errorMessage(error, t`Failed to delete account`));
    }
  });

  return (
    <Modal
      open
      onClose={isSubmitting ? () => undefined : onClose}
      closeOnBackdrop={!isSubmitting}
      title={t`Delete Account`}
      description={t`Enter your password to delete your account. This cannot be undone.`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={isSubmitting}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" form={formId} variant="danger" disabled={isSubmitting}>
            {isSubmitting ? t`Deleting...` : t`Delete Account`}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <Field
          label={t`Password`}
          type="password"
          autoComplete="current-password"
          aria-required="true"
          error={errors.password?.message}
          {...register('password', { required: t`Password is required` })}
        />
        <StatusMessage message={status} />
      </form>
    </Modal>
  );
}

/** Settings → Danger Zone: browser confirm, then the password dialog, then deletion and /login (SPEC §4). */
export function DeleteAccountSection() {
  const { t } = useLingui();
  const [prompting, setPrompting] = useState(false);
  return (
    <>
      <p className="text-sm text-slate-700">
        <Trans>Deleting your account removes your profile, family members, records and emergency codes for good.</Trans>
      </p>
      <div>
        <Button
          variant="danger"
          onClick={() => {
            if (
              window.confirm(
                t`Are you sure you want to delete your account? This permanently deletes your profile, family members, records and emergency codes.`,
              )
            )
              setPrompting(true);
          }}
        >
          <Trans>Delete Account</Trans>
        </Button>
      </div>
      {prompting ? <DeleteAccountDialog onClose={() => setPrompting(false)} /> : null}
    </>
  );
}
