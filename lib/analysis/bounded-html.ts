import { type CheerioAPI, load } from "cheerio";
import { adapter } from "parse5-htmlparser2-tree-adapter";
import { ToolError } from "@/lib/errors";

/**
 * How much markup one page may cost to parse. Parsing as browsers do (parse5) takes time quadratic in the
 * depth of unclosed elements: every start tag of a block element looks through the open elements for a `<p>`
 * to close, so a megabyte of `<div>`s never closed is some 200,000 open elements searched 200,000 times, most
 * of a minute of a tool thread. Browsers cap the depth (Chromium's parser nests 512 levels, then adds siblings);
 * these limits refuse such a page before the document is built and bound the parse itself:
 * - `maxDepth`: elements left open, counted by a linear scan of the tags before parsing, and the depth of the
 *   tree as the parser builds it;
 * - `maxElements`: elements the parser creates;
 * - `maxSteps`: the parser's steps through its open elements and through the children of nodes it moves
 *   (where the quadratic work is), and elements made;
 * - `parseMs`: time in the parser, checked at those steps, should a machine be slow.
 */
export interface HtmlLimits {
  maxDepth: number;
  maxElements: number;
  /** Steps of the parser's searches through its open elements and new elements: the work, whatever the machine. */
  maxSteps: number;
  parseMs: number;
}

export const HTML_LIMITS: HtmlLimits = {
  maxDepth: 1024,
  maxElements: 250_000,
  maxSteps: 20_000_000,
  parseMs: 10_000,
};

/** The code a job fails with when its page is refused by these limits (refunded, like every tool failure). */
export const PAGE_TOO_COMPLEX = "PAGE_TOO_COMPLEX";

const tooComplex = (why: string) =>
  new ToolError(
    PAGE_TOO_COMPLEX,
    `The page's markup is too complex to analyse: ${why}. Browsers and search engines also stop reading such markup; fix the unclosed tags and run the tool again.`,
  );

/**
 * `cheerio.load(html)` within `limits`: a page past one of them throws ToolError PAGE_TOO_COMPLEX, in well
 * under a second however it is built. Ordinary pages, large ones included, parse as before.
 */
export function loadHtml(html: string, limits: HtmlLimits = HTML_LIMITS): CheerioAPI {
  return loadHtmlCounted(html, limits).$;
}

/** `loadHtml`, with the parser's steps it took (how close a page came to `maxSteps`). */
export function loadHtmlCounted(
  html: string,
  limits: HtmlLimits = HTML_LIMITS,
): { $: CheerioAPI; steps: number } {
  const scan = scanTags(html, limits.maxDepth);
  if (scan.depth > limits.maxDepth) {
    throw tooComplex(`it leaves more than ${limits.maxDepth} elements open inside one another`);
  }
  if (scan.startTags > limits.maxElements)
    throw tooComplex(`it has more than ${limits.maxElements} elements`);
  const deadline = performance.now() + limits.parseMs;
  let elements = 0;
  let steps = 0;
  let nextCheck = 0x1000;
  const step = (cost = 1) => {
    steps += cost;
    if (steps < nextCheck) return;
    nextCheck = steps + 0x1000;
    if (steps > limits.maxSteps)
      throw tooComplex("its elements are nested too deeply for the parser to finish");
    if (performance.now() > deadline)
      throw tooComplex(`parsing it took more than ${limits.parseMs / 1000} s`);
  };
  // The depth of each node in the tree being built: the parser's open elements are a path of it, so a deep
  // tree is what makes every search of them long (whatever built it: unclosed tags, misnested formatting
  // that the adoption agency re-opens, foster parenting).
  const depths = new WeakMap<object, number>();
  const place = (parent: object, node: object) => {
    const depth = (depths.get(parent) ?? 0) + 1;
    if (depth > limits.maxDepth) {
      throw tooComplex(`it nests more than ${limits.maxDepth} elements inside one another`);
    }
    depths.set(node, depth);
  };
  const siblings = (node: { parent?: unknown } | null | undefined) =>
    ((node?.parent as { children?: unknown[] } | null | undefined)?.children?.length ?? 0) + 1;
  const treeAdapter: typeof adapter = {
    ...adapter,
    createElement(tagName, namespaceURI, attrs) {
      if (++elements > limits.maxElements)
        throw tooComplex(`it has more than ${limits.maxElements} elements`);
      step();
      return adapter.createElement(tagName, namespaceURI, attrs);
    },
    getNamespaceURI(element) {
      step();
      return adapter.getNamespaceURI(element);
    },
    getTagName(element) {
      step();
      return adapter.getTagName(element);
    },
    // Moving nodes (the adoption agency for misnested formatting, foster parenting in tables) searches the
    // parent's children: as costly as the parent is wide.
    detachNode(node) {
      step(siblings(node));
      adapter.detachNode(node);
    },
    appendChild(parentNode, newNode) {
      place(parentNode, newNode);
      adapter.appendChild(parentNode, newNode);
    },
    insertBefore(parentNode, newNode, referenceNode) {
      step(parentNode.children.length + 1);
      place(parentNode, newNode);
      adapter.insertBefore(parentNode, newNode, referenceNode);
    },
    insertTextBefore(parentNode, text, referenceNode) {
      step(parentNode.children.length + 1);
      adapter.insertTextBefore(parentNode, text, referenceNode);
    },
  };
  // cheerio hands `treeAdapter` to parse5 as it is (its parse5 adapter defaults it only when absent).
  const $ = load(html, { treeAdapter } as Parameters<typeof load>[1]);
  return { $, steps };
}

// Elements that never hold children, and those whose end tag may be left out (the parser closes them when a
// sibling or the parent starts or ends): neither counts towards the depth, so sloppy but ordinary markup
// (`<p>`, `<li>`, `<td>` never closed) is not taken for nesting.
const VOID = new Set(
  "area base basefont bgsound br col embed frame hr image img input keygen link meta param source track wbr".split(
    " ",
  ),
);
const OPTIONAL_END = new Set(
  "p li dt dd option optgroup tr td th thead tbody tfoot colgroup caption rb rt rp rtc html head body".split(
    " ",
  ),
);
// Their content is text up to their own end tag.
const RAW_TEXT = new Set("script style textarea title xmp iframe noembed noframes noscript".split(" "));

/**
 * The greatest number of elements open inside one another, as a scan of the tags sees it (stopping once it
 * passes `stopAbove`): a start tag opens its element, an end tag closes it and whatever opened inside it;
 * an end tag with nothing of its name open is ignored. Linear in the length of `html`.
 */
export function openElementDepth(html: string, stopAbove = Number.POSITIVE_INFINITY): number {
  return scanTags(html, stopAbove).depth;
}

/** `openElementDepth`, and the start tags seen (all of them unless the depth passed `stopAbove` first). */
function scanTags(html: string, stopAbove: number): { depth: number; startTags: number } {
  const stack: string[] = [];
  const open = new Map<string, number>();
  let max = 0;
  let startTags = 0;
  let i = html.indexOf("<");
  while (i !== -1 && i < html.length - 1) {
    if (html.startsWith("<!--", i)) {
      const end = html.indexOf("-->", i + 4);
      if (end === -1) break;
      i = html.indexOf("<", end + 3);
      continue;
    }
    const closing = html[i + 1] === "/";
    const start = closing ? i + 2 : i + 1;
    let j = start;
    while (j < html.length && /[A-Za-z0-9:-]/.test(html[j]!)) j++;
    if (j === start || !/[A-Za-z]/.test(html[start]!)) {
      i = html.indexOf("<", i + 1);
      continue;
    }
    const name = html.slice(start, j).toLowerCase();
    const tagEnd = html.indexOf(">", j);
    if (tagEnd === -1) break;
    if (closing) {
      if (open.get(name)) {
        for (;;) {
          const top = stack.pop()!;
          open.set(top, open.get(top)! - 1);
          if (top === name) break;
        }
      }
    } else {
      startTags++;
      if (RAW_TEXT.has(name)) {
        const closer = new RegExp(`</${name}`, "gi");
        closer.lastIndex = tagEnd;
        const end = closer.exec(html);
        if (!end) break;
        i = end.index;
        continue;
      }
      if (!VOID.has(name) && !OPTIONAL_END.has(name)) {
        stack.push(name);
        open.set(name, (open.get(name) ?? 0) + 1);
        if (stack.length > max) {
          max = stack.length;
          if (max > stopAbove) return { depth: max, startTags };
        }
      }
    }
    i = html.indexOf("<", tagEnd + 1);
  }
  return { depth: max, startTags };
}
