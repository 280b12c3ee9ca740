// Every route file under app/api/v1, for the lean mount in server.ts (lib/server/api-dispatch.ts). A route file
// missing here is answered by Next instead, still correctly but through its page pipeline; the suite walks
// app/api/v1 and fails when a file is not listed (test/api/lean-mount.test.ts).

import * as legacyCatchAll from "@/app/api/[...path]/route";
import * as legacyAnalyticsReports from "@/app/api/analytics/reports/route";
import * as legacyAnalyticsVisibility from "@/app/api/analytics/visibility/route";
import * as legacyAuthMe from "@/app/api/auth/me/route";
import * as cronJobs from "@/app/api/cron/jobs/route";
import * as legacyTrackingCitations from "@/app/api/tracking/citations/route";
import * as legacyTrackingVisits from "@/app/api/tracking/visits/route";
import * as legacyTrackingWebhook from "@/app/api/tracking/webhook/route";
import * as legacyTrackingWebhookTest from "@/app/api/tracking/webhook/test/route";
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
import * as v1KeysIdRoll from "@/app/api/v1/keys/[id]/roll/route";
import * as v1KeysId from "@/app/api/v1/keys/[id]/route";
import * as v1Keys from "@/app/api/v1/keys/route";
import * as v1Mcp from "@/app/api/v1/mcp/route";
import * as v1MonitorsIdPause from "@/app/api/v1/monitors/[id]/pause/route";
import * as v1MonitorsIdReport from "@/app/api/v1/monitors/[id]/report/route";
import * as v1MonitorsIdResume from "@/app/api/v1/monitors/[id]/resume/route";
import * as v1MonitorsId from "@/app/api/v1/monitors/[id]/route";
import * as v1MonitorsIdRun from "@/app/api/v1/monitors/[id]/run/route";
import * as v1MonitorsIdRuns from "@/app/api/v1/monitors/[id]/runs/route";
import * as v1Monitors from "@/app/api/v1/monitors/route";
import * as v1OpenapiJson from "@/app/api/v1/openapi.json/route";
import * as v1PostmanJson from "@/app/api/v1/postman.json/route";
import * as v1Root from "@/app/api/v1/route";
import * as v1SchedulesIdHistory from "@/app/api/v1/schedules/[id]/history/route";
import * as v1SchedulesId from "@/app/api/v1/schedules/[id]/route";
import * as v1SchedulesIdRun from "@/app/api/v1/schedules/[id]/run/route";
import * as v1Schedules from "@/app/api/v1/schedules/route";
import * as v1SearchConsoleQueries from "@/app/api/v1/search-console/queries/route";
import * as v1TrackingEvents from "@/app/api/v1/tracking/events/route";
import * as v1TrackingLogs from "@/app/api/v1/tracking/logs/route";
import * as v1TrackingPages from "@/app/api/v1/tracking/pages/route";
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
import type { EdgeRoute } from "@/lib/server/api-edge";

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
  { path: "/api/v1/keys/[id]", module: v1KeysId },
  { path: "/api/v1/keys/[id]/roll", module: v1KeysIdRoll },
  { path: "/api/v1/keys", module: v1Keys },
  { path: "/api/v1/mcp", module: v1Mcp },
  { path: "/api/v1/monitors/[id]/pause", module: v1MonitorsIdPause },
  { path: "/api/v1/monitors/[id]/report", module: v1MonitorsIdReport },
  { path: "/api/v1/monitors/[id]/resume", module: v1MonitorsIdResume },
  { path: "/api/v1/monitors/[id]", module: v1MonitorsId },
  { path: "/api/v1/monitors/[id]/run", module: v1MonitorsIdRun },
  { path: "/api/v1/monitors/[id]/runs", module: v1MonitorsIdRuns },
  { path: "/api/v1/monitors", module: v1Monitors },
  { path: "/api/v1/openapi.json", module: v1OpenapiJson },
  { path: "/api/v1/postman.json", module: v1PostmanJson },
  { path: "/api/v1", module: v1Root },
  { path: "/api/v1/schedules/[id]/history", module: v1SchedulesIdHistory },
  { path: "/api/v1/schedules/[id]", module: v1SchedulesId },
  { path: "/api/v1/schedules/[id]/run", module: v1SchedulesIdRun },
  { path: "/api/v1/schedules", module: v1Schedules },
  { path: "/api/v1/search-console/queries", module: v1SearchConsoleQueries },
  { path: "/api/v1/tracking/events", module: v1TrackingEvents },
  { path: "/api/v1/tracking/logs", module: v1TrackingLogs },
  { path: "/api/v1/tracking/pages", module: v1TrackingPages },
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

// Every route file under /api, for the edge ahead of both mounts (lib/server/api-edge.ts): how each answers a
// method outside GET…OPTIONS. Routes that are not the API's are named with their exported methods only (their
// modules pull in next-auth, Stripe). test/api/api-edge.test.ts walks app/api and fails when one is missing.
export const API_EDGE_ROUTES: EdgeRoute[] = [
  ...API_ROUTES,
  { path: "/api/[...path]", module: legacyCatchAll },
  { path: "/api/analytics/reports", module: legacyAnalyticsReports },
  { path: "/api/analytics/visibility", module: legacyAnalyticsVisibility },
  { path: "/api/auth/me", module: legacyAuthMe },
  { path: "/api/cron/jobs", module: cronJobs },
  { path: "/api/tracking/citations", module: legacyTrackingCitations },
  { path: "/api/tracking/visits", module: legacyTrackingVisits },
  { path: "/api/tracking/webhook", module: legacyTrackingWebhook },
  { path: "/api/tracking/webhook/test", module: legacyTrackingWebhookTest },
  { path: "/api/authjs/[...nextauth]", methods: ["GET", "POST"] },
  { path: "/api/dashboard/credits", methods: ["GET"] },
  { path: "/api/dashboard/google/callback", methods: ["GET"] },
  { path: "/api/dashboard/google/connect", methods: ["GET"] },
  { path: "/api/dashboard/jobs/[jobId]", methods: ["GET"] },
  { path: "/api/dashboard/jobs/[jobId]/previous", methods: ["GET"] },
  { path: "/api/dashboard/monitors/[id]/report", methods: ["GET"] },
  { path: "/api/dashboard/onboarding", methods: ["GET"] },
  { path: "/api/webhooks/stripe", methods: ["POST"] },
];
