// Sizes of files as a compressing host would send them: {file: {raw, gzip, brotli}}.
// Usage: node bench/compress.mjs <file>...  (gzip level 9, brotli quality 11: the best a host can do)
import { readFileSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const sizes = {};
for (const file of process.argv.slice(2)) {
  const bytes = readFileSync(file);
  sizes[file] = {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}
process.stdout.write(JSON.stringify(sizes));
