// The part of s3rver's API that tests/support/s3-server.ts uses (the package ships no types). s3rver is a Koa
// application: `use` adds a middleware in front of its own routes.
declare module "s3rver" {
  export interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    use(middleware: (ctx: unknown, next: () => Promise<void>) => Promise<void> | void): this;
  }
}
