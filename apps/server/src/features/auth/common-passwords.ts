// DESIGN §5: a password found on a shipped list of common passwords is refused. The list is
// zxcvbn-ts's (@zxcvbn-ts/language-common, MIT: about 49,000 passwords ranked by frequency in public
// breach corpora; the 18,000 of 8 characters or more matter, shorter ones are refused anyway), plus
// the few below that it lacks. Passwords made of one repeated character or one straight run
// (aaaaaaaa, 123456789012, abcdefghij) are refused by rule, at any length.
const OWN_LIST = `password 12345678 123456789 1234567890 qwerty123 password1 iloveyou sunshine princess football
baseball welcome1 abc12345 11111111 00000000 qwertyuiop 1q2w3e4r 1q2w3e4r5t letmein1 trustno1 superman starwars
passw0rd password123 password12 admin123 dragon123 monkey123 master123 12341234 123123123 87654321 99999999
88888888 12121212 abcd1234 qwerty12 qwerty1234 asdfghjkl zxcvbnm1 zxcvbnm123 michael1 jennifer jordan23
computer whatever internet football1 baseball1 welcome123 iloveyou1 sunshine1 princess1 charlie1 shadow12
123qweasd qweasdzxc q1w2e3r4 q1w2e3r4t5 1qaz2wsx 1qaz2wsx3edc zaq12wsx passw0rd1 p@ssw0rd p@ssword
password! password1! changeme changeme1 letmein123 secret123 killer123 hello123 freedom1 whatever1
qazwsxedc 123456789a a123456789 aa123456 abc123456 1234qwer qwer1234 asdf1234 asdfasdf 11223344
iloveyou2 lovelove loveyou1 trustno11 football12 soccer123 hockey123 batman123 spiderman pokemon1
starwars1 mustang1 corvette ferrari1 liverpool chelsea1 arsenal1 barcelona 666666666 777777777
555555555 444444444 333333333 222222222 123654789 147258369 159753456 741852963 0987654321
qwertyui 1password administrator admin1234 rootroot welcome! summer2024 winter2024 spring2024
autumn2024 summer2025 winter2025 summer2026 password2024 password2025 password2026 kinchart kinchart1`;

/** Loaded on the first password check, not at start-up (the list is about 0.5 MB of text). */
let listed: Promise<ReadonlySet<string>> | undefined;
function commonPasswords(): Promise<ReadonlySet<string>> {
  return (listed ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => {
    const shipped = dictionary['passwords-common'] as readonly string[];
    return new Set([...OWN_LIST.split(/\s+/).filter(Boolean), ...shipped.filter((password) => password.length >= 8)]);
  }));
}

/** One character repeated, or a run that steps by +1 or -1 throughout (digits or letters). */
export function isTrivialPattern(password: string): boolean {
  const codes = Array.from(password.toLowerCase(), (c) => c.codePointAt(0) ?? 0);
  if (codes.length < 2) return true;
  const step = codes[1]! - codes[0]!;
  if (step !== 0 && step !== 1 && step !== -1) return false;
  const inRun = (code: number) => (code >= 48 && code <= 57) || (code >= 97 && code <= 122);
  return codes.every((code, i) => (step === 0 || inRun(code)) && (i === 0 || code - codes[i - 1]! === step));
}

export async function isCommonPassword(password: string): Promise<boolean> {
  const lower = password.toLowerCase();
  return isTrivialPattern(lower) || (await commonPasswords()).has(lower);
}
