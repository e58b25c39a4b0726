import { Hono } from "hono";
import { messages } from "#common/shared/messages.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import { UNSUBSCRIBE_PATH, type AlertsService } from "./alerts.ts";

/**
 * A POST to the unsubscribe link itself, its token in the address: a mail program's one-click unsubscribe, from the
 * back-in-stock mail's List-Unsubscribe header (RFC 8058; docs/decisions/051). The provider's servers (or its
 * webmail's page) send it with `List-Unsubscribe=One-Click` as the body, no cookie and no origin of the shop's, and
 * the mails must stop at once with a 2xx, no page shown to anybody. Answered here, before the pages, whose own
 * cross-site check would refuse a foreign origin; the server's lets it through (server/app.ts), the token being all
 * it acts on. The body is not read: any POST to the link is a deliberate act (scanners only GET, which shows the
 * page's button). The page's button posts its token in the form, to the bare path, and goes on to the page.
 */
export function oneClickUnsubscribe(alerts: AlertsService) {
  return new Hono<PlatformEnv>().post(UNSUBSCRIBE_PATH, async (c, next) => {
    const token = c.req.query("token");
    if (token === undefined) return next();
    await alerts.unsubscribe({ token });
    return c.text(messages.alerts.unsubscribed);
  });
}
