export { DELIVERY_LEASE_SECONDS, deliverDueWebhooks, purgeWebhookHistory } from "./deliver";
export {
  checkWebhookTarget,
  createEndpoint,
  deleteEndpoint,
  deliveryView,
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
export { accountsListening, emitWebhookEvent, type WebhookPayload } from "./outbox";
export * from "./schemas";
export { signatureHeaders } from "./sign";
