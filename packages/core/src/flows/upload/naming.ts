/** The names files take in the queue: camera photos numbered after the category, retakes after what they replace. */
import { captureFileName, fileExtension } from '../../domain/files.js';
import type { FileLike } from '../../ports.js';

/** The file under another name, bytes untouched. */
function renamed(file: FileLike, name: string): FileLike {
  if (file instanceof Blob) return new File([file], name, { type: file.type, lastModified: Date.now() });
  return {
    name,
    type: file.type,
    size: file.size,
    arrayBuffer: () => file.arrayBuffer(),
    ...(file.slice ? { slice: file.slice.bind(file) } : {}),
  };
}

/** Camera photos named `<category> <n>` after every name in `taken` (the category's and the queue's). */
export function nameCaptures(
  files: readonly FileLike[],
  docType: string,
  taken: readonly string[],
): FileLike[] {
  const names = [...taken];
  return files.map((file) => {
    const name = captureFileName(docType, names, fileExtension(file.name).toLowerCase() || '.jpg');
    names.push(name);
    return renamed(file, name);
  });
}

/** A retake takes the name of what it replaces (a camera's `image.jpg` would say nothing), with its own extension. */
export function retakeFile(previous: string, file: FileLike): FileLike {
  const base = previous.slice(0, previous.length - fileExtension(previous).length);
  return renamed(file, `${base}${fileExtension(file.name).toLowerCase() || '.jpg'}`);
}
