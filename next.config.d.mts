// Types for next.config.mjs, so that next-config.test.ts can import its helper (allowJs is off).
import type { NextConfig } from 'next';
import type { NetworkInterfaceInfo } from 'node:os';

export function localDevOrigins(interfaces?: NodeJS.Dict<NetworkInterfaceInfo[]>, hostname?: string): string[];
declare const config: NextConfig;
export default config;
