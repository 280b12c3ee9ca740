import { describe, expect, test } from "vitest";
import { safeHref, splitOnBrand } from "./highlight";

describe("splitOnBrand", () => {
  test("marks the names on word boundaries, case-insensitively, never inside another word", () => {
    expect(splitOnBrand("Acmes love ACME and acme.com, not Acmeville.", ["acme", "acme.com"])).toEqual([
      { text: "Acmes love ", brand: false },
      { text: "ACME", brand: true },
      { text: " and ", brand: false },
      { text: "acme.com", brand: true },
      { text: ", not Acmeville.", brand: false },
    ]);
  });

  test("the longest name wins and markup stays plain text", () => {
    expect(splitOnBrand("<b>Acme Cloud</b>", ["Acme", "Acme Cloud"])).toEqual([
      { text: "<b>", brand: false },
      { text: "Acme Cloud", brand: true },
      { text: "</b>", brand: false },
    ]);
    // Names are text, not patterns.
    expect(splitOnBrand("a b c", ["."])).toEqual([{ text: "a b c", brand: false }]);
    expect(splitOnBrand("x.y", ["x.y"])).toEqual([{ text: "x.y", brand: true }]);
    expect(splitOnBrand("", ["x"])).toEqual([]);
    expect(splitOnBrand("no names", [])).toEqual([{ text: "no names", brand: false }]);
  });
});

test("safeHref keeps http(s) links only", () => {
  expect(safeHref("https://acme.com/a")).toBe("https://acme.com/a");
  expect(safeHref("javascript:alert(1)")).toBeUndefined();
  expect(safeHref("data:text/html,x")).toBeUndefined();
  expect(safeHref("not a url")).toBeUndefined();
});
