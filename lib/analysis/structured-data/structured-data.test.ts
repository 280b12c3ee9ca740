import { describe, expect, test } from "vitest";
import { parsePage } from "../page";
import { analyzeStructuredData, findTypedNodes, readText } from "./analyze";
import { extractMicrodata } from "./extract";
import { findRule, isSchemaType } from "./schema-types";

const ld = (json: string, type = "application/ld+json") => `<script type="${type}">${json}</script>`;
const analyze = (html: string) =>
  analyzeStructuredData(
    parsePage({ url: "https://example.com/", html: `<html><head>${html}</head><body></body></html>` }),
  );
const statuses = (report: ReturnType<typeof analyze>) =>
  Object.fromEntries(report.checks.map((c) => [c.id, c.status]));
const evidence = (report: ReturnType<typeof analyze>, id: string) =>
  report.checks.find((c) => c.id === id)?.evidence ?? [];

const ARTICLE = `{"@context":"https://schema.org","@type":"Article","headline":"H","author":{"@type":"Person","name":"Ann"},"datePublished":"2024-01-01","dateModified":"2024-02-01","image":"https://example.com/i.png","publisher":{"@type":"Organization","name":"Acme","url":"https://example.com","logo":"https://example.com/l.png","sameAs":["https://x.com/acme"],"contactPoint":{"@type":"ContactPoint"}}}`;

describe("extraction", () => {
  test("a complete Article passes every check", () => {
    const report = analyze(ld(ARTICLE));
    expect(report.types).toEqual(["Article"]);
    expect(statuses(report)).toMatchObject({
      "structured-data.present": "pass",
      "structured-data.json-ld-syntax": "pass",
      "structured-data.context": "pass",
      "structured-data.required": "pass",
    });
    // Nested Person and Organization are validated too.
    expect(report.items.map((i) => `${i.type}@${i.path}`)).toEqual([
      "Article@json-ld[0]",
      "Person@json-ld[0] > author",
      "Organization@json-ld[0] > publisher",
    ]);
  });

  test("@graph members become items and inherit the document's @context", () => {
    const report = analyze(
      ld(
        `{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"S","url":"https://example.com"},{"@type":"Organization","@id":"#org","name":"Acme"}]}`,
      ),
    );
    expect(report.entities.map((e) => e.path)).toEqual(["json-ld[0] @graph[0]", "json-ld[0] @graph[1]"]);
    expect(statuses(report)["structured-data.context"]).toBe("pass");
  });

  test("a top-level array, a charset parameter and CDATA/comment wrappers are all accepted", () => {
    const report = analyze(
      ld(
        `[{"@context":"https://schema.org","@type":"Person","name":"A"},{"@context":"http://schema.org/","@type":"Person","name":"B"}]`,
        "application/ld+json; charset=utf-8",
      ) +
        ld(`//<![CDATA[\n{"@context":"https://schema.org","@type":"Person","name":"C"}\n//]]>`) +
        ld(`<!--{"@context":"https://schema.org","@type":"Person","name":"D"}-->`),
    );
    expect(report.entities.map((e) => readText(e.data.name))).toEqual(["A", "B", "C", "D"]);
    expect(report.malformed).toEqual([]);
  });

  test("malformed JSON-LD is reported with its index and the parser's reason; other blocks still count", () => {
    const report = analyze(
      ld(`{"@context":"https://schema.org","@type":"Article","headline":"H",}`) + ld(ARTICLE) + ld("  "),
    );
    expect(report.malformed.map((m) => m.index)).toEqual([0, 2]);
    expect(report.malformed[0]?.error).toMatch(/JSON/);
    expect(report.malformed[1]?.error).toBe("empty script");
    expect(statuses(report)["structured-data.json-ld-syntax"]).toBe("fail");
    expect(report.entities).toHaveLength(1);
  });

  test("missing or foreign @context fails the context check", () => {
    const report = analyze(
      ld(`{"@type":"Person","name":"A"}`) +
        ld(`{"@context":"https://example.org/vocab","@type":"Person","name":"B"}`),
    );
    expect(statuses(report)["structured-data.context"]).toBe("fail");
    expect(evidence(report, "structured-data.context")).toHaveLength(2);
  });

  test("no structured data at all is a warning, not a failure", () => {
    expect(statuses(analyze(""))).toEqual({
      "structured-data.present": "warn",
      "structured-data.json-ld-syntax": "pass",
      "structured-data.context": "pass",
      "structured-data.required": "pass",
      "structured-data.recommended": "pass",
    });
  });
});

describe("validation against the types table", () => {
  test("Product without offers, review or aggregateRating fails", () => {
    const report = analyze(ld(`{"@context":"https://schema.org","@type":"Product","name":"Widget"}`));
    expect(statuses(report)["structured-data.required"]).toBe("fail");
    expect(evidence(report, "structured-data.required")).toEqual([
      "Product at json-ld[0]: missing offers or review or aggregateRating",
    ]);
  });

  test("a nested Offer is checked for its own required properties", () => {
    const report = analyze(
      ld(
        `{"@context":"https://schema.org","@type":"Product","name":"W","offers":{"@type":"Offer","price":"9.99"}}`,
      ),
    );
    expect(evidence(report, "structured-data.required")).toEqual([
      "Offer at json-ld[0] > offers: missing priceCurrency",
    ]);
  });

  test("FAQPage whose mainEntity is not a Question, and a Question without an answer, fail", () => {
    const report = analyze(
      ld(
        `{"@context":"https://schema.org","@type":"FAQPage","mainEntity":[{"@type":"Question","name":"Q?"},{"@type":"Thing","name":"x"},"text"]}`,
      ),
    );
    expect(evidence(report, "structured-data.required")).toEqual([
      "FAQPage at json-ld[0]: mainEntity[1] should be Question, got Thing; mainEntity[2] should be Question, got a string",
      "Question at json-ld[0] > mainEntity[0]: missing acceptedAnswer or suggestedAnswer",
    ]);
  });

  test("a Review inside a Product needs no itemReviewed; a stand-alone Review does", () => {
    const nested = analyze(
      ld(
        `{"@context":"https://schema.org","@type":"Product","name":"W","review":{"@type":"Review","author":{"@type":"Person","name":"A"},"reviewRating":{"@type":"Rating","ratingValue":4}}}`,
      ),
    );
    expect(statuses(nested)["structured-data.required"]).toBe("pass");
    const alone = analyze(
      ld(
        `{"@context":"https://schema.org","@type":"Review","author":"A","reviewRating":{"@type":"Rating","ratingValue":4}}`,
      ),
    );
    expect(evidence(alone, "structured-data.required")).toEqual([
      "Review at json-ld[0]: missing itemReviewed",
    ]);
  });

  test("@id references resolve across the page for type expectations", () => {
    const ok = analyze(
      ld(
        `{"@context":"https://schema.org","@graph":[{"@type":"Product","name":"W","offers":{"@id":"#o"}},{"@type":"Offer","@id":"#o","price":1,"priceCurrency":"EUR"}]}`,
      ),
    );
    expect(statuses(ok)["structured-data.required"]).toBe("pass");
    const wrong = analyze(
      ld(
        `{"@context":"https://schema.org","@graph":[{"@type":"Product","name":"W","offers":{"@id":"#o"}},{"@type":"Person","@id":"#o","name":"P"}]}`,
      ),
    );
    expect(evidence(wrong, "structured-data.required")[0]).toMatch(
      /offers should be Offer or AggregateOffer, got Person/,
    );
  });

  test("subtypes use their supertype's rule: NewsArticle as Article, Restaurant as LocalBusiness", () => {
    const report = analyze(
      ld(
        `[{"@context":"https://schema.org","@type":"NewsArticle"},{"@context":"https://schema.org","@type":"https://schema.org/Restaurant","name":"R"}]`,
      ),
    );
    expect(evidence(report, "structured-data.required")).toEqual([
      "NewsArticle (as Article) at json-ld[0][0]: missing headline",
      "Restaurant (as LocalBusiness) at json-ld[0][1]: missing address",
    ]);
  });

  test("empty strings and empty arrays do not count as present", () => {
    const report = analyze(
      ld(
        `{"@context":"https://schema.org","@type":"Event","name":"","startDate":"2025-01-01","location":[]}`,
      ),
    );
    expect(evidence(report, "structured-data.required")).toEqual([
      "Event at json-ld[0]: missing name, location",
    ]);
  });

  test("missing recommended properties are a warning listing what to add", () => {
    const report = analyze(ld(`{"@context":"https://schema.org","@type":"Article","headline":"H"}`));
    expect(statuses(report)["structured-data.recommended"]).toBe("warn");
    expect(evidence(report, "structured-data.recommended")).toEqual([
      "Article at json-ld[0]: add author, datePublished, dateModified, image, publisher",
    ]);
  });

  test("types the table does not know are listed but not judged", () => {
    const report = analyze(ld(`{"@context":"https://schema.org","@type":"Thing","name":"x"}`));
    expect(report.types).toEqual(["Thing"]);
    expect(report.items).toEqual([]);
    expect(statuses(report)["structured-data.required"]).toBe("pass");
  });
});

describe("microdata", () => {
  test("items, nested items, meta/link values and itemref are read into JSON-LD shape", () => {
    const page = parsePage({
      url: "https://example.com/",
      html: `<html><body>
        <div itemscope itemtype="https://schema.org/Product" itemref="extra">
          <h1 itemprop="name">Widget</h1>
          <img itemprop="image" src="/w.png" alt="">
          <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
            <span itemprop="price" content="9.99">€9,99</span><meta itemprop="priceCurrency" content="EUR">
            <link itemprop="availability" href="https://schema.org/InStock">
          </div>
        </div>
        <p id="extra"><span itemprop="description">A fine widget.</span></p>
      </body></html>`,
    });
    expect(extractMicrodata(page.$)[0]?.data).toEqual({
      "@type": "https://schema.org/Product",
      name: "Widget",
      image: "/w.png",
      offers: {
        "@type": "https://schema.org/Offer",
        price: "9.99",
        priceCurrency: "EUR",
        availability: "https://schema.org/InStock",
      },
      description: "A fine widget.",
    });
    const report = analyzeStructuredData(page);
    expect(report.types).toEqual(["Product"]);
    expect(statuses(report)["structured-data.required"]).toBe("pass");
  });

  test("repeated properties become arrays", () => {
    const page = parsePage({
      url: "https://e.com/",
      html: `<div itemscope itemtype="https://schema.org/Recipe"><span itemprop="recipeIngredient">a</span><span itemprop="recipeIngredient">b</span></div>`,
    });
    expect(extractMicrodata(page.$)[0]?.data.recipeIngredient).toEqual(["a", "b"]);
  });
});

test("findTypedNodes finds nested subtypes; isSchemaType and findRule follow the parent chain", () => {
  const report = analyze(
    ld(
      `{"@context":"https://schema.org","@type":"WebPage","publisher":{"@type":"Corporation","name":"C"},"about":{"@type":"Dentist","name":"D"}}`,
    ),
  );
  expect(findTypedNodes(report.entities, "Organization").map((n) => n.name)).toEqual(["C", "D"]);
  expect(isSchemaType("Dentist", "Organization")).toBe(true);
  expect(findRule("CafeOrCoffeeShop")?.ruleType).toBe("LocalBusiness");
  expect(findRule("Thing")).toBeUndefined();
});

test("readText strips markup and decodes entities in HTML answer text", () => {
  expect(readText("<p>Use <b>HTTPS</b> &amp; HSTS.</p>")).toBe("Use HTTPS & HSTS.");
  expect(readText({ "@type": "Answer", text: "Plain" })).toBe("Plain");
});
