import { t as translate } from '@lingui/core/macro';
import { UNKNOWN_DEVICE, describeDevice } from '@kinchart/shared/describe-device';

/**
 * describeDevice's English words ("Chrome on Windows") in the reader's language; browser and
 * system names are proper names and stay as they are. Settings' sessions list and its list of the
 * browsers that receive reminders (whose label the server made with describeDevice).
 */
export function deviceLabel(english: string): string {
  if (english === UNKNOWN_DEVICE) return translate`Unknown device`;
  const on = english.indexOf(' on ');
  if (on < 0) return english;
  const browser = english.slice(0, on);
  const system = english.slice(on + ' on '.length);
  return browser === 'Browser' ? translate`Browser on ${system}` : translate`${browser} on ${system}`;
}

/** A User-Agent header as a browser in plain words, in the reader's language. */
export function deviceName(userAgent: string | null): string {
  return deviceLabel(describeDevice(userAgent));
}
