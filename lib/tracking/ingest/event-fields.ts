import ipaddr from "ipaddr.js";

/** "/a?b" stays; "https://host/a?b#c" becomes "/a?b". Null when it is neither. */
export function pathFromUrlOrPath(input: string): string | null {
  if (input.startsWith("/")) {
    const hash = input.indexOf("#");
    return hash === -1 ? input : input.slice(0, hash);
  }
  if (!/^https?:\/\//i.test(input)) return null;
  try {
    const url = new URL(input);
    return `${url.pathname}${url.search}`;
  } catch {
    return null;
  }
}

/** The canonical text of an address: IPv6 compressed and lower-case, IPv4-mapped IPv6 as IPv4. */
export function normaliseIp(input: string): string | null {
  const text = input.trim();
  if (!ipaddr.isValid(text) || (!ipaddr.IPv4.isValidFourPartDecimal(text) && !text.includes(":")))
    return null;
  const address = ipaddr.parse(text);
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (address as ipaddr.IPv6).toIPv4Address().toString();
  }
  return address.toString();
}
