import { afterEach, describe, expect, it } from 'vitest';
import { activateLanguage } from './catalogs';
import { isSuccessText } from './success-messages';

// SPEC §5 (green when the message says "success"), in every language (issue 35).
describe('isSuccessText', () => {
  afterEach(() => activateLanguage('en'));

  it('knows an English success by its word', () => {
    expect(isSuccessText('Logged out successfully')).toBe(true);
    expect(isSuccessText('Logout failed')).toBe(false);
  });

  it('knows a translated success message, and not a translated failure', async () => {
    await activateLanguage('es');
    expect(isSuccessText('Sesión cerrada correctamente')).toBe(true);
    expect(isSuccessText('No se pudo cerrar la sesión')).toBe(false);
    await activateLanguage('ja');
    expect(isSuccessText('ログアウトしました')).toBe(true);
    expect(isSuccessText('ログアウトできませんでした')).toBe(false);
  });
});
