import { VitePWA } from 'vite-plugin-pwa';
import { shellNavigationAllowlist, shellNavigationDenylist } from './src/app/service-worker-navigation';

/*
 * The installable web app (DESIGN §7: "the owner's cards can be kept offline on their own device").
 * The manifest is linked from every page; the service worker is registered by the app itself, and
 * only on a device whose owner keeps their emergency cards there (features/offline-cards) or
 * receives reminders there (features/reminders: it shows the Web Push notifications and answers
 * their Taken / Snooze buttons; turning the cards off keeps it while reminders are on, decision
 * 0044), so visitors and other devices get the plain web app. It precaches the built app shell — code,
 * styles, icons, nothing else — and caches no API answer: those carry health data, and the
 * emergency cards live in IndexedDB, removed at logout. Decision record:
 * docs/decisions/0016-offline-emergency-cards.md.
 */
export function pwa() {
  return VitePWA({
    registerType: 'autoUpdate',
    injectRegister: false,
    includeAssets: ['favicon.svg'],
    manifest: {
      id: '/',
      name: 'Kinchart',
      short_name: 'Kinchart',
      description: 'Your health records, your family’s profiles and your emergency cards in one place.',
      lang: 'en',
      start_url: '/dashboard',
      scope: '/',
      display: 'standalone',
      // index.html's theme-color; the background is the pages' own white.
      theme_color: '#312e81',
      background_color: '#ffffff',
      icons: [
        { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/pwa-maskable-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
      shortcuts: [
        {
          name: 'Emergency cards',
          short_name: 'Emergency cards',
          url: '/emergency-cards',
          icons: [{ src: '/pwa-192x192.png', sizes: '192x192' }],
        },
      ],
    },
    workbox: {
      globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
      navigateFallback: '/index.html',
      navigateFallbackAllowlist: shellNavigationAllowlist,
      navigateFallbackDenylist: shellNavigationDenylist,
      // No runtimeCaching on purpose: nothing the API answers is ever stored by the worker.
      // Web Push (issue 32): the reminders' notifications and their Taken / Snooze buttons.
      importScripts: ['/push-sw.js'],
      cleanupOutdatedCaches: true,
      clientsClaim: true,
      skipWaiting: true,
      // One file, served no-cache by the server; no separate workbox runtime file to keep fresh.
      inlineWorkboxRuntime: true,
      sourcemap: false,
    },
  });
}
