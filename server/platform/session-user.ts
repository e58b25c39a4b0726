/** The signed-in person as every service sees them. */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  username: string;
  image: string | null;
  emailVerified: boolean;
  isAdmin: boolean;
}

/** Who is asking: the person (if signed in) and the request that carries their cookies. */
export interface RequestContext {
  headers: Headers;
  clientIp: string | null;
}
