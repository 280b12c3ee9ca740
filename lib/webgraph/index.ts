export { scoreAuthority } from "./authority";
export type {
  BacklinksOverviewResult,
  DomainAuthorityInput,
  DomainAuthorityResult,
} from "./backlinks-schema";
export {
  BACKLINK_SOURCES,
  backlinksOverviewResult,
  costDomainAuthority,
  domainAuthorityInput,
  domainAuthorityResult,
} from "./backlinks-schema";
export { IMPORT_WEBGRAPH_USAGE, runImportWebgraphCommand } from "./import-command";
export { importWebgraph } from "./import-webgraph";
export { WebgraphFormatError } from "./parse";
export { backlinksOverview, domainAuthority, listWebgraphSnapshots } from "./queries";
export type { BacklinksContext } from "./run-backlinks";
export {
  backlinksAvailability,
  hasWebgraphSnapshot,
  runBacklinksOverview,
  runDomainAuthority,
} from "./run-backlinks";
