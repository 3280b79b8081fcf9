// Types of next-env-dev.mjs (plain JS so that predev runs on node alone).
export interface DevTypeOptions {
  baseDir: string;
  distDir: string;
  imageImportsEnabled: boolean;
  hasPagesDir: boolean;
  hasAppDir: boolean;
  strictRouteTypes: boolean;
  typedRoutes: boolean;
}
export const devTypeOptions: DevTypeOptions;
/** False when the installed Next has no such writer (it then writes the file itself). */
export function writeDevNextEnv(options?: DevTypeOptions): Promise<boolean>;
