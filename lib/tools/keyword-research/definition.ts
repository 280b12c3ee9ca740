import { z } from "zod";
import { httpUrl } from "../shared-schemas";
import { defineTool } from "../types";
import { notBuiltYet } from "../unavailable";

export const MAX_SEED_KEYWORDS = 10;

export const keywordResearchInput = z
  .object({
    url: httpUrl.optional(),
    keywords: z
      .array(
        z
          .string({ error: "Must be a string." })
          .trim()
          .min(1, { error: "Must not be empty." })
          .max(80, { error: "Must be at most 80 characters." }),
        { error: "Must be an array of strings." },
      )
      .min(1, { error: "Give at least one keyword." })
      .max(MAX_SEED_KEYWORDS, { error: `At most ${MAX_SEED_KEYWORDS} seed keywords.` })
      .optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.url !== undefined && v.keywords !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["keywords"],
        message: "Provide either url or keywords, not both.",
      });
    } else if (v.url === undefined && v.keywords === undefined) {
      ctx.addIssue({ code: "custom", path: ["url"], message: "Provide either url or keywords." });
    }
  });

export const keywordResearch = defineTool({
  name: "keyword-research",
  title: "Keyword research",
  summary: `Keyword ideas from a site's topics (url) or from up to ${MAX_SEED_KEYWORDS} seed keywords.`,
  input: keywordResearchInput,
  example: { keywords: ["ai search optimization", "llms.txt"] },
  cost: () => 50,
  ...notBuiltYet("keyword research"),
  form: [
    { name: "url", kind: "url", label: "Site URL", required: false, placeholder: "https://example.com/" },
    {
      name: "keywords",
      kind: "list",
      label: "Seed keywords",
      hint: `One per line, up to ${MAX_SEED_KEYWORDS}. Give either a URL or keywords, not both.`,
      required: false,
    },
  ],
});
