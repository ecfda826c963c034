// Issue 35: a server catalog (src/locales/{locale}/server.po) as po-catalogs.mjs compiles it.
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
