import type { ElementHandle, Page } from "puppeteer-core";
import type { Interaction } from "./result-schema";

const CANDIDATES =
  "button, [role=button], a, [aria-expanded], summary, input[type=button], input[type=submit], input[type=reset]";
const TEXT_FIELDS =
  "input:not([type]), input[type=text], input[type=search], input[type=email], input[type=tel], input[type=url], textarea";
const MAX_CLICKS = 6;
const MAX_SCANNED = 150;

type Classified = { kind: Interaction["kind"]; label: string } | null;

/**
 * Decides in the page whether clicking `el` stays on the page: buttons that submit no form, links
 * that go nowhere (href="#", javascript:, or none with a handler), menu toggles and <summary>.
 * Elements that would navigate, open a window or submit a form are left alone.
 */
function classifyInPage(el: Element): Classified {
  const label = (el.getAttribute("aria-label") || el.textContent || el.getAttribute("value") || "")
    .trim()
    .replace(/\s+/g, " ")
    .slice(0, 80);
  const style = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  if (style.visibility === "hidden" || style.display === "none" || box.width < 2 || box.height < 2)
    return null;
  if ((el as HTMLButtonElement).disabled) return null;
  const tag = el.tagName.toLowerCase();
  if (tag === "summary") return { kind: "details", label: label || "details" };
  if (el.hasAttribute("aria-expanded")) {
    if (tag === "a" && !isInertLink(el)) return null;
    return { kind: "menu", label: label || "menu toggle" };
  }
  if (tag === "a") return isInertLink(el) ? { kind: "link", label: label || "link" } : null;
  const form = (el as HTMLButtonElement).form ?? null;
  const type = (el.getAttribute("type") || (tag === "button" ? "submit" : "")).toLowerCase();
  if (form && (type === "submit" || type === "image")) return null;
  return { kind: "button", label: label || "button" };

  function isInertLink(a: Element): boolean {
    if (a.getAttribute("target")) return false;
    const href = a.getAttribute("href");
    if (href === null) return a.hasAttribute("onclick") || a.getAttribute("role") === "button";
    const trimmed = href.trim().toLowerCase();
    return trimmed === "#" || trimmed === "" || trimmed.startsWith("javascript:");
  }
}

/**
 * The scripted pass of the interaction timespan: clicks the page's buttons, inert links and menu toggles,
 * then types into the first text field. Stops as soon as anything starts a navigation, since the
 * timespan measures this document only.
 */
export async function interactWithPage(page: Page, signal: AbortSignal): Promise<Interaction[]> {
  const made: Interaction[] = [];
  const startUrl = page.url();
  let navigated = false;
  const onNavigation = (frame: { parentFrame(): unknown; url(): string }) => {
    if (!frame.parentFrame() && frame.url() !== startUrl) navigated = true;
  };
  page.on("framenavigated", onNavigation);
  try {
    const handles = (await page.$$(CANDIDATES)).slice(0, MAX_SCANNED);
    for (const handle of handles) {
      if (made.length >= MAX_CLICKS || navigated || signal.aborted) break;
      const kind = await handle.evaluate(classifyInPage).catch(() => null);
      if (!kind) continue;
      if (await clickQuietly(page, handle)) made.push(kind);
    }
    if (!navigated && !signal.aborted) {
      const field = await page.$(TEXT_FIELDS);
      const visible = field ? await field.isVisible().catch(() => false) : false;
      if (field && visible) {
        const label = await field.evaluate(
          (el) =>
            el.getAttribute("aria-label") ||
            el.getAttribute("placeholder") ||
            el.getAttribute("name") ||
            "text field",
        );
        // Focus is not an interaction; it lets the first keystroke be measured as typing, not as focusing.
        await field.evaluate((el) => (el as HTMLElement).focus({ preventScroll: false }));
        await new Promise((resolve) => setTimeout(resolve, 300));
        await field.type("core web vitals", { delay: 40 }).then(
          () => made.push({ kind: "text-input", label: label.slice(0, 80) }),
          () => {},
        );
      }
    }
    // Let the last interaction reach its next paint before the timespan ends.
    await new Promise((resolve) => setTimeout(resolve, 800));
  } finally {
    page.off("framenavigated", onNavigation);
  }
  return made;
}

async function clickQuietly(page: Page, handle: ElementHandle<Element>): Promise<boolean> {
  try {
    await handle.click({ delay: 30 });
    // Give the handler and its paint a moment, as a person would between clicks.
    await new Promise((resolve) => setTimeout(resolve, 250));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
    return true;
  } catch {
    return false;
  }
}
