/**
 * A browser and system in plain words ("Chrome on Linux", "Safari on iPhone") from a User-Agent
 * header: Settings' session list and the new-browser sign-in email (docs/decisions/0024, 0028).
 * Only for people to recognise their devices: the header is whatever the browser sent, so nothing
 * is decided on it, and only these fixed names ever come out of it. Order matters: Edge, Opera and
 * Samsung Internet also say "Chrome", and Chrome also says "Safari".
 */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrom(e|ium)\/|\bCriOS\/|\bHeadlessChrome\//, 'Chrome'],
  // Safari says "Version/17.5 … Safari/…"; every other WebKit browser above says its own name.
  [/\bVersion\/[\d.]+ /, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (table: [RegExp, string][], text: string): string | undefined => table.find(([pattern]) => pattern.test(text))?.[1];

export const UNKNOWN_DEVICE = 'Unknown device';

export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return UNKNOWN_DEVICE;
  const browser = first(BROWSERS, userAgent);
  const system = first(SYSTEMS, userAgent);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? (system ? `Browser on ${system}` : UNKNOWN_DEVICE);
}
