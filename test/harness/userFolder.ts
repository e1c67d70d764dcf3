import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * n8n-core writes its instance settings below N8N_USER_FOLDER (default ~/.n8n) as soon as it
 * loads. jest creates one temporary folder for the whole run (workers inherit the variable) and
 * removes it at the end.
 */
export function setup(): void {
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'n8n-phprank-test-'));
}

export function teardown(): void {
	const folder = process.env.N8N_USER_FOLDER;
	if (folder?.includes('n8n-phprank-test-')) rmSync(folder, { recursive: true, force: true });
}
