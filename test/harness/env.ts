import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// n8n-core writes its instance settings below N8N_USER_FOLDER (default ~/.n8n) as soon as it loads.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-phprank-test-'));
process.env.N8N_LOG_LEVEL ??= 'silent';
