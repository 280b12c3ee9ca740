import { describe, expect, test } from "vitest";
import { type LlmsTxtModel, parseLlmsTxt, renderLlmsTxt } from "./llms-txt";

// The example from https://llmstxt.org, verbatim.
const fastHtml = `# FastHTML

> FastHTML is a python library which brings together Starlette, Uvicorn, HTMX, and fastcore's \`FT\` "FastTags" into a library for creating server-rendered hypermedia applications.

Important notes:

- Although parts of its API are inspired by FastAPI, it is *not* compatible with FastAPI syntax and is not targeted at creating API services
- FastHTML is compatible with JS-native web components and any vanilla JS library, but not with React, Vue, or Svelte.

## Docs

- [FastHTML quick start](https://fastht.ml/docs/tutorials/quickstart_for_web_devs.html.md): A brief overview of many FastHTML features
- [HTMX reference](https://github.com/bigskysoftware/htmx/blob/master/www/content/reference.md): Brief description of all HTMX attributes, CSS classes, headers, events, extensions, js lib methods, and config options

## Examples

- [Todo list application](https://github.com/AnswerDotAI/fasthtml/blob/main/examples/adv_app.py): Detailed walk-thru of a complete CRUD app in FastHTML showing idiomatic use of FastHTML and HTMX patterns.

## Optional

- [Starlette full documentation](https://gist.githubusercontent.com/jph00/809e4a4808d4510be0e3dc9565e9cbd3/raw/9b717589ca44cedc8aaf00b2b8cacef922964c0f/starlette-sml.md): A subset of the Starlette documentation useful for FastHTML development.
`;

describe("parseLlmsTxt", () => {
  test("reads the llmstxt.org example", () => {
    const { model, issues, valid } = parseLlmsTxt(fastHtml);
    expect(valid).toBe(true);
    expect(issues).toEqual([]);
    expect(model?.title).toBe("FastHTML");
    expect(model?.summary).toMatch(/^FastHTML is a python library .* hypermedia applications\.$/);
    expect(model?.details).toHaveLength(2);
    expect(model?.details[0]).toBe("Important notes:");
    expect(model?.sections.map((s) => [s.title, s.links.length])).toEqual([
      ["Docs", 2],
      ["Examples", 1],
      ["Optional", 1],
    ]);
    expect(model?.sections[0]?.links[0]).toEqual({
      title: "FastHTML quick start",
      url: "https://fastht.ml/docs/tutorials/quickstart_for_web_devs.html.md",
      notes: "A brief overview of many FastHTML features",
    });
  });

  test("render(parse(x)) reproduces the example byte for byte", () => {
    const { model } = parseLlmsTxt(fastHtml);
    expect(renderLlmsTxt(model!)).toBe(fastHtml);
  });

  test("only the title is required", () => {
    const { model, valid } = parseLlmsTxt("# Just a title\n");
    expect(valid).toBe(true);
    expect(model).toEqual({ title: "Just a title", details: [], sections: [] });
  });

  const invalid: { name: string; text: string; code: string; severity: "error" | "warning" }[] = [
    { name: "no title", text: "> summary\n\n## Docs\n", code: "TITLE_MISSING", severity: "error" },
    { name: "empty file", text: "", code: "TITLE_MISSING", severity: "error" },
    { name: "title not first", text: "Intro\n# Title\n", code: "TITLE_NOT_FIRST", severity: "error" },
    { name: "two titles", text: "# A\n# B\n", code: "MULTIPLE_TITLES", severity: "error" },
    {
      name: "H3 before sections",
      text: "# A\n\n### Sub\n",
      code: "HEADING_BEFORE_SECTIONS",
      severity: "error",
    },
    {
      name: "item without link",
      text: "# A\n\n## Docs\n\n- just text\n",
      code: "LINK_INVALID",
      severity: "error",
    },
    {
      name: "prose in a section",
      text: "# A\n\n## Docs\n\nSome prose.\n",
      code: "SECTION_CONTENT",
      severity: "warning",
    },
    {
      name: "relative URL",
      text: "# A\n\n## Docs\n\n- [X](/x)\n",
      code: "URL_NOT_ABSOLUTE",
      severity: "warning",
    },
    { name: "empty section", text: "# A\n\n## Docs\n", code: "SECTION_EMPTY", severity: "warning" },
    {
      name: "notes without colon",
      text: "# A\n\n## Docs\n\n- [X](https://a.example/x) - notes\n",
      code: "LINK_NOTES_SEPARATOR",
      severity: "warning",
    },
    {
      name: "duplicate section",
      text: "# A\n\n## Docs\n\n- [X](https://a.example/x)\n\n## docs\n\n- [Y](https://a.example/y)\n",
      code: "SECTION_DUPLICATE",
      severity: "warning",
    },
    {
      name: "Optional not last",
      text: "# A\n\n## Optional\n\n- [X](https://a.example/x)\n\n## Docs\n\n- [Y](https://a.example/y)\n",
      code: "OPTIONAL_NOT_LAST",
      severity: "warning",
    },
    {
      name: "summary after details",
      text: "# A\n\nSome details.\n\n> late summary\n",
      code: "SUMMARY_MISPLACED",
      severity: "warning",
    },
  ];
  for (const c of invalid) {
    test(`reports ${c.name}`, () => {
      const result = parseLlmsTxt(c.text);
      expect(result.issues).toContainEqual(expect.objectContaining({ code: c.code, severity: c.severity }));
      expect(result.valid).toBe(c.severity !== "error");
    });
  }

  test("headings inside code fences are content, and C# keeps its #", () => {
    const text =
      "# C# Guide\n\n```md\n## not a section\n\n# not a title\n```\n\n## Docs\n\n- [A](https://a.example/a)\n";
    const { model, valid } = parseLlmsTxt(text);
    expect(valid).toBe(true);
    expect(model?.title).toBe("C# Guide");
    expect(model?.details).toEqual(["```md\n## not a section\n\n# not a title\n```"]);
    expect(model?.sections.map((s) => s.title)).toEqual(["Docs"]);
    expect(renderLlmsTxt(model!)).toBe(text);
  });
});

describe("renderLlmsTxt", () => {
  const model: LlmsTxtModel = {
    title: "Acme  Cloud",
    summary: "Acme Cloud hosts\nweb apps.",
    details: ["Acme runs in 12 regions."],
    sections: [
      {
        title: "Docs",
        links: [
          {
            title: "Quick start [beta]",
            url: "https://acme.example/docs/start",
            notes: "Deploy in five minutes",
          },
          { title: "API (v2)", url: "https://acme.example/docs/api (v2)" },
        ],
      },
      {
        title: "Optional",
        links: [{ title: "Privacy", url: "https://acme.example/privacy", notes: "How data is used" }],
      },
    ],
  };

  test("produces the exact llms.txt layout", () => {
    expect(renderLlmsTxt(model)).toBe(
      [
        "# Acme Cloud",
        "",
        "> Acme Cloud hosts web apps.",
        "",
        "Acme runs in 12 regions.",
        "",
        "## Docs",
        "",
        "- [Quick start \\[beta\\]](https://acme.example/docs/start): Deploy in five minutes",
        "- [API (v2)](https://acme.example/docs/api%20%28v2%29)",
        "",
        "## Optional",
        "",
        "- [Privacy](https://acme.example/privacy): How data is used",
        "",
      ].join("\n"),
    );
  });

  test("round-trips through the parser", () => {
    const { model: parsed, valid, issues } = parseLlmsTxt(renderLlmsTxt(model));
    expect(issues).toEqual([]);
    expect(valid).toBe(true);
    expect(parsed).toEqual({
      title: "Acme Cloud",
      summary: "Acme Cloud hosts web apps.",
      details: ["Acme runs in 12 regions."],
      sections: [
        {
          title: "Docs",
          links: [
            {
              title: "Quick start [beta]",
              url: "https://acme.example/docs/start",
              notes: "Deploy in five minutes",
            },
            { title: "API (v2)", url: "https://acme.example/docs/api%20%28v2%29" },
          ],
        },
        model.sections[1],
      ],
    });
    expect(renderLlmsTxt(parsed!)).toBe(renderLlmsTxt(model));
  });
});
