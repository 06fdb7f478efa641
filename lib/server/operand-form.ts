// The create form's sources for an API an installed operator owns: the CRD's schema for that
// version, read from the cluster as the person (apiextensions.k8s.io/v1, what the API server
// validates against), the CSV's spec descriptors and its example. The form itself is built in
// the browser by lib/olm/operand-form. And creating the operand: a dry run first, then for real.
import type { OperandFormSource } from '../api/operand-form';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import { watchedNamespaces } from '../olm/operand-form/namespaces';
import { isCopiedCsv, operatorNamespaceOf, targetNamespacesOf } from '../olm/resources/cluster-service-version';
import type { ResourceType } from '../olm/resources/common';
import { describeCsv } from '../olm/resources/csv-description';
import { operandTypes } from './api-scope';
import { apiOf, operatorCsv, ownedApi } from './operands';
import { CRD_TYPE } from '../k8s/core-kinds';

interface Crd {
  spec?: { versions?: { name?: string; served?: boolean; schema?: { openAPIV3Schema?: unknown } }[] };
}

export async function operandFormSource(
  client: KubeClient,
  namespace: string,
  name: string,
  api: { group: string; version: string; plural: string },
): Promise<OperandFormSource> {
  const csv = await operatorCsv(client, namespace, name);
  const crd = ownedApi(csv, api.group, api.version, api.plural);
  const example = describeCsv(csv).examples.find(
    (e) => e.kind === crd.kind && e.apiVersion === `${crd.group}/${crd.version}`,
  );
  const type = await operandTypes(client)(crd);
  const out: OperandFormSource = {
    api: apiOf(crd, type),
    specDescriptors: Array.isArray(crd.description.specDescriptors) ? crd.description.specDescriptors : [],
    ...(example ? { example } : {}),
    namespaced: type.namespaced,
    operatorNamespace: operatorNamespaceOf(csv) ?? namespace,
    watched: watchedNamespaces(targetNamespacesOf(csv), csv.metadata?.namespace ?? namespace),
    ...(isCopiedCsv(csv) ? { copyOnly: true } : {}),
  };
  try {
    const object = await client.get<Crd>(CRD_TYPE, crd.name);
    const version = object.spec?.versions?.find((v) => v.name === crd.version);
    if (!version?.served) return { ...out, schemaProblem: `the CRD ${crd.name} does not serve ${crd.version}` };
    return version.schema?.openAPIV3Schema
      ? { ...out, schema: version.schema.openAPIV3Schema }
      : { ...out, schemaProblem: `the CRD ${crd.name} has no schema for ${crd.version}` };
  } catch (err) {
    // Without the schema the form still has the descriptors' fields; the API server still checks.
    if (isKubeError(err, 403))
      return {
        ...out,
        schemaProblem: `you may not read the CRD ${crd.name}, so the form has only the fields the operator describes`,
      };
    if (isKubeError(err, 404)) return { ...out, schemaProblem: `the CRD ${crd.name} is not on the cluster` };
    throw err;
  }
}

/**
 * Creates the object as the person: first with `dryRun=All`, so that admission and the schema
 * judge it without anything being stored, then for real. Either answer's errors (a 422 with its
 * causes) go back as the API server gave them.
 */
export async function createOperand<T extends object>(
  client: KubeClient,
  type: ResourceType,
  object: T,
  namespace: string | undefined,
): Promise<T> {
  await client.create(type, object, { namespace, dryRun: true });
  return client.create(type, object, { namespace });
}
