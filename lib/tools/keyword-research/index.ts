import { z } from "zod";
import { httpUrl } from "../shared-schemas";
import { unavailableTool } from "../unavailable";

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
      .max(10, { error: "At most 10 seed keywords." })
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

export const keywordResearch = unavailableTool({
  name: "keyword-research",
  summary: "Keyword ideas from a site's topics (url) or from up to 10 seed keywords.",
  input: keywordResearchInput,
  cost: () => 50,
});
