import { sendMail } from './smtp-client';
import { selfSignedCertificate, startSmtpReceiver, type SmtpReceiver } from './testing';

// openssl makes the throw-away certificate (a second or so).
jest.setTimeout(30_000);

const mail = { to: ['ops@example.test'], subject: 'disk full', text: 'on host a' };

/** STARTTLS (RFC 3207) against loopback SMTP servers: one that offers it, one that does not. */
describe('SMTP client: STARTTLS', () => {
  let cert: { key: string; cert: string };
  let tls: SmtpReceiver;
  let plain: SmtpReceiver;

  beforeAll(async () => {
    cert = selfSignedCertificate();
    tls = await startSmtpReceiver({ starttls: cert });
    plain = await startSmtpReceiver();
  });
  afterAll(async () => {
    await tls?.close();
    await plain?.close();
  });
  beforeEach(() => {
    for (const r of [tls, plain]) {
      r.mails.length = 0;
      r.commands.length = 0;
    }
  });

  const settings = (url: string, ca?: string) => ({ url, from: 'quarry@example.test', timeoutMs: 5000, ca });
  const withAuth = (url: string) => url.replace('smtp://', 'smtp://alice:s3cret@');

  it('upgrades when the server offers STARTTLS, greets again, and only then authenticates', async () => {
    await sendMail(settings(withAuth(tls.url), cert.cert), mail);
    expect(tls.mails).toHaveLength(1);
    expect(tls.mails[0]).toMatchObject({ tls: true, to: ['ops@example.test'] });
    expect(tls.mails[0].data).toContain('Subject: disk full');
    const verbs = tls.commands.map((c) => c.split(' ')[0]);
    expect(verbs).toEqual(['EHLO', 'STARTTLS', 'EHLO', 'AUTH', 'MAIL', 'RCPT', 'DATA', 'QUIT']);
  });

  it("verifies the server's certificate: an untrusted one fails and sends nothing", async () => {
    await expect(sendMail(settings(withAuth(tls.url)), mail)).rejects.toThrow(/self[- ]signed|certificate/i);
    expect(tls.mails).toHaveLength(0);
    expect(tls.commands.some((c) => c.startsWith('AUTH'))).toBe(false);
  });

  it('starttls=required refuses a server without it; credentials never go out in clear text', async () => {
    await expect(sendMail(settings(`${plain.url}?starttls=required`), mail)).rejects.toThrow(
      /does not offer STARTTLS/,
    );
    await expect(sendMail(settings(withAuth(plain.url)), mail)).rejects.toThrow(/clear text/);
    expect(plain.commands.some((c) => c.startsWith('AUTH'))).toBe(false);
    expect(plain.mails).toHaveLength(0);
  });

  it('sends in clear text without credentials, or with starttls=never', async () => {
    await sendMail(settings(plain.url), mail);
    await sendMail(settings(`${withAuth(tls.url)}?starttls=never`), mail);
    expect(plain.mails.map((m) => m.tls)).toEqual([false]);
    expect(tls.mails.map((m) => m.tls)).toEqual([false]);
    expect(tls.commands).not.toContain('STARTTLS');
  });
});
