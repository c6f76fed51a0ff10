import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

/** Where and as whom to send mail: from `QUARRY_SMTP_URL` (smtp:// or smtps://, optional user:password). */
export interface SmtpSettings {
  url: string;
  from: string;
  timeoutMs: number;
}

export interface Mail {
  to: string[];
  subject: string;
  text: string;
}

/**
 * A minimal SMTP client (RFC 5321): EHLO, AUTH PLAIN when credentials are given, MAIL, RCPT per
 * recipient, DATA with dot-stuffing, QUIT. smtps:// speaks TLS from the start; STARTTLS is not
 * attempted, so a plain smtp:// server sees the mail in clear text (use smtps:// or a local relay).
 */
export async function sendMail(settings: SmtpSettings, mail: Mail): Promise<void> {
  const url = new URL(settings.url);
  const secure = url.protocol === 'smtps:';
  const port = Number(url.port || (secure ? 465 : 25));
  const socket: Socket = secure
    ? connectTls({ host: url.hostname, port, servername: url.hostname })
    : connectTcp({ host: url.hostname, port });
  socket.setTimeout(settings.timeoutMs);
  const replies = replyReader(socket);
  try {
    await replies.expect(220);
    await command(socket, replies, 'EHLO quarry', 250);
    if (url.username !== '') {
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

async function command(socket: Socket, replies: ReplyReader, line: string, ...ok: number[]): Promise<void> {
  socket.write(`${line}\r\n`);
  await replies.expect(...ok);
}

interface ReplyReader {
  expect(...codes: number[]): Promise<void>;
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
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
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
  });
  const fail = (err: Error) => {
    failure ??= err;
    deliver();
  };
  socket.on('error', fail);
  socket.on('timeout', () => fail(new Error('SMTP server timed out')));
  socket.on('close', () => fail(new Error('SMTP connection closed')));
  return {
    async expect(...codes: number[]) {
      const reply = await new Promise<string[] | Error>((resolve) => {
        waiting = resolve;
        deliver();
      });
      if (reply instanceof Error) throw reply;
      const code = Number(reply[reply.length - 1].slice(0, 3));
      if (!codes.includes(code)) throw new Error(`SMTP server answered ${reply.join(' / ')}`);
    },
  };
}
