import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

// React Router's default client entry, except that hydration waits for the browser's first paint of the
// server's HTML (issue 12, docs/decisions/028): when the scripts arrive with the stylesheet, as they do from a
// cache or a fast network, hydrating the whole page first held the first paint back by that much main-thread
// work. rAF runs just before a frame is painted, the timeout just after it. A hidden tab paints no frames
// and would never run rAF, so it hydrates at once.
function afterFirstPaint(run: () => void) {
  if (document.visibilityState === "hidden") run();
  else requestAnimationFrame(() => setTimeout(run, 0));
}

afterFirstPaint(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
});
