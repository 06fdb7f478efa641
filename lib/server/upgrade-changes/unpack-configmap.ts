// The ConfigMap OLM v0 unpacked a bundle image into, read as the person and decoded as OLM decodes
// it (lib/olm/bundle/unpacked-configmap.ts): with `olm.contentEncoding: gzip+base64` each value of
// binaryData is base64 text of a gzip stream. The content is the catalog's, so hostile until read:
// the expanded text of all files together is bounded, and a value that does not decode makes the
// whole ConfigMap unreadable rather than a bundle with a file missing.
import { gunzipSync } from 'node:zlib';
import type { KubeClient } from '../../k8s/client';
import { CONFIG_MAP_TYPE } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import { CONTENT_ENCODING_ANNOTATION, GZIP_BASE64, readUnpackedFiles } from '../../olm/bundle/unpacked-configmap';
import type { BundleObject } from '../../olm/bundle/registry-v1-files';
import type { BundleReference } from '../../olm/status/install-plan-status';
import { refusal } from './read-bundle';

/** The most text an unpacked bundle may expand to: a ConfigMap holds at most 1 MiB, gzipped. */
export const MAX_UNPACKED_BYTES = 32 * 1024 * 1024;

interface ConfigMap {
  metadata?: { annotations?: Record<string, string> };
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}

export type UnpackRead = { csv: BundleObject; others: BundleObject[] } | { refused: string } | { unknown: string };

function decoded(cm: ConfigMap): Map<string, string> | { unknown: string } {
  if (cm.metadata?.annotations?.[CONTENT_ENCODING_ANNOTATION] !== GZIP_BASE64)
    return new Map(Object.entries(cm.data ?? {}));
  const files = new Map<string, string>();
  let total = 0;
  for (const [key, value] of Object.entries(cm.binaryData ?? {})) {
    try {
      // The API gives binaryData base64-encoded; its bytes are OLM's own base64 of the gzip stream.
      const gz = Buffer.from(Buffer.from(value, 'base64').toString('latin1'), 'base64');
      const text = gunzipSync(gz, { maxOutputLength: MAX_UNPACKED_BYTES - total }).toString('utf8');
      total += text.length;
      files.set(key, text);
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        return { unknown: `its files expand past ${MAX_UNPACKED_BYTES / 1024 / 1024} MiB, more than a bundle holds` };
      return { unknown: `its file ${key} is not gzip+base64 as OLM writes it (${refusal(err)})` };
    }
  }
  return files;
}

export async function readUnpackConfigMap(client: KubeClient, ref: BundleReference): Promise<UnpackRead> {
  const where = `ConfigMap ${ref.namespace}/${ref.name}`;
  let cm: ConfigMap;
  try {
    cm = await client.get<ConfigMap>(CONFIG_MAP_TYPE, ref.name, ref.namespace);
  } catch (err) {
    if (isKubeError(err, 403)) return { refused: `you may not read ${where} (${refusal(err)})` };
    if (isKubeError(err, 404)) return { refused: `${where} is gone (OLM deletes unpacked bundles it no longer needs)` };
    throw err;
  }
  const files = decoded(cm);
  if (!(files instanceof Map)) return { unknown: `${where}: ${files.unknown}` };
  const read = readUnpackedFiles(files);
  return 'error' in read ? { unknown: `${where}: ${read.error}` } : read;
}
