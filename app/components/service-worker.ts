import { useEffect } from "react";

/**
 * Registers the service worker (/sw.js, decision 049) once the page has
 * loaded, so it never competes with the first view. A page the worker did
 * not serve (the first visit) asks it to keep that page, since the worker
 * only sees the requests made after it took over.
 */
export function useServiceWorker() {
  useEffect(() => {
    if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
    const register = () => {
      const first = !navigator.serviceWorker.controller;
      navigator.serviceWorker
        .register("/sw.js", { scope: "/" })
        .then(() => navigator.serviceWorker.ready)
        .then((registration) => {
          if (first)
            registration.active?.postMessage({ type: "keep", url: location.pathname + location.search });
        })
        .catch(() => {
          // No worker (private mode, a blocked script): the site works as without JavaScript.
        });
    };
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register, { once: true });
  }, []);
}
