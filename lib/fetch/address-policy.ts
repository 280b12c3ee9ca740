import ipaddr from "ipaddr.js";

/**
 * Which non-public addresses a fetcher may reach. `false` (production): public unicast only.
 * `"loopback"`: also 127.0.0.0/8 and ::1, so tests can use a local fixture while every other
 * private range stays refused. `true`: every address except cloud metadata endpoints.
 */
export type PrivateTargetPolicy = boolean | "loopback";

/**
 * Cloud metadata endpoints stay refused under every policy: no local development needs them,
 * and they hand out credentials (AWS/GCP/Azure/OpenStack, ECS task role, Alibaba).
 */
const METADATA_ADDRESSES = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254"]);
const METADATA_HOSTNAMES = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** Only the IPv6 global unicast block 2000::/3 can be a public destination. */
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR("2000::/3");

export function isMetadataHostname(hostname: string): boolean {
  return METADATA_HOSTNAMES.has(hostname.toLowerCase().replace(/\.$/, ""));
}

/** Strips the brackets the URL parser keeps around IPv6 literals. */
export function unbracket(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/** True when `hostname` (as the WHATWG URL parser leaves it) is an IP literal, not a name to resolve. */
export function isIpLiteral(hostname: string): boolean {
  const bare = unbracket(hostname);
  return ipaddr.IPv4.isValidFourPartDecimal(bare) || (bare.includes(":") && ipaddr.IPv6.isValid(bare));
}

/**
 * Why `address` may not be fetched under `policy`, or null when it may. IPv4-mapped and
 * IPv4-compatible IPv6 forms are judged as the IPv4 address they carry.
 */
export function findAddressViolation(address: string, policy: PrivateTargetPolicy): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(unbracket(address));
  } catch {
    return "not an IP address";
  }
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  const normalised = parsed.toNormalizedString();
  const canonical = parsed.kind() === "ipv6" ? (parsed as ipaddr.IPv6).toString() : normalised;
  if (METADATA_ADDRESSES.has(canonical)) return "cloud metadata address";
  if (policy === true) return null;

  const range = parsed.range();
  if (policy === "loopback" && range === "loopback") return null;
  if (parsed.kind() === "ipv4") return range === "unicast" ? null : `${range} address`;
  if (range !== "unicast") return `${range} address`;
  // ipaddr.js calls anything it has no name for "unicast", including ::/96 IPv4-compatible forms.
  return (parsed as ipaddr.IPv6).match(IPV6_GLOBAL_UNICAST) ? null : "non-global IPv6 address";
}
