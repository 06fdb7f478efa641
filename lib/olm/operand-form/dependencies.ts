// A field a `fieldDependency` descriptor makes conditional (`…:fieldDependency:route.enabled:true`)
// is shown only while the field it names, from the spec, holds that value, as OpenShift's console
// shows it: a TLS secret only once TLS is switched on. An unset control counts as its schema
// default. A hidden field keeps any value it has (the object is what is sent), but it is not
// asked for: "Required" is not said of a field the person cannot see.
import type { Field, ObjectField } from './types';
import { getAt, type Obj } from './values';

function fieldAt(spec: ObjectField, path: readonly string[]): Field | undefined {
  let fields: readonly Field[] = spec.fields;
  let found: Field | undefined;
  for (const key of path) {
    found = fields.find((f) => f.key === key);
    if (!found) return undefined;
    fields = found.type === 'object' ? found.fields : [];
  }
  return found;
}

/** Whether `field` is shown for the object as it is now. */
export function dependencyMet(field: Field, object: Obj, spec: ObjectField): boolean {
  if (!field.dependsOn) return true;
  const set = getAt(object, ['spec', ...field.dependsOn.path]);
  const control =
    set === undefined || set === null
      ? (fieldAt(spec, field.dependsOn.path) as { default?: unknown } | undefined)?.default
      : set;
  return (
    control !== undefined &&
    control !== null &&
    typeof control !== 'object' &&
    String(control) === field.dependsOn.value
  );
}
