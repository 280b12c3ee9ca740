// The layer order of docs/architecture.md as dependency-cruiser rules. test/dependencies.test.ts cruises app/,
// components/, lib/ and auth.ts with this file and fails on any violation, so `npm test` does too. Rules about
// "use client" and "use server" files (a directive, not a path) are checked by that test on the same cruise.

/** The edges: HTTP, MCP, server actions, the dashboard's thin layer, the derived documents. */
const EDGE = "^lib/(api|mcp|actions|dashboard|openapi|docs|routes)/";
/** The services the edges call (docs/architecture.md, "services"), and the job runner's tools below them. */
const SERVICES = "^lib/(accounts|credits|keys|jobs)/";
/** What the tools measure with, and the engines behind the AI and Core Web Vitals tools. */
const MEASURES = "^lib/(analysis|seo|crawl|ai-visibility|cwv)/";
/** The bottom layer: third parties, the guarded fetcher, the database, the error codes. */
const BOTTOM = "^lib/(providers|fetch|db|errors)/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "lib-not-to-app",
      comment: "lib never imports app/ or the root auth.ts: the app is the top layer.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(app/|auth\\.ts$)" },
    },
    {
      name: "services-not-to-edge",
      comment:
        "The services (and everything below them) never import the HTTP layer (lib/api) or the app; the edges call the services, never the reverse.",
      severity: "error",
      from: { path: "^lib/(credits|jobs|keys|tools|errors|fetch|accounts)/" },
      to: { path: "^(lib/api/|app/)" },
    },
    {
      name: "tools-not-up",
      comment:
        "lib/tools is below the services and the edges: it never imports them (but lib/credits, whose refunds a tool that settles its own share calls).",
      severity: "error",
      from: { path: "^lib/tools/" },
      to: { path: [EDGE, SERVICES], pathNot: "^lib/credits/" },
    },
    {
      name: "measures-not-up",
      comment:
        "What the tools measure with never imports the tools, the services or the edges (but lib/accounts, whose domain lookup the visibility report reads).",
      severity: "error",
      from: { path: MEASURES },
      to: { path: ["^lib/tools/", EDGE, SERVICES], pathNot: "^lib/accounts/" },
    },
    {
      name: "bottom-not-up",
      comment:
        "lib/providers, lib/fetch, lib/db and lib/errors are the bottom layer: nothing above is imported.",
      severity: "error",
      from: { path: BOTTOM },
      to: { path: ["^lib/tools/", MEASURES, EDGE, SERVICES] },
    },
    {
      name: "fetch-not-tools",
      comment: "The fetch layer knows nothing of tools.",
      severity: "error",
      from: { path: "^lib/fetch/" },
      to: { path: "^lib/tools/" },
    },
    {
      name: "errors-import-nothing",
      comment: "lib/errors depends on nothing of the project.",
      severity: "error",
      from: { path: "^lib/errors/" },
      to: { path: "^(app|components|lib|auth\\.ts)", pathNot: "^lib/errors/" },
    },
    {
      name: "no-tool-imports-another",
      comment: "A tool's folder imports no other tool's folder; what tools share lives in lib/tools/shared.",
      severity: "error",
      from: { path: "^lib/tools/([^/]+)/" },
      to: { path: "^lib/tools/([^/]+)/", pathNot: ["^lib/tools/$1/", "^lib/tools/shared/"] },
    },
    {
      name: "no-circular",
      comment: "No module reaches itself through runtime imports.",
      severity: "error",
      from: { path: "^(app|components|lib)/" },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)\\.next/|\\.test\\.tsx?$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    skipAnalysisNotInRules: false,
  },
};
