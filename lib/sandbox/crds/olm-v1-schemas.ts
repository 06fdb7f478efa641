// The OpenAPI v3 schemas of OLM v1's olm.operatorframework.io/v1 kinds, ClusterCatalog and
// ClusterExtension, as operator-controller v1.2.0 publishes them (config/base/catalogd/crd/bases/
// olm.operatorframework.io_clustercatalogs.yaml, config/base/operator-controller/crd/bases/
// olm.operatorframework.io_clusterextensions.yaml): fields, enums, defaults, limits and the CEL
// rules with their messages verbatim, since a client sees those (docs/olm-v1/crds.md). The
// descriptions are the project's own.
import type { Schema } from '../apimachinery/structural';
import { arr, int, int32, labelSelector, metaCondition, obj, root, str, time } from './schema-helpers';

type Rule = { rule: string; message: string };
const rules = (s: Schema, list: Rule[]): Schema => ({ ...s, 'x-kubernetes-validations': list });

const DOMAIN: Rule = {
  rule: "self.matches('^([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])((\\\\.([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))+)?(:[0-9]+)?\\\\b')",
  message:
    'must start with a valid domain. valid domains must be alphanumeric characters (lowercase and uppercase) separated by the "." character.',
};
const NAME: Rule = {
  rule: 'self.find(\'(\\\\/[a-z0-9]+((([._]|__|[-]*)[a-z0-9]+)+)?((\\\\/[a-z0-9]+((([._]|__|[-]*)[a-z0-9]+)+)?)+)?)\') != ""',
  message:
    'a valid name is required. valid names must contain lowercase alphanumeric characters separated only by the ".", "_", "__", "-" characters.',
};
const DIGEST_ALGORITHM: Rule = {
  rule: "self.find('(@.*:)') != \"\" ? self.find('(@.*:)').matches('(@[A-Za-z][A-Za-z0-9]*([-_+.][A-Za-z][A-Za-z0-9]*)*[:])') : true",
  message:
    'digest algorithm is not valid. valid algorithms must start with an uppercase or lowercase alpha character followed by alphanumeric characters and may contain the "-", "_", "+", and "." characters.',
};
const DIGEST_LENGTH: Rule = {
  rule: "self.find('(@.*:)') != \"\" ? self.find(':.*$').substring(1).size() >= 32 : true",
  message: 'digest is not valid. the encoded string must be at least 32 characters',
};
const DIGEST_HEX: Rule = {
  rule: "self.find('(@.*:)') != \"\" ? self.find(':.*$').matches(':[0-9A-Fa-f]*$') : true",
  message: 'digest is not valid. the encoded string must only contain hex characters (A-F, a-f, 0-9)',
};
const IMAGE_SOURCE: Rule = {
  rule: "has(self.type) && self.type == 'Image' ? has(self.image) : !has(self.image)",
  message: 'image is required when source type is Image, and forbidden otherwise',
};
const SUBDOMAIN = 'self.matches("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")';
const subdomainMessage = (field: string) =>
  `${field} must be a valid DNS1123 subdomain. It must contain only lowercase alphanumeric characters, hyphens (-) or periods (.), start and end with an alphanumeric character, and be no longer than 253 characters`;
const immutable = (field: string): Rule => ({ rule: 'self == oldSelf', message: `${field} is immutable` });

const specRef = rules(
  str('The catalog image: registry domain, repository name and a tag or digest.', { maxLength: 1000 }),
  [
    DOMAIN,
    NAME,
    { rule: 'self.find(\'(@.*:)\') != "" || self.find(\':.*$\') != ""', message: 'must end with a digest or a tag' },
    {
      rule: "self.find('(@.*:)') == \"\" ? (self.find(':.*$') != \"\" ? self.find(':.*$').substring(1).size() <= 127 : true) : true",
      message: 'tag is invalid. the tag must not be more than 127 characters',
    },
    {
      rule: "self.find('(@.*:)') == \"\" ? (self.find(':.*$') != \"\" ? self.find(':.*$').matches(':[\\\\w][\\\\w.-]*$') : true) : true",
      message:
        'tag is invalid. valid tags must begin with a word character (alphanumeric + "_") followed by word characters or ".", and "-" characters',
    },
    DIGEST_ALGORITHM,
    DIGEST_LENGTH,
    DIGEST_HEX,
  ],
);

const resolvedRef = rules(str('The image as pulled, by digest.', { maxLength: 1000 }), [
  DOMAIN,
  NAME,
  { rule: 'self.find(\'(@.*:)\') != ""', message: 'must end with a digest' },
  DIGEST_ALGORITHM,
  DIGEST_LENGTH,
  DIGEST_HEX,
]);

const conditions = (what: string): Schema =>
  arr(metaCondition(), { description: what, listType: 'map', mapKeys: ['type'] });

const clusterCatalog = root(
  'A ClusterCatalog makes a file-based catalog available to the cluster, served over HTTP(S) by catalogd.',
  {
    spec: obj(
      {
        availabilityMode: str('Available (unpacked and served) or Unavailable (treated as absent).', {
          enum: ['Unavailable', 'Available'],
          default: 'Available',
        }),
        priority: int32('Breaks ties between catalogs that offer the same bundle: higher wins. Default 0.', {
          default: 0,
        }),
        source: rules(
          obj(
            {
              image: rules(
                obj(
                  {
                    pollIntervalMinutes: int('Minutes between checks of the image for new content; unset: never.', {
                      minimum: 1,
                    }),
                    ref: specRef,
                  },
                  { required: ['ref'], description: 'The image the catalog comes from (required when type is Image).' },
                ),
                [
                  {
                    rule: 'self.ref.find(\'(@.*:)\') != "" ? !has(self.pollIntervalMinutes) : true',
                    message: 'cannot specify pollIntervalMinutes while using digest-based image',
                  },
                ],
              ),
              type: str('Where the content comes from; only Image.', { enum: ['Image'] }),
            },
            { required: ['type'], description: 'Where the catalog content comes from.' },
          ),
          [IMAGE_SOURCE],
        ),
      },
      { required: ['source'], description: 'What catalog to serve, and how.' },
    ),
    status: obj(
      {
        conditions: conditions('Serving (content is served) and Progressing (work towards the spec).'),
        lastUnpacked: time('When the content was last extracted from its source.'),
        resolvedSource: rules(
          obj(
            {
              image: obj({ ref: resolvedRef }, { required: ['ref'], description: 'The image as resolved.' }),
              type: str('The type of source resolved; only Image.', { enum: ['Image'] }),
            },
            { required: ['image', 'type'], description: 'The source as resolved (an image by digest).' },
          ),
          [IMAGE_SOURCE],
        ),
        urls: obj(
          {
            base: rules(str('Where the content is served; clients append /api/v1/all.', { maxLength: 525 }), [
              { rule: 'isURL(self)', message: 'must be a valid URL' },
              {
                rule: 'isURL(self) ? (url(self).getScheme() == "http" || url(self).getScheme() == "https") : true',
                message: 'scheme must be either http or https',
              },
            ]),
          },
          { required: ['base'], description: 'The URLs the content is served at.' },
        ),
      },
      { description: 'What catalogd has done with the catalog.' },
    ),
  },
  ['metadata', 'spec'],
);

const VERSION_RULE =
  'self.matches("^(\\\\s*(=||!=|>|<|>=|=>|<=|=<|~|~>|\\\\^)\\\\s*(v?(0|[1-9]\\\\d*|[x|X|\\\\*])(\\\\.(0|[1-9]\\\\d*|x|X|\\\\*]))?(\\\\.(0|[1-9]\\\\d*|x|X|\\\\*))?(-([0-9A-Za-z\\\\-]+(\\\\.[0-9A-Za-z\\\\-]+)*))?(\\\\+([0-9A-Za-z\\\\-]+(\\\\.[0-9A-Za-z\\\\-]+)*))?)\\\\s*)((?:\\\\s+|,\\\\s*|\\\\s*\\\\|\\\\|\\\\s*)(=||!=|>|<|>=|=>|<=|=<|~|~>|\\\\^)\\\\s*(v?(0|[1-9]\\\\d*|x|X|\\\\*])(\\\\.(0|[1-9]\\\\d*|x|X|\\\\*))?(\\\\.(0|[1-9]\\\\d*|x|X|\\\\*]))?(-([0-9A-Za-z\\\\-]+(\\\\.[0-9A-Za-z\\\\-]+)*))?(\\\\+([0-9A-Za-z\\\\-]+(\\\\.[0-9A-Za-z\\\\-]+)*))?)\\\\s*)*$")';

const catalogSource = obj(
  {
    channels: arr(
      rules(str(undefined, { maxLength: 253 }), [
        { rule: SUBDOMAIN, message: 'channels entries must be valid DNS1123 subdomains' },
      ]),
      { description: 'Only bundles in these channels; empty: bundles of any channel.' },
    ),
    packageName: rules(str('The package to install.', { maxLength: 253 }), [
      immutable('packageName'),
      { rule: SUBDOMAIN, message: subdomainMessage('packageName') },
    ]),
    selector: labelSelector('Which ClusterCatalogs to consider, by label; unset: all.'),
    upgradeConstraintPolicy: str('CatalogProvided: follow the catalog upgrade edges; SelfCertified: any version.', {
      enum: ['CatalogProvided', 'SelfCertified'],
      default: 'CatalogProvided',
    }),
    version: rules(str('A version range such as ">=1.2, <2" or "1.2.x"; empty: any version.', { maxLength: 64 }), [
      { rule: VERSION_RULE, message: 'invalid version expression' },
    ]),
  },
  { required: ['packageName'], description: 'Which package, version and channels to install from the catalogs.' },
);
if (catalogSource.properties?.channels) catalogSource.properties.channels.maxItems = 256;

const clusterExtension = root(
  'A ClusterExtension installs a package from the ClusterCatalogs, as its ServiceAccount.',
  {
    spec: obj(
      {
        install: rules(
          obj(
            {
              preflight: rules(
                obj(
                  {
                    crdUpgradeSafety: obj(
                      {
                        enforcement: str('Strict refuses unsafe CRD changes; None skips the check.', {
                          enum: ['None', 'Strict'],
                        }),
                      },
                      {
                        required: ['enforcement'],
                        description: 'The check that CRD upgrades keep existing data valid.',
                      },
                    ),
                  },
                  { required: ['crdUpgradeSafety'], description: 'Checks run before installing or upgrading.' },
                ),
                [
                  {
                    rule: 'has(self.crdUpgradeSafety)',
                    message: 'at least one of [crdUpgradeSafety] are required when preflight is specified',
                  },
                ],
              ),
            },
            { description: 'How the bundle is installed.' },
          ),
          [
            {
              rule: 'has(self.preflight)',
              message: 'at least one of [preflight] are required when install is specified',
            },
          ],
        ),
        namespace: rules(str("Where the bundle's namespaced objects go; it must exist.", { maxLength: 63 }), [
          immutable('namespace'),
          {
            rule: 'self.matches("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")',
            message: 'namespace must be a valid DNS1123 label',
          },
        ]),
        serviceAccount: obj(
          {
            name: rules(
              str('The ServiceAccount, in spec.namespace, whose rights install the bundle.', { maxLength: 253 }),
              [immutable('name'), { rule: SUBDOMAIN, message: subdomainMessage('name') }],
            ),
          },
          { required: ['name'], description: 'The identity the bundle is installed with.' },
        ),
        source: rules(
          obj(
            {
              catalog: catalogSource,
              sourceType: str('Where the bundle comes from; only Catalog.', { enum: ['Catalog'] }),
            },
            { required: ['sourceType'], description: 'Where the bundle comes from.' },
          ),
          [
            {
              rule: "has(self.sourceType) && self.sourceType == 'Catalog' ? has(self.catalog) : !has(self.catalog)",
              message: 'catalog is required when sourceType is Catalog, and forbidden otherwise',
            },
          ],
        ),
      },
      { required: ['namespace', 'serviceAccount', 'source'], description: 'What to install, where and as whom.' },
    ),
    status: obj(
      {
        conditions: conditions('Installed, Progressing and the deprecation conditions.'),
        install: obj(
          {
            bundle: obj(
              {
                name: rules(str('The installed bundle.'), [
                  { rule: SUBDOMAIN, message: subdomainMessage('packageName') },
                ]),
                version: rules(str('Its version.'), [
                  {
                    rule: 'self.matches("^([0-9]+)(\\\\.[0-9]+)?(\\\\.[0-9]+)?(-([-0-9A-Za-z]+(\\\\.[-0-9A-Za-z]+)*))?(\\\\+([-0-9A-Za-z]+(-\\\\.[-0-9A-Za-z]+)*))?")',
                    message: 'version must be well-formed semver',
                  },
                ]),
              },
              { required: ['name', 'version'], description: 'The bundle installed.' },
            ),
          },
          { required: ['bundle'], description: 'What is installed.' },
        ),
      },
      { description: 'What operator-controller has done with the extension.' },
    ),
  },
  [],
);

export const OLM_V1_SCHEMAS: Record<string, Schema> = {
  ClusterCatalog: clusterCatalog,
  ClusterExtension: clusterExtension,
};
