import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useLingui } from '@lingui/react/macro';
import { PageHeader } from '../../../components/ui/page-header';
import { Tabs } from '../../../components/ui/tabs';
import { FamilyQrCodesTab } from '../../emergency/components/family-qr-codes-tab';
import { PersonalQrTab } from '../../emergency/components/personal-qr-tab';
import { SharedWithMeSection } from '../../sharing/components/shared-with-me-section';
import { AccountSettingsTab } from '../components/account-settings-tab';
import { FAMILY_HEADING_ID, FamilyMembersTab } from '../components/family-members-tab';

const TABS = ['account', 'family', 'personal-qr', 'family-qr'] as const;
type SettingsTab = (typeof TABS)[number];

/** SPEC §2: Personal QR Code is the default tab. */
const DEFAULT_TAB: SettingsTab = 'personal-qr';

function isSettingsTab(value: string | null): value is SettingsTab {
  return (TABS as readonly (string | null)[]).includes(value);
}

/**
 * /settings — a side menu of four tabs (SPEC §2). The chosen tab is kept in the address (?tab=),
 * so a reload or a shared link opens the same tab.
 */
export function SettingsPage() {
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: SettingsTab = isSettingsTab(requested) ? requested : DEFAULT_TAB;
  const [focusFamily, setFocusFamily] = useState(false);

  const selectTab = (next: SettingsTab) => {
    setParams(next === DEFAULT_TAB ? {} : { tab: next }, { replace: true, preventScrollReset: true });
  };

  // Manage Family switches tabs; move focus along so keyboard and screen reader users follow.
  useEffect(() => {
    if (!focusFamily || tab !== 'family') return;
    document.getElementById(FAMILY_HEADING_ID)?.focus();
    setFocusFamily(false);
  }, [focusFamily, tab]);

  return (
    <>
      <PageHeader title={t`Settings`} />
      <Tabs<SettingsTab>
        label={t`Settings`}
        orientation="vertical"
        value={tab}
        onChange={selectTab}
        items={[
          {
            id: 'account',
            label: t`Account Settings`,
            content: (
              <AccountSettingsTab
                onManageFamily={() => {
                  selectTab('family');
                  setFocusFamily(true);
                }}
              />
            ),
          },
          {
            id: 'family',
            label: t`Family Members`,
            // DESIGN §11: beside your own people, the people others share with you.
            content: (
              <div className="flex flex-col gap-10">
                <FamilyMembersTab />
                <SharedWithMeSection />
              </div>
            ),
          },
          { id: 'personal-qr', label: t`Personal QR Code`, content: <PersonalQrTab /> },
          { id: 'family-qr', label: t`Family QR Codes`, content: <FamilyQrCodesTab /> },
        ]}
      />
    </>
  );
}
