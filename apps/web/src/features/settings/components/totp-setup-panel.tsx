import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Trans, useLingui } from '@lingui/react/macro';
import { zodResolver } from '@hookform/resolvers/zod';
import { QRCodeSVG } from 'qrcode.react';
import { totpConfirmSchema, type TotpConfirmInput, type TotpSetupResponse } from '@kinchart/shared/auth';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { translateMessageText } from '../../../i18n/message-text';
import { useConfirmTotp } from '../api/confirm-totp';

/** The key in groups of four, as authenticator apps show and accept it. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * Setting up TOTP: scan the QR code (or type the key), then prove it with a code. The factor is on
 * only once the server has seen a right code; the recovery codes come back with that answer.
 */
export function TotpSetupPanel({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TotpSetupResponse;
  onEnabled: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const keyLabelId = useId();
  const confirm = useConfirmTotp();
  const [status, setStatus] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<TotpConfirmInput>({ resolver: zodResolver(totpConfirmSchema), defaultValues: { code: '' } });

  const onSubmit = handleSubmit(async ({ code }) => {
    setStatus(null);
    try {
      const { recovery_codes } = await confirm.mutateAsync({ code });
      onEnabled(recovery_codes);
    } catch (error) {
      reset({ code: '' });
      setStatus(errorMessage(error, t`Failed to turn on two-factor authentication`));
    }
  });

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3 text-sm text-slate-800">
        <h4 className="text-base font-semibold text-slate-900">
          <Trans>1. Scan the QR code</Trans>
        </h4>
        <p>
          <Trans>
            Open your authenticator app (for example Google Authenticator, Microsoft Authenticator, 1Password or Aegis) and scan this code.
          </Trans>
        </p>
        <QRCodeSVG
          value={setup.otpauth_url}
          size={184}
          level="M"
          marginSize={4}
          bgColor="#ffffff"
          fgColor="#000000"
          role="img"
          aria-label={t`QR code to scan with your authenticator app`}
          className="self-center rounded-md border border-slate-200 bg-white sm:self-start"
        />
        <p id={keyLabelId}>
          <Trans>Can’t scan it? Enter this setup key in the app instead:</Trans>
        </p>
        <code
          aria-labelledby={keyLabelId}
          className="self-stretch rounded-md bg-slate-100 px-3 py-2 font-mono text-base tracking-wide break-words text-slate-900 sm:self-start"
        >
          {grouped(setup.secret)}
        </code>
      </div>
      <form onSubmit={onSubmit} noValidate aria-busy={isSubmitting} className="flex max-w-xs flex-col gap-3">
        <h4 className="text-base font-semibold text-slate-900">
          <Trans>2. Enter the code it shows</Trans>
        </h4>
        <Field
          label={t`Enter the 6-digit code from the app`}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={9}
          placeholder="123456"
          className="font-mono text-lg tracking-widest"
          error={errors.code?.message === undefined ? undefined : translateMessageText(errors.code.message)}
          {...register('code')}
        />
        <StatusMessage message={status} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? t`Turning on...` : t`Turn on`}
          </Button>
          <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
            <Trans>Cancel</Trans>
          </Button>
        </div>
      </form>
    </div>
  );
}
