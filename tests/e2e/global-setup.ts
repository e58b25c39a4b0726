import { startSmtpCapture } from "../support/smtp-capture.ts";

// A real SMTP server on loopback for the browser tests' shop; each message is spooled to E2E_MAIL_DIR,
// where the test workers read it.
export default async function globalSetup() {
  const capture = await startSmtpCapture({ port: Number(process.env.E2E_SMTP_PORT), spoolDir: process.env.E2E_MAIL_DIR });
  return async () => {
    await capture.close();
  };
}
