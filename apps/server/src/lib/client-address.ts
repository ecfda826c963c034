import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key a per-address limit counts a client by (DESIGN §7): an IPv4 address as it is, an IPv6
 * client by its /64 — one home or phone network is usually given a whole /64, so counting single
 * IPv6 addresses would let one device start afresh by moving within it. An IPv4-mapped IPv6
 * address (`::ffff:10.0.0.1`) is the IPv4 address. Anything else is kept as given.
 */
export function clientAddressKey(ip: string): string {
  const address = ip.trim().toLowerCase();
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const groups = expandIPv6(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (zone id dropped, embedded IPv4 read). */
function expandIPv6(address: string): number[] {
  const [withoutZone = ''] = address.split('%', 1);
  let text = withoutZone;
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (isIPv4(last)) {
    const [a = 0, b = 0, c = 0, d = 0] = last.split('.').map(Number);
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, lastColon);
    if (text.endsWith(':')) text += ':';
  }
  const [head = '', rest] = text.split('::', 2);
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = parse(rest ?? '');
  const total = tail.length ? 6 : 8;
  const groups = rest === undefined ? left : [...left, ...Array<number>(total - left.length - right.length).fill(0), ...right];
  return [...groups.slice(0, total), ...tail];
}
