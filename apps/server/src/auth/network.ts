import net from 'node:net';

/**
 * The network a client address belongs to, for limits counted per address: an IPv4 address
 * itself, and for IPv6 its /64. A single IPv6 host is routinely given a whole /64 and can hop
 * between its addresses at will, so counting exact IPv6 addresses would let it start afresh with
 * every request. An IPv4 address written as IPv6 (`::ffff:203.0.113.7`) counts as the IPv4 one.
 */
export function networkOf(address: string | undefined): string {
  // Fastify's `request.ip` is the socket's address, which Node forgets once the client has gone (a
  // request still being handled after its connection closed): such a request answers nobody.
  if (!address) return 'gone';
  const plain = address.split('%')[0] ?? address; // a zone (`fe80::1%eth0`) names an interface, not a network
  if (net.isIPv6(plain)) {
    const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(plain);
    return mapped?.[1] ?? `${ipv6Groups(plain).slice(0, 4).join(':')}::/64`;
  }
  return plain;
}

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded, without leading zeros. */
function ipv6Groups(address: string): string[] {
  // An IPv4 tail (`64:ff9b::192.0.2.1`) fills the last two groups; only their number matters here.
  const groups = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const [head = '', tail] = address.split('::');
  const start = groups(head);
  const end = tail === undefined ? [] : groups(tail);
  const all = [...start, ...Array<string>(8 - start.length - end.length).fill('0'), ...end];
  return all.map((g) => parseInt(g, 16).toString(16));
}
