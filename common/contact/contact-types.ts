/** A Contact Us message as admins read it. */
export interface ContactMessage {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  createdAt: string;
  /** When it was marked handled; null while it waits for an answer. */
  handledAt: string | null;
}

/** One page of the inbox, newest first; `nextCursor` asks for the next (older) page, null on the last. */
export interface ContactMessagesPage {
  items: ContactMessage[];
  filter: "all" | "unhandled";
  nextCursor: string | null;
}
