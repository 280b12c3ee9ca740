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
  test("no keyphrase is only stop words, numbers (in digits or words) or a two-letter token", () => {
    const p = page(
      "http://s/a",
      "<p>Five reasons the EU loves five cold brew recipes.</p><p>Twenty one EU rules, five cold brew recipes.</p>" +
        "<p>In 2026 the EU had 27 members; EU cold brew sales rose five percent.</p>",
      "Five cold brew recipes | EU",
    );
    const phrases = extractKeyphrases([p], loadBackground()).map((k) => k.phrase.toLowerCase());
    expect(phrases).toContain("cold brew recipes");
    for (const bad of ["five", "eu", "twenty one", "2026", "27", "twenty", "one"])
      expect(phrases).not.toContain(bad);
    for (const phrase of phrases)
      expect(
        phrase.split(" ").every((w) => /^\d+$|^(five|twenty|one)$/.test(w)),
        phrase,
      ).toBe(false);
  });

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
  // Intent comes from the phrase's own words: a page titled "Espresso beans – Shop" or linking to its pricing
  // does not make "espresso beans" a buying search (classifyIntent is given no page context at all).
  const cases: [string, string[], Intent][] = [
    ["brand name", ["acme coffee beans"], "navigational"],
    ["buying word in a phrase", ["buy espresso beans"], "transactional"],
    ["no buying word in the phrase itself", ["espresso beans"], "informational"],
    ["comparing word", ["best burr grinder"], "commercial"],
    ["versus", ["aeropress vs french press"], "commercial"],
    ["plain topic", ["cold brew ratio"], "informational"],
    ["the brand inside another word is no brand", ["acmeology basics"], "informational"],
  ];
  for (const [name, phrases, intent] of cases) {
    test(name, () => expect(classifyIntent({ phrases, siteNames: ["acme"] }).intent).toBe(intent));
  }
});
