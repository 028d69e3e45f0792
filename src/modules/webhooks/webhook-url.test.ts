import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, guardedLookup, refusedAddress } from './webhook-url.js';

const lookup = (host: string, insecure: boolean) =>
  new Promise<{ err: Error | null; address: unknown }>((resolve) =>
    guardedLookup(insecure)(host, {}, (err, address) => resolve({ err, address })),
  );

describe('webhook URL rules', () => {
  it('accepts https to a public host and refuses http, credentials and internal literals', () => {
    expect(checkWebhookUrl('https://hooks.example.com/in#frag', false)).toBe('https://hooks.example.com/in');
    expect(checkWebhookUrl('https://8.8.8.8/in', false)).toBe('https://8.8.8.8/in');
    for (const bad of [
      'http://hooks.example.com/in',
      'https://user:pw@hooks.example.com/in',
      'https://127.0.0.1/in',
      'https://10.1.2.3/',
      'https://172.16.0.1/',
      'https://192.168.1.1/',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/',
      'https://[::1]/',
      'https://[fd00::1]/',
      'https://[fe80::1]/',
      'https://224.0.0.1/',
      'https://[::ffff:127.0.0.1]/',
      'https://localhost/',
      'https://metadata.google.internal/',
      'ftp://hooks.example.com/',
      'not a url',
    ]) {
      expect(() => checkWebhookUrl(bad, false), bad).toThrow();
    }
  });

  it('admits http and loopback only with the insecure flag, never other internal ranges', () => {
    expect(checkWebhookUrl('http://127.0.0.1:9000/hook', true)).toBe('http://127.0.0.1:9000/hook');
    expect(refusedAddress('::1', true)).toBeNull();
    expect(refusedAddress('10.0.0.1', true)).toMatch(/private/);
    expect(refusedAddress('127.0.0.1', false)).toMatch(/loopback/);
  });

  it('refuses, at connection time, a DNS name whose every answer is internal (localhost -> 127.0.0.1)', async () => {
    const strict = await lookup('localhost', false);
    expect(strict.err?.message).toMatch(/refused: localhost resolves only to disallowed addresses/);
    const insecure = await lookup('localhost', true);
    expect(insecure.err).toBeNull();
  });
});

describe('a local receiver refused without the development setting', () => {
  it.each([
    'http://localhost:4000/hooks',
    'https://localhost/hooks',
    'https://127.0.0.1:4000/hooks',
    'http://example.com/hooks',
  ])('%s: the refusal names SDAPI_ALLOW_INSECURE_WEBHOOKS in its message and hint', (url) => {
    let refusal: unknown;
    try {
      checkWebhookUrl(url, false);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('SDAPI_ALLOW_INSECURE_WEBHOOKS=1'),
    });
    expect((refusal as { hint: string }).hint).toContain('SDAPI_ALLOW_INSECURE_WEBHOOKS=1');
  });

  it('admits them with the setting', () => {
    expect(checkWebhookUrl('http://localhost:4000/hooks', true)).toBe('http://localhost:4000/hooks');
  });
});
