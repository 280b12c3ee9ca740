import { textOf } from "./blocks";
import { clip, createCheck, plural } from "./check";
import { findDescendants, tagSet } from "./dom";
import type { Check, ParsedPage } from "./types";

interface HeadingEntry {
  level: number;
  text: string;
}

export interface HeadingsReport {
  outline: HeadingEntry[];
  checks: Check[];
}

const IMG = tagSet("img");
const HEADINGS = tagSet("h1 h2 h3 h4 h5 h6");

/** Heading text including image alt text, since `<h1><img alt="Brand"></h1>` is a real heading. */
function headingText(el: Parameters<typeof textOf>[0]): string {
  const text = textOf(el);
  if (text) return text;
  return findDescendants(el, IMG, (img) => img.attribs.alt !== undefined)
    .map((img) => (img.attribs.alt ?? "").trim())
    .join(" ")
    .trim();
}

export function analyzeHeadings(page: ParsedPage): HeadingsReport {
  const { $ } = page;
  const outline: HeadingEntry[] = $("body")
    .toArray()
    .slice(0, 1)
    .flatMap((body) => findDescendants(body, HEADINGS))
    .filter((el) => $(el).closest("svg, template, [hidden], [aria-hidden=true]").length === 0)
    .map((el) => ({ level: Number(el.name.slice(1)), text: headingText(el) }));
  return { outline, checks: [checkH1(outline), checkHierarchy(outline), checkEmpty(outline)] };
}

const show = (h: HeadingEntry) => `<h${h.level}>${clip(h.text, 80) || "(empty)"}</h${h.level}>`;

function checkH1(outline: HeadingEntry[]): Check {
  const h1s = outline.filter((h) => h.level === 1);
  if (h1s.length === 0) {
    return createCheck(
      "headings.h1",
      "headings",
      "fail",
      "The page has no <h1>. Add one heading that states the page's main topic.",
      ["h1: (absent)"],
    );
  }
  if (h1s.length > 1) {
    return createCheck(
      "headings.h1",
      "headings",
      "warn",
      `The page has ${h1s.length} <h1> headings. Keep exactly one for the main topic and turn the others into <h2>.`,
      h1s.map(show),
    );
  }
  return createCheck("headings.h1", "headings", "pass", "The page has exactly one <h1>.", h1s.map(show));
}

function checkHierarchy(outline: HeadingEntry[]): Check {
  const skips: string[] = [];
  // Starting at h2 is fine (a missing h1 is reported by headings.h1); starting deeper is a skip.
  let previous = 1;
  let previousEntry: HeadingEntry | undefined;
  for (const h of outline) {
    if (h.level > previous + 1) {
      skips.push(`${previousEntry ? show(previousEntry) : "(start)"} → ${show(h)} skips h${previous + 1}`);
    }
    previous = h.level;
    previousEntry = h;
  }
  if (skips.length) {
    return createCheck(
      "headings.hierarchy",
      "headings",
      "warn",
      `${plural(skips.length, "heading skips", "headings skip")} a level. Nest headings one level at a time (h2 → h3, not h2 → h4) so the outline reads correctly.`,
      skips,
    );
  }
  return createCheck(
    "headings.hierarchy",
    "headings",
    "pass",
    outline.length ? "Heading levels nest without skipping." : "No headings to check.",
    [],
  );
}

function checkEmpty(outline: HeadingEntry[]): Check {
  const empty = outline.filter((h) => h.text === "");
  if (empty.length) {
    return createCheck(
      "headings.empty",
      "headings",
      "warn",
      `${plural(empty.length, "heading is", "headings are")} empty. Give each heading text or remove it.`,
      empty.map(show),
    );
  }
  return createCheck("headings.empty", "headings", "pass", "No empty headings.", []);
}
