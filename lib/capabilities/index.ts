export {
  type Capabilities,
  capabilitiesResult,
  listCapabilities,
  listToolCapabilities,
  type OtherCapability,
  type ToolCapability,
} from "./capabilities";
export { type Integration, listIntegrations } from "./integrations";
