// Kept below lib/tools so that domain modules (lib/keywords) can share it without importing the tool layer.
export { httpUrl } from "@/lib/contract/http-url";
