import { describe, expect, it } from "vitest";
import { serverNodeFlags } from "./node-flags";

describe("serverNodeFlags", () => {
  it("caps the young and the old generation by default", () => {
    expect(serverNodeFlags({})).toEqual(["--max-semi-space-size=16", "--max-old-space-size=256"]);
  });

  it("takes each size from the environment, 0 leaving V8's default", () => {
    expect(serverNodeFlags({ SERVER_SEMI_SPACE_MB: "16", SERVER_MAX_OLD_SPACE_MB: "512" })).toEqual([
      "--max-semi-space-size=16",
      "--max-old-space-size=512",
    ]);
    expect(serverNodeFlags({ SERVER_SEMI_SPACE_MB: "0", SERVER_MAX_OLD_SPACE_MB: "0" })).toEqual([]);
  });

  it.each([
    ["SERVER_SEMI_SPACE_MB", "lots"],
    ["SERVER_SEMI_SPACE_MB", "-1"],
    ["SERVER_MAX_OLD_SPACE_MB", "64"],
    ["SERVER_MAX_OLD_SPACE_MB", "1e999"],
  ])("refuses %s=%s", (name, value) => {
    expect(() => serverNodeFlags({ [name]: value })).toThrow(name);
  });
});
