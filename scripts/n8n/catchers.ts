/**
 * Local stand-ins for the outside services of the examples, so that a real n8n can run them offline:
 *   startSmtpCatcher()  an SMTP server speaking just enough for n8n's Send Email node (nodemailer):
 *                       EHLO/HELO, MAIL FROM, RCPT TO, DATA, RSET, NOOP, QUIT; it records every message
 *                       (envelope, headers, subject, text and HTML, parsed by the mailparser n8n ships) and
 *                       never relays anything.
 *   startFileServer()   an HTTP server answering GET <path> with the body and content type set for that path
 *                       (a site's sitemap.xml and the sitemaps it lists, the URLs a Google Sheets node would
 *                       have read); paths can be changed between runs.
 *                       urlsetXml() and sitemapIndexXml() write sitemaps as sites publish them.
 *   startHttp()         any HTTP handler (ai.e2e.ts's scripted chat model).
 * All listen on 127.0.0.1 and a free port.
 */
import * as http from 'http';
import * as net from 'net';
import type { AddressInfo } from 'net';

import { getRuntime, requireFromN8n } from './runtime';

/** The subjects of `mails`, as a check shows them. */
export const subjects = (mails: CaughtMail[]) => mails.map((m) => m.subject);

export interface CaughtMail {
	/** MAIL FROM address */
	from: string;
	/** RCPT TO addresses */
	to: string[];
	/** header names in lower case; a header given twice keeps the last */
	headers: Record<string, string>;
	/** Subject header, RFC 2047 encoded words decoded */
	subject: string;
	/** the text body (quoted-printable or base64 decoded); for multipart mail, the text/plain part */
	text: string;
	/** the text/html body, decoded as `text` is; for multipart mail, the text/html part; '' when there is none */
	html: string;
	/** the DATA as received (dot-unstuffed) */
	raw: string;
}

export interface SmtpCatcher {
	host: string;
	port: number;
	readonly messages: CaughtMail[];
	clear(): void;
	/** waits until `count` messages are in (or the timeout ends); returns the messages */
	waitFor(count: number, timeoutMs?: number): Promise<CaughtMail[]>;
	stop(): Promise<void>;
}

type SimpleParser = (
	raw: string,
	options: Record<string, boolean>,
) => Promise<{
	subject?: string;
	text?: string;
	html?: string | false;
	headerLines: Array<{ key: string; line: string }>;
}>;

/** A message as received, parsed by the mailparser n8n ships (its IMAP node's): headers, subject, text, HTML. */
async function parseMail(from: string, to: string[], raw: string): Promise<CaughtMail> {
	const mailparser = requireFromN8n<{ simpleParser: SimpleParser }>(getRuntime(), 'mailparser');
	const skip = ['HtmlToText', 'TextToHtml', 'TextLinks', 'ImageLinks'].map((s) => [
		`skip${s}`,
		true,
	]);
	const mail = await mailparser.simpleParser(raw, Object.fromEntries(skip));
	const value = (line: string) => line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ');
	const headers = Object.fromEntries(mail.headerLines.map((h) => [h.key, value(h.line).trim()]));
	// A message of one part ends with its own line break, not the sender's.
	const end = /^multipart\//i.test(headers['content-type'] ?? '') ? /$^/ : /\n$/;
	const body = (content: unknown) =>
		typeof content === 'string' ? content.replace(/\r\n/g, '\n').replace(end, '') : '';
	return {
		from,
		to,
		headers,
		subject: mail.subject ?? '',
		text: body(mail.text),
		html: body(mail.html),
		raw,
	};
}

/** Listens on 127.0.0.1 and a free port; the port. */
async function listen(server: net.Server): Promise<number> {
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	return (server.address() as AddressInfo).port;
}

/** What the catcher answers to each command it knows (DATA: once a recipient is given). */
const SMTP_REPLIES: Record<string, string[]> = {
	EHLO: ['250-localhost greets you', '250-8BITMIME', '250 SMTPUTF8'],
	HELO: ['250 localhost'],
	MAIL: ['250 OK'],
	RCPT: ['250 OK'],
	DATA: ['354 End data with <CR><LF>.<CR><LF>'],
	RSET: ['250 OK'],
	NOOP: ['250 OK'],
	QUIT: ['221 Bye'],
};

const address = (arg: string): string => /<([^>]*)>/.exec(arg)?.[1] ?? arg.trim();

export async function startSmtpCatcher(): Promise<SmtpCatcher> {
	const messages: CaughtMail[] = [];
	let parsed: Promise<unknown> = Promise.resolve();
	const sockets = new Set<net.Socket>();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => socket.destroy());
		socket.setEncoding('utf8');
		let buffer = '';
		let inData = false;
		let data: string[] = [];
		let from = '';
		let to: string[] = [];
		const reply = (line: string) => socket.write(`${line}\r\n`);
		const command = (line: string) => {
			const verb = line.split(' ', 1)[0].toUpperCase();
			const arg = line.slice(verb.length).trim();
			if (verb === 'MAIL') [from, to] = [address(arg.replace(/^FROM:/i, '')), []];
			if (verb === 'RCPT') to.push(address(arg.replace(/^TO:/i, '')));
			if (verb === 'RSET') [from, to] = ['', []];
			if (verb === 'DATA' && to.length > 0) [inData, data] = [true, []];
			const lines = verb === 'DATA' && to.length === 0 ? ['503 RCPT first'] : SMTP_REPLIES[verb];
			for (const text of lines ?? ['502 Command not implemented']) reply(text);
			if (verb === 'QUIT') socket.end();
		};
		socket.on('data', (chunk: string) => {
			buffer += chunk;
			for (let end = buffer.indexOf('\r\n'); end !== -1; end = buffer.indexOf('\r\n')) {
				const line = buffer.slice(0, end);
				buffer = buffer.slice(end + 2);
				if (!inData) {
					command(line);
				} else if (line === '.') {
					inData = false;
					const mail = [from, to, data.join('\r\n')] as const;
					// parsed in the order received; the answer once it is in `messages`
					parsed = parsed
						.then(async () => void messages.push(await parseMail(...mail)))
						.then(() => reply(`250 OK queued as ${messages.length}`))
						.catch((error: Error) => reply(`554 not parsed: ${error.message}`));
				} else {
					data.push(line.startsWith('.') ? line.slice(1) : line);
				}
			}
		});
		reply('220 localhost ESMTP catcher');
	});
	const port = await listen(server);
	return {
		host: '127.0.0.1',
		port,
		messages,
		clear() {
			messages.length = 0;
		},
		async waitFor(count, timeoutMs = 30_000) {
			const deadline = Date.now() + timeoutMs;
			while (messages.length < count && Date.now() < deadline)
				await new Promise((r) => setTimeout(r, 100));
			return messages;
		},
		async stop() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

export interface FileServer {
	/** the server's origin, `http://127.0.0.1:<port>` */
	origin: string;
	/** sets (or, with `undefined`, removes) what GET `path` answers */
	set(path: string, file: { body: string; contentType: string } | undefined): void;
	/** GET requests per path, in the order received (404s included) */
	readonly hits: string[];
	stop(): Promise<void>;
}

/** GET of a path that was `set` answers its body and content type; anything else 404. */
export async function startFileServer(): Promise<FileServer> {
	const files = new Map<string, { body: string; contentType: string }>();
	const hits: string[] = [];
	const server = await startHttp((req, res) => {
		const file = req.method === 'GET' ? files.get(req.url ?? '') : undefined;
		if (req.method === 'GET') hits.push(req.url ?? '');
		if (!file) {
			res.writeHead(404, { 'content-type': 'text/plain' });
			res.end('not found');
			return;
		}
		res.writeHead(200, { 'content-type': file.contentType });
		res.end(file.body);
	});
	return {
		...server,
		set(path, file) {
			if (file) files.set(path, file);
			else files.delete(path);
		},
		hits,
	};
}

/** An HTTP server with `handler` on 127.0.0.1 and a free port: its origin, and its stop. */
export async function startHttp(
	handler: http.RequestListener,
): Promise<{ origin: string; stop(): Promise<void> }> {
	const server = http.createServer(handler);
	const port = await listen(server);
	return {
		origin: `http://127.0.0.1:${port}`,
		async stop() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

export const XML_TYPE = 'application/xml; charset=utf-8';

/**
 * A sitemap (sitemaps.org's <urlset>) of `locs`, each written into <loc> as given (escape `&` as `&amp;`), with
 * the <lastmod>, <changefreq> and <priority> CMSs write, and an image extension on the first URL.
 */
export function urlsetXml(locs: string[]): string {
	const urls = locs.map(
		(loc, i) =>
			`  <url>\n    <loc>${loc}</loc>\n    <lastmod>2026-11-0${(i % 9) + 1}</lastmod>\n    <changefreq>weekly</changefreq>\n    <priority>0.${8 - (i % 5)}</priority>\n` +
			(i === 0
				? '    <image:image><image:loc>https://cdn.example.net/hero.jpg</image:loc></image:image>\n'
				: '') +
			'  </url>',
	);
	return (
		'<?xml version="1.0" encoding="UTF-8"?>\n' +
		'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n' +
		`${urls.join('\n')}\n</urlset>\n`
	);
}

/** A sitemap index (<sitemapindex>) listing the sitemaps at `locs`. */
export function sitemapIndexXml(locs: string[]): string {
	const entries = locs.map(
		(loc) =>
			`  <sitemap>\n    <loc>${loc}</loc>\n    <lastmod>2026-11-20T06:00:00+00:00</lastmod>\n  </sitemap>`,
	);
	return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`;
}
