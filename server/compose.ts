import path from "node:path";
import type { Logger } from "pino";
import { loadAuthSecret } from "./auth/secret.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import { createBackgroundMail } from "./services/background-mail.ts";
import { createServices } from "./services/create-services.ts";
import { createMailer } from "./services/mailer.ts";

/** The shop's services and outside connections, built from the configuration (server start-up and tests). */
export async function composeShop(config: Config, database: Pick<Database, "db" | "dialect">, logger: Logger) {
  const mailer = createMailer({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    outboxDir: path.join(config.dataDir, "outbox"),
    logger,
  });
  const backgroundMail = createBackgroundMail({ mailer, logger });
  const services = createServices({
    database,
    dataDir: config.dataDir,
    publicUrl: config.publicUrl,
    authSecret: await loadAuthSecret(config.authSecret, config.dataDir),
    shopName: config.shop.name,
    contactEmail: config.mail.contactEmail,
    shippingFeePaise: config.shop.shippingFeePaise,
    mailer,
    backgroundMail,
    logger,
    limits: config.limits,
  });
  if (config.admin) {
    const outcome = await services.accounts.ensureAdmin(config.admin);
    logger.info({ email: config.admin.email, outcome }, "admin account ready");
  }
  return {
    services,
    mailer,
    /** Lets the e-mails still in flight go out (for at most `timeoutMs`), then closes the mail connections. */
    async closeMail(timeoutMs: number) {
      await backgroundMail.drain(timeoutMs);
      await mailer.close();
    },
  };
}
