import { type AnyRouteContract, isRouteContract } from "@/lib/routes/contract";
import * as credits from "@/lib/routes/credits";
import * as jobs from "@/lib/routes/jobs";
import { toolContracts } from "@/lib/routes/tools";
import { API_OPERATIONS } from "./routes";

/** Every contract a module exports, in the module's order. */
function contractsOf(...modules: Record<string, unknown>[]): AnyRouteContract[] {
  return modules.flatMap((m) => Object.values(m).filter(isRouteContract));
}

/**
 * Every /api/v1 operation: the tool endpoints from the catalogue, then the contracts each resource module
 * declares (lib/routes/*), then the operations still listed by hand in ./routes.ts.
 */
export function apiRoutes(): AnyRouteContract[] {
  const declared = [...toolContracts(), ...contractsOf(jobs, credits)];
  const ids = new Set(declared.map((c) => c.operationId));
  return [...declared, ...API_OPERATIONS.filter((op) => !ids.has(op.operationId))];
}

export const API_ROUTES: AnyRouteContract[] = apiRoutes();
