// One demo package as FBC blobs: olm.package with its description, a channel per channel, a
// bundle per version with its objects, and the package's deprecations.
import { crdFor, csvFor, describeMd } from './bundle-objects';
import { bundleName, type Pkg } from './model';

function b64(o: unknown): string {
  return Buffer.from(JSON.stringify(o)).toString('base64');
}

export function blobsFor(p: Pkg): unknown[] {
  const blobs: unknown[] = [
    {
      schema: 'olm.package',
      name: p.name,
      defaultChannel: p.defaultChannel,
      description: describeMd(p, p.description),
      icon: { base64data: p.icon, mediatype: 'image/svg+xml' },
    },
  ];
  for (const ch of p.channels) {
    const entries = p.bundles
      .filter((b) => (b.channels ?? [p.channels[0]]).includes(ch))
      .map((b) => ({
        name: bundleName(p.name, b.version),
        ...(b.replaces ? { replaces: bundleName(p.name, b.replaces) } : {}),
        ...(b.skips ? { skips: b.skips.map((s) => bundleName(p.name, s)) } : {}),
        ...(b.skipRange ? { skipRange: b.skipRange } : {}),
      }));
    blobs.push({ schema: 'olm.channel', package: p.name, name: ch, entries });
  }
  for (const b of p.bundles) {
    const csv = csvFor(p, b);
    blobs.push({
      schema: 'olm.bundle',
      package: p.name,
      name: bundleName(p.name, b.version),
      image: `quay.example.com/demo/${p.name}-bundle:v${b.version.replace(/\+/g, '_')}`,
      properties: [
        { type: 'olm.package', value: { packageName: p.name, version: b.version } },
        ...p.owned.map((c) => ({ type: 'olm.gvk', value: { group: c.group, version: 'v1', kind: c.kind } })),
        ...(b.requiresGvk ?? []).map((g) => ({ type: 'olm.gvk.required', value: g })),
        ...(b.requiresPackage ?? []).map((r) => ({ type: 'olm.package.required', value: r })),
        ...(b.maxOpenShiftVersion ? [{ type: 'olm.maxOpenShiftVersion', value: b.maxOpenShiftVersion }] : []),
        { type: 'olm.bundle.object', value: { data: b64(csv) } },
        ...p.owned.map((c) => ({ type: 'olm.bundle.object', value: { data: b64(crdFor(c)) } })),
      ],
      relatedImages: [
        { name: 'manager', image: (csv.spec as { relatedImages: { image: string }[] }).relatedImages[0]!.image },
      ],
    });
  }
  const deprecations: unknown[] = [];
  if (p.deprecation?.package)
    deprecations.push({ reference: { schema: 'olm.package' }, message: p.deprecation.package });
  for (const [ch, message] of Object.entries(p.deprecation?.channels ?? {}))
    deprecations.push({ reference: { schema: 'olm.channel', name: ch }, message });
  for (const b of p.bundles)
    if (b.deprecated)
      deprecations.push({
        reference: { schema: 'olm.bundle', name: bundleName(p.name, b.version) },
        message: b.deprecated,
      });
  if (deprecations.length) blobs.push({ schema: 'olm.deprecations', package: p.name, entries: deprecations });
  return blobs;
}
