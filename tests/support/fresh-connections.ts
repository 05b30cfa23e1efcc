// Every fetch of a test on a connection of its own (Vitest setup file).
//
// Node's fetch keeps a connection open after an answer and reuses it for the
// next request; the server closes an idle one after its keep-alive timeout
// (5 s, announced in Keep-Alive), and the client stops reusing it a second
// before. On a busy machine a test that works for more than that second
// between two requests (the event loop held by other work) sends its next
// request on a connection the server has just closed: "fetch failed: other
// side closed" (seen at load 25, tests/integration/api.test.ts). A browser
// retries such a request; Node's fetch does not. A fresh connection per
// request takes the race away; loopback connections cost nothing that a test
// measures, and the tests of keep-alive itself use node:http or raw sockets.
const reusing = globalThis.fetch;

globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  if (!headers.has("connection")) headers.set("connection", "close");
  return reusing(input, { ...init, headers });
};
