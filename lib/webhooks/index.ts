export { deliverDueWebhooks } from "./deliver";
export {
  createEndpoint,
  deleteEndpoint,
  enableEndpoint,
  endpointView,
  listDeliveries,
  listEndpoints,
  redeliver,
  requireEndpoint,
  rotateEndpointSecret,
  sendTestEvent,
} from "./endpoints";
export { dismissNotice, openNotices } from "./notices";
export * from "./schemas";
