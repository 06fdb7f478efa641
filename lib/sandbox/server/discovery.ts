// The API server's non-resource paths: /version, discovery (/api, /apis and each group and
// version's resource list) and OpenAPI v3, as kubectl and client libraries read them.
import type { ServerResponse } from 'node:http';
import { openApiGroupVersion, openApiRoot } from './openapi';
import { sendJson, sendNoSuchPath } from './http-util';
import type { ResourceTable } from './resources';
import { sendPageNotFound, sendUnrouted } from './unrouted';

export interface ServerVersion {
  major: string;
  minor: string;
  gitVersion: string;
}

export function serveNonResource(
  resources: ResourceTable,
  version: ServerVersion,
  path: string,
  res: ServerResponse,
): void {
  if (path === '/version')
    return sendJson(res, 200, {
      ...version,
      emulationMajor: version.major,
      emulationMinor: version.minor,
      minCompatibilityMajor: version.major,
      minCompatibilityMinor: String(Number(version.minor) - 1),
      gitCommit: '0000000',
      gitTreeState: 'clean',
      buildDate: '2026-01-01T00:00:00Z',
      goVersion: 'go1.23',
      compiler: 'gc',
      platform: 'linux/amd64',
    });
  if (path === '/api')
    return sendJson(res, 200, {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }],
    });
  if (path === '/apis') {
    return sendJson(res, 200, {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: resources.groups().map((g) => groupJson(g.name, g.versions)),
    });
  }
  if (path === '/openapi/v3') return sendJson(res, 200, openApiRoot(resources));
  if (path.startsWith('/openapi/v3/')) {
    const doc = openApiGroupVersion(resources, path.slice('/openapi/v3/'.length), version.gitVersion);
    // kube-openapi's handler: a bare 404, no body or content type.
    if (doc) return sendJson(res, 200, doc);
    res.writeHead(404).end();
    return;
  }
  const segs = path.split('/').filter(Boolean);
  if (segs[0] === 'api' && segs.length === 2) {
    if (segs[1] !== 'v1') return sendNoSuchPath(res);
    return sendJson(res, 200, resourceList(resources, '', 'v1'));
  }
  if (segs[0] === 'apis' && segs.length === 2) {
    const g = resources.groups().find((x) => x.name === segs[1]);
    if (!g) return sendPageNotFound(res);
    return sendJson(res, 200, { ...groupJson(g.name, g.versions), kind: 'APIGroup', apiVersion: 'v1' });
  }
  if (segs[0] === 'apis' && segs.length === 3) {
    const list = resourceList(resources, segs[1]!, segs[2]!);
    if (list.resources.length === 0) return sendUnrouted(res, resources, segs[1]!, segs[2]!);
    return sendJson(res, 200, list);
  }
  return sendPageNotFound(res);
}

function groupJson(name: string, versions: string[]) {
  return {
    name,
    versions: versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v })),
    preferredVersion: { groupVersion: `${name}/${versions[0]}`, version: versions[0] },
  };
}

function resourceList(table: ResourceTable, group: string, version: string) {
  const resources = table
    .byGroup(group)
    .filter((r) => r.versions.includes(version))
    .sort((a, b) => a.resource.localeCompare(b.resource))
    .flatMap((r) => {
      const main = {
        name: r.resource,
        singularName: r.singular,
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: r.verbs,
        ...(r.shortNames.length ? { shortNames: r.shortNames } : {}),
        ...(r.categories.length ? { categories: r.categories } : {}),
        storageVersionHash: Buffer.from(`${r.group}/${r.versions[0]}/${r.resource}`).toString('base64').slice(0, 11),
      };
      const subs = [];
      if (r.hasStatus)
        subs.push({
          name: `${r.resource}/status`,
          singularName: '',
          namespaced: r.namespaced,
          kind: r.kind,
          verbs: ['get', 'patch', 'update'],
        });
      if (r.scale)
        subs.push({
          name: `${r.resource}/scale`,
          singularName: '',
          namespaced: r.namespaced,
          group: 'autoscaling',
          version: 'v1',
          kind: 'Scale',
          verbs: ['get', 'patch', 'update'],
        });
      for (const sub of r.provider?.subresources ?? [])
        subs.push({
          name: `${r.resource}/${sub}`,
          singularName: '',
          namespaced: r.namespaced,
          kind: r.kind,
          verbs: ['get'],
        });
      return [main, ...subs];
    });
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources,
  };
}
