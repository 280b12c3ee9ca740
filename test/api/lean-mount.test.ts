// The lean mount (server.ts → lib/server/api-dispatch.ts over api-routes.ts) serves /api/v1 from the same
// handler functions as Next does from the route files. Here: every route file is in its table, the table
// matches paths as Next does, and a representative set of the API suites runs again through it.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { API_ROUTES } from "@/api-routes";
import { compileRoutes, matchRoute } from "@/lib/server/api-dispatch";
import { selectMount } from "../api-server";

const ROOT = path.resolve(import.meta.dirname, "../..");

function routeFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...routeFiles(rel));
    else if (name === "route.ts") out.push(rel);
  }
  return out;
}

describe("the lean mount's table", () => {
  const files = routeFiles("app/api/v1");

  test("mounts every route file under app/api/v1, with the file's own exports", async () => {
    expect(files.length).toBeGreaterThan(10);
    const mounted = new Map(API_ROUTES.map((r) => [r.path, r.module]));
    for (const file of files) {
      const routePath = `/${file.replace(/^app\//, "").replace(/\/route\.ts$/, "")}`;
      expect(mounted.has(routePath), `${file} is not in api-routes.ts`).toBe(true);
      const mod = (await import(/* @vite-ignore */ path.join(ROOT, file))) as Record<string, unknown>;
      for (const name of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        expect(mounted.get(routePath)![name], `${file} ${name}`).toBe(mod[name]);
      }
    }
    expect(API_ROUTES.length).toBe(files.length);
  });

  test("matches as Next does: static before dynamic before catch-all; params decoded; no params on static routes", () => {
    const routes = compileRoutes(API_ROUTES);
    const at = (method: string, p: string) => matchRoute(routes, method, p);
    expect(at("GET", "/api/v1/credits")?.route).toBe("/api/v1/credits");
    expect(at("GET", "/api/v1/credits")?.params).toBeUndefined();
    expect(at("GET", "/api/v1/credits/")?.route).toBe("/api/v1/credits");
    expect(at("POST", "/api/v1/keyword-research")?.route).toBe("/api/v1/[tool]");
    expect(at("GET", "/api/v1/jobs/abc")?.params).toEqual({ jobId: "abc" });
    expect(at("GET", "/api/v1/domains/a%2Eexample/verify")?.params).toEqual({ domain: "a.example" });
    expect(at("POST", "/api/v1/domains/x.example/verify")?.route).toBe("/api/v1/domains/[domain]/verify");
    expect(at("GET", "/api/v1/no/such/path")?.params).toEqual({ path: ["no", "such", "path"] });
    expect(at("GET", "/api/v1")?.route).toBe("/api/v1");
    expect(at("GET", "/api/v1/openapi.json")?.route).toBe("/api/v1/openapi.json");
    expect(at("HEAD", "/api/v1/credits")?.handler).toBe(at("GET", "/api/v1/credits")?.handler);
    // Left to Next: a method no route file exports, a malformed escape.
    expect(at("TRACE", "/api/v1/credits")).toBeNull();
    expect(at("GET", "/api/v1/jobs/%E0%A4%A")).toBeNull();
  });
});

// The same tests as through the Next-like router, now through the lean mount: each suite in its own block so
// its set-up and tear-down (database, server) stay its own.
selectMount("lean");
// biome-ignore lint/correctness/usePlaywrightValidDescribeCallback: the imported suite registers its tests and hooks inside this block
describe("core API through the lean mount", async () => {
  await import("./core.test");
});
// biome-ignore lint/correctness/usePlaywrightValidDescribeCallback: the imported suite registers its tests and hooks inside this block
describe("tracking API through the lean mount", async () => {
  await import("../tracking/tracking-api.test");
});
// biome-ignore lint/correctness/usePlaywrightValidDescribeCallback: the imported suite registers its tests and hooks inside this block
describe("MCP through the lean mount", async () => {
  await import("../mcp/mcp.test");
});
