import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { type AppContext, runInBackground } from '../../context.js';
import { fail } from '../../http/errors.js';
import { downloadSignature } from '../../http/signed-download.js';
import { isoOf, isoOrNull } from '../../lib/clock.js';
import { constantTimeEqual } from '../../lib/crypto.js';
import { uuidv7 } from '../../lib/ids.js';
import { emit } from '../events/index.js';
import { sellerTerms } from '../partners/index.js';
import type { SellerScope } from './catalog-read.service.js';
import * as repo from './exports.repo.js';
import { snapshotMeta, snapshotStream } from './snapshot.service.js';

/** How long an artifact is kept, and how long one signed download URL lives. */
export const ARTIFACT_TTL_MS = 60 * 60 * 1000;
export const DOWNLOAD_URL_TTL_MS = 5 * 60 * 1000;
/**
 * A build runs in the process that accepted the job and takes seconds (100,000 products in
 * ~3 s). A job still pending after this long died with its process (a restart, a crash) and is
 * shown as failed, so the seller starts a new one instead of polling forever.
 */
export const BUILD_DEADLINE_MS = 10 * 60 * 1000;

/** What a seller reads on a failed export; the internal cause goes to the log, never to the seller. */
export const EXPORT_FAILED_MESSAGE = 'The export could not be built; start a new one.';

/** Where a failed build records its internal cause: the logger of the request that started it. */
export interface ErrorLog {
  error(details: object, message: string): void;
}

/** Exports are refused while the seller's agreements are paused (none active, some paused). */
async function requireActiveAgreement(ctx: AppContext, scope: SellerScope) {
  const agreements = (await sellerTerms(ctx, scope.sellerId, scope.environment)).flatMap((t) => t.agreements);
  const active = agreements.some((a) => a.status === 'active');
  if (!active && agreements.some((a) => a.status === 'paused')) {
    throw fail('CONTRACT_NOT_ACTIVE', 'Your agreements are paused; exports resume with them.', {
      consoleAction: 'review_partner_contracts',
    });
  }
}

/** POST /catalog/exports: records the job and builds the artifact after the reply. */
export async function startExport(ctx: AppContext, scope: SellerScope, locale: string, log?: ErrorLog) {
  await requireActiveAgreement(ctx, scope);
  const now = ctx.clock.now();
  const id = uuidv7(now);
  await repo.insertExport(ctx.db, {
    id,
    seller_company_id: scope.sellerId,
    environment: scope.environment,
    status: 'pending',
    locale,
    created_at: now,
  });
  runInBackground(ctx, () => buildArtifact(ctx, scope, id, locale, log));
  return { exportId: id, status: 'pending' as const };
}

async function buildArtifact(
  ctx: AppContext,
  scope: SellerScope,
  id: string,
  locale: string,
  log: ErrorLog | undefined,
) {
  try {
    const meta = await snapshotMeta(ctx, scope);
    const chunks: Buffer[] = [];
    // pipeline, not pipe: a failing read must fail the job, not hang it and escape as uncaught.
    await pipeline(
      snapshotStream(ctx, scope, meta, 'ndjson', [locale, 'en']),
      createGzip(),
      async (gzipped: AsyncIterable<Buffer>) => {
        for await (const chunk of gzipped) chunks.push(chunk);
      },
    );
    const artifact = Buffer.concat(chunks);
    const checksum = createHash('sha256').update(artifact).digest('hex');
    const completedAt = ctx.clock.now();
    const expiresAt = completedAt + ARTIFACT_TTL_MS;
    await ctx.db.transaction().execute(async (trx) => {
      const settled = await repo.settlePendingExport(trx, id, {
        status: 'ready',
        artifact,
        checksum,
        bytes: artifact.length,
        total_products: meta.totalProducts,
        completed_at: completedAt,
        expires_at: expiresAt,
      });
      if (!settled) return;
      await emit(
        ctx,
        trx,
        [{ companyId: scope.sellerId, environment: scope.environment }],
        'catalog.export_ready',
        {
          exportId: id,
          checksum,
          bytes: artifact.length,
          expiresAt: isoOf(expiresAt),
          totalProducts: meta.totalProducts,
        },
      );
    });
  } catch (err) {
    log?.error({ err, exportId: id }, 'catalog export failed');
    await repo.settlePendingExport(ctx.db, id, {
      status: 'failed',
      error: EXPORT_FAILED_MESSAGE,
      completed_at: ctx.clock.now(),
    });
  }
}

const signatureOf = (ctx: AppContext, id: string, expires: number) =>
  downloadSignature(ctx, 'catalog-export', id, expires);

/** GET /catalog/exports/{id}: status, checksum, expiry and a short-lived signed download URL. */
export async function exportStatus(ctx: AppContext, scope: SellerScope, id: string) {
  const row = await repo.findExport(ctx.db, id);
  if (!row || row.seller_company_id !== scope.sellerId || row.environment !== scope.environment) {
    throw fail('NOT_FOUND', `No export ${id}.`);
  }
  const now = ctx.clock.now();
  if (row.status === 'pending' && now - row.created_at > BUILD_DEADLINE_MS) {
    const interrupted = { status: 'failed' as const, error: EXPORT_FAILED_MESSAGE, completed_at: now };
    if (await repo.settlePendingExport(ctx.db, id, interrupted)) Object.assign(row, interrupted);
    else return exportStatus(ctx, scope, id);
  }
  if (row.status === 'ready' && row.expires_at !== null && row.expires_at <= now) {
    throw fail('EXPORT_EXPIRED', `Export ${id} expired at ${isoOf(row.expires_at)}; start a new one.`, {
      expiredAt: isoOf(row.expires_at),
    });
  }
  // Whole seconds in the URL, rounded up so a link issued in the artifact's last second still
  // works; the artifact's own expiry (410 on download) ends it on time.
  const urlExpires = Math.min(now + DOWNLOAD_URL_TTL_MS, row.expires_at ?? now);
  const expiresSec = Math.ceil(urlExpires / 1000);
  return {
    exportId: row.id,
    status: row.status,
    format: 'ndjson' as const,
    compression: 'gzip' as const,
    checksum: row.checksum,
    bytes: row.bytes,
    totalProducts: row.total_products,
    createdAt: isoOf(row.created_at),
    completedAt: isoOrNull(row.completed_at),
    expiresAt: isoOrNull(row.expires_at),
    downloadUrl:
      row.status === 'ready'
        ? `${ctx.config.publicUrl}/api/seller/v1/catalog/exports/${row.id}/artifact?expires=${expiresSec}&signature=${signatureOf(ctx, row.id, expiresSec)}`
        : null,
    downloadUrlExpiresAt:
      row.status === 'ready' ? isoOf(Math.min(expiresSec * 1000, row.expires_at ?? now)) : null,
    error: row.error,
  };
}

/**
 * The artifact behind a signed URL: the signature is the credential, and it expires. An authentic
 * link to an artifact past its TTL is 410 EXPORT_EXPIRED (start a new export), whatever the link's
 * own expiry; a forged one, or an expired link to a live artifact, is 403 (fetch a new link).
 */
export async function exportArtifact(ctx: AppContext, id: string, expires: number, signature: string) {
  const refused = () =>
    fail(
      'FORBIDDEN',
      'This download link is invalid or has expired; fetch GET /catalog/exports/{exportId} for a new one.',
    );
  if (!constantTimeEqual(signature, signatureOf(ctx, id, expires))) throw refused();
  const row = await repo.findArtifact(ctx.db, id);
  if (row?.status !== 'ready' || !row.artifact) throw fail('NOT_FOUND', `No artifact for export ${id}.`);
  const now = ctx.clock.now();
  if (row.expires_at !== null && row.expires_at <= now) {
    throw fail('EXPORT_EXPIRED', `Export ${id} expired at ${isoOf(row.expires_at)}; start a new one.`, {
      expiredAt: isoOf(row.expires_at),
    });
  }
  if (expires * 1000 <= now) throw refused();
  return row.artifact;
}
