export type {
  BacklinksOverviewResult,
  DomainAuthorityInput,
  DomainAuthorityResult,
} from "./backlinks-schema";
export { importWebgraph } from "./import-webgraph";
export {
  backlinksAvailability,
  hasWebgraphSnapshot,
  runBacklinksOverview,
  runDomainAuthority,
} from "./run-backlinks";
