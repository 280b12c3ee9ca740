// The next-auth entry points for app/ (the route handler and pages). The configuration lives in lib/auth so
// that lib code never imports this root file.
export { auth, handlers, signIn, signOut } from "@/lib/auth/config";
export { oauthProviders, SignInThrottled } from "@/lib/auth/options";
