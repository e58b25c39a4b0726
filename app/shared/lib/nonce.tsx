import { createContext, useContext } from "react";

// The Content-Security-Policy nonce of this response; empty in the browser, where it is no longer needed.
export const NonceContext = createContext("");
export const useNonce = () => useContext(NonceContext);
