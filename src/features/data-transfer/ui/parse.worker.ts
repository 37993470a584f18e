import { parseFile } from './parse-file';
import type { Encoding } from './parse-in-worker';

// The file's decoding and parsing, off the page's thread (decision 042).
self.onmessage = async (e: MessageEvent<{ buffer: ArrayBuffer; name: string; encoding: Encoding }>) => {
  const { buffer, name, encoding } = e.data;
  self.postMessage(await parseFile(buffer, name, encoding));
};
