import { createBrowserRouter, type RouteObject } from 'react-router';
import { EmergencyLayout } from './layouts/emergency-layout';
import { MarketingLayout } from './layouts/marketing-layout';
import { PageLoading } from './layouts/page-loading';
import { RootLayout } from './layouts/root-layout';
import { loadSignedInNav } from './layouts/signed-in-nav-loader';
import { lazyPage } from './lazy-page';
import { PageError } from './page-error';
import { RouteError } from './route-error';

/*
 * SPEC §2 routes. Layouts are small and load with the app; every page is its own lazy chunk,
 * so the landing page does not pay for the signed-in screens (DESIGN §8, §9). Below each layout
 * a pathless route holds the pages' error boundary, so a page that fails (its chunk through
 * lazyPage, its rendering through PageError) leaves the header, navigation and footer in place.
 */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    HydrateFallback: PageLoading,
    ErrorBoundary: RouteError,
    children: [
      {
        // Marketing pages get their own bar instead of the app header (SPEC §2 Layout).
        Component: MarketingLayout,
        children: [
          {
            ErrorBoundary: PageError,
            children: [
              { index: true, lazy: lazyPage(async () => (await import('../features/marketing/pages/landing-page')).LandingPage) },
              { path: 'about', lazy: lazyPage(async () => (await import('../features/marketing/pages/about-page')).AboutPage) },
              {
                path: 'howitworks',
                lazy: lazyPage(async () => (await import('../features/marketing/pages/how-it-works-page')).HowItWorksPage),
              },
              { path: 'faq', lazy: lazyPage(async () => (await import('../features/marketing/pages/faq-page')).FaqPage) },
            ],
          },
        ],
      },
      {
        // Loaded on demand: the landing page never needs the app header (DESIGN §9 budget).
        lazy: async () => ({ Component: (await import('./layouts/app-layout')).AppLayout }),
        children: [
          {
            ErrorBoundary: PageError,
            children: [
              { path: 'signup', lazy: lazyPage(async () => (await import('../features/auth/pages/signup-page')).SignupPage, ['server']) },
              { path: 'login', lazy: lazyPage(async () => (await import('../features/auth/pages/login-page')).LoginPage, ['server']) },
              {
                // A way back in (docs/decisions/0025): public like /login.
                path: 'forgot-password',
                lazy: lazyPage(async () => (await import('../features/auth/pages/forgot-password-page')).ForgotPasswordPage, ['server']),
              },
              {
                path: 'verify-email',
                lazy: lazyPage(async () => (await import('../features/auth/pages/verify-email-page')).VerifyEmailPage, ['server']),
              },
              {
                path: 'link-account',
                lazy: lazyPage(async () => (await import('../features/auth/pages/link-account-page')).LinkAccountPage, ['server']),
              },
              {
                path: 'reset-password',
                lazy: lazyPage(async () => (await import('../features/auth/pages/reset-password-page')).ResetPasswordPage, ['server']),
              },
              {
                path: 'privacy-policy',
                lazy: lazyPage(async () => (await import('../features/marketing/pages/privacy-policy-page')).PrivacyPolicyPage),
              },
              {
                path: 'terms-of-service',
                lazy: lazyPage(async () => (await import('../features/marketing/pages/terms-of-service-page')).TermsOfServicePage),
              },
              {
                // DESIGN §11: an invitation explains itself before sign-in, so no session check gates it.
                path: 'invite/:token',
                lazy: lazyPage(async () => (await import('../features/sharing/pages/invite-page')).InvitePage, ['server', 'app']),
              },
              {
                // DESIGN §7: the owner's kept emergency cards open offline, so no session check gates them.
                path: 'emergency-cards',
                lazy: lazyPage(
                  async () => (await import('../features/offline-cards/pages/offline-cards-page')).OfflineCardsPage,
                  ['server', 'app'],
                ),
              },
              {
                // The signed-in bar downloads beside the layout, not after the session check.
                lazy: lazyPage(async () => {
                  const [{ PrivateLayout }] = await Promise.all([import('./layouts/private-layout'), loadSignedInNav()]);
                  return PrivateLayout;
                }, ['server', 'app']),
                children: [
                  {
                    path: 'dashboard',
                    lazy: lazyPage(async () => (await import('../features/dashboard/pages/dashboard-page')).DashboardPage),
                  },
                  {
                    path: 'profile',
                    lazy: lazyPage(async () => (await import('../features/profiles/pages/profile-page')).ProfilePage),
                  },
                  {
                    path: 'update-records',
                    lazy: lazyPage(async () => (await import('../features/files/pages/update-records-page')).UpdateRecordsPage),
                  },
                  {
                    path: 'view-records',
                    lazy: lazyPage(async () => (await import('../features/files/pages/view-records-page')).ViewRecordsPage),
                  },
                  {
                    // Issue 34: the lab results found in a record's text, reviewed before they are added.
                    path: 'view-records/:fileId/lab-results',
                    lazy: lazyPage(async () => (await import('../features/labs/pages/lab-review-page')).LabReviewPage),
                  },
                  {
                    path: 'prescriptions',
                    lazy: lazyPage(async () => (await import('../features/medications/pages/prescriptions-page')).PrescriptionsPage),
                  },
                  {
                    // DESIGN §12: a person's immunizations, lab results, conditions and procedures.
                    path: 'health-records/:personId?',
                    lazy: lazyPage(async () => (await import('../features/clinical/pages/health-records-page')).HealthRecordsPage),
                  },
                  {
                    path: 'settings',
                    lazy: lazyPage(async () => (await import('../features/settings/pages/settings-page')).SettingsPage),
                  },
                  {
                    path: 'notifications',
                    lazy: lazyPage(async () => (await import('../features/notifications/pages/notifications-page')).NotificationsPage),
                  },
                  {
                    path: 'edit-profile',
                    lazy: lazyPage(async () => (await import('../features/profiles/pages/edit-profile-page')).EditProfilePage),
                  },
                  {
                    path: 'edit-family-member/:id',
                    lazy: lazyPage(async () => (await import('../features/profiles/pages/edit-family-member-page')).EditFamilyMemberPage),
                  },
                  {
                    path: 'appointments',
                    lazy: lazyPage(async () => (await import('../features/appointments/pages/appointments-page')).AppointmentsPage),
                  },
                  {
                    // Issue 33: one search over everything the user may see (the bar's search box opens it).
                    path: 'search',
                    lazy: lazyPage(async () => (await import('../features/search/pages/search-page')).SearchPage),
                  },
                ],
              },
              { path: '*', lazy: lazyPage(async () => (await import('./not-found-page')).NotFoundPage) },
            ],
          },
        ],
      },
      {
        // Opened from a QR code by a first responder: no header, no footer (SPEC §2 Layout).
        Component: EmergencyLayout,
        children: [
          {
            ErrorBoundary: PageError,
            children: [
              {
                path: 'emergency/:shareId',
                lazy: lazyPage(async () => (await import('../features/emergency/pages/emergency-page')).EmergencyPage, ['app']),
              },
              {
                path: 'family/emergency/:shareId',
                lazy: lazyPage(async () => (await import('../features/emergency/pages/emergency-page')).EmergencyPage, ['app']),
              },
              {
                // A View Files share link, opened signed out from its QR code: as bare as the emergency view.
                path: 'shared/:token',
                lazy: lazyPage(async () => (await import('../features/files/pages/shared-files-page')).SharedFilesPage, ['server', 'app']),
              },
            ],
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
