/**
 * `Platform.saveFile` for a page: the blob as a download, through an object URL on a temporary
 * `download` link (Electron asks where to save it). The URL is revoked a minute later, not at once:
 * the browser reads it after the click returns.
 */
export function saveAsDownload(name: string, data: Blob): Promise<void> {
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return Promise.resolve();
}
