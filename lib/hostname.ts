// The one hostname normaliser: customer domains, tracking events and tool inputs all go through it, so a host
// is spelled one way everywhere (lower case, punycode, no trailing dot).

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

export interface HostnameRules {
  /** Take the host out of a pasted URL ("https://example.com/x"). Default true. */
  acceptUrl?: boolean;
  /** Require a registrable-looking domain: two labels or more, and not an IP address. Default true. */
  requireDomain?: boolean;
}

/**
 * The ASCII hostname of `input`, or null when it is not one. By default a customer domain: "Example.com",
 * "example.com." and a pasted URL are accepted; IPs and bare words are not. Tracking events pass
 * `{ acceptUrl: false, requireDomain: false }`: exactly a host, single labels ("localhost") allowed.
 */
export function normalizeHostname(input: string, rules: HostnameRules = {}): string | null {
  const { acceptUrl = true, requireDomain = true } = rules;
  let value = input.trim();
  if (value.length > 2048) return null;
  if (URL_SCHEME.test(value)) {
    if (!acceptUrl) return null;
    try {
      value = new URL(value).hostname;
    } catch {
      return null;
    }
  }
  value = value.replace(/\.$/, "");
  if (value === "" || /[/:?#@\s\\]/.test(value)) return null;
  let ascii: string;
  try {
    // The WHATWG parser lower-cases and turns an IDN into punycode, as browsers do.
    ascii = new URL(`http://${value}`).hostname;
  } catch {
    return null;
  }
  if (ascii.length > 253) return null;
  const labels = ascii.split(".");
  if (!labels.every((label) => LABEL.test(label))) return null;
  // A numeric top-level label means an IP address, not a domain.
  if (requireDomain && (labels.length < 2 || /^[0-9]+$/.test(labels.at(-1)!))) return null;
  return ascii;
}
