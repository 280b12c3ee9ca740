import * as mcp from "@/lib/mcp/contract";
import * as capabilities from "@/lib/routes/capabilities";
import * as connections from "@/lib/routes/connections";
import { type AnyRouteContract, isRouteContract, TAGS } from "@/lib/routes/contract";
import * as credits from "@/lib/routes/credits";
import * as domains from "@/lib/routes/domains";
import * as jobs from "@/lib/routes/jobs";
import * as keys from "@/lib/routes/keys";
import * as legacy from "@/lib/routes/legacy";
import * as meta from "@/lib/routes/meta";
import * as monitors from "@/lib/routes/monitors";
import * as pages from "@/lib/routes/pages";
import * as schedules from "@/lib/routes/schedules";
import { toolContracts } from "@/lib/routes/tools";
import * as tracking from "@/lib/routes/tracking";
import * as visibility from "@/lib/routes/visibility";
import * as webhooks from "@/lib/routes/webhooks";

const TAG_ORDER: string[] = TAGS.map((t) => t.name);
const METHOD_ORDER = ["get", "post", "patch", "delete"];

/**
 * Every contract the modules export, ordered by tag, path and method (a module's exports have no order
 * every loader agrees on).
 */
function contractsOf(...modules: Record<string, unknown>[]): AnyRouteContract[] {
  return modules
    .flatMap((m) => Object.values(m).filter(isRouteContract))
    .sort(
      (a, b) =>
        TAG_ORDER.indexOf(a.tag) - TAG_ORDER.indexOf(b.tag) ||
        (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
        METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
    );
}

/**
 * Every /api/v1 operation, collected from the contracts the route modules declare: the tool endpoints from
 * the catalogue, then each resource module (lib/routes/*, and lib/mcp/contract.ts). A contract exported from
 * these modules is documented; a new resource module is one more import here.
 */
export const API_ROUTES: AnyRouteContract[] = [
  ...toolContracts(),
  ...contractsOf(
    jobs,
    credits,
    tracking,
    pages,
    visibility,
    domains,
    monitors,
    schedules,
    connections,
    webhooks,
    keys,
    mcp,
    meta,
    capabilities,
    legacy,
  ),
];
