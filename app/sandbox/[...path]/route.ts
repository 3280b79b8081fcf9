import { handleSandboxRequest } from '@/lib/sandbox-mount';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// ALL /sandbox/* — the embedded stand-in reservation service (sandbox mode only; 404 otherwise)
export const GET = handleSandboxRequest;
export const POST = handleSandboxRequest;
export const PUT = handleSandboxRequest;
export const PATCH = handleSandboxRequest;
export const DELETE = handleSandboxRequest;
