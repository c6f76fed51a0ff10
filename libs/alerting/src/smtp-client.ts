import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

/**
 * Where and as whom to send mail: from `QUARRY_SMTP_URL` (smtp:// or smtps://, optional user:password,
 * optional `?starttls=auto|required|never`).
 */
export interface SmtpSettings {
  url: string;
  from: string;
  timeoutMs: number;
  /** Certificates to trust besides the system's (PEM); tests pass their throw-away CA. */
  ca?: string | Buffer;
}

/** When a plain smtp:// connection is upgraded to TLS with STARTTLS. */
export type StartTlsMode = 'auto' | 'required' | 'never';

export interface Mail {
  to: string[];
  subject: string;
  text: string;
}

/**
 * A minimal SMTP client (RFC 5321): EHLO, STARTTLS (RFC 3207) then EHLO again, AUTH PLAIN when
 * credentials are given, MAIL, RCPT per recipient, DATA with dot-stuffing, QUIT. smtps:// speaks TLS from
 * the start. On smtp://, `starttls=auto` (the default) upgrades whenever the server offers STARTTLS,
 * `required` refuses to go on without it, `never` stays in clear text. Either way the server's
 * certificate is verified (system CAs, plus `ca`); credentials are never sent in clear text unless
 * `starttls=never` says so.
 */
export async function sendMail(settings: SmtpSettings, mail: Mail): Promise<void> {
  const url = new URL(settings.url);
  const secure = url.protocol === 'smtps:';
  const mode = startTlsModeOf(url);
  const port = Number(url.port || (secure ? 465 : 25));
  const tlsOptions = {
    servername: isIpAddress(url.hostname) ? undefined : url.hostname,
    ...(settings.ca ? { ca: settings.ca } : {}),
  };
  let socket: Socket = secure
    ? connectTls({ host: url.hostname, port, ...tlsOptions })
    : connectTcp({ host: url.hostname, port });
  socket.setTimeout(settings.timeoutMs);
  let replies = replyReader(socket);
  try {
    await replies.expect(220);
    let ehlo = await command(socket, replies, 'EHLO quarry', 250);
    let encrypted = secure;
    if (!secure && mode !== 'never') {
      const offered = ehlo.some((line) => /^STARTTLS\b/i.test(line.slice(4)));
      if (offered) {
        await command(socket, replies, 'STARTTLS', 220);
        replies.detach();
        socket = await upgrade(socket, { ...tlsOptions, host: url.hostname }, settings.timeoutMs);
        replies = replyReader(socket);
        encrypted = true;
        // RFC 3207: everything learned before the upgrade is forgotten; greet again.
        ehlo = await command(socket, replies, 'EHLO quarry', 250);
      } else if (mode === 'required') {
        throw new Error('the SMTP server does not offer STARTTLS (starttls=required)');
      }
    }
    if (url.username !== '') {
      if (!encrypted && mode !== 'never')
        throw new Error('refusing to send SMTP credentials in clear text (the server offers no STARTTLS)');
      const token = Buffer.from(
        `\0${decodeURIComponent(url.username)}\0${decodeURIComponent(url.password)}`,
      ).toString('base64');
      await command(socket, replies, `AUTH PLAIN ${token}`, 235);
    }
    await command(socket, replies, `MAIL FROM:<${settings.from}>`, 250);
    for (const to of mail.to) await command(socket, replies, `RCPT TO:<${to}>`, 250, 251);
    await command(socket, replies, 'DATA', 354);
    await command(socket, replies, `${messageOf(settings.from, mail)}\r\n.`, 250);
    await command(socket, replies, 'QUIT', 221).catch(() => undefined);
  } finally {
    socket.destroy();
  }
}

function startTlsModeOf(url: URL): StartTlsMode {
  const mode = url.searchParams.get('starttls') ?? 'auto';
  if (mode === 'auto' || mode === 'required' || mode === 'never') return mode;
  throw new Error(`QUARRY_SMTP_URL: starttls must be auto, required or never, not "${mode}"`);
}

function isIpAddress(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[');
}

/** Wraps the connection in TLS after the server's 220 to STARTTLS; resolves once the handshake is done. */
function upgrade(
  socket: Socket,
  options: { servername?: string; ca?: string | Buffer; host: string },
  timeoutMs: number,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const secured = connectTls({ socket, ...options }, () => resolve(secured));
    secured.setTimeout(timeoutMs);
    secured.once('error', reject);
    secured.once('timeout', () => reject(new Error('SMTP TLS handshake timed out')));
  });
}

function messageOf(from: string, mail: Mail): string {
  const headers = [
    `From: <${from}>`,
    `To: ${mail.to.map((t) => `<${t}>`).join(', ')}`,
    `Subject: ${mail.subject.replace(/[\r\n]+/g, ' ')}`,
    `Date: ${new Date().toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
  ];
  // Dot-stuffing: a line that starts with "." gets another one, so it cannot end the DATA section.
  const body = mail.text
    .replace(/\r?\n/g, '\r\n')
    .split('\r\n')
    .map((line) => (line.startsWith('.') ? `.${line}` : line))
    .join('\r\n');
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

async function command(
  socket: Socket,
  replies: ReplyReader,
  line: string,
  ...ok: number[]
): Promise<string[]> {
  socket.write(`${line}\r\n`);
  return replies.expect(...ok);
}

interface ReplyReader {
  /** The next reply's lines, when its code is one of `codes`. */
  expect(...codes: number[]): Promise<string[]>;
  /** Stops reading this socket (before it is handed to TLS). */
  detach(): void;
}

/** Reads SMTP replies (multi-line: `250-...` continues, `250 ...` ends) one at a time. */
function replyReader(socket: Socket): ReplyReader {
  let buffer = '';
  const complete: string[][] = [];
  let lines: string[] = [];
  let waiting: ((reply: string[] | Error) => void) | null = null;
  let failure: Error | null = null;
  const deliver = () => {
    if (!waiting) return;
    const w = waiting;
    if (complete.length > 0) {
      waiting = null;
      w(complete.shift()!);
    } else if (failure) {
      waiting = null;
      w(failure);
    }
  };
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let at: number;
    while ((at = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, at).replace(/\r$/, '');
      buffer = buffer.slice(at + 1);
      lines.push(line);
      if (line.length < 4 || line[3] !== '-') {
        complete.push(lines);
        lines = [];
      }
    }
    deliver();
  };
  socket.on('data', onData);
  const fail = (err: Error) => {
    failure ??= err;
    deliver();
  };
  const onTimeout = () => fail(new Error('SMTP server timed out'));
  const onClose = () => fail(new Error('SMTP connection closed'));
  socket.on('error', fail);
  socket.on('timeout', onTimeout);
  socket.on('close', onClose);
  return {
    detach() {
      socket.off('data', onData);
      socket.off('error', fail);
      socket.off('timeout', onTimeout);
      socket.off('close', onClose);
    },
    async expect(...codes: number[]) {
      const reply = await new Promise<string[] | Error>((resolve) => {
        waiting = resolve;
        deliver();
      });
      if (reply instanceof Error) throw reply;
      const code = Number(reply[reply.length - 1].slice(0, 3));
      if (!codes.includes(code)) throw new Error(`SMTP server answered ${reply.join(' / ')}`);
      return reply;
    },
  };
}
