import type { ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { useAuth } from '../../auth/api/check-auth';
import { DataPortabilitySection } from '../../import/components/data-portability-section';
import { KeepCardsSetting } from '../../offline-cards/components/keep-cards-setting';
import { CalendarFeedsSection } from './calendar-feeds-section';
import { PushDeviceSetting } from '../../reminders/components/push-device-setting';
import { OtherPushDevices } from '../../reminders/components/other-push-devices';
import { ChangeEmailForm } from './change-email-form';
import { ChangePasswordForm } from './change-password-form';
import { DeleteAccountSection } from './delete-account-section';
import { DocumentLanguagesSection } from './document-languages-section';
import { EmailVerificationStatus } from './email-verification-status';
import { LanguageUnitsSection } from './language-units-section';
import { PasskeysSection } from './passkeys-section';
import { SessionsSection } from './sessions-section';
import { StorageUsage } from './storage-usage';
import { TimeZoneRemindersSection } from './time-zone-reminders-section';
import { TwoFactorSection } from './two-factor-section';

function SettingsSection({
  id,
  title,
  tone = 'normal',
  children,
}: {
  id: string;
  title: string;
  tone?: 'normal' | 'danger';
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className={`flex flex-col gap-4 rounded-2xl border bg-white p-4 shadow-sm sm:p-6 ${
        tone === 'danger' ? 'border-red-300' : 'border-slate-200'
      }`}
    >
      <h3 id={id} className={`text-lg font-semibold ${tone === 'danger' ? 'text-red-800' : 'text-slate-900'}`}>
        {title}
      </h3>
      {children}
    </section>
  );
}

/** Settings → Account Settings (SPEC §2). */
export function AccountSettingsTab({ onManageFamily }: { onManageFamily: () => void }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const auth = useAuth();
  const email = auth.data?.authenticated ? auth.data.user.email : undefined;
  return (
    <div className="flex flex-col gap-6">
      <h2 className="text-xl font-semibold text-slate-900">
        <Trans>Account Settings</Trans>
      </h2>

      <SettingsSection id="settings-profile-heading" title={t`Profile and Family`}>
        <p className="text-sm text-slate-700">
          <Trans>Update your own details or the profiles of the people and pets you look after.</Trans>
        </p>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => void navigate('/edit-profile')}>
            <Trans>Edit Profile</Trans>
          </Button>
          <Button variant="secondary" onClick={onManageFamily}>
            <Trans>Manage Family</Trans>
          </Button>
        </div>
      </SettingsSection>

      {/* Issue 35: the language of every screen, email and PDF, and the units of heights and weights. */}
      <SettingsSection id="settings-language-heading" title={t`Language and units`}>
        <LanguageUnitsSection />
      </SettingsSection>

      {/* Issue 32: the account's time zone and reminder channels. */}
      <SettingsSection id="settings-time-heading" title={t`Time zone and reminders`}>
        <TimeZoneRemindersSection />
      </SettingsSection>

      {/* Issue 33: the languages scans and photos are read in. */}
      <SettingsSection id="settings-documents-heading" title={t`Documents`}>
        <DocumentLanguagesSection />
      </SettingsSection>

      {/* Issue 32, docs/decisions/0045: private calendar feeds. */}
      <SettingsSection id="settings-calendar-heading" title={t`Calendar`}>
        <CalendarFeedsSection />
      </SettingsSection>

      <SettingsSection id="settings-password-heading" title={t`Change Password`}>
        <ChangePasswordForm />
      </SettingsSection>

      <SettingsSection id="settings-email-heading" title={t`Change Email Address`}>
        <EmailVerificationStatus />
        <ChangeEmailForm currentEmail={email} />
      </SettingsSection>

      {/* DESIGN §5: the second factor (docs/decisions/0026). */}
      <SettingsSection id="settings-security-heading" title={t`Two-Factor Authentication`}>
        <TwoFactorSection />
      </SettingsSection>

      {/* DESIGN §5: phishing-resistant sign-in, alone or as the second step (docs/decisions/0027). */}
      <SettingsSection id="settings-passkeys-heading" title={t`Passkeys`}>
        <PasskeysSection />
      </SettingsSection>

      {/* DESIGN §5: every browser signed in to the account, each of which can be signed out. */}
      <SettingsSection id="settings-sessions-heading" title={t`Sessions`}>
        <SessionsSection />
      </SettingsSection>

      {/* DESIGN §7: the owner's emergency cards, kept offline on this device (PWA). */}
      {auth.data?.authenticated ? (
        <SettingsSection id="settings-offline-heading" title={t`Emergency cards on this device`}>
          <KeepCardsSetting userId={auth.data.user.id} />
        </SettingsSection>
      ) : null}

      {/* Issue 32: medication and appointment reminders as Web Push notifications on this device;
          the account's other browsers that receive them, each of which can be stopped (decision 0044). */}
      <SettingsSection id="settings-push-heading" title={t`Reminders on this device`}>
        <PushDeviceSetting />
        <OtherPushDevices />
      </SettingsSection>

      {/* DESIGN §5 storage quota: what the account's files take, beside where imports add more. */}
      <SettingsSection id="settings-storage-heading" title={t`Storage`}>
        <StorageUsage />
      </SettingsSection>

      {/* Decision 0004: the Settings entry for Import, beside the top bar's Export. */}
      <SettingsSection id="settings-data-heading" title={t`Import and Export`}>
        <DataPortabilitySection />
      </SettingsSection>

      <SettingsSection id="settings-danger-heading" title={t`Danger Zone`} tone="danger">
        <DeleteAccountSection />
      </SettingsSection>
    </div>
  );
}
