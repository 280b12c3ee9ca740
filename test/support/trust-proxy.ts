/** Runs `run` with TRUST_PROXY set to `value` (or unset), then puts the setting back. */
export function withTrust(value: string | undefined, run: () => void): void {
  const before = process.env.TRUST_PROXY;
  if (value === undefined) delete process.env.TRUST_PROXY;
  else process.env.TRUST_PROXY = value;
  try {
    run();
  } finally {
    if (before === undefined) delete process.env.TRUST_PROXY;
    else process.env.TRUST_PROXY = before;
  }
}
