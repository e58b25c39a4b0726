import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

/** React, React DOM and React Router: every page needs all of them, so one file (docs/decisions/028). */
const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/;

/**
 * Our own small modules that most pages share (UI primitives, the shop's messages, money, seo), one file
 * instead of a dozen. Nothing that imports zod, and nothing of the admin's screens: those stay in their
 * own chunks, loaded where used.
 */
const SHARED_APP = /[\\/](app[\\/]shared[\\/](ui|components)|app[\\/]features[\\/]reviews[\\/]components[\\/]stars|app[\\/]shared[\\/]lib[\\/](seo|toast|service-errors)|common[\\/]shared[\\/](messages|money|constants|images|media-variants|user-facing-error))[\\/.]/;
const NEVER_SHARED = /[\\/](lazy-toaster|confirm-delete)\.tsx$/;

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter()],
  build: isSsrBuild
    ? {}
    : {
        // Only lazily loaded libraries use `import()` here (zod, Embla, react-hot-toast), each one file with
        // no dependencies worth preloading: the preload helper would cost every page a file for nothing.
        modulePreload: false,
        rollupOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "framework", test: FRAMEWORK, priority: 2 },
                {
                  name: "shared",
                  test: (id: string) => SHARED_APP.test(id) && !NEVER_SHARED.test(id),
                  minShareCount: 2,
                  priority: 1,
                },
              ],
            },
          },
        },
      },
}));
