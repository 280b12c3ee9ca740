import type { AnyNode, Element } from "domhandler";

/**
 * Descendants of `root` (not `root` itself) whose tag name is in `names`, in document order, as
 * `$(root).find("a, b")` returns them. Cheerio's `find` took time quadratic in the number of children (20 s for
 * a `<main>` of 30,000 paragraphs); this walk visits each node once, iteratively so depth cannot overflow.
 */
export function findDescendants(
  root: AnyNode,
  names: ReadonlySet<string>,
  accept: (el: Element) => boolean = () => true,
): Element[] {
  const found: Element[] = [];
  const stack: AnyNode[] = [];
  pushChildren(stack, root);
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type !== "tag" && node.type !== "script" && node.type !== "style") continue;
    const el = node as Element;
    if (names.has(el.name) && accept(el)) found.push(el);
    pushChildren(stack, el);
  }
  return found;
}

function pushChildren(stack: AnyNode[], node: AnyNode): void {
  const children = (node as { children?: AnyNode[] }).children ?? [];
  for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
}

/** A set of tag names from a space-separated list. */
export function tagSet(list: string): ReadonlySet<string> {
  return new Set(list.split(" "));
}
