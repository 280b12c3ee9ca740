// Every route file under app/api/v1, for the lean mount in server.ts (lib/server/api-dispatch.ts). A route file
// missing here is answered by Next instead, still correctly but through its page pipeline; the suite walks
// app/api/v1 and fails when a file is not listed (test/api/lean-mount.test.ts).
import * as v1CatchAll from "@/app/api/v1/[...path]/route";
import * as v1Tool from "@/app/api/v1/[tool]/route";
import * as v1AnalyticsTraffic from "@/app/api/v1/analytics/traffic/route";
import * as v1Capabilities from "@/app/api/v1/capabilities/route";
import * as v1Citations from "@/app/api/v1/citations/route";
import * as v1Credits from "@/app/api/v1/credits/route";
import * as v1DomainsDomain from "@/app/api/v1/domains/[domain]/route";
import * as v1DomainsDomainVerify from "@/app/api/v1/domains/[domain]/verify/route";
import * as v1Domains from "@/app/api/v1/domains/route";
import * as v1Engines from "@/app/api/v1/engines/route";
import * as v1JobsJobid from "@/app/api/v1/jobs/[jobId]/route";
import * as v1Jobs from "@/app/api/v1/jobs/route";
import * as v1Mcp from "@/app/api/v1/mcp/route";
import * as v1OpenapiJson from "@/app/api/v1/openapi.json/route";
import * as v1PostmanJson from "@/app/api/v1/postman.json/route";
import * as v1Root from "@/app/api/v1/route";
import * as v1SearchConsoleQueries from "@/app/api/v1/search-console/queries/route";
import * as v1TrackingEvents from "@/app/api/v1/tracking/events/route";
import * as v1TrackingLogs from "@/app/api/v1/tracking/logs/route";
import * as v1TrackingStats from "@/app/api/v1/tracking/stats/route";
import * as v1Visibility from "@/app/api/v1/visibility/route";
import * as v1WebhooksIdDeliveriesDeliveryidRedeliver from "@/app/api/v1/webhooks/[id]/deliveries/[deliveryId]/redeliver/route";
import * as v1WebhooksIdDeliveries from "@/app/api/v1/webhooks/[id]/deliveries/route";
import * as v1WebhooksIdEnable from "@/app/api/v1/webhooks/[id]/enable/route";
import * as v1WebhooksIdRotateSecret from "@/app/api/v1/webhooks/[id]/rotate-secret/route";
import * as v1WebhooksId from "@/app/api/v1/webhooks/[id]/route";
import * as v1WebhooksIdTest from "@/app/api/v1/webhooks/[id]/test/route";
import * as v1Webhooks from "@/app/api/v1/webhooks/route";
import type { RouteEntry } from "@/lib/server/api-dispatch";

export const API_ROUTES: RouteEntry[] = [
  { path: "/api/v1/[...path]", module: v1CatchAll },
  { path: "/api/v1/[tool]", module: v1Tool },
  { path: "/api/v1/analytics/traffic", module: v1AnalyticsTraffic },
  { path: "/api/v1/capabilities", module: v1Capabilities },
  { path: "/api/v1/citations", module: v1Citations },
  { path: "/api/v1/credits", module: v1Credits },
  { path: "/api/v1/domains/[domain]", module: v1DomainsDomain },
  { path: "/api/v1/domains/[domain]/verify", module: v1DomainsDomainVerify },
  { path: "/api/v1/domains", module: v1Domains },
  { path: "/api/v1/engines", module: v1Engines },
  { path: "/api/v1/jobs/[jobId]", module: v1JobsJobid },
  { path: "/api/v1/jobs", module: v1Jobs },
  { path: "/api/v1/mcp", module: v1Mcp },
  { path: "/api/v1/openapi.json", module: v1OpenapiJson },
  { path: "/api/v1/postman.json", module: v1PostmanJson },
  { path: "/api/v1", module: v1Root },
  { path: "/api/v1/search-console/queries", module: v1SearchConsoleQueries },
  { path: "/api/v1/tracking/events", module: v1TrackingEvents },
  { path: "/api/v1/tracking/logs", module: v1TrackingLogs },
  { path: "/api/v1/tracking/stats", module: v1TrackingStats },
  { path: "/api/v1/visibility", module: v1Visibility },
  {
    path: "/api/v1/webhooks/[id]/deliveries/[deliveryId]/redeliver",
    module: v1WebhooksIdDeliveriesDeliveryidRedeliver,
  },
  { path: "/api/v1/webhooks/[id]/deliveries", module: v1WebhooksIdDeliveries },
  { path: "/api/v1/webhooks/[id]/enable", module: v1WebhooksIdEnable },
  { path: "/api/v1/webhooks/[id]/rotate-secret", module: v1WebhooksIdRotateSecret },
  { path: "/api/v1/webhooks/[id]", module: v1WebhooksId },
  { path: "/api/v1/webhooks/[id]/test", module: v1WebhooksIdTest },
  { path: "/api/v1/webhooks", module: v1Webhooks },
];
