/*
 * A page's URL as people write it: `withScheme` puts https:// in front of one without a scheme
 * (`example.com/pricing`, as the trigger gives a report's url and as people type it in a form),
 * `webAddressProblem` refuses what is not an http(s) address. And whether a URL from the public may
 * be handed to phpRank, which fetches whatever it is given: a web address of a public host, not a
 * name or an address of a local or private network. Pure: the URL as a browser's parser reads it
 * (so 2130706433, 0x7f000001 and 0177.0.0.1 are 127.0.0.1). It reads text only: a public name that
 * resolves to a private address passes.
 */

export const PUBLIC_URL_MAX_LENGTH = 2000;

/** Names reserved for local networks (RFC 6761, 6762, 8375; ICANN's `.internal`). */
const LOCAL_NAMES = ['localhost', 'local', 'internal', 'home.arpa'];

/** IPv4 ranges no public web page lives in: [first octets, prefix length, what it is]. */
const IPV4_RANGES: Array<[number[], number, string]> = [
	[[0], 8, 'an unspecified address (0.0.0.0/8)'],
	[[10], 8, 'a private network address (10.0.0.0/8)'],
	[[100, 64], 10, 'a carrier-grade NAT address (100.64.0.0/10)'],
	[[127], 8, 'a loopback address (127.0.0.0/8)'],
	[[169, 254], 16, 'a link-local address (169.254.0.0/16)'],
	[[172, 16], 12, 'a private network address (172.16.0.0/12)'],
	[[192, 0, 0], 24, 'a reserved address (192.0.0.0/24)'],
	[[192, 168], 16, 'a private network address (192.168.0.0/16)'],
	[[198, 18], 15, 'a benchmarking address (198.18.0.0/15)'],
	[[224], 3, 'a multicast or reserved address (224.0.0.0/3)'],
];

function ipv4Problem(octets: number[]): string | undefined {
	const value = octets.reduce((sum, octet) => sum * 256 + octet, 0);
	for (const [start, prefix, what] of IPV4_RANGES) {
		const base = [...start, 0, 0, 0].slice(0, 4).reduce((sum, octet) => sum * 256 + octet, 0);
		if (value >= base && value < base + 2 ** (32 - prefix)) return what;
	}
	return undefined;
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (compressed, lower case, hex only). */
function ipv6Groups(text: string): number[] {
	const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
	const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
	const left = part(head);
	const right = part(tail);
	return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function ipv6Problem(groups: number[]): string | undefined {
	const embedded = () => [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255];
	const zeroUpTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
	if (zeroUpTo(8)) return 'an unspecified address (::)';
	if (zeroUpTo(7) && groups[7] === 1) return 'a loopback address (::1)';
	// ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), 64:ff9b::a.b.c.d (NAT64): the IPv4 address inside.
	if ((zeroUpTo(5) && groups[5] === 0xffff) || zeroUpTo(6))
		return (
			ipv4Problem(embedded()) && `an IPv4 address inside IPv6 that is ${ipv4Problem(embedded())}`
		);
	if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0))
		return (
			ipv4Problem(embedded()) && `an IPv4 address inside IPv6 that is ${ipv4Problem(embedded())}`
		);
	if ((groups[0] & 0xfe00) === 0xfc00) return 'a unique local address (fc00::/7)';
	if ((groups[0] & 0xffc0) === 0xfe80) return 'a link-local address (fe80::/10)';
	if ((groups[0] & 0xffc0) === 0xfec0) return 'a site-local address (fec0::/10)';
	if ((groups[0] & 0xff00) === 0xff00) return 'a multicast address (ff00::/8)';
	return undefined;
}

function hostProblem(hostname: string): string | undefined {
	if (hostname.startsWith('[')) return ipv6Problem(ipv6Groups(hostname.slice(1, -1).toLowerCase()));
	// The parser has already turned every IPv4 form (decimal, hex, octal, short) into a.b.c.d.
	const ipv4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(hostname);
	if (ipv4) return ipv4Problem(ipv4.slice(1).map(Number));
	const name = hostname.replace(/\.$/, '').toLowerCase();
	const local = LOCAL_NAMES.find((suffix) => name === suffix || name.endsWith(`.${suffix}`));
	if (local) return `a local network name (${local === 'localhost' ? 'localhost' : `.${local}`})`;
	if (!name.includes('.'))
		return 'a name without a domain (a public site has one, e.g. example.com)';
	return undefined;
}

/** A scheme at the start (`https:`, `ftp:`, `mailto:`); in `example.com:8080/…` a host and its port. */
const SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d+(?:[/?#]|$))/i;

/** The URL with https:// in front when it has no scheme (`//example.com/a` gets `https:`); else as it is. */
export function withScheme(url: string): string {
	if (url === '' || SCHEME.test(url)) return url;
	return url.startsWith('//') ? `https:${url}` : `https://${url}`;
}

/** What keeps a URL from being a web page's address (http or https, with a host), in words that end a sentence starting with the URL. */
export function webAddressProblem(url: string): string | undefined {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return 'is not a web address';
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
		return `uses ${parsed.protocol.slice(0, -1)}:, not http or https`;
	return parsed.hostname === '' ? 'is not a web address' : undefined;
}

/** What is wrong with a URL from the public, in words that end a sentence starting with the URL; undefined when it may go to phpRank. */
export function publicUrlProblem(url: string): string | undefined {
	if (url.length > PUBLIC_URL_MAX_LENGTH)
		return `is ${url.length} characters long, more than the 2,000 allowed`;
	const notWeb = webAddressProblem(url);
	if (notWeb) return notWeb;
	const parsed = new URL(url);
	if (parsed.username !== '' || parsed.password !== '') return 'carries a user name or password';
	const problem = hostProblem(parsed.hostname);
	return problem && `points to ${problem}`;
}
