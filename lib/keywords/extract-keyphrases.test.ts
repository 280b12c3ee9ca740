import { describe, expect, test } from "vitest";
import { loadBackground } from "./background/background";
import { extractKeyphrases } from "./extract-keyphrases";
import { classifyIntent, type Intent } from "./intent";
import { extractZones } from "./page-zones";
import { tokenize } from "./tokenize";

const page = (url: string, body: string, title = "Page") =>
  extractZones(
    `<html><head><title>${title}</title></head><body><nav><a href="/">Home</a></nav><main>${body}</main></body></html>`,
    url,
  );

describe("extractKeyphrases", () => {
  test("rare words outrank common ones at equal frequency", () => {
    const p = page(
      "http://s/a",
      "<p>Espresso grinder settings.</p><p>Espresso grinder tips.</p><p>Water temperature.</p><p>Water temperature.</p>",
    );
    const phrases = extractKeyphrases([p], loadBackground()).map((k) => k.phrase);
    expect(phrases.indexOf("espresso grinder")).toBeLessThan(phrases.indexOf("water temperature"));
  });

  test("a line repeated on most pages (the site's template) counts once", () => {
    const banner = "<p>Free shipping on ceramic mugs</p>";
    const pages = ["a", "b", "c", "d"].map((n) =>
      page(`http://s/${n}`, `${banner}<p>Gooseneck kettle ${n} notes.</p><p>Gooseneck kettle for ${n}.</p>`),
    );
    const found = extractKeyphrases(pages, loadBackground());
    // Counted once, it falls under the two-occurrence floor; on two pages only it is no template and counts twice.
    expect(found.find((k) => k.phrase === "ceramic mugs")).toBeUndefined();
    const few = extractKeyphrases(pages.slice(0, 2), loadBackground());
    expect(few.find((k) => k.phrase === "ceramic mugs")?.occurrences).toBe(2);
    expect(found.find((k) => k.phrase === "gooseneck kettle")?.occurrences).toBe(8);
  });

  test("handles a very long text in bounded time (linear tokenising, capped zones)", () => {
    const huge = `<p>${"aeropress filter paper ".repeat(200_000)}</p>`;
    const started = performance.now();
    const found = extractKeyphrases([page("http://s/huge", huge)], loadBackground());
    expect(found[0]?.phrase).toBe("aeropress filter paper");
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  test("tokenises words with inner hyphens and apostrophes, no phrase crossing punctuation", () => {
    expect(tokenize("Point-in-time recovery, don't panic!")).toEqual([
      "point-in-time",
      "recovery",
      "don't",
      "panic",
    ]);
  });
});

describe("classifyIntent", () => {
  const cases: [string, string[], string[], Intent][] = [
    ["brand name", ["acme coffee beans"], [], "navigational"],
    ["buying word in a phrase", ["buy espresso beans"], [], "transactional"],
    ["buying word in a page title", ["espresso beans"], ["Espresso beans – Shop"], "transactional"],
    ["comparing word", ["best burr grinder"], [], "commercial"],
    ["versus", ["aeropress vs french press"], [], "commercial"],
    ["plain topic", ["cold brew ratio"], ["Cold Brew FAQ"], "informational"],
  ];
  for (const [name, phrases, pageTitles, intent] of cases) {
    test(name, () =>
      expect(classifyIntent({ phrases, pageTitles, siteNames: ["acme"] }).intent).toBe(intent),
    );
  }
});
