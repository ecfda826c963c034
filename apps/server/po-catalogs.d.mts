// Types of po-catalogs.mjs (issue 35: the server's PO catalogs compiled for esbuild and vitest).
import type { Plugin as EsbuildPlugin } from 'esbuild';

export function compilePoCatalog(file: string): { code: string; watchFiles: string[] };
export const poEsbuildPlugin: EsbuildPlugin;
export function poVitePlugin(): { name: string; enforce: 'pre'; load(id: string): { code: string; map: null } | null };
