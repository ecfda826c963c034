import { describe, expect, it } from 'vitest';
import { safeNextPath, withNext } from './next-path';

describe('the return path after signing in', () => {
  it('follows a path on this site', () => {
    expect(safeNextPath('/invite/abc_DEF-123')).toBe('/invite/abc_DEF-123');
    expect(safeNextPath('/settings?tab=family')).toBe('/settings?tab=family');
  });

  it.each([
    ['another site', 'https://evil.example/'],
    ['a protocol-relative address', '//evil.example/x'],
    ['a backslash browsers read as a slash', '/\\evil.example'],
    ['a tab the URL parser drops', '/\t/evil.example'],
    ['a newline', '/x\ny'],
    ['a relative path', 'invite/abc'],
    ['a script', 'javascript:alert(1)'],
    ['nothing', ''],
  ])('ignores %s', (_what, value) => {
    expect(safeNextPath(value)).toBeNull();
  });

  it('ignores a missing or very long value', () => {
    expect(safeNextPath(null)).toBeNull();
    expect(safeNextPath(`/${'a'.repeat(3000)}`)).toBeNull();
  });

  it('adds ?next= only for a safe path', () => {
    expect(withNext('/login', '/invite/abc')).toBe('/login?next=%2Finvite%2Fabc');
    expect(withNext('/login', '//evil.example')).toBe('/login');
    expect(withNext('/login', null)).toBe('/login');
  });
});
