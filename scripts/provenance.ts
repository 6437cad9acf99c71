/**
 * The provenance rule of openapi/README.md that lint cannot see, because it is about history:
 * a field added to a schema the seed document gives (`x-provenance: seed`) was designed by
 * us, so it carries its own `x-provenance: designed`. A property is new when the schema had
 * no such property at the base commit; npm run check:breaking (scripts/check-breaking.ts)
 * compares each surface with the base and fails on such a property. Operations and
 * component schemas carry their provenance by lint rules (redocly.yaml, .spectral.yaml).
 */
type Json = Record<string, any>;

/** The properties of a component schema, its own and those of its `allOf` parts written inline. */
function properties(schema: Json | undefined): Record<string, Json> {
  if (!schema || typeof schema !== 'object') return {};
  const parts = Array.isArray(schema.allOf) ? schema.allOf.filter((p: Json) => p && !p.$ref) : [];
  return Object.assign({}, ...parts.map((p: Json) => p.properties ?? {}), schema.properties ?? {});
}

/** `Schema.property` for each property that a seed schema gained since `base` without `x-provenance: designed`. */
export function undesignedNewProperties(base: Json, current: Json): string[] {
  const before = base.components?.schemas ?? {};
  const now = current.components?.schemas ?? {};
  const found: string[] = [];
  for (const [name, schema] of Object.entries<Json>(now)) {
    // A schema new since the base gives its fields as its own provenance says.
    if (schema?.['x-provenance'] !== 'seed' || !(name in before)) continue;
    const known = properties(before[name]);
    for (const [property, definition] of Object.entries(properties(schema))) {
      if (!(property in known) && definition?.['x-provenance'] !== 'designed') found.push(`${name}.${property}`);
    }
  }
  return found;
}
