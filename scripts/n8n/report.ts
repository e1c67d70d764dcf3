/**
 * The e2e scripts' output: sections, one line per check, timings, and a last line "<N> passed, <M> failed".
 */
export class Report {
	passed = 0;
	failed = 0;
	readonly failures: string[] = [];
	readonly timings: Array<[string, number]> = [];
	private current = '';
	private readonly started = Date.now();
	private readonly passLabel: string;

	/** `pass`: the word a passed check is printed with ("ok" by default; the browser check says "PASS"). */
	constructor(opts: { pass?: string } = {}) {
		this.passLabel = (opts.pass ?? 'ok').padEnd(4);
	}

	section(name: string): void {
		this.current = name;
		console.log(`\n== ${name}`);
	}

	check(name: string, ok: unknown, detail?: unknown): boolean {
		if (ok) {
			this.passed++;
			console.log(`  ${this.passLabel} ${name}`);
		} else {
			this.failed++;
			const d =
				detail === undefined
					? ''
					: `\n         ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`.slice(
							0,
							2000,
						);
			this.failures.push(`[${this.current}] ${name}`);
			console.log(`  FAIL ${name}${d}`);
		}
		return Boolean(ok);
	}

	note(text: string): void {
		console.log(`       ${text}`);
	}

	async timed<T>(label: string, fn: () => Promise<T> | T): Promise<T> {
		const t = Date.now();
		try {
			return await fn();
		} finally {
			const s = (Date.now() - t) / 1000;
			this.timings.push([label, s]);
			this.note(`(${label}: ${s.toFixed(1)} s)`);
		}
	}

	/** Prints timings, failures and the closing line; sets the exit code. */
	finish(): void {
		console.log('\n== summary');
		for (const [label, s] of this.timings)
			console.log(`  ${label.padEnd(44)} ${s.toFixed(1).padStart(6)} s`);
		console.log(
			`  ${'total'.padEnd(44)} ${((Date.now() - this.started) / 1000).toFixed(1).padStart(6)} s`,
		);
		if (this.failures.length) {
			console.log('\nfailed checks:');
			for (const f of this.failures) console.log(`  - ${f}`);
		}
		console.log(`\n${this.passed} passed, ${this.failed} failed`);
		process.exitCode = this.failed > 0 ? 1 : 0;
	}
}

/** An error that ends the run early with a failed check named after it. */
export class Fatal extends Error {}

export const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The item's values at `keys`, each undefined where the item (or the key) is missing. */
export const pick = (item: Record<string, unknown> | undefined, keys: string[]) =>
	Object.fromEntries(keys.map((k) => [k, item?.[k]]));
