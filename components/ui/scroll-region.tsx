import type { ReactNode } from "react";

/**
 * A box that scrolls (a long code block, a wide table), reachable by keyboard so its content can be scrolled
 * without a mouse (axe: scrollable-region-focusable), and named as a group rather than a landmark.
 */
export function ScrollRegion({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  const box = `overflow-auto focus-visible:outline-2 focus-visible:outline-indigo-600 ${className ?? ""}`;
  return (
    // biome-ignore lint/a11y: a scrolling region must be reachable by keyboard, named as a group (not a landmark)
    <div className={box} role="group" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
