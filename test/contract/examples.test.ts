/** Every example in the contract validates against its schema (JSON Schema draft 2020-12). */
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { describe, expect, it } from 'vitest';

// ajv-formats is CommonJS: its default export is the plugin itself.
const addFormats = formats as unknown as typeof formats.default;
import { bundleNames, deref, loadBundle, pointer, type Json } from '../support/documents.ts';

interface Example {
  where: string;
  schemaPointer: string;
  value: unknown;
}

/** Media-type examples, parameter examples and schema `example`s of a document. */
function examplesOf(document: Json): Example[] {
  const found: Example[] = [];
  const walk = (node: unknown, path: string[]) => {
    if (!node || typeof node !== 'object') return;
    const n = node as Json;
    if (n.schema && (n.examples || n.example !== undefined)) {
      const schemaPointer = pointer(...path, 'schema');
      if (n.example !== undefined) found.push({ where: pointer(...path, 'example'), schemaPointer, value: n.example });
      for (const [name, example] of Object.entries<Json>(n.examples ?? {})) {
        const resolved = deref(document, example);
        if (resolved && 'value' in resolved) found.push({ where: pointer(...path, 'examples', name), schemaPointer, value: resolved.value });
      }
    }
    if (path.at(-1) !== 'examples') for (const [k, v] of Object.entries(n)) walk(v, [...path, k]);
  };
  walk(document, []);
  return found;
}

// Every bundle, read by a YAML 1.2 reader and by a YAML 1.1 one: the bundles quote what a
// YAML 1.1 reader would otherwise turn into a date or a boolean, so both read the same examples.
for (const surface of bundleNames) for (const yaml of ['1.2', '1.1'] as const) {
  describe(`${surface}.yaml examples, read as YAML ${yaml}`, () => {
    const document = loadBundle(surface, { yaml });
    const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: false });
    addFormats(ajv);
    const id = `https://contract.ramp.example/${surface}/${yaml}`;
    ajv.addSchema({ ...document, $id: id });
    const examples = examplesOf(document);

    it('exist', () => expect(examples.length).toBeGreaterThan(10));

    for (const example of examples) {
      it(`${example.where} is valid`, () => {
        const validate = ajv.getSchema(`${id}${example.schemaPointer}`);
        expect(validate, example.schemaPointer).toBeDefined();
        const valid = validate!(example.value);
        expect(validate!.errors ?? [], JSON.stringify(example.value)).toEqual([]);
        expect(valid).toBe(true);
      });
    }
  });
}
