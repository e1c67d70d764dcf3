/**
 * What every e2e suite shares: its report and bound helpers, a temp folder, the phpRank test server, the
 * package installed in a fresh n8n (built and packed here, or the tarball E2E_TARBALL names: the runner,
 * e2e/all.ts, packs once for every suite), an SMTP catcher, and the clean-up of all of it in reverse order,
 * also on failure. NOTES.md, "Adding an e2e suite", shows a suite's shape.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { type Browser, chromium, type Page } from 'playwright-core';

import { PhpRankServer } from '../../test/server';
import { startSmtpCatcher, type SmtpCatcher } from './catchers';
import { buildAndPack, sandboxWithPackage, type SandboxWithPackage } from './checks';
import type { CredentialImport } from './cli';
import { onInterrupt, stopAllDaemons } from './proc';
import { Fatal, Report } from './report';
import { removeSandbox, withoutEditor } from './sandbox';
import type { N8nServer } from './server';

/** The SMTP credential of the examples that send e-mail, pointed at a local catcher. */
export const SMTP_CRED = { id: 'phprank-e2e-smtp', name: 'SMTP (local catcher)' };

export function smtpCredential(smtp: SmtpCatcher): CredentialImport {
	return {
		...SMTP_CRED,
		type: 'smtp',
		data: {
			user: '',
			password: '',
			host: smtp.host,
			port: smtp.port,
			secure: false,
			disableStartTls: true,
		},
	};
}

export class Suite {
	readonly report: Report;
	readonly check: Report['check'];
	readonly section: Report['section'];
	readonly note: Report['note'];
	readonly timed: Report['timed'];
	/** the phpRank test server (not throttled); started by the suite, stopped at the end */
	readonly api = new PhpRankServer({ throttle: false });
	private workDir: string | undefined;
	private packed: Promise<string> | undefined;
	private readonly cleanups: Array<() => Promise<unknown> | unknown> = [];
	private readonly servers = new Set<N8nServer>();
	private readonly diagnostics = new Set<() => string>();
	private browser: Promise<Browser> | undefined;

	/**
	 * `name`: the temp folders' prefix; `pass`: the word a passed check is printed with; `editor: false`: its n8n
	 * serve no editor (a suite that neither opens it nor reads its /types and /icons: sandbox.ts, withoutEditor).
	 */
	constructor(
		readonly name: string,
		opts: { pass?: string; editor?: boolean } = {},
	) {
		if (opts.editor === false) withoutEditor();
		this.report = new Report(opts);
		this.check = this.report.check.bind(this.report);
		this.section = this.report.section.bind(this.report);
		this.note = this.report.note.bind(this.report);
		this.timed = this.report.timed.bind(this.report);
		this.defer(() => this.api.stop());
	}

	/**
	 * An e-mail body (a `summary_html`) as a mail client shows it: rendered in Debian's Chromium
	 * (CHROMIUM_PATH), 800 px wide, one browser per suite, closed at the end. Its screenshot is kept
	 * after the suite, its path printed; the page is returned for the suite's own checks.
	 */
	async renderHtml(html: string, name: string): Promise<Page> {
		this.browser ??= chromium
			.launch({
				executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
				args: ['--headless', '--no-sandbox'],
			})
			.then((browser) => {
				this.defer(() => browser.close());
				return browser;
			});
		const page = await (await this.browser).newPage({ viewport: { width: 800, height: 1200 } });
		await page.setContent(html);
		const shots = fs.mkdtempSync(path.join(os.tmpdir(), `phprank-${this.name}-shots-`));
		const shot = path.join(shots, `${name}.png`);
		await page.screenshot({ path: shot, fullPage: true });
		this.note(`screenshot: ${shot}`);
		return page;
	}

	/** A temp folder of the suite's own, removed at the end. */
	get work(): string {
		if (!this.workDir) {
			const dir = fs.mkdtempSync(path.join(os.tmpdir(), `phprank-${this.name}-`));
			this.defer(() => fs.rmSync(dir, { recursive: true, force: true }));
			this.workDir = dir;
		}
		return this.workDir;
	}

	/** Runs `fn` at the end (the last deferred first). */
	defer(fn: () => Promise<unknown> | unknown): void {
		this.cleanups.push(fn);
	}

	/** The tarball: E2E_TARBALL when the runner packed it, else built, packed and checked here (once). */
	async tarball(): Promise<string> {
		this.packed ??= this.pack();
		return await this.packed;
	}

	private async pack(): Promise<string> {
		const given = process.env.E2E_TARBALL;
		if (given) {
			this.note(`package: ${given} (built and checked once by the runner)`);
			return given;
		}
		return await buildAndPack(this.report, this.work);
	}

	/** A fresh n8n home with the package installed as README says; removed at the end unless KEEP_SANDBOX. */
	async packageSandbox(): Promise<SandboxWithPackage> {
		const installed = await sandboxWithPackage(this.report, await this.tarball());
		this.defer(async () => {
			if (process.env.KEEP_SANDBOX) console.log(`\nsandbox kept: ${installed.sb.userFolder}`);
			else await removeSandbox(installed.sb);
		});
		return installed;
	}

	/** A local SMTP catcher, stopped at the end, and the credential that points at it. */
	async smtp(): Promise<{ catcher: SmtpCatcher; credential: CredentialImport }> {
		const catcher = await startSmtpCatcher();
		this.defer(() => catcher.stop());
		return { catcher, credential: smtpCredential(catcher) };
	}

	/**
	 * Says that the part of this suite that needs the machine to itself is over (queue mode: its main and workers
	 * are up before its fixed schedules): e2e/all.ts starts the other lanes when the file E2E_UP_FILE names
	 * appears (or when this suite ends). A no-op when run alone.
	 */
	up(): void {
		const file = process.env.E2E_UP_FILE;
		if (file) fs.writeFileSync(file, `${new Date().toISOString()}\n`);
	}

	/** Printed if the suite breaks off (an unexpected error or a Fatal): e.g. the tail of a log. */
	diagnose(fn: () => string): () => void {
		this.diagnostics.add(fn);
		return () => this.diagnostics.delete(fn);
	}

	/** An n8n server the suite started: stopped at the end, its log's tail printed if the suite breaks off. */
	n8n(server: N8nServer): N8nServer {
		this.servers.add(server);
		const forget = this.diagnose(() => `--- n8n log (tail) ---\n${server.logs().slice(-6000)}`);
		const stop = async (): Promise<void> => {
			this.servers.delete(server);
			forget();
			await server.stop();
		};
		return { ...server, stop };
	}

	/**
	 * Runs the suite's body: a Fatal or any other error is a failed check; then the clean-up, the summary
	 * and the exit code.
	 */
	run(body: () => Promise<void>): void {
		const cleanUp = async (): Promise<void> => {
			for (const server of [...this.servers]) await server.stop();
			for (const fn of this.cleanups.splice(0).reverse()) await fn();
		};
		const forget = onInterrupt(cleanUp);
		const main = async (): Promise<void> => {
			try {
				await body();
			} catch (error) {
				const e = error as Error;
				if (error instanceof Fatal) this.check(`fatal: ${e.message}`, false);
				else this.check(`unexpected error: ${e.message}`, false, e.stack);
				for (const fn of this.diagnostics) console.log(fn());
			} finally {
				await cleanUp();
				forget();
			}
			this.report.finish();
		};
		main().catch(async (e: unknown) => {
			console.error(e);
			await stopAllDaemons();
			console.log(`\n${this.report.passed} passed, ${this.report.failed + 1} failed`);
			process.exit(1);
		});
	}
}
