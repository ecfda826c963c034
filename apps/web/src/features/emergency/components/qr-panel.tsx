import { useId, useState, type FormEvent } from 'react';
import { select } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { QR_NOT_CONFIGURED, type QrConfig } from '@kinchart/shared/emergency';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ApiError, serverMessage } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { notify } from '../../../lib/toast';
import { useQrConfig } from '../api/get-qr-config';
import { qrConfigKey, type QrTarget } from '../api/qr-target';
import { useSetUpQr } from '../api/set-up-qr';
import { useToggleQr } from '../api/toggle-qr';
import { useUpdateQrPin } from '../api/update-qr-pin';
import { PinInput, isCompletePin, pinFormatMessage } from './pin-input';
import { ShlOffer } from '../../shl/components/shl-offer';
import { QrCodeFigure } from './qr-code-figure';
import { qrLink } from './qr-link';
import { QrPinOptions } from './qr-pin-options';
import { QrSetupForm } from './qr-setup-form';
import { whoseParts, type Whose } from './whose';

/** The texts that differ between the personal code and a member's (SPEC §8 QR). */
export interface QrPanelTexts {
  heading: string;
  /** Who the code is for, in running text: "your" / "Rex's". */
  whose: Whose;
  /** After a toggle answered 404. */
  setUpFirst: string;
  /** A failed PIN change the server gave no reason for. */
  pinUpdateFailed: string;
}

export interface QrPanelProps {
  target: QrTarget;
  texts: QrPanelTexts;
  headingLevel?: 2 | 3;
}

type Message = { text: string; tone: 'success' | 'error' };

/** A 400 carries the server's reason (format, or "too easy to guess"); anything else gets the spec's text. */
function pinRefusal(error: unknown, fallback: string): string {
  return (error instanceof ApiError && error.status === 400 && serverMessage(error)) || fallback;
}

/**
 * One emergency QR code, for the signed-in person or one family member: set up with a PIN,
 * activate or deactivate, change the PIN, and — only while active — the code, its link and a copy
 * button (SPEC §2 Settings, §4 "QR code per person"). Written once, mounted for both kinds.
 */
export function QrPanel({ target, texts, headingLevel = 2 }: QrPanelProps) {
  const headingId = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const queryClient = useQueryClient();
  const config = useQrConfig(target);
  const setUp = useSetUpQr(target);
  const toggle = useToggleQr(target);
  const updatePin = useUpdateQrPin(target);
  const [message, setMessage] = useState<Message | null>(null);
  const [confirmingDeactivate, setConfirmingDeactivate] = useState(false);
  const { t } = useLingui();
  const { who, name } = whoseParts(texts.whose);
  // SPEC §5: a status message is green when it tells of a success, otherwise red.
  const say = (text: string, tone: Message['tone'] = 'error') => setMessage({ text, tone });

  /** SPEC §4: a toggle answered 404 means there is no code — show the set-up form again. */
  const resetToSetUp = () => {
    queryClient.setQueryData<QrConfig>(qrConfigKey(target), QR_NOT_CONFIGURED);
    say(texts.setUpFirst);
  };

  const onSetUp = async (pin: string, essentialsWithoutPin: boolean) => {
    setMessage(null);
    try {
      const answer = await setUp.mutateAsync({ pin, essentials_without_pin: essentialsWithoutPin });
      say(serverText(answer) ?? t`QR code set up successfully`, 'success');
      return true;
    } catch (error) {
      say(pinRefusal(error, t`Error setting up QR code`));
      return false;
    }
  };

  const onToggle = async (current: QrConfig) => {
    setMessage(null);
    try {
      const answer = await toggle.mutateAsync(!current.is_active);
      say(answer.is_active ? t`QR code activated successfully` : t`QR code deactivated successfully`, 'success');
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) resetToSetUp();
      else say(t`Error toggling QR code`);
    } finally {
      setConfirmingDeactivate(false);
    }
  };

  const onUpdatePin = async (pin: string) => {
    setMessage(null);
    try {
      await updatePin.mutateAsync(pin);
      say(t`PIN updated successfully`, 'success');
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) resetToSetUp();
      else say(pinRefusal(error, texts.pinUpdateFailed));
      return false;
    }
  };

  const onCopy = async (link: string) => {
    try {
      await navigator.clipboard.writeText(link);
      notify.success(t`Link copied to clipboard!`);
    } catch {
      notify.error(t`The link could not be copied. Select it and copy it by hand.`);
    }
  };

  /** A code that exists: its state, the switch with its question, the code and its link, the PIN change. */
  const renderCode = (current: QrConfig) => {
    const link = qrLink(current, target);
    return (
      <div className="flex flex-col gap-5">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-medium text-slate-700">
            <Trans>Status</Trans>
          </dt>
          <dd>
            <span
              className={`inline-flex rounded-full px-2.5 py-0.5 text-sm font-semibold ${
                current.is_active ? 'bg-green-100 text-green-800' : 'bg-slate-200 text-slate-800'
              }`}
            >
              {current.is_active
                ? t({ message: 'Active', context: 'QR code status' })
                : t({ message: 'Inactive', context: 'QR code status' })}
            </span>
          </dd>
          <dt className="font-medium text-slate-700">
            <Trans>Current PIN</Trans>
          </dt>
          <dd className="font-mono text-base tracking-widest text-slate-900">
            <span aria-hidden="true">{current.access_pin ?? '••••'}</span>
            <span className="sr-only">
              <Trans>Hidden</Trans>
            </span>
          </dd>
        </dl>

        {current.is_disabled ? (
          <p className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
            <Trans>
              This code was switched off automatically after too many wrong PIN attempts. If you did not expect that, change the PIN before
              you activate it again.
            </Trans>
          </p>
        ) : null}

        {/* DESIGN §7: the lock/disable notice with its one action, and essentials without the PIN. */}
        <QrPinOptions target={target} config={current} whose={texts.whose} />

        <div>
          <Button
            variant={current.is_active ? 'secondary' : 'primary'}
            disabled={toggle.isPending}
            // Issue 30: deactivating stops every printed card and link at once, so it asks first.
            onClick={() => (current.is_active ? setConfirmingDeactivate(true) : void onToggle(current))}
          >
            {current.is_active ? t`Deactivate` : t`Activate`}
          </Button>
        </div>
        <ConfirmDialog
          open={confirmingDeactivate && current.is_active}
          title={t`${select(who, {
            self: 'Deactivate your QR code?',
            named: `Deactivate ${name}’s QR code?`,
            other: 'Deactivate this member’s QR code?',
          })}`}
          message={t`While it is inactive, scanning the code or opening its link shows only that it is not available: no essentials and no emergency information, even with the PIN. Printed cards, wristbands, lock-screen images and its SMART Health Link stop working until you activate it again.`}
          confirmLabel={t`Deactivate`}
          busy={toggle.isPending}
          busyLabel={t`Deactivating...`}
          onConfirm={() => void onToggle(current)}
          onCancel={() => setConfirmingDeactivate(false)}
        />

        {current.is_active && link ? (
          <div className="flex w-full max-w-md flex-col items-center gap-3 rounded-xl border border-slate-200 bg-slate-50 p-4">
            <QrCodeFigure
              link={link}
              label={t`${select(who, {
                self: 'QR code linking to your emergency information',
                named: `QR code linking to ${name}’s emergency information`,
                other: 'QR code linking to this member’s emergency information',
              })}`}
            />
            <Button variant="secondary" size="sm" onClick={() => void onCopy(link)}>
              <Trans>Copy Link</Trans>
            </Button>
          </div>
        ) : (
          <p className="text-sm text-slate-700">
            <Trans>The code and its link are hidden while the code is inactive. Anyone who scans it sees that it is not available.</Trans>
          </p>
        )}

        {/* Decision 0004: the same information as a SMART Health Link, offered beside the plain QR code. */}
        <ShlOffer target={target} active={current.is_active} whose={texts.whose} />

        <PinForm
          label={t`New PIN`}
          submitLabel={t`Update PIN`}
          busyLabel={t`Updating...`}
          busy={updatePin.isPending}
          onSubmit={onUpdatePin}
        />
      </div>
    );
  };

  const body = (
    <QueryState
      query={config}
      loading={t`Loading QR code...`}
      error={t`Error fetching QR configuration`}
      isEmpty={(current) => !current.exists}
      empty={
        <>
          <p className="mb-4 text-slate-700">
            {t`${select(who, {
              self: 'No QR code is set up yet. Choose a 4-digit PIN to create your code; it becomes active straight away.',
              named: `No QR code is set up yet. Choose a 4-digit PIN to create ${name}’s code; it becomes active straight away.`,
              other: 'No QR code is set up yet. Choose a 4-digit PIN to create this member’s code; it becomes active straight away.',
            })}`}
          </p>
          <QrSetupForm whose={texts.whose} busy={setUp.isPending} onSubmit={onSetUp} />
        </>
      }
    >
      {renderCode}
    </QueryState>
  );

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <Heading
        id={headingId}
        className={headingLevel === 2 ? 'text-xl font-semibold text-slate-900' : 'text-lg font-semibold text-slate-900'}
      >
        {texts.heading}
      </Heading>
      <p className="mt-1 mb-4 text-sm text-slate-700">
        {config.data?.exists && config.data.essentials_without_pin
          ? t`${select(who, {
              self: 'Whoever scans your code, or opens its link, sees the essentials straight away and the rest of your emergency medical information after entering the PIN.',
              named: `Whoever scans ${name}’s code, or opens its link, sees the essentials straight away and the rest of ${name}’s emergency medical information after entering the PIN.`,
              other:
                'Whoever scans this member’s code, or opens its link, sees the essentials straight away and the rest of this member’s emergency medical information after entering the PIN.',
            })}`
          : t`${select(who, {
              self: 'Whoever scans your code, or opens its link, sees your emergency medical information after entering the PIN.',
              named: `Whoever scans ${name}’s code, or opens its link, sees ${name}’s emergency medical information after entering the PIN.`,
              other:
                'Whoever scans this member’s code, or opens its link, sees this member’s emergency medical information after entering the PIN.',
            })}`}{' '}
        <Trans>You are notified when it is opened; views within 15 minutes are counted in one notice.</Trans>
      </p>
      <div aria-live="polite">
        {message ? (
          <p
            data-tone={message.tone}
            className={`mb-4 rounded-lg px-4 py-2 text-sm font-medium ${
              message.tone === 'success' ? 'bg-green-50 text-green-800' : 'bg-red-50 text-red-800'
            }`}
          >
            {message.text}
          </p>
        ) : null}
      </div>
      {body}
    </section>
  );
}

interface PinFormProps {
  label: string;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  /** Resolves true when the PIN was accepted, so the field can be cleared. */
  onSubmit: (pin: string) => Promise<boolean>;
}

/** SPEC §5 PIN: digits only, at most 4; the button stays disabled until there are 4. */
function PinForm({ label, submitLabel, busyLabel, busy, onSubmit }: PinFormProps) {
  const { t } = useLingui();
  const [pin, setPin] = useState('');
  const [touched, setTouched] = useState(false);
  const complete = isCompletePin(pin);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (!complete || busy) return;
    if (await onSubmit(pin)) {
      setPin('');
      setTouched(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <PinInput
        label={label}
        value={pin}
        onValueChange={setPin}
        onBlur={() => setTouched(pin.length > 0)}
        error={touched && !complete ? pinFormatMessage() : undefined}
        hint={t`4 digits. Avoid easy ones such as 1234 or 1111.`}
        action={
          <Button type="submit" disabled={!complete || busy}>
            {busy ? busyLabel : submitLabel}
          </Button>
        }
      />
    </form>
  );
}
