import { describe, expect, it } from 'vitest';
import { openGeoIp } from './geo-ip.js';

describe('openGeoIp (bundled database)', () => {
  const geo = openGeoIp();

  it('resolves public IPv4 and IPv6 addresses to their registered countries', () => {
    expect(geo.countryOf('8.8.8.8')).toBe('US');
    expect(geo.countryOf('80.128.0.1')).toBe('DE');
    expect(geo.countryOf('133.11.0.1')).toBe('JP');
    expect(geo.countryOf('212.58.244.1')).toBe('GB');
    expect(geo.countryOf('2001:4860:4860::8888')).toBe('US');
    expect(geo.countryOf('2a01:4f8::1')).toBe('DE');
  });

  it('resolves an IPv4-mapped IPv6 address like its IPv4 address', () => {
    expect(geo.countryOf('::ffff:80.128.0.1')).toBe('DE');
  });

  it('knows no country for private, loopback or malformed input', () => {
    expect(geo.countryOf('10.0.0.1')).toBeNull();
    expect(geo.countryOf('127.0.0.1')).toBeNull();
    expect(geo.countryOf('not-an-ip')).toBeNull();
  });

  it('opens each database file once', () => {
    expect(openGeoIp()).toBe(geo);
  });
});
