/** A page for answers that cannot go through React Router: 503 and last-resort 500. */
export function plainPage({
  status,
  title,
  message,
  requestId,
  nonce,
}: {
  status: number;
  title: string;
  message: string;
  requestId: string;
  nonce: string;
}): string {
  const escapeHtml = (text: string) =>
    text.replace(
      /[&<>"']/g,
      (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
    );
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">
body{margin:0;font-family:system-ui,sans-serif;background:#fffaf2;color:#2b1d14;display:grid;place-items:center;min-height:100vh}
main{max-width:32rem;padding:2rem;text-align:center}a{color:#9a3412}code{font-size:.9em}
</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>
<p>Reference: <code>${escapeHtml(requestId)}</code> · ${status}</p><p><a href="/">Go to the home page</a></p></main></body></html>`;
}
