import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  poweredByHeader: false,
  // Lets parallel builds (CI jobs, several checkouts of one tree) use their own output folders.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // Type checking is its own step of `npm test` (tsc --noEmit over app, lib, tests and scripts).
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
