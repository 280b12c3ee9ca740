// The next-auth entry points for app/ (the route handler and pages). The configuration lives in lib/auth so
// that lib code never imports this root file.
export { auth, handlers } from "@/lib/auth/config";
export { oauthProviders } from "@/lib/auth/options";
