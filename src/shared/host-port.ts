/**
 * `host:port` as Go's `net.JoinHostPort` writes it: an IPv6 literal in brackets (`[::1]:9650`),
 * so a URL built from it parses. `--host ::` or `--host ::1` is otherwise written `:::9650`.
 */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
}
