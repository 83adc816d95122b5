/**
 * The local store's presigned links: HMAC-signed URLs to its own routes (`local-routes.ts`), which
 * check the signature, the expiry and what the link allows before a byte moves.
 */
import { assertUploadLimits } from './filetypes.js';
import { objectPath } from './local-layout.js';
import { assertReadable } from './local-read.js';
import type { LocalState } from './local-state.js';
import type { UrlSigner } from './signing.js';
import { LINK_SECONDS, type ObjectStore } from './types.js';

/** Presigning for a local store whose routes are mounted at `baseUrl`. */
export function localLinks(
  state: LocalState,
  signer: UrlSigner,
  baseUrl: string,
): Pick<ObjectStore, 'presignPut' | 'presignGet'> {
  const base = baseUrl.replace(/\/+$/, '');
  const expiry = (method: keyof typeof LINK_SECONDS, seconds: number) => {
    if (seconds > LINK_SECONDS[method])
      throw new RangeError(`a ${method} link lives at most ${LINK_SECONDS[method]} s`);
    return Math.floor(state.now() / 1000) + Math.max(1, Math.floor(seconds));
  };
  return {
    async presignPut(key, contentType, { expiresInSeconds, maxBytes }) {
      objectPath(state.root, key);
      assertUploadLimits(contentType, maxBytes);
      const expires = expiry('PUT', expiresInSeconds);
      const query = signer.sign({ method: 'PUT', key, contentType, maxBytes, expires });
      // A declared size and SHA-256 are checked by the upload hooks while the bytes stream in.
      return { url: `${base}/put?${query}`, expiresAt: new Date(expires * 1000), headers: {} };
    },

    async presignGet(key, { expiresInSeconds, disposition, downloadName, contentType, issuedUnder }) {
      // The file must be there, and its header intact: a damaged file is refused here already, so the
      // app can say so instead of opening a link that fails.
      await assertReadable(state, key);
      const expires = expiry('GET', expiresInSeconds);
      const query = signer.sign({
        method: 'GET',
        key,
        disposition,
        downloadName,
        contentType: contentType ?? '',
        issuedUnder: issuedUnder ?? 0,
        expires,
      });
      return { url: `${base}/get?${query}`, expiresAt: new Date(expires * 1000) };
    },
  };
}
