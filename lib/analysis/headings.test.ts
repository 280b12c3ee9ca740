import { expect, test } from "vitest";
import { analyzeHeadings } from "./headings";
import { parsePage } from "./page";

const headings = (body: string) =>
  analyzeHeadings(parsePage({ url: "https://example.com/", html: `<html><body>${body}</body></html>` }));
const summary = (body: string) => Object.fromEntries(headings(body).checks.map((c) => [c.id, c.status]));

test("one h1 and levels that nest one at a time pass everything", () => {
  expect(
    summary("<h1>Guide</h1><h2>Part</h2><h3>Detail</h3><h2>Next</h2><h3>More</h3><h4>Deep</h4>"),
  ).toEqual({
    "headings.h1": "pass",
    "headings.hierarchy": "pass",
    "headings.empty": "pass",
  });
});

test("missing h1 fails; two h1s warn and are both listed", () => {
  expect(summary("<h2>Only h2</h2>")["headings.h1"]).toBe("fail");
  const report = headings("<h1>One</h1><h1>Two</h1>");
  const h1 = report.checks.find((c) => c.id === "headings.h1");
  expect(h1?.status).toBe("warn");
  expect(h1?.evidence).toEqual(["<h1>One</h1>", "<h1>Two</h1>"]);
});

test("each skipped level is reported with the pair of headings around it", () => {
  const report = headings("<h1>T</h1><h2>A</h2><h4>B</h4><h3>C</h3><h2>D</h2><h5>E</h5>");
  const hierarchy = report.checks.find((c) => c.id === "headings.hierarchy");
  expect(hierarchy?.status).toBe("warn");
  expect(hierarchy?.evidence).toEqual([
    "<h2>A</h2> → <h4>B</h4> skips h3",
    "<h2>D</h2> → <h5>E</h5> skips h3",
  ]);
});

test("starting at h2 is not a skip, starting at h3 is", () => {
  expect(summary("<h2>A</h2><h3>B</h3>")["headings.hierarchy"]).toBe("pass");
  expect(summary("<h3>A</h3>")["headings.hierarchy"]).toBe("warn");
});

test("empty headings are flagged, but an image with alt text is a heading's text", () => {
  const report = headings('<h1><img src="logo.png" alt="Acme"></h1><h2> </h2><h2><span></span></h2>');
  expect(report.outline.map((h) => h.text)).toEqual(["Acme", "", ""]);
  const empty = report.checks.find((c) => c.id === "headings.empty");
  expect(empty?.status).toBe("warn");
  expect(empty?.message).toMatch(/^2 headings are empty/);
});

test("headings hidden from readers or inside templates are ignored", () => {
  const report = headings("<h1>Real</h1><template><h1>T</h1></template><div hidden><h1>Hidden</h1></div>");
  expect(report.outline).toEqual([{ level: 1, text: "Real" }]);
});
