// Debian's Chromium through playwright-core (never a downloaded browser), for
// the browser tests and the scripts that measure pages (no Vitest here).
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * The features Playwright turns off (playwright-core 1.65, chromiumSwitches.ts). Chromium keeps
 * only the last --disable-features switch it is given and Playwright's comes first, so ours
 * repeats them (tests/e2e/chromium-flags.test.ts checks that none is lost).
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/**
 * Chromium 156 gives every new window an omnibox popup drawn by a WebUI page of its own (a
 * renderer process per profile, started again whenever a context's last tab closes): ~0.5 s
 * of CPU a tab or context on this machine, for a popup a headless test never opens.
 */
const OMNIBOX_WEBUI = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup"];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
      `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_WEBUI].join(",")}`,
    ],
  });
}
