// The form engine's field model: what a CRD's OpenAPI v3 schema and the CSV's spec descriptors
// say about each field of an operand's spec, in the shape a form renders. Built by schema.ts,
// checked by validate.ts, rendered by components/operand-form. No I/O, no React.

/** A field's place in the object: keys, and list indexes (numbers). */
export type FieldPath = readonly (string | number)[];

/** The widget a field asks for, from its schema type and its `urn:alm:descriptor:*` x-descriptors. */
export type StringWidget = 'text' | 'select' | 'password' | 'namespace' | ReferenceWidget;

/** A field naming an object of the cluster (`urn:alm:descriptor:io.kubernetes:<Kind>`): a picker of its names. */
export type ReferenceWidget = 'secret' | 'configmap' | 'storageclass' | 'priorityclass';
export const REFERENCE_WIDGETS: readonly ReferenceWidget[] = ['secret', 'configmap', 'storageclass', 'priorityclass'];

interface Base {
  /** The property name in its parent (for list items, the list's own key). */
  key: string;
  label: string;
  description?: string;
  /** The parent's schema lists it in `required`. */
  required: boolean;
  /** `com.tectonic.ui:advanced`: shown under "Advanced" of its object. */
  advanced: boolean;
  /** A spec descriptor names this field (it was ordered and labelled by it). */
  described: boolean;
  /** Shown only while the spec's field at `path` holds `value` (a `fieldDependency` descriptor). */
  dependsOn?: { path: string[]; value: string };
}

export type Field =
  /**
   * `untyped`: named by a descriptor with no widget below an open schema, so nothing says its
   * type: any value goes, a typed one is read as YAML reads a scalar.
   */
  | (Base & {
      type: 'string';
      widget: StringWidget;
      enum?: string[];
      pattern?: string;
      minLength?: number;
      maxLength?: number;
      format?: string;
      default?: unknown;
      intOrString?: boolean;
      untyped?: boolean;
    })
  | (Base & {
      type: 'integer' | 'number';
      minimum?: number;
      maximum?: number;
      exclusiveMinimum?: boolean;
      exclusiveMaximum?: boolean;
      default?: unknown;
    })
  | (Base & { type: 'boolean'; widget: 'switch' | 'checkbox'; default?: unknown })
  /** `resources`: `com.tectonic.ui:resourceRequirements`, shown as limits and requests. */
  | (Base & { type: 'object'; fields: Field[]; resources?: boolean })
  | (Base & { type: 'array'; items: Field; minItems?: number; maxItems?: number })
  | (Base & { type: 'map'; values: Field })
  /** A part the form cannot show as fields (free-form, anyOf…): edited as YAML in place. */
  | (Base & { type: 'raw'; reason: string });

export type ObjectField = Extract<Field, { type: 'object' }>;

export interface FormModel {
  /** The spec's fields (metadata.name is the form's own; status belongs to the operator). */
  spec: ObjectField;
  /** Why the spec has no fields at all (its schema leaves it open and no descriptor names one). */
  freeForm?: string;
  /** The root schema requires `spec`. */
  specRequired: boolean;
  /** Descriptors whose path the schema does not have (the API server would prune them). */
  unmatchedDescriptors: string[];
}

/** A problem with one field: Kubernetes' field path (`spec.a[0].b`) and what is wrong. */
export interface FieldIssue {
  field: string;
  message: string;
}
