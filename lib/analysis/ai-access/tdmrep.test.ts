import { describe, expect, test } from "vitest";
import { parseTdmrepFile, readTdmHeaders, readTdmMeta, resolveTdm, tdmRuleFor } from "./tdmrep";

describe("parseTdmrepFile", () => {
  test("the protocol's examples: rules in order, the policy kept as a URL", () => {
    const { rules, issues } = parseTdmrepFile(`[
      { "location": "/directory-a/", "tdm-reservation": 1 },
      { "location": "/directory-b/html/", "tdm-reservation": 1, "tdm-policy": "https://provider.com/policies/policy.json" },
      { "location": "/directory-b/images/*.jpg", "tdm-reservation": 0 }
    ]`);
    expect(issues).toEqual([]);
    expect(rules).toEqual([
      { location: "/directory-a/", reservation: 1, policy: null },
      { location: "/directory-b/html/", reservation: 1, policy: "https://provider.com/policies/policy.json" },
      { location: "/directory-b/images/*.jpg", reservation: 0, policy: null },
    ]);
  });

  test("an object instead of an array, no JSON, a byte-order mark", () => {
    expect(parseTdmrepFile('{ "location": "/", "tdm-reservation": 1 }')).toEqual({
      rules: [],
      issues: ["not a JSON array of rules (the brackets are required even around one rule)"],
    });
    expect(parseTdmrepFile("<html>").issues).toEqual(["not JSON"]);
    expect(parseTdmrepFile('\uFEFF[{"location": "/", "tdm-reservation": 1}]').rules).toHaveLength(1);
  });

  test("values that are protocol errors leave the rule's reservation unset, each named", () => {
    const { rules, issues } = parseTdmrepFile(
      JSON.stringify([
        { location: "/a", "tdm-reservation": "1" },
        { location: "/b", "tdm-reservation": true },
        { location: "/c" },
        { location: "/d", "tdm-reservation": 1, "tdm-policy": "/policy.json" },
        { "tdm-reservation": 1 },
        "/e",
      ]),
    );
    expect(rules).toEqual([
      { location: "/a", reservation: 1, policy: null },
      { location: "/b", reservation: null, policy: null },
      { location: "/c", reservation: null, policy: null },
      { location: "/d", reservation: 1, policy: null },
    ]);
    expect(issues).toEqual([
      "rule 1 (/a): tdm-reservation is written as a string; the protocol's value is the number",
      "rule 2 (/b): tdm-reservation true is neither 1 nor 0, read as unset",
      "rule 3 (/c): no tdm-reservation, read as unset",
      "rule 4 (/d): tdm-policy is not an absolute http(s) URL",
      "rule 5: no location",
      "rule 6: not an object",
    ]);
  });
});

describe("tdmRuleFor", () => {
  const { rules } = parseTdmrepFile(
    JSON.stringify([
      { location: "/images/*.jpg$", "tdm-reservation": 0 },
      { location: "/images/", "tdm-reservation": 1 },
      { location: "/~user/", "tdm-reservation": 0 },
      { location: "/", "tdm-reservation": 1 },
    ]),
  );
  test.each([
    ["/images/cat.jpg", "/images/*.jpg$"],
    ["/images/cat.jpg?size=2", "/images/"], // $ anchors the end: a query string follows
    ["/images/cat.png", "/images/"],
    ["/%7Euser/page", "/~user/"], // an escaped unreserved character compares as itself
    ["/about", "/"],
  ])("%s is decided by %s (the first rule that matches)", (path, location) => {
    expect(tdmRuleFor(rules, path)?.location).toBe(location);
  });

  test("no matching rule: unset", () => {
    expect(
      tdmRuleFor(parseTdmrepFile('[{"location": "/private/", "tdm-reservation": 1}]').rules, "/"),
    ).toBeNull();
  });
});

describe("headers, meta tags and their order", () => {
  test("headers and meta tags read; a value other than 1 or 0 is unset, a relative policy unusable", () => {
    expect(readTdmHeaders({ "content-type": ["text/html"] })).toBeNull();
    expect(readTdmHeaders({ "tdm-reservation": [" 1 "], "tdm-policy": ["https://p.example/x"] })).toEqual({
      reservation: 1,
      policy: "https://p.example/x",
    });
    expect(readTdmHeaders({ "tdm-reservation": ["yes"] })).toEqual({ reservation: null, policy: null });
    expect(readTdmMeta([{ name: "description", content: "x" }])).toBeNull();
    expect(
      readTdmMeta([
        { name: "TDM-Reservation", content: "0" },
        { name: "tdm-policy", content: "/relative" },
      ]),
    ).toEqual({ reservation: 0, policy: null });
  });

  test("the file, then the header, then the page's metadata; saying nothing resets nothing", () => {
    const rule = { location: "/", reservation: 1 as const, policy: "https://p.example/policy" };
    expect(resolveTdm(rule, null, null)).toEqual({
      reservation: 1,
      policy: "https://p.example/policy",
      source: "tdmrep.json",
    });
    expect(resolveTdm(rule, { reservation: 0, policy: null }, null)).toEqual({
      reservation: 0,
      policy: null, // a policy is not read where rights are not reserved
      source: "header",
    });
    expect(resolveTdm(rule, { reservation: 0, policy: null }, { reservation: 1, policy: null })).toEqual({
      reservation: 1,
      policy: "https://p.example/policy",
      source: "meta",
    });
    // A header whose value is a protocol error states nothing; the file's reservation stands.
    expect(resolveTdm(rule, { reservation: null, policy: "https://other.example/" }, null)).toEqual({
      reservation: 1,
      policy: "https://other.example/",
      source: "tdmrep.json",
    });
    expect(resolveTdm(null, null, null)).toEqual({ reservation: null, policy: null, source: null });
  });
});
