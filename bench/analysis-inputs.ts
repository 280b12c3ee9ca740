// Adversarial page text for the analysis benchmark and the linear-time tests: each kind once broke a quadratic regex.
export const ADVERSARIAL_KINDS = {
  "one character": () => "a",
  spaces: () => " ",
  digits: () => "1",
  "a-a-a-": () => "a-",
  "1.1.1.": () => "1.",
  "A. A. A.": () => "A. ",
  "e.g. e.g.": () => "e.g. ",
  "....": () => ".",
  ",;:. ,;:.": () => ",;:. ",
  "<<<<": () => "<",
  "unclosed tags": () => "<p><b>",
  "sibling paragraphs": () => "<p>x</p>",
  "quotes and dashes": () => '"— ',
  "#  #  #": () => "# ",
  "long words": () => `${"supercalifragilistic".repeat(50)} `,
  mixed: () => "Aa1.- ,;:%$[](<\"'’",
} as const;

/** Kinds that are markup rather than text: their cost is the DOM's shape, not the text analyses. */
export const MARKUP_KINDS: ReadonlySet<string> = new Set(["unclosed tags", "sibling paragraphs"]);

/** `unit` repeated to at least `bytes` characters. */
export function repeatTo(unit: string, bytes: number): string {
  return unit.repeat(Math.ceil(bytes / unit.length));
}

/** A page whose text sits in one paragraph, one heading, one list item, the title and a meta description. */
export function buildAdversarialPage(text: string): string {
  const fifth = Math.floor(text.length / 5);
  // Words around each part, so trimming and whitespace collapsing cannot remove the hostile run.
  const part = (i: number) => `Why is ${text.slice(i * fifth, (i + 1) * fifth)} 12 here`;
  return (
    `<!doctype html><html lang="en"><head><title>${part(0)}</title>` +
    `<meta name="description" content="${part(1).replaceAll('"', "&quot;")}"></head>` +
    `<body><main><h2>${part(2)}</h2><p>${part(3)}</p><ul><li>${part(4)}</li></ul></main></body></html>`
  );
}

/** An ordinary article page of about 6 KB, for comparison. */
export function buildNormalPage(): string {
  const para =
    "Search engines read the page the way a careful person does. According to a 2024 study, 62% of readers " +
    "left pages that took more than 3 seconds to load (Smith, 2023). “Fast pages earn trust,” said Dr. Jane Doe. " +
    "The HTTP/2 protocol and TLS 1.3 cut latency by 30 ms on average.";
  const sections = Array.from(
    { length: 8 },
    (_, i) => `<h2>What is step ${i + 1}?</h2><p>${para}</p><ul><li>${para}</li></ul>`,
  ).join("");
  return (
    `<!doctype html><html lang="en"><head><title>A guide to fast pages | Example</title>` +
    `<meta name="description" content="How fast pages help search and answer engines."></head>` +
    `<body><main><article><h1>A guide to fast pages</h1>${sections}</article></main></body></html>`
  );
}

/**
 * Milliseconds of CPU the process spent running `run` (user + system). The linear-time tests assert this
 * rather than wall time, so a busy machine that delays the process does not read as a slow analysis.
 */
export function cpuTimeMs(run: () => unknown): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
