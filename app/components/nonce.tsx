import { createContext, useContext } from "react";

// The CSP nonce reaches <Scripts> through React context: set in
// entry.server.tsx, empty in the browser (which hides nonces from the DOM).
export const NonceContext = createContext<string>("");
export const useNonce = () => useContext(NonceContext);
