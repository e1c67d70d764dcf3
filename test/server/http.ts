// What both test servers (phpRank's and n8n's public API) do with Node's http server.
import type { IncomingMessage, Server } from 'http';
import type { AddressInfo } from 'net';

/** Listens on 127.0.0.1 (`port` 0: a free one); resolves with the origin, http://127.0.0.1:<port>. */
export function listen(server: Server, port = 0): Promise<string> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', 1024, () => {
			server.off('error', reject);
			resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
		});
	});
}

/** Closes the listener and every connection, hanging ones included. */
export function closeAll(server: Server): Promise<void> {
	return new Promise((resolve) => {
		server.close(() => resolve());
		server.closeAllConnections();
	});
}

/** A request's body as text, or undefined when the client went away mid-body. */
export async function readBody(req: IncomingMessage): Promise<string | undefined> {
	try {
		return await new Promise<string>((resolve, reject) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
			req.on('error', reject);
		});
	} catch {
		return undefined;
	}
}
