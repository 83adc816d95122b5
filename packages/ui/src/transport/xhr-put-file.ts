import type { PutFile } from '@vita-docs/core';

/**
 * A {@link PutFile} over `XMLHttpRequest`: unlike `fetch`, it reports upload progress byte by byte,
 * which the upload queue shows per file. No cookies go along: a presigned URL carries its own
 * signature, and the further headers signed into it are set as given. A network failure rejects; an
 * HTTP failure resolves with `ok: false` (core turns it into `Upload failed: <status> <body>`).
 */
export function createXhrPutFile(create: () => XMLHttpRequest = () => new XMLHttpRequest()): PutFile {
  return async (url, file, contentType, onProgress, headers = {}) => {
    const body: Blob =
      file instanceof Blob ? file : new Blob([await file.arrayBuffer()], { type: contentType });
    return new Promise((resolve, reject) => {
      const xhr = create();
      xhr.open('PUT', url);
      xhr.withCredentials = false;
      for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      xhr.setRequestHeader('content-type', contentType);
      xhr.upload.onprogress = (event) =>
        onProgress?.(event.loaded, event.lengthComputable ? event.total : body.size);
      xhr.onload = () => {
        const ok = xhr.status >= 200 && xhr.status < 300;
        if (ok) onProgress?.(body.size, body.size);
        resolve({ status: xhr.status, ok, body: xhr.responseText });
      };
      xhr.onerror = () =>
        reject(new Error('The upload could not reach the server. Check the connection and retry.'));
      xhr.onabort = () => reject(new Error('The upload was cancelled.'));
      xhr.ontimeout = () => reject(new Error('The upload timed out. Retry.'));
      onProgress?.(0, body.size);
      xhr.send(body);
    });
  };
}
