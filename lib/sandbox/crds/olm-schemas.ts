// The OpenAPI v3 schemas of OLM v0.38.0's CRDs (operator-framework/api v0.36.0, as OLM's release
// manifests install them): field names, types, required fields, enums, defaults and patterns, so
// the sandbox prunes, defaults and refuses what kube-apiserver does, and `kubectl explain` reads
// them (docs/olm/api-surface.md#kinds). Kubernetes types OLM embeds are kept whole (kubeObject).
import type { Schema } from '../apimachinery/structural';
import {
  arr,
  bool,
  envVar,
  int,
  int32,
  intOrString,
  kubeObject,
  labelSelector,
  metaCondition,
  obj,
  objectReference,
  quantity,
  resources,
  root,
  str,
  stringList,
  stringMap,
  time,
  toleration,
  volume,
  volumeMount,
} from './schema-helpers';

const podConfig = {
  affinity: kubeObject('Scheduling constraints for the pod (a core/v1 Affinity).'),
  nodeSelector: stringMap('Labels a node must have for the pod to be scheduled on it.'),
  tolerations: arr(toleration, { description: 'Taints the pod tolerates.' }),
};

const subscription = root(
  'A Subscription keeps an operator installed from a catalog and updated along a channel.',
  {
    spec: obj(
      {
        channel: str("The channel to follow; the package's default channel when empty."),
        config: obj(
          {
            ...podConfig,
            annotations: stringMap("Annotations added to the operator's Deployments and pods."),
            env: arr(envVar, { description: 'Environment variables set in every container of the operator.' }),
            envFrom: arr(kubeObject(), { description: 'Sources of environment variables for every container.' }),
            resources: { ...resources, description: 'Compute resources for every container of the operator.' },
            selector: labelSelector("Overrides the Deployment's pod selector."),
            volumeMounts: arr(volumeMount, { description: 'Volume mounts added to every container.' }),
            volumes: arr(volume, { description: "Volumes added to the operator's pods." }),
          },
          { description: "Overrides applied to the operator's Deployments." },
        ),
        installPlanApproval: str('Automatic or Manual: whether InstallPlans for this Subscription need approval.'),
        name: str('The package to install.'),
        source: str('The CatalogSource the package comes from.'),
        sourceNamespace: str('The namespace of that CatalogSource.'),
        startingCSV: str('The ClusterServiceVersion to install first.'),
      },
      { required: ['name', 'source', 'sourceNamespace'], description: 'What to install and from where.' },
    ),
    status: obj(
      {
        catalogHealth: arr(
          obj(
            { catalogSourceRef: objectReference(), healthy: bool(), lastUpdated: time() },
            { required: ['catalogSourceRef', 'healthy', 'lastUpdated'] },
          ),
        ),
        conditions: arr(
          obj(
            {
              lastHeartbeatTime: time(),
              lastTransitionTime: time(),
              message: str(),
              reason: str(),
              status: str(),
              type: str(),
            },
            { required: ['status', 'type'] },
          ),
        ),
        currentCSV: str(),
        installPlanGeneration: int(),
        installPlanRef: objectReference(),
        installedCSV: str(),
        installplan: obj(
          { apiVersion: str(), kind: str(), name: str(), uuid: str() },
          { required: ['apiVersion', 'kind', 'name', 'uuid'] },
        ),
        lastUpdated: time(),
        reason: str(),
        state: str(),
      },
      { required: ['lastUpdated'], description: 'What OLM last observed.' },
    ),
  },
  ['metadata', 'spec'],
);

const catalogSource = root(
  'A CatalogSource is a repository of operators OLM can install from.',
  {
    spec: obj(
      {
        address: str('host:port of a registry already running (sourceType grpc without an image).'),
        configMap: str('The ConfigMap holding the catalog (sourceType configmap).'),
        description: str(),
        displayName: str("The catalog's name for people."),
        grpcPodConfig: obj(
          {
            ...podConfig,
            extractContent: obj({ cacheDir: str(), catalogDir: str() }, { required: ['catalogDir'] }),
            memoryTarget: { ...quantity, description: 'The memory the registry pod is expected to use.' },
            priorityClassName: str(),
            securityContextConfig: str('The pod security profile of the registry pod.', {
              enum: ['legacy', 'restricted'],
            }),
          },
          { description: 'Overrides for the registry pod OLM runs for an image.' },
        ),
        icon: obj({ base64data: str(), mediatype: str() }, { required: ['base64data', 'mediatype'] }),
        image: str('The catalog image OLM serves (sourceType grpc).'),
        priority: int('Preference among catalogs when several provide the same package.'),
        publisher: str(),
        secrets: stringList('Pull secrets for the image.'),
        sourceType: str('grpc, configmap or internal.'),
        updateStrategy: obj({
          registryPoll: obj({ interval: str('How often OLM polls the image, as a Go duration.') }),
        }),
      },
      { required: ['sourceType'] },
    ),
    status: obj({
      conditions: arr(metaCondition(), { listType: 'map', mapKeys: ['type'] }),
      configMapReference: obj(
        { lastUpdateTime: time(), name: str(), namespace: str(), resourceVersion: str(), uid: str() },
        { required: ['name', 'namespace'] },
      ),
      connectionState: obj(
        { address: str(), lastConnect: time(), lastObservedState: str() },
        { required: ['lastObservedState'] },
      ),
      latestImageRegistryPoll: time(),
      message: str(),
      reason: str(),
      registryService: obj({
        createdAt: time(),
        port: str(),
        protocol: str(),
        serviceName: str(),
        serviceNamespace: str(),
      }),
    }),
  },
  ['metadata', 'spec'],
);

const installPlan = root(
  'An InstallPlan lists the resources OLM creates to install or update operators.',
  {
    spec: obj(
      {
        approval: str('Automatic or Manual.'),
        approved: bool('Whether the plan may be carried out.'),
        clusterServiceVersionNames: stringList('The CSVs the plan installs.'),
        generation: int(),
        source: str(),
        sourceNamespace: str(),
      },
      { required: ['approval', 'approved', 'clusterServiceVersionNames'] },
    ),
    status: obj(
      {
        attenuatedServiceAccountRef: objectReference(),
        bundleLookups: arr(
          obj(
            {
              catalogSourceRef: objectReference(),
              conditions: arr(
                obj(
                  {
                    lastTransitionTime: time(),
                    lastUpdateTime: time(),
                    message: str(),
                    reason: str(),
                    status: str(),
                    type: str(),
                  },
                  { required: ['status', 'type'] },
                ),
              ),
              identifier: str(),
              path: str(),
              properties: str(),
              replaces: str(),
            },
            { required: ['catalogSourceRef', 'identifier', 'path', 'replaces'] },
          ),
        ),
        catalogSources: stringList(),
        conditions: arr(
          obj({
            lastTransitionTime: time(),
            lastUpdateTime: time(),
            message: str(),
            reason: str(),
            status: str(),
            type: str(),
          }),
        ),
        message: str(),
        phase: str(),
        plan: arr(
          obj(
            {
              optional: bool(),
              resolving: str(),
              resource: obj(
                {
                  group: str(),
                  kind: str(),
                  manifest: str(),
                  name: str(),
                  sourceName: str(),
                  sourceNamespace: str(),
                  version: str(),
                },
                { required: ['group', 'kind', 'name', 'sourceName', 'sourceNamespace', 'version'] },
              ),
              status: str(),
            },
            { required: ['resolving', 'resource', 'status'] },
          ),
        ),
        startTime: time(),
      },
      { required: ['catalogSources', 'phase'] },
    ),
  },
  ['metadata', 'spec'],
);

const descriptor = obj(
  { description: str(), displayName: str(), path: str(), value: str(), 'x-descriptors': stringList() },
  { required: ['path'] },
);
const descriptors = {
  actionDescriptors: arr(descriptor),
  specDescriptors: arr(descriptor),
  statusDescriptors: arr(descriptor),
};
const apiResources = arr(obj({ kind: str(), name: str(), version: str() }, { required: ['kind', 'name', 'version'] }));
const crdDescription = obj(
  {
    ...descriptors,
    description: str(),
    displayName: str(),
    kind: str(),
    name: str(),
    resources: apiResources,
    version: str(),
  },
  { required: ['kind', 'name', 'version'] },
);
const apiServiceDescription = obj(
  {
    ...descriptors,
    containerPort: int32(),
    deploymentName: str(),
    description: str(),
    displayName: str(),
    group: str(),
    kind: str(),
    name: str(),
    resources: apiResources,
    version: str(),
  },
  { required: ['group', 'kind', 'name', 'version'] },
);
const permission = obj(
  {
    rules: arr(kubeObject(undefined, { properties: { verbs: stringList() }, required: ['verbs'] })),
    serviceAccountName: str(),
  },
  { required: ['rules', 'serviceAccountName'] },
);

const clusterServiceVersion = root(
  'A ClusterServiceVersion describes one version of an operator: what it is, what it needs and how to run it.',
  {
    spec: obj(
      {
        annotations: stringMap(),
        apiservicedefinitions: obj({ owned: arr(apiServiceDescription), required: arr(apiServiceDescription) }),
        cleanup: obj({ enabled: bool() }, { required: ['enabled'] }),
        customresourcedefinitions: obj({ owned: arr(crdDescription), required: arr(crdDescription) }),
        description: str(),
        displayName: str("The operator's name for people."),
        icon: arr(obj({ base64data: str(), mediatype: str() }, { required: ['base64data', 'mediatype'] })),
        install: obj(
          {
            spec: obj(
              {
                clusterPermissions: arr(permission),
                deployments: arr(
                  obj(
                    {
                      label: stringMap(),
                      name: str(),
                      spec: kubeObject('An apps/v1 DeploymentSpec.', {
                        properties: { selector: kubeObject(), template: kubeObject() },
                        required: ['selector', 'template'],
                      }),
                    },
                    { required: ['name', 'spec'] },
                  ),
                ),
                permissions: arr(permission),
              },
              { required: ['deployments'] },
            ),
            strategy: str(),
          },
          { required: ['strategy'], description: 'How OLM runs the operator.' },
        ),
        installModes: arr(obj({ supported: bool(), type: str() }, { required: ['supported', 'type'] }), {
          description: 'Which kinds of OperatorGroup the operator supports.',
        }),
        keywords: stringList(),
        labels: stringMap(),
        links: arr(obj({ name: str(), url: str() })),
        maintainers: arr(obj({ email: str(), name: str() })),
        maturity: str(),
        minKubeVersion: str(),
        nativeAPIs: arr(obj({ group: str(), kind: str(), version: str() }, { required: ['group', 'kind', 'version'] })),
        provider: obj({ name: str(), url: str() }),
        relatedImages: arr(obj({ image: str(), name: str() }, { required: ['image', 'name'] })),
        replaces: str('The CSV this one updates.'),
        selector: labelSelector(),
        skips: stringList(),
        version: str(),
        webhookdefinitions: arr(
          obj(
            {
              admissionReviewVersions: stringList(),
              containerPort: int32(undefined, { default: 443, minimum: 1, maximum: 65535 }),
              conversionCRDs: stringList(),
              deploymentName: str(),
              failurePolicy: str(),
              generateName: str(),
              matchPolicy: str(),
              objectSelector: labelSelector(),
              reinvocationPolicy: str(),
              rules: arr(kubeObject()),
              sideEffects: str(),
              targetPort: intOrString(),
              timeoutSeconds: int32(),
              type: str(undefined, {
                enum: ['ValidatingAdmissionWebhook', 'MutatingAdmissionWebhook', 'ConversionWebhook'],
              }),
              webhookPath: str(),
            },
            { required: ['admissionReviewVersions', 'generateName', 'sideEffects', 'type'] },
          ),
        ),
      },
      { required: ['displayName', 'install'] },
    ),
    status: obj({
      certsLastUpdated: time(),
      certsRotateAt: time(),
      cleanup: obj({
        pendingDeletion: arr(
          kubeObject(undefined, {
            properties: { group: str(), kind: str(), instances: arr(kubeObject()) },
            required: ['group', 'instances', 'kind'],
          }),
        ),
      }),
      conditions: arr(
        obj({ lastTransitionTime: time(), lastUpdateTime: time(), message: str(), phase: str(), reason: str() }),
      ),
      lastTransitionTime: time(),
      lastUpdateTime: time(),
      message: str(),
      phase: str(),
      reason: str(),
      requirementStatus: arr(
        obj(
          {
            dependents: arr(kubeObject()),
            group: str(),
            kind: str(),
            message: str(),
            name: str(),
            status: str(),
            uuid: str(),
            version: str(),
          },
          { required: ['group', 'kind', 'message', 'name', 'status', 'version'] },
        ),
      ),
    }),
  },
  ['metadata', 'spec'],
);

/** The schemas of the operators.coreos.com/v1alpha1 kinds, by kind. */
export const V1ALPHA1_SCHEMAS: Record<string, Schema> = {
  Subscription: subscription,
  CatalogSource: catalogSource,
  InstallPlan: installPlan,
  ClusterServiceVersion: clusterServiceVersion,
};
