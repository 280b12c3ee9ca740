// npm run docs:api: writes docs/api.md from the route contracts, the tool catalogue and the error list.
// A test fails when the committed file is not what this script would write.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { renderApiMarkdown } from "@/lib/docs/api-markdown";

const target = path.resolve(import.meta.dirname, "../docs/api.md");
writeFileSync(target, renderApiMarkdown());
console.log(`wrote ${path.relative(process.cwd(), target)}`);
