import { describe, expect, test } from "vitest";
import { findAddressViolation, isIpLiteral, isMetadataHostname } from "./address-policy";

const refusedInProduction = [
  "10.0.0.1",
  "172.16.0.1",
  "172.31.255.254",
  "192.168.1.1",
  "127.0.0.1",
  "127.255.255.254",
  "0.0.0.0",
  "169.254.1.1",
  "169.254.169.254",
  "100.64.0.1",
  "224.0.0.1",
  "255.255.255.255",
  "240.0.0.1",
  "192.0.2.10",
  "198.18.0.1",
  "::1",
  "::",
  "fe80::1",
  "fc00::1",
  "fd12:3456::1",
  "ff02::1",
  "::ffff:127.0.0.1",
  "::ffff:7f00:1",
  "::ffff:a9fe:a9fe",
  "::ffff:10.0.0.1",
  "::7f00:1",
  "64:ff9b::7f00:1",
  "2002:7f00:1::",
  "fd00:ec2::254",
  "fec0::1",
];

const publicAddresses = ["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"];

describe("findAddressViolation", () => {
  for (const address of refusedInProduction) {
    test(`refuses ${address} by default`, () => {
      expect(findAddressViolation(address, false)).not.toBeNull();
    });
  }
  for (const address of publicAddresses) {
    test(`allows public ${address}`, () => {
      expect(findAddressViolation(address, false)).toBeNull();
    });
  }

  test("loopback policy allows only loopback", () => {
    expect(findAddressViolation("127.0.0.1", "loopback")).toBeNull();
    expect(findAddressViolation("::1", "loopback")).toBeNull();
    expect(findAddressViolation("::ffff:127.0.0.1", "loopback")).toBeNull();
    for (const address of ["10.0.0.1", "192.168.1.1", "169.254.169.254", "fc00::1", "0.0.0.0"]) {
      expect(findAddressViolation(address, "loopback")).not.toBeNull();
    }
  });

  test("allow-all policy still refuses cloud metadata", () => {
    expect(findAddressViolation("10.0.0.1", true)).toBeNull();
    expect(findAddressViolation("127.0.0.1", true)).toBeNull();
    for (const address of ["169.254.169.254", "::ffff:169.254.169.254", "fd00:ec2::254", "100.100.100.200"]) {
      expect(findAddressViolation(address, true)).toBe("cloud metadata address");
    }
  });

  test("names the range", () => {
    expect(findAddressViolation("10.1.2.3", false)).toBe("private address");
    expect(findAddressViolation("[::1]", false)).toBe("loopback address");
    expect(findAddressViolation("not-an-ip", false)).toBe("not an IP address");
  });
});

test("isIpLiteral tells literals from names", () => {
  expect(isIpLiteral("127.0.0.1")).toBe(true);
  expect(isIpLiteral("[::1]")).toBe(true);
  expect(isIpLiteral("example.com")).toBe(false);
  expect(isIpLiteral("127.0.0.1.nip.io")).toBe(false);
});

test("isMetadataHostname ignores case and a trailing dot", () => {
  expect(isMetadataHostname("metadata.google.internal")).toBe(true);
  expect(isMetadataHostname("METADATA.google.internal.")).toBe(true);
  expect(isMetadataHostname("google.internal.example.com")).toBe(false);
});
