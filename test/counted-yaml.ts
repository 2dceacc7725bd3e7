// The `yaml` library as src/krm/yaml/load-yaml.cjs hands it out, counting what it reads: for
// tests that bound the library's work (vi.mock of load-yaml.cjs, whose factory calls this).
import type * as Yaml from 'yaml';

/**
 * What the library read: documents parsed (the locator, the conforming value) and their
 * characters, characters lexed (the verdict), values built from documents (toJS).
 */
export interface YamlReads {
  documents: number;
  located: number;
  lexed: number;
  built: number;
}

export async function countedYaml(
  importOriginal: () => Promise<unknown>,
  counted: YamlReads,
): Promise<{ default: () => typeof Yaml }> {
  const actual = (await importOriginal()) as { default: () => typeof Yaml };
  const { prototype } = actual.default().Document;
  const toJS = prototype.toJS;
  prototype.toJS = function (this: Yaml.Document, ...args: Parameters<typeof toJS>) {
    counted.built++;
    return toJS.apply(this, args);
  };
  return {
    default: () => {
      const yaml = actual.default();
      return {
        ...yaml,
        parseDocument: ((text: string, options?: Yaml.DocumentOptions) => {
          counted.documents++;
          counted.located += text.length;
          return yaml.parseDocument(text, options);
        }) as typeof yaml.parseDocument,
        Lexer: class extends yaml.Lexer {
          override *lex(source: string, incomplete?: boolean) {
            counted.lexed += source.length;
            yield* super.lex(source, incomplete);
          }
        },
      };
    },
  };
}
