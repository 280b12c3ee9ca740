import ipaddr from "ipaddr.js";

export type ParsedIp = { version: 4; value: number } | { version: 6; value: bigint };

export interface IpInterval<T extends number | bigint> {
  start: T;
  end: T;
}

export interface ParsedCidr {
  version: 4 | 6;
  /** Canonical text, host bits cleared, e.g. "66.249.64.0/27". */
  cidr: string;
  start: number | bigint;
  end: number | bigint;
}

const V6_BITS = 128n;
const V6_MAX = (1n << V6_BITS) - 1n;

// Hand-rolled because it runs once per event and ipaddr.js allocates several objects per parse.
function parseIpv4(text: string): number | null {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let parts = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 46; // a virtual trailing "."
    if (code >= 48 && code <= 57) {
      if (digits > 0 && octet === 0) return null; // leading zeros are ambiguous (octal in some parsers)
      octet = octet * 10 + (code - 48);
      digits++;
      if (octet > 255) return null;
    } else if (code === 46) {
      if (digits === 0) return null;
      value = value * 256 + octet;
      parts++;
      octet = 0;
      digits = 0;
    } else return null;
  }
  return parts === 4 ? value : null;
}

function ipv6ToBigInt(parts: number[]): bigint {
  let value = 0n;
  for (const part of parts) value = (value << 16n) | BigInt(part);
  return value;
}

/** Parses an IPv4 or IPv6 address; IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) become IPv4. */
export function parseIp(text: string): ParsedIp | null {
  const trimmed = text.trim();
  const v4 = parseIpv4(trimmed);
  if (v4 !== null) return { version: 4, value: v4 };
  let candidate = trimmed;
  if (candidate.startsWith("[") && candidate.endsWith("]")) candidate = candidate.slice(1, -1);
  const zone = candidate.indexOf("%");
  if (zone !== -1) candidate = candidate.slice(0, zone);
  if (!candidate.includes(":") || !ipaddr.IPv6.isValid(candidate)) return null;
  const address = ipaddr.IPv6.parse(candidate);
  if (address.isIPv4MappedAddress()) {
    const [a, b, c, d] = address.toIPv4Address().octets as [number, number, number, number];
    return { version: 4, value: ((a * 256 + b) * 256 + c) * 256 + d };
  }
  return { version: 6, value: ipv6ToBigInt(address.parts) };
}

function inV4(value: number, base: string, bits: number): boolean {
  const start = parseIpv4(base) as number;
  const size = 2 ** (32 - bits);
  return value >= start && value < start + size;
}

const NON_PUBLIC_V4: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 3], // multicast and reserved
];

function inV6(value: bigint, prefix: bigint, bits: bigint): boolean {
  return value >> (V6_BITS - bits) === prefix >> (V6_BITS - bits);
}

/**
 * False for loopback, private, link-local, shared (CGNAT), documentation, multicast and reserved addresses:
 * a crawler never reaches a site from one, so seeing one means a proxy hid the client's address.
 */
export function isPublicIp(ip: ParsedIp): boolean {
  if (ip.version === 4) return !NON_PUBLIC_V4.some(([base, bits]) => inV4(ip.value, base, bits));
  const v = ip.value;
  if (v <= 1n) return false; // :: and ::1
  return !(
    inV6(v, 0xfc00n << 112n, 7n) || // unique local
    inV6(v, 0xfe80n << 112n, 10n) || // link local
    inV6(v, 0xff00n << 112n, 8n) || // multicast
    inV6(v, 0x20010db8n << 96n, 32n) // documentation
  );
}

/** Parses "a.b.c.d/n", "x:y::/n" or a bare address (a single-host range); null when malformed. */
export function parseCidr(text: string): ParsedCidr | null {
  const trimmed = text.trim();
  const slash = trimmed.indexOf("/");
  const address = parseIp(slash === -1 ? trimmed : trimmed.slice(0, slash));
  if (!address) return null;
  const isV4 = address.version === 4 && !trimmed.slice(0, slash === -1 ? undefined : slash).includes(":");
  const maxBits = isV4 ? 32 : 128;
  const lengthText = slash === -1 ? String(maxBits) : trimmed.slice(slash + 1);
  if (!/^\d{1,3}$/.test(lengthText)) return null;
  const bits = Number(lengthText);
  if (bits > maxBits) return null;

  if (isV4) {
    const size = 2 ** (32 - bits);
    const start = Math.floor((address.value as number) / size) * size;
    const base = [24, 16, 8, 0].map((shift) => Math.floor(start / 2 ** shift) % 256).join(".");
    return { version: 4, cidr: `${base}/${bits}`, start, end: start + size - 1 };
  }
  // A mapped IPv4 written in IPv6 notation keeps IPv6 semantics for its prefix length.
  const value = address.version === 6 ? address.value : (0xffffn << 32n) | BigInt(address.value);
  const hostBits = BigInt(128 - bits);
  const start = (value >> hostBits) << hostBits;
  const end = start | ((1n << hostBits) - 1n);
  const parts: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) parts.push(Number((start >> shift) & 0xffffn));
  const base = new ipaddr.IPv6(parts).toString();
  return { version: 6, cidr: `${base}/${bits}`, start, end: end & V6_MAX };
}

// Adjacent ranges merge as well as overlapping ones: `one` is 1 or 1n.
function mergeIntervals<T extends number | bigint>(intervals: IpInterval<T>[], one: T): IpInterval<T>[] {
  const sorted = [...intervals].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const merged: IpInterval<T>[] = [];
  for (const interval of sorted) {
    const last = merged[merged.length - 1];
    if (last && interval.start <= (last.end as number) + (one as number)) {
      if (interval.end > last.end) last.end = interval.end;
    } else merged.push({ ...interval });
  }
  return merged;
}

function searchIntervals<T extends number | bigint>(intervals: IpInterval<T>[], value: T): boolean {
  let low = 0;
  let high = intervals.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const interval = intervals[mid] as IpInterval<T>;
    if (value < interval.start) high = mid - 1;
    else if (value > interval.end) low = mid + 1;
    else return true;
  }
  return false;
}

/** A set of CIDR ranges, sorted and merged, answering membership by binary search. */
export class IpRangeSet {
  readonly #v4: IpInterval<number>[];
  readonly #v6: IpInterval<bigint>[];

  constructor(cidrs: Iterable<ParsedCidr>) {
    const v4: IpInterval<number>[] = [];
    const v6: IpInterval<bigint>[] = [];
    for (const cidr of cidrs) {
      if (cidr.version === 4) v4.push({ start: cidr.start as number, end: cidr.end as number });
      else v6.push({ start: cidr.start as bigint, end: cidr.end as bigint });
    }
    this.#v4 = mergeIntervals(v4, 1);
    this.#v6 = mergeIntervals(v6, 1n);
  }

  get isEmpty(): boolean {
    return this.#v4.length === 0 && this.#v6.length === 0;
  }

  /** Whether the set holds any range of the address's family (IPv4 or IPv6). */
  covers(version: 4 | 6): boolean {
    return (version === 4 ? this.#v4 : this.#v6).length > 0;
  }

  contains(ip: ParsedIp): boolean {
    return ip.version === 4 ? searchIntervals(this.#v4, ip.value) : searchIntervals(this.#v6, ip.value);
  }
}
