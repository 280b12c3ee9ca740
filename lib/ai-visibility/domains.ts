import { getDomain, getDomainWithoutSuffix, getHostname } from "tldts";

/**
 * The registrable domain (public suffix list, ICANN section) of a URL or host name: `blog.acme.co.uk` and
 * `https://www.acme.co.uk/x` both give `acme.co.uk`. Null for IP addresses and names without one.
 */
export function findRegistrableDomain(urlOrHost: string): string | null {
  return getDomain(urlOrHost.trim().toLowerCase(), { allowPrivateDomains: false }) || null;
}

/** True when the URL's host is the domain or one of its subdomains, compared by registrable domain. */
export function isOnDomain(url: string, domain: string): boolean {
  const target = findRegistrableDomain(domain);
  return target !== null && findRegistrableDomain(url) === target;
}

/** The brand label of a domain: `acme` for `www.acme.co.uk`, `acme-tools` for `acme-tools.com`. */
export function findDomainLabel(domain: string): string | null {
  return getDomainWithoutSuffix(domain.trim().toLowerCase(), { allowPrivateDomains: false }) || null;
}

export function findHostname(url: string): string | null {
  return getHostname(url) || null;
}

/** A chunk title such as `acme.com` that names a domain, reduced to its registrable domain. */
export function parseDomainTitle(title: string): string | null {
  const text = title.trim().toLowerCase();
  if (!/^[a-z0-9.-]+\.[a-z0-9-]+$/.test(text)) return null;
  return findRegistrableDomain(text);
}
