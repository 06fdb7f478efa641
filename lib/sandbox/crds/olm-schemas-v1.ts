// The OpenAPI v3 schemas of OLM v0.38.0's operators.coreos.com v1, v1alpha2 and v2 kinds:
// OperatorGroup (with the CRD's default `spec: {upgradeStrategy: Default}`), OperatorCondition,
// OLMConfig and Operator (docs/olm/api-surface.md#kinds, docs/olm/operator-groups.md#upgrade-strategy).
import type { Schema } from '../apimachinery/structural';
import {
  arr,
  bool,
  labelSelector,
  metaCondition,
  obj,
  objectReference,
  root,
  str,
  stringList,
  time,
} from './schema-helpers';

const groupFields = {
  selector: labelSelector('Selects the target namespaces by label (when targetNamespaces is empty).'),
  serviceAccountName: str("The service account OLM installs this group's operators with."),
  staticProvidedAPIs: bool('Whether OLM leaves the olm.providedAPIs annotation to the user.'),
};

const operatorGroupV1 = root(
  'An OperatorGroup chooses the namespaces the operators of its namespace watch.',
  {
    spec: obj(
      {
        ...groupFields,
        targetNamespaces: arr(str(), {
          listType: 'set',
          description: 'The namespaces the operators watch; all namespaces when this and selector are empty.',
        }),
        upgradeStrategy: str('Default, or TechPreviewUnsafeFailForward to let failed installs be replaced.', {
          enum: ['Default', 'TechPreviewUnsafeFailForward'],
          default: 'Default',
        }),
      },
      { default: { upgradeStrategy: 'Default' } },
    ),
    status: obj(
      {
        conditions: arr(metaCondition()),
        lastUpdated: time(),
        namespaces: arr(str(), { listType: 'set' }),
        serviceAccountRef: objectReference(),
      },
      { required: ['lastUpdated'] },
    ),
  },
  ['metadata'],
);

const operatorGroupV1alpha2 = root(
  'An OperatorGroup chooses the namespaces the operators of its namespace watch.',
  {
    spec: obj({ ...groupFields, targetNamespaces: stringList() }),
    status: obj(
      { lastUpdated: time(), namespaces: stringList(), serviceAccountRef: objectReference() },
      { required: ['lastUpdated'] },
    ),
  },
  ['metadata'],
);

const conditionFields = {
  deployments: stringList("The operator's Deployments."),
  overrides: arr(metaCondition({ requireTransitionTime: false }), {
    description: "Conditions set by a person, which win over the operator's own.",
  }),
  serviceAccounts: stringList("The operator's service accounts, which may write its conditions."),
};
const conditionStatus = obj({ conditions: arr(metaCondition()) });

const operatorConditionV1 = root(
  'An OperatorCondition carries conditions an operator reports to OLM, such as Upgradeable.',
  { spec: obj(conditionFields), status: conditionStatus },
  ['metadata'],
);
const operatorConditionV2 = root(
  'An OperatorCondition carries conditions an operator reports to OLM, such as Upgradeable.',
  {
    spec: obj({
      ...conditionFields,
      conditions: arr(metaCondition(), { description: "The operator's own conditions." }),
    }),
    status: conditionStatus,
  },
  ['metadata'],
);

const olmConfig = root(
  'OLMConfig holds cluster-wide settings of OLM; the one that counts is named cluster.',
  {
    spec: obj({
      features: obj({
        disableCopiedCSVs: bool("Whether OLM stops copying AllNamespaces operators' CSVs into every namespace."),
        packageServerSyncInterval: str('How often package-server reads the catalogs again, as a Go duration.', {
          pattern: '^([0-9]+(\\.[0-9]+)?(s|m|h))+$',
        }),
      }),
    }),
    status: obj({ conditions: arr(metaCondition()) }),
  },
  ['metadata'],
);

const componentCondition = obj(
  { lastTransitionTime: time(), lastUpdateTime: time(), message: str(), reason: str(), status: str(), type: str() },
  { required: ['status', 'type'] },
);
const operator = root(
  'An Operator gathers the resources that make up one installed operator.',
  {
    // The Go type's spec has no fields, so the CRD prunes whatever a spec holds.
    spec: obj({}),
    status: obj({
      components: obj(
        {
          labelSelector: labelSelector(),
          refs: arr(
            obj(
              {
                apiVersion: str(),
                conditions: arr(componentCondition),
                fieldPath: str(),
                kind: str(),
                name: str(),
                namespace: str(),
                resourceVersion: str(),
                uid: str(),
              },
              { atomic: true },
            ),
          ),
        },
        { required: ['labelSelector'] },
      ),
    }),
  },
  [],
);

/** Schemas by kind, then version. */
export const V1_SCHEMAS: Record<string, Record<string, Schema>> = {
  OperatorGroup: { v1: operatorGroupV1, v1alpha2: operatorGroupV1alpha2 },
  OperatorCondition: { v1: operatorConditionV1, v2: operatorConditionV2 },
  OLMConfig: { v1: olmConfig },
  Operator: { v1: operator },
};
