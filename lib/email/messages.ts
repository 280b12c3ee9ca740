// The emails the service sends: plain text first (every client reads it), a minimal HTML twin.
import type { MailMessage } from "@/lib/providers/smtp/mailer";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function message(to: string, subject: string, lines: string[], link: string, action: string): MailMessage {
  const text = [...lines, "", `${action}: ${link}`, "", "— Findable"].join("\n");
  const html = `${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("")}<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p><p>— Findable</p>`;
  return { to, subject, text, html };
}

export function verificationEmail(to: string, link: string, bonus: number): MailMessage {
  return message(
    to,
    "Verify your email address",
    [
      "Welcome to Findable.",
      `Confirm that this address is yours and your account receives its ${bonus} free credits.`,
      "The link works once and expires in 24 hours. If you did not sign up, ignore this email.",
    ],
    link,
    "Verify my address",
  );
}

export function passwordResetEmail(to: string, link: string): MailMessage {
  return message(
    to,
    "Reset your password",
    [
      "Someone (we hope you) asked to reset the password of this Findable sign-in.",
      "The link works once and expires in 1 hour. If you did not ask, ignore this email: your password stays as it is.",
    ],
    link,
    "Choose a new password",
  );
}

export function inviteEmail(to: string, link: string, accountName: string, role: string): MailMessage {
  return message(
    to,
    `You are invited to ${accountName} on Findable`,
    [
      `You are invited to join ${accountName} on Findable as ${role === "admin" ? "an admin" : `a ${role}`}.`,
      "The link works once and expires in 7 days.",
    ],
    link,
    "Accept the invitation",
  );
}

/** To the owner of an address someone tried to sign up with again: what to do if it was them, and if not. */
export function signUpAttemptEmail(to: string, resetLink: string): MailMessage {
  return message(
    to,
    "Someone tried to create an account with your address",
    [
      "Someone (perhaps you) tried to create a Findable account with this address, which already has one.",
      "If it was you, sign in instead; if you forgot your password, choose a new one with the link below.",
      "If it was not you, ignore this email: nothing was changed and no one was signed in.",
    ],
    resetLink,
    "Choose a new password",
  );
}

/** The link that finishes a sign-up: opening it creates the account and signs its owner in. */
export function signUpLinkEmail(to: string, link: string, bonus: number): MailMessage {
  return message(
    to,
    "Confirm your email to finish signing up",
    [
      "Welcome to Findable.",
      `Confirm that this address is yours to create your account, with its ${bonus} free credits, and sign in.`,
      "The link works once and expires in 24 hours. If you did not sign up, ignore this email: no account is created.",
    ],
    link,
    "Create my account",
  );
}
