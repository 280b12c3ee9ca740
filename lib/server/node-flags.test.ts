import { describe, expect, it } from "vitest";
import { serverNodeFlags, serverProcessEnv } from "./node-flags";

describe("serverNodeFlags", () => {
  it("caps the young and the old generation and sets the old generation's growth by default", () => {
    expect(serverNodeFlags({})).toEqual([
      "--max-semi-space-size=16",
      "--max-old-space-size=256",
      "--heap-growing-percent=75",
    ]);
  });

  it("takes each size from the environment, 0 leaving V8's default", () => {
    expect(
      serverNodeFlags({
        SERVER_SEMI_SPACE_MB: "8",
        SERVER_MAX_OLD_SPACE_MB: "512",
        SERVER_HEAP_GROWING_PERCENT: "50",
      }),
    ).toEqual(["--max-semi-space-size=8", "--max-old-space-size=512", "--heap-growing-percent=50"]);
    expect(
      serverNodeFlags({
        SERVER_SEMI_SPACE_MB: "0",
        SERVER_MAX_OLD_SPACE_MB: "0",
        SERVER_HEAP_GROWING_PERCENT: "0",
      }),
    ).toEqual([]);
  });

  it.each([
    ["SERVER_SEMI_SPACE_MB", "lots"],
    ["SERVER_SEMI_SPACE_MB", "-1"],
    ["SERVER_MAX_OLD_SPACE_MB", "64"],
    ["SERVER_MAX_OLD_SPACE_MB", "1e999"],
    ["SERVER_HEAP_GROWING_PERCENT", "1.5"],
    ["SERVER_HEAP_GROWING_PERCENT", "-10"],
    ["SERVER_HEAP_GROWING_PERCENT", "5000"],
    ["SERVER_HEAP_GROWING_PERCENT", "fast"],
  ])("refuses %s=%s", (name, value) => {
    expect(() => serverNodeFlags({ [name]: value })).toThrow(name);
  });
});

describe("serverProcessEnv", () => {
  it("keeps glibc to two malloc arenas unless the environment says otherwise", () => {
    expect(serverProcessEnv({})).toEqual({ MALLOC_ARENA_MAX: "2" });
    expect(serverProcessEnv({ MALLOC_ARENA_MAX: "" })).toEqual({ MALLOC_ARENA_MAX: "2" });
    expect(serverProcessEnv({ MALLOC_ARENA_MAX: "8" })).toEqual({});
  });
});
