const PATHS: Record<string, string> = {
  Facebook: "M14 8h3V4h-3c-2.8 0-4.5 1.8-4.5 4.6V11H7v4h2.5v9h4v-9H17l.5-4h-4V8.8c0-.5.3-.8.8-.8Z",
  X: "M4 3h4.6l4.2 5.8L18 3h2.4l-6.5 7.4L21 21h-4.6l-4.6-6.3L6.3 21H3.9l6.9-7.9Z",
  YouTube:
    "M22 8.2a3 3 0 0 0-2.1-2.1C18 5.6 12 5.6 12 5.6s-6 0-7.9.5A3 3 0 0 0 2 8.2 31 31 0 0 0 1.6 12 31 31 0 0 0 2 15.8a3 3 0 0 0 2.1 2.1c1.9.5 7.9.5 7.9.5s6 0 7.9-.5a3 3 0 0 0 2.1-2.1c.4-1.2.4-3.8.4-3.8s0-2.6-.4-3.8ZM10 15.2V8.8l5.2 3.2Z",
  Instagram:
    "M12 7.3a4.7 4.7 0 1 0 0 9.4 4.7 4.7 0 0 0 0-9.4Zm0 7.7a3 3 0 1 1 0-6 3 3 0 0 1 0 6Zm6-7.9a1.1 1.1 0 1 1-2.2 0 1.1 1.1 0 0 1 2.2 0ZM21.9 8c-.1-1.5-.4-2.8-1.5-3.9S18 2.7 16.5 2.6C15 2.5 9 2.5 7.5 2.6 6 2.7 4.7 3 3.6 4.1S2.2 6.5 2.1 8c-.1 1.5-.1 6.5 0 8s.4 2.8 1.5 3.9 2.4 1.4 3.9 1.5c1.5.1 7.5.1 9 0 1.5-.1 2.8-.4 3.9-1.5s1.4-2.4 1.5-3.9c.1-1.5.1-6.5 0-8Z",
};

export function SocialIcon({ network }: { network: string }) {
  const d = PATHS[network];
  if (!d) return <span>{network}</span>;
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d={d} fill="currentColor" />
    </svg>
  );
}
