// The accounts module's change on the change feed, declared here (not in the feed) so that the platform names
// no feature.

declare module "../../platform/change-feed/change-feed.ts" {
  interface ChangeTypes {
    /** What a person's public profile shows (name, username, location, picture) changed. */
    profile: { userId: string };
  }
}

export {};
