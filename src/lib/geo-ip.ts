import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CountryResponse, Reader } from 'mmdb-lib';

export interface GeoIp {
  /** ISO 3166-1 alpha-2 (upper case) of a normalised IP literal; null when unknown or not public. */
  countryOf(ip: string): string | null;
}

const require = createRequire(import.meta.url);

/** The database shipped with the service: docs/geo-ip.md says where it comes from and how to update it. */
export const BUNDLED_GEOIP_DB = require.resolve(
  '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb',
);

const opened = new Map<string, GeoIp>();

/** The two record layouts of country databases: ip-location-db and MaxMind's. */
type CountryRecord = CountryResponse & { country_code?: string };

/**
 * Opens a country-level MMDB database (the bundled one, or `SDAPI_GEOIP_DB`) once per path, at
 * its first lookup (the server looks one up at start).
 * Lookups are in memory, about a microsecond each; records carry `country_code` (ip-location-db)
 * or `country.iso_code` (MaxMind layout), so either kind of file can be dropped in.
 */
export function openGeoIp(path: string = BUNDLED_GEOIP_DB): GeoIp {
  const cached = opened.get(path);
  if (cached) return cached;
  // Read at the first lookup: a process that never looks an address up (the CLI) never loads it.
  let reader: Reader<CountryRecord> | undefined;
  const geo: GeoIp = {
    countryOf(ip) {
      reader ??= new (require('mmdb-lib') as typeof import('mmdb-lib')).Reader<CountryRecord>(
        readFileSync(path),
      );
      const literal = ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
      try {
        const record = reader.get(literal);
        const code = record?.country_code ?? record?.country?.iso_code;
        return code ? code.toUpperCase() : null;
      } catch {
        return null;
      }
    },
  };
  opened.set(path, geo);
  return geo;
}
