import { describe, expect, test } from "vitest";
import {
  DEFAULT_RANK_COLUMNS,
  fromRevHost,
  parseEdge,
  parseRank,
  parseRankHeader,
  parseVertex,
  toRevHost,
} from "./parse";

describe("Common Crawl graph lines", () => {
  test("vertices of both levels", () => {
    expect(parseVertex("12\tcom.example.www")).toEqual({ id: 12, revHost: "com.example.www" });
    expect(parseVertex("3\tcom.example\t17")).toEqual({ id: 3, revHost: "com.example" });
    expect(parseVertex("x\tcom.example")).toMatch(/whole number/);
    expect(parseVertex("1\tcom example")).toMatch(/reversed host/);
  });
  test("edges", () => {
    expect(parseEdge("0\t123456789")).toEqual([0, 123456789]);
    expect(parseEdge("0 1")).toMatch(/TAB/);
  });
  test("the ranks header decides the columns, with or without n_hosts", () => {
    const host = parseRankHeader("#harmonicc_pos\t#harmonicc_val\t#pr_pos\t#pr_val\t#host_rev");
    expect(host).toEqual({ ...DEFAULT_RANK_COLUMNS, hostCount: null });
    if (typeof host === "string") throw new Error(host);
    expect(parseRank("1\t3.4626736E7\t3\t0.005384977821460953\tcom.facebook", host)).toEqual({
      revHost: "com.facebook",
      harmonicPos: 1,
      harmonicVal: 34626736,
      pagerankPos: 3,
      pagerankVal: 0.005384977821460953,
      hostCount: null,
    });
    expect(parseRankHeader("#pos\t#val")).toMatch(/lacks/);
    expect(parseRank("0\t1\t1\t1\tcom.a", host)).toMatch(/positions/);
  });
  test("host names are reversed and lose a leading www, as in the graph", () => {
    expect(toRevHost("WWW.Example.co.uk")).toBe("uk.co.example");
    expect(fromRevHost("uk.co.example")).toBe("example.co.uk");
  });
});
