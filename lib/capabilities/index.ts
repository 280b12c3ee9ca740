export {
  listCapabilities,
  listToolCapabilities,
} from "./capabilities";
export { listIntegrations } from "./integrations";
