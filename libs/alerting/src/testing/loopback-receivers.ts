/**
 * Loopback receivers for notification tests: an HTTP server that records every request (and can
 * answer with failures first), and an SMTP server that records every mail. Test-only.
 */
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json(): unknown;
}

export interface HttpReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** Answer the next requests with these statuses (then 200). */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

export async function startHttpReceiver(): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  const failures: number[] = [];
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        json: () => JSON.parse(body),
      });
      res.statusCode = failures.shift() ?? 200;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (...statuses) => failures.push(...statuses),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
  /** Whether the mail came over TLS (after STARTTLS). */
  tls: boolean;
}

export interface SmtpReceiver {
  url: string;
  mails: ReceivedMail[];
  /** Every command line the client sent, in order. */
  commands: string[];
  close(): Promise<void>;
}

export interface SmtpReceiverOptions {
  /** Offer STARTTLS with this key and certificate (PEM). */
  starttls?: { key: string; cert: string };
}

/**
 * Speaks just enough SMTP for one client at a time: EHLO, STARTTLS (when given a certificate), AUTH,
 * MAIL, RCPT, DATA, QUIT.
 */
export async function startSmtpReceiver(options: SmtpReceiverOptions = {}): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const commands: string[] = [];
  const session = (socket: Duplex, tls: boolean) => {
    let buffer = '';
    let inData = false;
    let current: ReceivedMail = { from: '', to: [], data: '', tls };
    const dataLines: string[] = [];
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let at: number;
      while ((at = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            current.data = dataLines.splice(0).join('\r\n');
            mails.push(current);
            current = { from: '', to: [], data: '', tls };
            socket.write('250 queued\r\n');
          } else dataLines.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        commands.push(line);
        const verb = line.split(' ')[0].toUpperCase();
        if (verb === 'EHLO') {
          const extensions = ['AUTH PLAIN', ...(options.starttls && !tls ? ['STARTTLS'] : [])];
          socket.write(
            ['loopback', ...extensions]
              .map((e, i, all) => `250${i < all.length - 1 ? '-' : ' '}${e}\r\n`)
              .join(''),
          );
        } else if (verb === 'STARTTLS' && options.starttls && !tls) {
          socket.off('data', onData);
          socket.write('220 go ahead\r\n', () => {
            const secured = new TLSSocket(socket as Socket, { isServer: true, ...options.starttls });
            secured.on('error', () => undefined);
            session(secured, true);
          });
          return;
        } else if (verb === 'AUTH') socket.write('235 ok\r\n');
        else if (verb === 'MAIL') {
          current.from = /<(.*)>/.exec(line)?.[1] ?? '';
          socket.write('250 ok\r\n');
        } else if (verb === 'RCPT') {
          current.to.push(/<(.*)>/.exec(line)?.[1] ?? '');
          socket.write('250 ok\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
        } else socket.write('502 not implemented\r\n');
      }
    };
    socket.on('data', onData);
  };
  const server = createTcpServer((socket) => {
    socket.on('error', () => undefined);
    socket.write('220 loopback ESMTP\r\n');
    session(socket, false);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    commands,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A throw-away self-signed certificate for 127.0.0.1 (openssl), for TLS receivers in tests. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-smtp-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
