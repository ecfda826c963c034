// Issue 35 (docs/decisions/0054): writes src/i18n/server-messages.generated.ts from the registry of
// server messages (packages/shared/src/messages.ts), one `msg` per code with the id `server.<code>`
// and the registry's English, so that `lingui extract` puts every server message in the catalogs.
//
//   node apps/web/scripts/gen-server-messages.mjs
//
// server-messages.test.ts fails when the written module is not what this script would write.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import prettier from 'prettier';

const ROOT = path.join(import.meta.dirname, '..');
export const GENERATED = path.join(ROOT, 'src/i18n/server-messages.generated.ts');

const quote = (text) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/** The module's text for a registry (code → English ICU template). */
export function renderServerMessages(messages) {
  const lines = [
    '// Written by `node apps/web/scripts/gen-server-messages.mjs` from packages/shared/src/messages.ts — do not edit.',
    '// Each server message (docs/decisions/0054) as a catalog entry `server.<code>`, so `lingui extract` finds it.',
    "import { msg } from '@lingui/core/macro';",
    "import type { MessageDescriptor } from '@lingui/core';",
    '',
    'export const SERVER_MESSAGES: Readonly<Record<string, MessageDescriptor>> = {',
    ...Object.entries(messages).map(([code, english]) => `  ${code}: msg({ id: ${quote(`server.${code}`)}, message: ${quote(english)} }),`),
    '};',
    '',
  ];
  return lines.join('\n');
}

/** The module as written: rendered, then in the repository's Prettier style. */
export async function serverMessagesModule(messages) {
  const options = (await prettier.resolveConfig(GENERATED)) ?? {};
  return prettier.format(renderServerMessages(messages), { ...options, filepath: GENERATED });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { MESSAGES } = await import(pathToFileURL(path.join(ROOT, '../../packages/shared/src/messages.ts')).href);
  fs.writeFileSync(GENERATED, await serverMessagesModule(MESSAGES));
  console.log(`${Object.keys(MESSAGES).length} server messages written to ${path.relative(process.cwd(), GENERATED)}`);
}
